"""``GET /metrics``: the service's metrics in Prometheus's text format (prometheus_client).

Counted where they happen, in the API's processes: requests (a latency histogram per route and status),
appends and refusals (by game and rule), live watchers. Under gunicorn every worker process counts in files
of its own under ``PROMETHEUS_MULTIPROC_DIR`` (``kroniek run`` and ``kroniek serve`` set it), and a scrape,
whichever worker answers it, adds them all up (prometheus_client's multiprocess mode). What Redis holds is
read when scraped, from the same bookkeeping ``/api/health`` reads: the queues' depths and oldest jobs, the
verdict lag, the work owed, the workers seen, Redis's memory and its bytes per stored event.

Labels are bounded: a route is its rule (``/api/matches/<match_id>/events``, never an id), a status a code,
a game one of the registered games, a rule one of a game's rule ids. docs/ops.md lists every metric.
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterator

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from .metrics_dir import MULTIPROC_ENV

REQUEST_SECONDS = Histogram(
    "kroniek_http_request_duration_seconds", "Time to answer an HTTP request, by route and status",
    ["method", "route", "status"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
APPENDS = Counter("kroniek_appends_total", "Events appended to a match's log", ["game"])
REFUSALS = Counter("kroniek_append_refusals_total", "Appends refused, by the rule (or the error code) that refused "
                   "them", ["game", "rule"])
WATCHERS = Gauge("kroniek_live_watchers", "Live streams open (a match's, a league round's)",
                 multiprocess_mode="livesum")
#: how many matches' heads are read to estimate the events Redis holds (scaled to the match count)
SAMPLE_MATCHES = 200


def route_of(request: Any) -> str:
    """The request's route as its rule: bounded, whatever the ids in the path."""
    rule = getattr(request, "url_rule", None)
    return rule.rule if rule is not None else "unmatched"


class _FromRedis:
    """Gauges read from Redis when scraped (through ``/api/health``'s report and the store)."""

    def __init__(self, report: dict[str, Any], store: Any) -> None:
        self.report, self.store = report, store

    def collect(self) -> Iterator[GaugeMetricFamily]:
        r = self.report
        jobs = GaugeMetricFamily("kroniek_queue_jobs", "Jobs on a queue, by state", labels=["queue", "state"])
        oldest = GaugeMetricFamily("kroniek_queue_oldest_job_age_seconds",
                                   "Age of the oldest job queued, scheduled or running (0: none)", labels=["queue"])
        for kind, q in (r.get("queues") or {}).items():
            for state in ("queued", "scheduled", "started", "failed"):
                jobs.add_metric([kind, state], float(q.get(state) or 0))
            oldest.add_metric([kind], float(q.get("oldest_pending_seconds") or 0.0))
        yield jobs
        yield oldest
        pending = r.get("oldest_pending_verdict") or {}
        yield GaugeMetricFamily("kroniek_verdict_lag_seconds", "How long the oldest verdict still to come has "
                                "waited since the append that owes it (0: none pending)",
                                value=float(pending.get("age_seconds") or 0.0))
        owed = GaugeMetricFamily("kroniek_owed_matches", "Matches owed a validation or an analysis", labels=["work"])
        for work, o in (r.get("owed") or {}).items():
            owed.add_metric([work], float(o.get("count") or 0))
        yield owed
        yield GaugeMetricFamily("kroniek_workers_seen", "Workers with a heartbeat in the last minute",
                                value=float((r.get("workers") or {}).get("seen_last_minute") or 0))
        status = GaugeMetricFamily("kroniek_health_status", "1 for the service's status now (as /api/health)",
                                   labels=["status"])
        for s in ("ok", "degraded", "unavailable"):
            status.add_metric([s], 1.0 if r.get("status") == s else 0.0)
        yield status
        used, events = self._memory()
        if used is not None:
            yield GaugeMetricFamily("kroniek_redis_used_memory_bytes", "Redis's used_memory (INFO memory)",
                                    value=float(used))
            yield GaugeMetricFamily("kroniek_events_stored", "Events in the matches' logs (from up to "
                                    f"{SAMPLE_MATCHES:,} matches' heads, scaled to the match count)",
                                    value=float(events))
            yield GaugeMetricFamily("kroniek_redis_bytes_per_event", "Redis's used memory ÷ the events stored "
                                    "(0: no event yet)", value=float(used / events) if events else 0.0)

    def _memory(self) -> tuple[int | None, float]:
        try:
            used = int(self.store.r.info("memory")["used_memory"])
            matches = self.store.match_count()
            ids = self.store.match_ids(0, SAMPLE_MATCHES)
            heads = [self.store.head_seq(m) for m in ids]
            seqs = [h[0] for h in heads if h is not None]
        except Exception:  # noqa: BLE001 - Redis away (the health status says so) or a Cluster's INFO: no figure
            return None, 0.0
        return used, (sum(seqs) / len(seqs) * matches) if seqs else 0.0


def scrape(app: Any) -> tuple[bytes, str]:
    """The text a scrape answers: every process's counts (multiprocess mode) or this one's, and the gauges
    read from Redis now."""
    from .health_api import health_report

    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry
    report, _ = health_report()
    live = CollectorRegistry()
    live.register(_FromRedis(report, app.extensions["kroniek"].store))
    return generate_latest(registry) + generate_latest(live), CONTENT_TYPE_LATEST


#: each label set's child, looked up once: ``labels()`` checks its arguments on every call, and every request
#: and every append counts
_children: dict[tuple[Any, ...], Any] = {}


def child(metric: Any, *labels: str) -> Any:
    key = (metric, *labels)
    found = _children.get(key)
    if found is None:
        found = _children[key] = metric.labels(*labels)
    return found


def observe(request: Any, status: int) -> None:
    """The request's time, from when its id was given (``service.logs.request_id_of``, the first thing a
    request meets) to its answer."""
    started = request.environ.get("kroniek.request_started")
    if started is not None:
        child(REQUEST_SECONDS, request.method, route_of(request), str(status)).observe(time.perf_counter() - started)
