"""The service's logs (issue 39) from a real ``kroniek run``: JSON lines, one per request with its request id
(echoed in ``X-Request-Id``), and no secret in any of them through a whole sign-in: the link's secret, the
session cookie, the token."""

from __future__ import annotations

import json
import re
import time

import pytest
import requests

from .test_run import free_port, start, stop

pytestmark = pytest.mark.slow


@pytest.mark.slow(12)
def test_json_lines_a_line_per_request_with_its_id_and_no_secret_through_a_sign_in(tmp_path):
    proc, base, token = start(tmp_path / "var", free_port())
    secrets_seen = [token]
    try:
        auth = {"Authorization": f"Bearer {token}"}
        mine = requests.get(f"{base}/api/health", headers={"X-Request-Id": "probe-42"}, timeout=5)
        assert mine.headers["X-Request-Id"] == "probe-42"
        odd = requests.get(f"{base}/api/health", headers={"X-Request-Id": "no spaces or\tcontrols"}, timeout=5)
        made_id = odd.headers["X-Request-Id"]
        assert made_id != "no spaces or\tcontrols" and made_id.isalnum()
        refused = requests.post(f"{base}/api/matches", json={"game": "nope", "players": ["A", "B"]}, headers=auth,
                                timeout=5)
        assert refused.status_code == 404 and refused.headers["X-Request-Id"]
        # a whole sign-in: the link made, opened, tapped; the session it gives used
        requests.post(f"{base}/api/users", json={"name": "fien"}, headers=auth, timeout=5).raise_for_status()
        link = requests.post(f"{base}/api/users/fien/sign-in-links", json={}, headers=auth, timeout=5).json()
        page, secret = link["url"].split("#", 1)  # the secret in the fragment: a browser never sends it
        secrets_seen.append(secret)
        phone = requests.Session()
        assert phone.get(page, timeout=5).status_code == 200
        asked = phone.post(f"{base}/signin/peek", json={"secret": secret}, headers={"Origin": base}, timeout=5)
        assert asked.json() == {"user": "fien"}
        tapped = phone.post(f"{base}/signin", data={"secret": secret}, headers={"Origin": base}, timeout=5)
        assert tapped.status_code == 200
        # a link made before, its secret in its path: logged as its route
        old = requests.post(f"{base}/api/users/fien/sign-in-links", json={}, headers=auth, timeout=5).json()
        old_secret = old["url"].split("#", 1)[1]
        secrets_seen.append(old_secret)
        assert requests.get(f"{base}/signin/{old_secret}", timeout=5).status_code == 200
        cookie = next(c.value for c in phone.cookies)
        secrets_seen.append(cookie)
        assert phone.get(f"{base}/api/me", timeout=5).json()["name"] == "fien"
        time.sleep(1.0)  # the last lines written
    finally:
        out = stop(proc)
    log = out[len(proc.head):] if out.startswith(proc.head) else "".join(proc.lines)
    lines = [line for line in log.splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    # gunicorn's own lines too (a worker booted …): JSON, not its "[pid] [INFO]" text
    assert any(r.get("logger") == "gunicorn.error" and "Booting worker" in r["message"] for r in records)
    assert not re.search(r"^\[[^]]+\] \[\d+\] \[[A-Z]+\] ", log, re.M), log[:2000]
    requests_logged = [r for r in records if r.get("logger") == "kroniek.request"]
    assert requests_logged and all({"time", "level", "request_id", "method", "path", "status", "duration_ms"}
                                   <= set(r) for r in requests_logged)
    assert any(r["request_id"] == "probe-42" and r["path"] == "/api/health" for r in requests_logged)
    assert any(r["request_id"] == made_id for r in requests_logged)
    assert any(r["status"] == 404 and r["route"] == "/api/matches" for r in requests_logged)
    assert any(r["path"] == "/signin" and r["method"] == "POST" and r["status"] == 303 for r in requests_logged)
    assert any(r["path"] == "/signin/<secret>" and r["method"] == "GET" for r in requests_logged)
    assert any(r["user"] == "fien" and r["path"] == "/api/me" for r in requests_logged)
    for secret in secrets_seen:  # in no line of any process's log
        assert secret not in log, f"a secret ({secret[:6]}…) in the log"
