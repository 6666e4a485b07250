"""docs/games/ridder-toernooi.md's shell examples run as written against a real
`kroniek run` (only the API's address is changed)."""

import os
import re
import subprocess
from pathlib import Path

from tests.test_run import free_port, start, stop

DOC = Path(__file__).resolve().parents[1] / "docs" / "games" / "ridder-toernooi.md"


def test_the_card_set_and_tournament_walk_throughs_run(tmp_path):
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 2
    proc, base, token = start(tmp_path / "var", free_port())
    outputs = []
    try:
        for block in blocks:
            script = "set -euo pipefail\n" + block.replace("http://localhost:8000/api", f"{base}/api")
            run = subprocess.run(["bash", "-c", script], env={**os.environ, "TOKEN": token}, cwd=tmp_path,
                                 capture_output=True, text=True, timeout=180)
            assert run.returncode == 0, run.stdout + run.stderr
            outputs.append(run.stdout)
    finally:
        stop(proc)
    assert "PLACEHOLDER card values" in outputs[0] and '"name":"Our box"' in outputs[0]
    assert '"rule":"ridder_toernooi.dice"' in outputs[1]
    assert '"scores":[9,0]' in outputs[1]
    assert "Harald Kampfzahn rolls 1, 2, 5, 5, 6 (mounted): Apollonius von Wolkenburg takes 0, Harald Kampfzahn takes 2" in outputs[1]
    # R9: the attacker's hits are on the defender's track before he rolls (the state and the review)
    assert '{"wounds":2,"status":"fit"}' in outputs[1]
    assert "Apollonius von Wolkenburg rolls 1, 3, 3, 6 (mounted): Harald Kampfzahn takes 2 (2 wounds)" in outputs[1]
    assert outputs[1].rstrip().endswith("true")  # the audit
