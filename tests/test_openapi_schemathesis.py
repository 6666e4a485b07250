"""The OpenAPI document tells the truth: a bounded, seeded schemathesis run
with every check over every operation (but token revocation, which would
end the run's own token) against a real ``kroniek serve`` finds nothing; and
what gunicorn itself answers (a request line over its limit, a malformed
request) is Kroniek's JSON error, not an HTML page.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests

from service.accounts import Accounts
from tests.support.served import start_served, stop_served

from .test_run import free_port

ROOT = Path(__file__).resolve().parent.parent

#: operations that may refuse a request the document accepts with a 400 whose
#: reason no JSON Schema can state (see tests/support/schemathesis_hooks.py)
STATEFUL_400 = {
    ("GET", "/api/matches/{match_id}/events"): "seat beyond the match's players",
    ("GET", "/api/matches/{match_id}/state"): "seat beyond the players, at beyond the latest seq",
    ("GET", "/api/matches/{match_id}/legal-moves"): "seat beyond the match's players",
    ("GET", "/api/matches/{match_id}/review"): "seat beyond the match's players",
    ("GET", "/api/matches/{match_id}/notation"): "seat beyond the match's players",
    ("GET", "/api/matches/{match_id}/stream"): "seat beyond the match's players",
    ("GET", "/api/matches/{match_id}/hint"): "seat beyond the match's players",
    ("POST", "/api/matches"): "the game's own options schema and player count",
    ("POST", "/api/matches/{match_id}/events"): "the game's event data schema",
    ("POST", "/api/matches/{match_id}/annotations"): "seq beyond the match; a comment or a glyph, not neither",
    ("POST", "/api/matches/{match_id}/roles"): "a player's role names one of the match's seats, another role none",
    ("POST", "/api/leagues"): "a Swiss or tables league names its rounds",
    ("POST", "/api/leagues/{league_id}/forfeits"): "a round that is paired",
    ("POST", "/api/leagues/{league_id}/rounds/{round_no}/boards/{board}/match"): "a round that is paired",
    ("GET", "/api/log/proofs/consistency"): "first at most second",
}
#: answers a schema-valid request may get besides 2xx: no token's right, nothing
#: there, a conflict, or the rules (of the game or the league) refuse it now
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
#: answers a request the document refuses may get: schemathesis's own list, and 413 (payload too large)
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]


def config_toml(match_id: str, league_id: str, admin: str) -> str:
    lines = [
        "seed = 20261122",
        "[cache]",
        "enabled = false",
        "[generation]",
        "max-examples = 12",
        "deterministic = true",
        "[parameters]",
        f'match_id = "{match_id}"',
        f'league_id = "{league_id}"',
        f'name = "{admin}"',
        'game = "braverats"',
        "[checks.positive_data_acceptance]",
        f"expected-statuses = {json.dumps(ACCEPTED)}",
        # a request the document refuses may also be refused for its size before it is read: a text body one
        # character past its maxLength in characters of several bytes is past the body's bytes (413)
        "[checks.negative_data_rejection]",
        f"expected-statuses = {json.dumps(REJECTED)}",
    ]
    for method, path in STATEFUL_400:
        lines += [
            "[[operations]]",
            f'include-method = "{method}"',
            f'include-path = "{path}"',
            "[operations.checks.positive_data_acceptance]",
            f"expected-statuses = {json.dumps(ACCEPTED + ['400'])}",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def served(redis_url, tmp_path_factory):
    """``kroniek serve`` on a free port, on keys and a queue of its own, with an
    admin token, one match and one league."""
    prefix = f"kt-st-{uuid.uuid4().hex[:10]}"
    var = tmp_path_factory.mktemp("serve-var")
    port = free_port()
    proc, base, log, client = start_served(redis_url, var, prefix, port,
                                           # an event stream sends what is there and ends (the documented wait=0): the
                                           # answer is checked the same, and the run's 30 streams each held
                                           # it a second, 30 of its 41 s (streams that stay open:
                                           # tests/test_stream.py)
                                           {"KRONIEK_STREAM_SECONDS": "0"},
                                           ("--workers", "1"))
    try:
        user, token = Accounts(client, prefix).add_user(f"admin-{uuid.uuid4().hex[:6]}", admin=True)
        auth = {"Authorization": f"Bearer {token}"}
        match = requests.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]},
                              headers=auth, timeout=10)
        league = requests.post(f"{base}/api/leagues", json={"name": "Schemathesis cup", "game": "braverats",
                                                            "format": "swiss", "rounds": 3,
                                                            "players": ["Ann", "Bob", "Cy", "Di"]},
                               headers=auth, timeout=10)
        assert match.status_code == 201 and league.status_code == 201, (match.text, league.text)
        yield {"base": base, "token": token, "admin": user.name, "match": match.json()["id"],
               "league": league.json()["id"], "var": var}
    finally:
        stop_served(proc, log, client, prefix)


@pytest.mark.slow(12)
def test_schemathesis_finds_nothing(served):
    spec = requests.get(f"{served['base']}/api/openapi.json", timeout=10).json()
    operations = [(m.upper(), p) for p, ops in spec["paths"].items() for m in ops if m in ("get", "post", "delete", "put", "patch")]
    # The DELETEs are left out: token revocation would end the run's own token; ending sessions signs devices out
    # (tests/test_signin.py checks those).
    assert sorted(op for op in operations if op[0] == "DELETE") == [
        ("DELETE", "/api/users/{name}/sessions"), ("DELETE", "/api/users/{name}/sessions/{session_id}"),
        ("DELETE", "/api/users/{name}/tokens")]
    assert set(STATEFUL_400) <= set(operations), "an exception names an operation the document no longer has"
    config = served["var"] / "schemathesis.toml"
    config.write_text(config_toml(served["match"], served["league"], served["admin"]))
    cli = Path(sys.executable).parent / "schemathesis"
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.support.schemathesis_hooks",
           "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    run = subprocess.run(
        [str(cli), "--config-file", str(config), "--no-color", "run", f"{served['base']}/api/openapi.json",
         "--checks", "all", "--workers", "1", "--header", f"Authorization: Bearer {served['token']}",
         "--exclude-method", "DELETE"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    out = run.stdout + run.stderr
    tested = len(operations) - 3  # all but the DELETEs
    assert run.returncode == 0, out[-20000:]
    assert f"Tested: {tested}" in out, out[-5000:]  # every operation but the DELETEs, none skipped
    counts = re.search(r"(\d+) generated, (\d+) passed", out)
    assert counts and counts[1] == counts[2] and int(counts[1]) > 10 * tested, out[-5000:]
    assert "fail" not in out.strip().splitlines()[-1], out[-5000:]


def raw_request(base: str, data: bytes) -> bytes:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def split_answer(raw: bytes) -> tuple[int, dict[str, str], dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split(" ")[1]), headers, json.loads(body)


@pytest.mark.slow
def test_gunicorns_own_errors_are_json(served):
    base = served["base"]
    # A request line over gunicorn's limit (4094 bytes): 414, answered before Flask sees it.
    res = requests.get(f"{base}/api/matches/{'x' * 9000}", timeout=10)
    assert res.status_code == 414
    assert res.headers["Content-Type"] == "application/json"
    assert res.json()["error"]["code"] == "uri_too_long" and "request line" in res.json()["error"]["message"].lower()
    # A header line without a colon, and a made-up HTTP version: gunicorn's 400s.
    for raw in (b"GET /api HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", b"GET /api HTTP/7.3\r\nHost: x\r\n\r\n"):
        status, headers, body = split_answer(raw_request(base, raw))
        assert status == 400, raw
        assert headers["content-type"] == "application/json"
        assert body["error"]["code"] == "bad_request" and body["error"]["message"]
    # Too many headers: 431.
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(200))
    status, headers, body = split_answer(raw_request(base, b"GET /api HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n"))
    assert status == 431 and body["error"]["code"] == "request_header_fields_too_large"
    # The app's own 405 says what is allowed.
    res = requests.request("TRACE", f"{base}/api/games", timeout=10)
    assert res.status_code == 405 and res.json()["error"]["code"] == "method_not_allowed"
    assert set(res.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD", "OPTIONS"}
