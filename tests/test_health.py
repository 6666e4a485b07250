"""``GET /api/health`` on a real Redis with RQ's real bookkeeping: queue
depths, workers and their heartbeats, the oldest pending verdict."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from rq import Queue, Worker
from rq.job import Job

from workers.connection import queue_client
from workers.queue import enqueue_ratings, enqueue_validation, get_queue


@pytest.mark.redis
def test_health_reports_queues_workers_and_the_oldest_pending_verdict(anon, prefix):
    report = anon.get("/api/health")
    assert report.status_code == 200
    body = report.get_json()
    assert body["redis"]["reachable"] is True and body["redis"]["latency_ms"] >= 0
    assert body["queues"]["validation"]["name"] == prefix
    assert body["queues"]["analysis"]["name"] == f"{prefix}-analysis"
    assert body["oldest_pending_verdict"] is None
    # No worker on these queues: the verdicts would wait.
    assert body["status"] == "degraded" and body["workers"] == {"registered": 0, "seen_last_minute": 0}
    assert any("no worker" in p for p in body["problems"])

    enqueue_validation(prefix, "m-late", delay=30)  # scheduled, as the API queues it
    enqueue_validation(prefix, "m-now")  # queued
    enqueue_ratings(prefix, "braverats")  # queued, not a verdict
    Queue(f"{prefix}-analysis", connection=queue_client()).enqueue("workers.jobs.validate_match", prefix, "x")
    worker = Worker([get_queue()], connection=queue_client(), name=f"w-{prefix}")
    worker.register_birth()
    worker.heartbeat()
    try:
        body = anon.get("/api/health").get_json()
        validation = body["queues"]["validation"]
        assert (validation["queued"], validation["scheduled"], validation["started"]) == (2, 1, 0)
        assert body["queues"]["analysis"]["queued"] == 1
        assert body["workers"] == {"registered": 1, "seen_last_minute": 1}
        assert body["status"] == "ok" and body["problems"] == []
        assert body["oldest_pending_verdict"]["match"] in ("m-late", "m-now")

        # A validation queued two minutes ago and still waiting: degraded, and named.
        job = Job.fetch(get_queue().get_job_ids()[0], connection=queue_client())
        job.created_at = datetime.now(timezone.utc) - timedelta(seconds=120)
        job.save()
        body = anon.get("/api/health").get_json()
        assert body["oldest_pending_verdict"]["match"] == job.args[1]
        assert body["oldest_pending_verdict"]["age_seconds"] >= 120
        assert body["queues"]["validation"]["oldest_pending_seconds"] >= 120
        assert body["status"] == "degraded" and any("pending for" in p for p in body["problems"])

        # A worker whose last heartbeat is two minutes old is registered, not seen.
        queue_client().hset(worker.key, "last_heartbeat",
                            (datetime.now(timezone.utc) - timedelta(seconds=120)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
        assert anon.get("/api/health").get_json()["workers"] == {"registered": 1, "seen_last_minute": 0}
    finally:
        worker.register_death()


@pytest.mark.redis
def test_health_counts_owed_work_and_is_degraded_beyond_its_thresholds(anon, store, prefix, monkeypatch):
    import time

    from service import health_api

    worker = Worker([get_queue()], connection=queue_client(), name=f"w-{prefix}")
    worker.register_birth()
    worker.heartbeat()
    try:
        store.owe("validation", "m-new", time.time() - 5)
        store.owe("analysis", "m-a1", time.time() - 100)
        store.owe("analysis", "m-a2", time.time() - 10)
        body = anon.get("/api/health").get_json()
        assert body["owed"]["validation"]["count"] == 1 and 5 <= body["owed"]["validation"]["oldest_seconds"] < 30
        assert body["owed"]["analysis"]["count"] == 2 and 100 <= body["owed"]["analysis"]["oldest_seconds"] < 130
        assert body["oldest_pending_verdict"]["match"] == "m-new"
        assert body["thresholds"] == {"verdict_pending_seconds": 60.0, "analysis_behind_seconds": 900.0,
                                      "queue_depth": 1000}
        assert body["status"] == "ok", body["problems"]

        # An analysis owed for over 15 minutes: the analysis is behind.
        store.owe("analysis", "m-a0", time.time() - 1000)
        body = anon.get("/api/health").get_json()
        assert body["status"] == "degraded" and body["owed"]["analysis"]["count"] == 3
        assert [p for p in body["problems"] if "analysis is behind" in p and "3 owed" in p], body["problems"]
        store.take_owed("analysis", "m-a0")

        # More jobs waiting on a queue than the threshold (lowered here to 2).
        monkeypatch.setattr(health_api, "QUEUE_DEPTH", 2)
        for m in ("q1", "q2", "q3"):
            enqueue_validation(prefix, m)
        enqueue_validation(prefix, "q1")  # one waiting job per match: not queued again
        body = anon.get("/api/health").get_json()
        assert body["queues"]["validation"]["queued"] == 3
        assert body["queues"]["validation"]["oldest_waiting_seconds"] is not None
        assert body["status"] == "degraded" and "3 jobs wait on the validation queue (over 2)" in body["problems"]
    finally:
        worker.register_death()


def test_health_shows_the_analysis_budgets_as_configured(anon, monkeypatch):
    """Issue 37: the analysis's budgets are on /api/health, as the environment sets them."""
    monkeypatch.delenv("KRONIEK_ANALYSIS_PLAYOUTS", raising=False)  # (the suite's servers get fewer)
    body = anon.get("/api/health").get_json()
    assert body["analysis_budgets"] == {"seconds_per_match": 120.0, "nodes_per_match": 20_000_000,
                                        "nodes_per_solver_call": 500_000, "playouts_per_match": 2000, "nice": 10}
    monkeypatch.setenv("KRONIEK_ANALYSIS_SECONDS", "15")
    monkeypatch.setenv("KRONIEK_ANALYSIS_NODES", "1000")
    monkeypatch.setenv("KRONIEK_SOLVER_BUDGET", "200")
    monkeypatch.setenv("KRONIEK_ANALYSIS_NICE", "40")  # past 19: 19, as the worker takes it
    body = anon.get("/api/health").get_json()
    monkeypatch.setenv("KRONIEK_ANALYSIS_PLAYOUTS", "64")
    assert anon.get("/api/health").get_json()["analysis_budgets"]["playouts_per_match"] == 64
    monkeypatch.setenv("KRONIEK_ANALYSIS_PLAYOUTS", "2000")
    body = anon.get("/api/health").get_json()
    assert body["analysis_budgets"] == {"seconds_per_match": 15.0, "nodes_per_match": 1000,
                                        "nodes_per_solver_call": 200, "playouts_per_match": 2000, "nice": 19}
    monkeypatch.setenv("KRONIEK_ANALYSIS_SECONDS", "soon")  # no number: said, not a 500
    answer = anon.get("/api/health")
    assert answer.status_code == 200 and answer.get_json()["analysis_budgets"] is None
    assert any("analysis budget is not a number" in p for p in answer.get_json()["problems"])
