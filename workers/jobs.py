"""Background jobs. They run in the RQ worker and trust nothing the API
process computed: each job re-reads the log and checks its whole chain; a
verdict replays it from seq 1, or from a checkpoint of this process's own
earlier verdict that the checked chain still holds (``Checkpoints``)."""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from typing import Any, Callable

import orjson

from engine import match as M
from engine import registry
from engine.core import KroniekError, UnknownGame
from engine.text import Text, say, to_json
from leagues import league as L
from leagues.ratings import RESULT_EVENTS, RatedLeague, RatingPoint, rate_leagues, rating_system
from replays import ChainHead, EventStore, audit_match, canonical, check_chain
from replays.hashing import utc_now
from replays.rating_tables import RatingsStore
from replays.compact import CorruptBlock
from replays.store import decode_entry
from replays.translog import LeafConflict, TransparencyLog

from .connection import store_client
from .tables import FileTables
from .queue import (ANALYSE, RATE, VALIDATE, analysis_nodes, analysis_playouts, analysis_queue_name, analysis_seconds,
                    enqueue_analysis, enqueue_ratings, enqueue_validation, is_waiting, solver_budget, started)


log = logging.getLogger(__name__)


class InvariantBroken(KroniekError):
    """A log the reducer accepts whose state after ``seq`` breaks one of the
    game's invariants (``Game.invariants``): the reducer has a hole there, and
    the verdict says so. The message quotes the invariant's statement, never
    the state's details (they could name a card the public may not see)."""

    code = "invariant_broken"
    status = 422

    def __init__(self, seq: int, game: Any, invariant: str) -> None:
        rule = game.invariant_rules.get(invariant)  # a statement marked N_ (engine/*/invariants.py)
        text = (say("seq {seq}: after this event the game breaks what always holds: {rule}", seq=seq,
                    rule=Text(rule, {})) if rule else
                say("seq {seq}: after this event the game breaks one of the things that always hold", seq=seq))
        super().__init__(text, invariant=invariant, seq=seq)


@dataclass
class Checkpoint:
    """Where a valid verdict left a live match: its seq, the hash of the
    event there, the state after it, the log's hash scheme and the mark the
    stream carried when its events were read (``EventStore.mark_log``). The
    next verdict of the match reads, checks and replays only the events
    after it, once the stream still carries that mark and still holds that
    hash at that seq (the hash chain then pins every event before it).

    Its size does not grow with the log: the state keeps only its newest
    ``M.SNAPSHOT_UNDO_DEPTH`` undo steps (``M.trimmed``; an undo that reaches
    further back makes the verdict one from seq 1), and neither the events
    nor the annotations are kept (those up to the checkpoint are in the
    store, saved with the verdict; only the new ones are added to them)."""

    seq: int
    hash: str
    ms: M.MatchState
    scheme: str | None
    mark: str


class Checkpoints:
    """This worker process's checkpoints, least recently used first, at
    most ``size`` of them (``KRONIEK_VERDICT_CACHE``: a checkpoint is a
    state and its last undo steps, 10–110 kB whatever the log's length). A
    validation job runs in the worker itself (``KroniekWorker.execute_job``),
    so they outlive it: a live match's verdicts read and replay its new
    events, not its whole log each time (a log of n moves cost n²/2 steps)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], Checkpoint] = OrderedDict()

    def take(self, key: tuple[str, str]) -> Checkpoint | None:
        return self._items.pop(key, None)

    def put(self, key: tuple[str, str], checkpoint: Checkpoint) -> None:
        self._items.pop(key, None)
        self._items[key] = checkpoint
        while len(self._items) > self.size:
            self._items.popitem(last=False)


CHECKPOINTS = Checkpoints(int(os.environ.get("KRONIEK_VERDICT_CACHE") or 1_000))


def validate_log(store: EventStore, match_id: str,
                 on_valid: Callable[[str], None] | None = None,
                 checkpoints: Checkpoints | None = CHECKPOINTS) -> dict[str, Any]:
    """Replay the whole log, checking the game's invariants after every event
    (``Game.invariants``: a log the reducer accepts but that breaks one is
    invalid, its verdict naming the step and the invariant); record the
    verdict and the automatic annotations
    (each move's, from ``Game.annotate``: cheap), and the match's status and
    result as the replay finds them (the listing's copy is written by the API
    after a move and could be stale after a crash).

    The whole hash chain is checked every time. Where an earlier verdict of
    this process left a ``Checkpoint`` and the stream still carries its mark
    and its hash at its seq, the events up to it are the ones that verdict
    read and checked (``EventStore.log_after``): only the events after it
    are read, checked against the chain and replayed from its state, and
    only their annotations are added to those stored. The verdict is the one
    a replay from seq 1 gives, at the cost of the new events. Anything else
    (no checkpoint or ``checkpoints=None``, the log changed, an invalid log,
    annotations missing from the store, an undo past the checkpoint's undo
    steps) is a verdict from seq 1.

    First the match's "validation owed" mark is taken (``EventStore.take_owed``),
    then the log is read: a move appended after that queues a job of its own.
    ``on_valid(match_id)`` is called after a valid verdict is stored (the RQ
    job queues the solver analysis there).
    """
    store.take_owed("validation", match_id)
    started(VALIDATE, (store.prefix, match_id))  # after the take: see ``started``
    key = (store.prefix, match_id)
    checkpoint = checkpoints.take(key) if checkpoints is not None else None
    if checkpoint is not None:
        verdict = _verdict_after(store, match_id, checkpoint, on_valid, checkpoints)
        if verdict is not None:
            return verdict
    return _verdict_from_seq_1(store, match_id, on_valid, checkpoints)


def _verdict_after(store: EventStore, match_id: str, checkpoint: Checkpoint,
                   on_valid: Callable[[str], None] | None, checkpoints: Checkpoints) -> dict[str, Any] | None:
    """The verdict of the log from ``checkpoint`` on, stored (see
    ``validate_log``). None where it would not be the verdict from seq 1
    (the log is not the one the checkpoint was taken of) or where the log
    is invalid: nothing is written, and the caller makes the verdict from
    seq 1."""
    tail = store.log_after(match_id, checkpoint.mark, checkpoint.seq)
    if tail is None:
        return None  # no mark: the stream was written again (or compacted) since
    entries = tail.entries
    if not entries or entries[0][0] != f"{checkpoint.seq}-0" or entries[0][1].get("hash") != checkpoint.hash:
        return None  # not the log it was taken from (the store went back, or it was changed)
    if tail.length != tail.top:
        return None  # entries were deleted (the chain check from seq 1 says where)
    try:
        first = decode_entry(entries[0][1])
        before = ChainHead(checkpoint.seq - 1, first["prev_hash"], checkpoint.scheme)
    except (KeyError, TypeError, ValueError):
        return None
    # From the checkpoint's own event on (its hash, now checked again against its text, pins its predecessors').
    chain = check_chain(entries, tail.last_generated, after=before)
    if not chain.valid:
        return None
    events = [decode_entry(fields) for _, fields in entries[1:]]
    del entries
    try:
        verdict, annotations, final = _replay_verdict(events, chain.length, checkpoint)
    except M.HistoryElided:  # an undo past the checkpoint's undo steps
        return None
    if verdict["status"] != "valid" or final is None:
        return None  # an invalid log's verdict is made from seq 1, as without a checkpoint
    last = events[-1] if events else first
    logged = None
    if final.status == "finished":  # its final head becomes a leaf of the transparency log
        logged = (last["seq"], last["hash"], log_final_head(store, match_id, last))
        if logged[2] is not None:
            verdict = {**verdict, "status": "invalid", "message": logged[2].message,
                       "transparency_log": logged[2].details}
    saved = store.add_to_verdict(match_id, verdict, checkpoint.seq, annotations)
    if saved is None:  # the stored annotations do not reach the checkpoint: written whole, from seq 1
        return _verdict_from_seq_1(store, match_id, on_valid, checkpoints, logged)
    if verdict["status"] == "valid" and final.status != "finished":
        checkpoints.put((store.prefix, match_id),
                        Checkpoint(final.seq, last["hash"], M.trimmed(final), checkpoint.scheme, checkpoint.mark))
    if saved and verdict["status"] == "valid":
        store.set_summary(match_id, final.status, canonical(final.result_kept))
        if on_valid is not None and final.game.has_analysis:
            on_valid(match_id)
        if final.status == "finished":
            compact_final(store, match_id, verdict["seq"])
    return verdict


def _verdict_from_seq_1(store: EventStore, match_id: str, on_valid: Callable[[str], None] | None,
                        checkpoints: Checkpoints | None,
                        logged: tuple[int, str, LeafConflict | None] | None = None) -> dict[str, Any]:
    """The verdict of the whole log, read, checked and replayed from seq 1,
    stored. ``logged``: a final head (seq, hash) already added to the
    transparency log, and the conflict it met (not added again)."""
    # Marked before it is read (and its last-generated seq read with the mark, before the entries: an append
    # in between only lengthens what is read): a checkpoint of this read holds while the mark is there.
    marked = store.mark_log(match_id) if checkpoints is not None else None
    try:
        last_generated = marked[1] if marked is not None else store.last_generated_seq(match_id)
        entries = list(store.entries(match_id))
    except CorruptBlock as exc:  # a compacted log that does not read back: invalid from seq 1, never replayed
        head = store.head_seq(match_id)
        verdict = {"status": "invalid", "seq": head[0] if head else 0, "events": 0, "first_invalid_seq": 1,
                   "message": exc.message, "chain": audit_match(store, match_id).to_dict()}
        store.save_verdict(match_id, verdict, {})
        return verdict
    events = [decode_entry(fields) for _, fields in entries]
    chain = check_chain(entries, last_generated)
    del entries
    verdict, annotations, final = _replay_verdict(events, len(events), None)
    if not chain.valid:
        verdict["status"] = "invalid"
        verdict["chain"] = chain.to_dict()
        verdict.setdefault("first_invalid_seq", chain.first_invalid_seq)
    if verdict["status"] == "valid" and final is not None and final.status == "finished":
        # A finished, valid log: its final head becomes a leaf of the transparency log.
        head = (events[-1]["seq"], events[-1]["hash"])
        conflict = logged[2] if logged is not None and logged[:2] == head else log_final_head(store, match_id, events[-1])
        if conflict is not None:
            verdict = {**verdict, "status": "invalid", "message": conflict.message, "transparency_log": conflict.details}
    saved = store.save_verdict(match_id, verdict, annotations)
    if (verdict["status"] == "valid" and final is not None and marked is not None and checkpoints is not None
            and final.status != "finished"):
        checkpoints.put((store.prefix, match_id),
                        Checkpoint(final.seq, events[-1]["hash"], M.trimmed(final), chain.scheme, marked[0]))
    if saved and verdict["status"] == "valid" and final is not None:
        store.set_summary(match_id, final.status, canonical(final.result_kept))
        if on_valid is not None and final.game.has_analysis:
            on_valid(match_id)
        if final.status == "finished":
            compact_final(store, match_id, verdict["seq"])
    return verdict


def _replay_verdict(events: list[dict[str, Any]], total: int, checkpoint: Checkpoint | None
                    ) -> tuple[dict[str, Any], dict[int, list[dict[str, Any]]], M.MatchState | None]:
    """The replay's verdict on a log of ``total`` events whose events after
    ``checkpoint`` (all of them, from the setup on, without one) are
    ``events``; the annotations of those events up to the last good one,
    and the state after it."""
    annotations: dict[int, list[dict[str, Any]]] = {}
    verdict: dict[str, Any] = {"status": "valid", "seq": events[-1]["seq"] if events else total, "events": total}
    last_good = checkpoint.seq if checkpoint else 0
    final: M.MatchState | None = checkpoint.ms if checkpoint else None
    try:
        for event, before, after in M.replay_steps(events, final):
            final = after
            broken = after.game.invariants(after.state)
            if broken:
                raise InvariantBroken(event["seq"], after.game, broken[0][0])
            last_good = event["seq"]
            if before is None:
                continue
            if event["type"] == M.UNDO:
                # A correction at the table is a discrepancy in the recording:
                # the review shows what was entered and then taken back.
                types = _undone_types(before, after.undone)
                undone = [say("seq {seq} ({move})", seq=s, move=M.type_name(after.game, types[s]))
                          for s in after.undone]
                annotations[event["seq"]] = [{"kind": "correction", "undone": list(after.undone),
                                              "text": to_json(say("Recording corrected: {moves} undone", moves=undone))}]
                continue
            notes = after.game.annotate(before.state, event["type"], event["seat"], event["data"], after.state)
            if notes:  # an engine's message kept as JSON, to be said in each reader's language (engine/text.py)
                annotations[event["seq"]] = to_json(notes)
    except KroniekError as exc:
        verdict = {
            "status": "invalid",
            "seq": verdict["seq"],
            "events": total,
            "first_invalid_seq": last_good + 1,
            "message": exc.message,
            "said": to_json(exc.text),  # the message as the engine said it: served in the reader's language
            **({"rule": exc.details["rule"]} if "rule" in exc.details else {}),
            **({"invariant": exc.details["invariant"]} if "invariant" in exc.details else {}),
        }
    return verdict, annotations, final


def _undone_types(before: M.MatchState, undone: tuple[int, ...]) -> dict[int, str]:
    """The event type of each seq an undo took back: the newest steps of the
    undo stack before it (each step keeps its event's type), so an undo of a
    move before a checkpoint is named without the events before it."""
    types: dict[int, str] = {}
    step = before.stack
    while step is not None and len(types) < len(undone):
        types[step.seq] = step.type
        step = step.prev
    return types


def compact_final(store: EventStore, match_id: str, seq: int) -> str:
    """Compact a finished match whose valid verdict covers its whole log
    (``seq``): its events become one compressed block (``EventStore.compact``).
    A move appended meanwhile leaves it as it is (``moved``): its own job's
    verdict compacts it when the match is finished again. What happened is
    logged, never raised: the verdict stands either way."""
    try:
        outcome = store.compact(match_id)
    except Exception:  # the stream stays as it is; the next final verdict or sweep tries again
        log.exception("match %s: compaction failed", match_id)
        return "failed"
    if outcome.startswith("refused"):
        log.warning("match %s (seq %d): not compacted, %s", match_id, seq, outcome)
    return outcome


def transparency_log(store: EventStore) -> TransparencyLog:
    """The transparency log beside ``store`` (same Redis, same prefix)."""
    return TransparencyLog(store.r, store.prefix)


def log_final_head(store: EventStore, match_id: str, last: dict[str, Any]) -> LeafConflict | None:
    """Add a finished match's final head (its last event's seq and hash) to
    the transparency log; the conflict if the log holds another head there
    (the stream was rewritten after its head was logged)."""
    try:
        transparency_log(store).add("m", match_id, last["seq"], last["hash"])
    except LeafConflict as exc:
        return exc
    return None


def owe_analysis(prefix: str, match_id: str) -> None:
    """Queue the analysis unless one is owed already (as for validations)."""
    store = EventStore(store_client(), prefix)
    if store.owe("analysis", match_id, time.time()):
        enqueue_analysis(prefix, match_id)


def validate_match(prefix: str, match_id: str) -> dict[str, Any]:
    """The RQ entry point: one match, from its log alone; a valid log of a
    game with an analysis then owes one (a job on the analysis queue)."""
    return validate_log(EventStore(store_client(), prefix), match_id,
                        on_valid=lambda m: owe_analysis(prefix, m))


def analyse_log(store: EventStore, match_id: str, every: float = 0.5) -> dict[str, Any] | None:
    """The solver analysis of the match's whole log (``Game.analyse_log``)
    within the per-match budgets, its progress stored as it goes (at most
    every ``every`` seconds). Stores and returns the record (None: the log
    does not replay, or the game has no analysis)."""
    store.take_owed("analysis", match_id)
    started(ANALYSE, (store.prefix, match_id))  # after the take: see ``started``
    events = store.events(match_id)
    if not events:
        return None
    seq = events[-1]["seq"]
    try:
        final = M.replay(events)
    except KroniekError:
        return None  # the validation job's verdict says why
    if not final.game.has_analysis:
        return None
    t0 = time.monotonic()
    last = [float("-inf")]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= every or done >= total:
            last[0] = now
            store.analysis_progress(match_id, seq, done, total)

    progress(0, 0)
    game = final.game
    tables = FileTables()
    try:
        notes = game.analyse_log(events, solver_budget(), progress=progress,
                                 max_nodes=analysis_nodes(), deadline=t0 + analysis_seconds()) or {}
        evaluation = game.evaluate_log(events, tables=tables.get, deadline=t0 + analysis_seconds(), notes=notes,
                                       playouts=analysis_playouts())
    except Exception as exc:
        record = {"seq": seq, "status": "failed", "message": f"{type(exc).__name__}: {exc}"}
        store.save_analysis(match_id, record, {})
        store.analysis_finished(match_id)
        raise
    if evaluation is not None:
        for at, said in evaluation.pop("notes", {}).items():  # the moves judged, beside the solver's notes
            notes.setdefault(at, []).extend(said)
        evaluation["seq"] = seq
    record = {"seq": seq, "status": "done", "seconds": round(time.monotonic() - t0, 3)}
    if tables.built:  # a one-off: the first analysis on this machine that needed it built it
        record["tables_built"] = tables.built
    # a message kept as JSON (engine/text.py)
    store.save_analysis(match_id, record, to_json(notes), None if evaluation is None else to_json(evaluation))
    store.analysis_finished(match_id)
    return record


def analyse_match(prefix: str, match_id: str) -> dict[str, Any] | None:
    """The RQ entry point of the analysis queue."""
    return analyse_log(EventStore(store_client(), prefix), match_id)


def sweep(prefix: str, trust_marks: float = 0.0) -> int:
    """Queue a validation for every match whose verdict is behind its head,
    an analysis for every match whose valid verdict is ahead of its analysis
    (games with one), and a ratings recomputation for every game whose table
    is missing or older than its leagues' latest results (``stale_rating_games``).

    Run when a worker starts and when it is back after losing Redis, so a
    job lost between an append and its enqueue (the API process died in
    between), or lost with a Redis that crashed, is made good. A match
    marked owed less than ``trust_marks`` seconds ago is left to the job
    queued with its mark. A finished match with a valid verdict for its
    whole log whose events are not compacted yet (finished before
    compaction, or its compaction was lost) is compacted.
    """
    store = EventStore(store_client(), prefix)
    queued = 0
    now = time.time()
    for ids in store.id_pages():
        pipe = store.r.pipeline(transaction=False)
        for match_id in ids:
            pipe.xrevrange(store.key(match_id, "log"), "+", "-", count=1)
            pipe.get(store.key(match_id, "verdict"))
            pipe.get(store.key(match_id, "analysis"))
            pipe.hget(store.key(match_id, "head"), "game")
            pipe.zscore(store.owed_key("validation"), match_id)
            pipe.zscore(store.owed_key("analysis"), match_id)
            pipe.hget(store.key(match_id, "head"), "status")
        replies = pipe.execute()
        for i, match_id in enumerate(ids):
            last, verdict, analysis, game, owed_validation, owed_analysis, status = replies[7 * i: 7 * i + 7]
            streamed = bool(last)
            if streamed:
                head = int(last[0][0].split("-", 1)[0])
            else:  # no stream: a compacted match (its block's head), or none at all
                found = store.head_seq(match_id)
                if found is None:
                    continue
                head = found[0]
            verdict = orjson.loads(verdict) if verdict else None
            if verdict is None or verdict["seq"] < head:
                if owed_validation is None or owed_validation < now - trust_marks:
                    store.owe("validation", match_id, now)
                    queued += enqueue_validation(prefix, match_id) is not None
                continue
            if streamed and status == "finished" and verdict["status"] == "valid" and verdict["seq"] == head:
                compact_final(store, match_id, head)
            if owed_analysis is not None and owed_analysis >= now - trust_marks:
                continue
            analysis = orjson.loads(analysis) if analysis else None
            if verdict["status"] != "valid" or (analysis is not None and analysis["seq"] >= verdict["seq"]):
                continue
            try:
                if not registry.get(game).has_analysis:
                    continue
            except UnknownGame:
                continue
            store.owe("analysis", match_id, now)
            queued += enqueue_analysis(prefix, match_id) is not None
    for game in stale_rating_games(prefix):
        queued += enqueue_ratings(prefix, game) is not None
    # Heads a crash kept out of the transparency log (leaves are never queued).
    transparency_log(store).sync_streams(store, EventStore(store.r, prefix, kind="l"))
    return queued


#: A mark older than this (seconds) with no job waiting: its job was lost
#: (``KRONIEK_OVERDUE_SECONDS``; the worker looks every ``MAINTENANCE_INTERVAL``).
OVERDUE = float(os.environ.get("KRONIEK_OVERDUE_SECONDS") or 30.0)


def requeue_overdue(prefix: str, works: tuple[str, ...] = ("validation", "analysis"), older: float = OVERDUE) -> int:
    """Queue a job again for each match marked owed work longer than ``older``
    seconds ago whose job is gone (lost with a crash, or one the API failed
    to queue), and restart its clock. A mark whose job still waits behind
    others is left alone, clock and all: the queues hold at most one waiting
    job per match and kind, and the mark's age shows the backlog."""
    enqueue = {"validation": enqueue_validation, "analysis": enqueue_analysis}
    functions = {"validation": (VALIDATE, None), "analysis": (ANALYSE, analysis_queue_name())}
    store = EventStore(store_client(), prefix)
    now = time.time()
    queued = 0
    for work in works:
        function, queue = functions[work]
        jobless = [m for m in store.overdue(work, now - older) if not is_waiting(function, (prefix, m), queue)]
        # The marks read again after the live keys: a job takes its mark before it lets its key go, so one that
        # started between the two reads left no mark (queued again, a job would wait for work already begun,
        # owed by no mark).
        lost = store.still_owed(work, jobless)
        again = [m for m in lost if enqueue[work](prefix, m) is not None]
        store.reowe(work, again, now)
        queued += len(again)
    return queued


# -- ratings ----------------------------------------------------------------------

def league_games(store: EventStore) -> dict[str, str]:
    """Every league id (oldest first) with the game its listing names."""
    out: dict[str, str] = {}
    for ids in store.id_pages():
        pipe = store.r.pipeline(transaction=False)
        for league_id in ids:
            pipe.hget(store.key(league_id, "head"), "game")
        for league_id, game in zip(ids, pipe.execute()):
            if game:
                out[league_id] = game
    return out


def last_result_seq(store: EventStore, league_id: str) -> int:
    """The seq of the league's latest result, forfeit or correction (0: none),
    read backwards from the end of its stream: a few entries, not the log."""
    key = store.key(league_id, "log")
    hi = "+"
    while True:
        chunk = store.r.xrevrange(key, hi, "-", count=64)
        for entry_id, fields in chunk:
            try:
                kind = orjson.loads(fields["event"])["type"]
            except (KeyError, TypeError, ValueError):
                kind = None  # unreadable: count it as a change
            if kind is None or kind in RESULT_EVENTS:
                return int(entry_id.split("-", 1)[0])
        if len(chunk) < 64:
            return 0
        hi = "(" + chunk[-1][0]


def compute_ratings(store: EventStore, game: str) -> dict[str, Any]:
    """Rate every league result of ``game`` from scratch; nothing is written.

    Each league's log is read whole, its hash chain checked and the pure
    reducer replayed; a league whose log fails either is left out and listed
    under ``skipped``. ``inputs`` maps each league to the seq of the last
    result, forfeit or correction read (for a league whose chain is broken:
    its last seq), which is what ``RatingsStore.save`` compares.
    """
    system, cooperative = rating_system(game)
    rated: list[RatedLeague] = []
    inputs: dict[str, int] = {}
    skipped: list[dict[str, Any]] = []
    for league_id, listed in league_games(store).items():
        if listed != game:
            continue
        entries = list(store.entries(league_id))
        if not entries:
            continue
        chain = check_chain(entries, store.last_generated_seq(league_id))
        if not chain.valid:
            inputs[league_id] = int(entries[-1][0].split("-", 1)[0])
            skipped.append({"league": league_id, "reason": f"hash chain: {chain.reason}"})
            continue
        events = [decode_entry(fields) for _, fields in entries]
        inputs[league_id] = max((e["seq"] for e in events if e["type"] in RESULT_EVENTS), default=0)
        try:
            state = L.replay(events)
        except KroniekError as exc:
            skipped.append({"league": league_id, "reason": f"does not replay: {exc.message}"})
            continue
        if state.game != game:
            skipped.append({"league": league_id, "reason": f"its setup names game {state.game!r}"})
            continue
        rated.append(RatedLeague(league_id, events[0]["recorded_at"], tuple(state.results())))

    digest = hashlib.sha256(canonical({
        "game": game,
        "system": system,
        "cooperative": cooperative,
        "leagues": [{"league": lg.league, "started": lg.started, "results": [r.to_dict() for r in lg.results]}
                    for lg in sorted(rated, key=lambda lg: lg.league)],
        "skipped": skipped,
    }).encode("utf-8")).hexdigest()
    table = rate_leagues(rated, system, cooperative=cooperative)

    def point(p: RatingPoint) -> dict[str, Any]:
        return {"league": p.period.league, "round": p.period.round, "match": p.match, "rating": p.rating,
                "deviation": p.deviation, "volatility": p.volatility, "games": p.games,
                "conservative": p.conservative}

    ratings = [
        {"player": player, "rating": cur.rating, "deviation": cur.deviation, "volatility": cur.volatility,
         "games": sum(h.games for h in table.history[player]), "conservative": cur.conservative}
        for player, cur in table.current.items()
    ]
    ratings.sort(key=lambda r: (-r["conservative"], r["player"]))
    return {
        "game": game,
        "system": system,
        "results": sum(1 for lg in rated for r in lg.results if r.played),
        "digest": digest,
        "inputs": dict(sorted(inputs.items())),
        "skipped": skipped,
        "ratings": ratings,
        "history": {player: [point(p) for p in h] for player, h in sorted(table.history.items())},
    }


def recompute_ratings(prefix: str, game: str) -> dict[str, Any]:
    """The RQ entry point: rate every league result of ``game`` from scratch
    and store the table unless a table of at least as many results is there
    already (``RatingsStore.save``). Returns what it did."""
    started(RATE, (prefix, game))
    client = store_client()
    table = compute_ratings(EventStore(client, prefix, kind="l"), game)
    saved = RatingsStore(client, prefix).save(table, utc_now())
    return {k: table[k] for k in ("game", "system", "results", "digest")} | {"saved": saved}


def stale_rating_games(prefix: str) -> list[str]:
    """Games with leagues whose ratings table is missing, or whose leagues
    have a result, forfeit or correction later than the table's inputs."""
    client = store_client()
    store = EventStore(client, prefix, kind="l")
    ratings = RatingsStore(client, prefix)
    by_game: dict[str, list[str]] = defaultdict(list)
    for league_id, game in league_games(store).items():
        by_game[game].append(league_id)
    stale = []
    for game, ids in sorted(by_game.items()):
        try:
            registry.get(game)
        except UnknownGame:
            continue  # a game this worker does not know (its plugin is not loaded)
        meta = ratings.meta(game)
        if meta is None or any(last_result_seq(store, i) > meta["inputs"].get(i, 0) for i in ids):
            stale.append(game)
    return stale
