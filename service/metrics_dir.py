"""Where the API's worker processes keep their metrics (prometheus_client's multiprocess mode).

Its own module, free of prometheus_client: the library picks its way of counting when it is imported, so
``kroniek serve`` must set ``PROMETHEUS_MULTIPROC_DIR`` before anything imports it. Importing this from
``service.metrics`` did that import first, and ``kroniek serve`` on its own (as a systemd unit runs it) then
counted each worker's requests in its memory, where no scrape saw them (tests/test_deploy.py).
"""

from __future__ import annotations

import os

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def prepare_dir(path: str, clear: bool) -> str:
    """The multiprocess directory, made (and emptied of an earlier run's files when ``clear``)."""
    os.makedirs(path, exist_ok=True)
    if clear:
        for name in os.listdir(path):
            if name.endswith(".db"):
                os.unlink(os.path.join(path, name))
    return path
