"""Child processes that stop when the process that started them dies.

``kroniek run`` starts Redis, the workers and the API, and stops them on
Ctrl-C or SIGTERM. Killed outright (SIGKILL, the out-of-memory killer), it
used to leave all of them running: a Redis holding ./var, an API on the port
and workers, so the next ``kroniek run`` found the port taken. On Linux a
child can ask the kernel for a signal when its parent dies
(``prctl(PR_SET_PDEATHSIG)``); ``tied_to_parent`` is the ``preexec_fn`` that
asks for SIGTERM, the signal each child already stops cleanly on. Elsewhere
it is None and nothing changes.

The signal comes when the *thread* that started the child ends, so start
tied children from a thread that lives as long as the process (the main
thread, as ``kroniek run`` and ``kroniek worker`` do).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Callable

PR_SET_PDEATHSIG = 1


def tied_to_parent(sig: signal.Signals = signal.SIGTERM) -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen``: the child gets ``sig`` when
    this process dies (None where the kernel offers no such signal)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child only calls it
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, int(sig))
        if os.getppid() != parent:  # the parent died before the line above: no signal will come
            os.kill(os.getpid(), sig)

    return preexec
