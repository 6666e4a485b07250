"""``GET /metrics`` (issue 39) against a real ``kroniek run``: two gunicorn workers count in files of their own
(prometheus_client's multiprocess mode) and one scrape adds them up. After a mix of appends, refusals, live
watchers and a verdict, each metric holds the value that mix implies."""

from __future__ import annotations

import shutil
import threading
import time

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from .test_leagues_api import ROUNDS
from .test_run import free_port, start, stop

pytestmark = pytest.mark.slow


def scrape(base: str) -> dict[tuple[str, tuple], float]:
    r = requests.get(f"{base}/metrics", timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def post(base, token, path, body, fresh=True):
    # a new connection for every request: the two gunicorn workers both get some
    return requests.post(f"{base}/api{path}", json=body, headers={"Authorization": f"Bearer {token}",
                                                                   "Connection": "close"}, timeout=10)


@pytest.mark.slow(25)
def test_a_scrape_counts_appends_refusals_watchers_and_verdicts_over_both_workers(tmp_path):
    from prometheus_client import CollectorRegistry, generate_latest, multiprocess

    proc, base, token = start(tmp_path / "var", free_port())
    try:
        # both gunicorn workers up and answering (a worker writes its files under var/metrics on its first
        # request): the server answers as soon as one is
        folder = tmp_path / "var" / "metrics"
        deadline = time.monotonic() + 30
        while len({db.stem.rsplit("_", 1)[1] for db in folder.glob("histogram_*.db")}) < 2:
            assert time.monotonic() < deadline, "the second gunicorn worker never answered"
            with requests.Session() as a, requests.Session() as b:  # two connections open at once
                a.get(f"{base}/api/health", timeout=5), b.get(f"{base}/api/health", timeout=5)
        before = scrape(base)
        assert value(before, "kroniek_live_watchers") == 0
        # four whole BraveRats games recorded at once, each over a connection of its own kept open: the server
        # leaves a new connection to the worker holding fewer (service.gunicorn_worker.Spread), so both
        # workers record some of them
        matches, counts, errors = [], [], []
        together = threading.Barrier(4)

        def record_a_game():
            try:
                with requests.Session() as session:
                    session.headers["Authorization"] = f"Bearer {token}"
                    together.wait(10)  # all four connections open before the games go on
                    mid = session.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]},
                                       timeout=10).json()["id"]
                    together.wait(10)
                    matches.append(mid)
                    n = 0
                    for red, blue in ROUNDS:
                        r = session.post(f"{base}/api/matches/{mid}/events",
                                         json={"type": "round", "data": {"cards": [red, blue]}}, timeout=10)
                        assert r.status_code == 201, r.text
                        n += 1
                        if r.json()["status"] == "finished":
                            break
                    counts.append(n)
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
        games = [threading.Thread(target=record_a_game) for _ in range(4)]
        for t in games:
            t.start()
        for t in games:
            t.join(60)
        assert not errors, errors
        appended = sum(counts)
        live = post(base, token, "/matches", {"game": "braverats", "players": ["Cas", "Dee"]}).json()["id"]
        refused = post(base, token, f"/matches/{live}/events", {"type": "round", "data": {"cards": ["spy", "queen"]}})
        assert refused.status_code in (400, 422)
        rule = refused.json()["error"].get("rule") or refused.json()["error"]["code"]
        assert post(base, token, f"/matches/{live}/events", {"type": "round", "data": {"cards": ["prince", "prince"]}}).status_code == 201
        twice = post(base, token, f"/matches/{live}/events", {"type": "round", "data": {"cards": ["prince", "spy"]}})
        assert twice.status_code == 422 and twice.json()["error"]["rule"] == "braverats.card_in_hand"
        appended += 1
        # three live watchers
        opened, stop_watching = threading.Barrier(4), threading.Event()

        def watch():  # each closes its own stream when told to (the server ends it by its wait at the latest)
            with requests.get(f"{base}/api/matches/{live}/stream?wait=10", stream=True, timeout=30) as r:
                lines = r.iter_lines()
                next(lines)  # retry:
                opened.wait(10)
                stop_watching.wait(20)
        threads = [threading.Thread(target=watch, daemon=True) for _ in range(3)]
        for t in threads:
            t.start()
        opened.wait(10)
        time.sleep(0.3)
        during = scrape(base)
        assert value(during, "kroniek_live_watchers") == 3
        stop_watching.set()
        for t in threads:
            t.join(10)
        deadline = time.monotonic() + 30
        while True:  # every finished match validated: no verdict pending
            after = scrape(base)
            if value(after, "kroniek_owed_matches", work="validation") == 0 and \
                    value(after, "kroniek_verdict_lag_seconds") == 0 and value(after, "kroniek_live_watchers") == 0:
                break
            assert time.monotonic() < deadline, "a verdict still pending"
            time.sleep(0.5)
        for game in ("braverats",):
            assert value(after, "kroniek_appends_total", game=game) - value(before, "kroniek_appends_total", game=game) == appended
        assert value(after, "kroniek_append_refusals_total", game="braverats", rule="braverats.card_in_hand") == 1
        assert value(after, "kroniek_append_refusals_total", game="braverats", rule=rule) >= 1
        route = "/api/matches/<match_id>/events"
        assert value(after, "kroniek_http_request_duration_seconds_count", method="POST", route=route,
                     status="201") == appended
        assert value(after, "kroniek_http_request_duration_seconds_count", method="POST", route=route,
                     status="422") >= 1
        assert value(after, "kroniek_workers_seen") >= 1 and value(after, "kroniek_health_status", status="ok") == 1
        assert value(after, "kroniek_queue_jobs", queue="validation", state="queued") == 0
        assert value(after, "kroniek_events_stored") >= appended
        assert 0 < value(after, "kroniek_redis_bytes_per_event") < 1e6
        assert value(after, "kroniek_redis_used_memory_bytes") > 0
        # the multiprocess mode: each worker counted its own appends in its own file; the scrape is their sum
        per_worker = []
        for db in sorted(folder.glob("counter_*.db")):
            one = tmp_path / f"one-{db.stem}"
            one.mkdir()
            shutil.copy(db, one / db.name)
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=str(one))
            samples = {(s.name, tuple(sorted(s.labels.items()))): s.value
                       for fam in text_string_to_metric_families(generate_latest(registry).decode()) for s in fam.samples}
            per_worker.append(value(samples, "kroniek_appends_total", game="braverats"))
        counted = [n for n in per_worker if n]
        assert len(counted) >= 2, per_worker  # both workers appended
        assert sum(per_worker) == value(after, "kroniek_appends_total", game="braverats")
        # no label holds an id: the routes are rules
        assert not [k for k in after if any(v in matches for _, v in k[1])]
    finally:
        stop(proc)
