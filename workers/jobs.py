"""Background jobs. They run in the RQ worker process and trust nothing the
API process computed: each job re-reads the log and replays it from scratch."""

from __future__ import annotations

import os
from typing import Any

from engine import match as M
from engine.core import KroniekError
from replays import EventStore, audit_match, canonical

from .connection import store_client


def validate_log(store: EventStore, match_id: str) -> dict[str, Any]:
    """Replay the whole log; record the verdict and the automatic annotations,
    and the match's status and result as the replay finds them (the listing's
    copy is written by the API after a move and could be stale after a crash).
    A move appended while this runs is covered by the job its append queued.
    """
    events = store.events(match_id)
    annotations: dict[int, list[dict[str, Any]]] = {}
    verdict: dict[str, Any] = {"status": "valid", "seq": events[-1]["seq"] if events else 0, "events": len(events)}
    chain = audit_match(store, match_id)
    last_good = 0
    final: M.MatchState | None = None
    try:
        for event, before, after in M.replay_steps(events):
            final = after
            last_good = event["seq"]
            if before is None:
                continue
            if event["type"] == M.UNDO:
                # A correction at the table is a discrepancy in the recording:
                # the review shows what was entered and then taken back.
                undone = ", ".join(f"seq {s} ({events[s - 1]['type']})" for s in after.undone)
                annotations[event["seq"]] = [
                    {"kind": "correction", "undone": list(after.undone), "text": f"Recording corrected: {undone} undone"}
                ]
                continue
            notes = after.game.annotate(before.state, event["type"], event["seat"], event["data"], after.state)
            if notes:
                annotations[event["seq"]] = notes
    except KroniekError as exc:
        bad = last_good + 1
        verdict = {
            "status": "invalid",
            "seq": verdict["seq"],
            "events": len(events),
            "first_invalid_seq": bad,
            "message": exc.message,
            **({"rule": exc.details["rule"]} if "rule" in exc.details else {}),
        }
    if verdict["status"] == "valid" and final is not None:
        # Deeper annotations (a solver's), only for a log that replays.
        deep = final.game.analyse_log(events, solver_budget())
        for seq, notes in (deep or {}).items():
            annotations.setdefault(seq, []).extend(notes)
    if not chain.valid:
        verdict["status"] = "invalid"
        verdict["chain"] = chain.to_dict()
        verdict.setdefault("first_invalid_seq", chain.first_invalid_seq)
    if store.save_verdict(match_id, verdict, annotations) and verdict["status"] == "valid" and final is not None:
        store.set_summary(match_id, final.status, canonical(final.result_dict))
    return verdict


def solver_budget() -> int:
    """Nodes per solver call (KRONIEK_SOLVER_BUDGET); past it a solver says unknown."""
    return int(os.environ.get("KRONIEK_SOLVER_BUDGET", "500000"))


def validate_match(prefix: str, match_id: str) -> dict[str, Any]:
    """The RQ entry point: one match, from its log alone."""
    return validate_log(EventStore(store_client(), prefix), match_id)


def sweep(prefix: str) -> int:
    """Queue a validation for every match whose verdict is behind its head.

    Run when a worker starts, so a job lost between an append and its enqueue
    (the API process died in between) is made good.
    """
    from .queue import enqueue_validation

    store = EventStore(store_client(), prefix)
    queued = 0
    offset = 0
    while True:
        ids = store.match_ids(offset, 500)
        if not ids:
            return queued
        for match_id in ids:
            head = store.head_seq(match_id)
            verdict = store.verdict(match_id)
            if head and (verdict is None or verdict["seq"] < head[0]):
                enqueue_validation(prefix, match_id)
                queued += 1
        offset += len(ids)
