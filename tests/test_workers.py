"""Validation jobs: in-process, and through a real RQ worker process."""

import os
import signal
import subprocess
import sys
import time

import pytest
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry

from engine.text import from_json, render
from service.matches import MatchService
from service.web import i18n
from workers.jobs import validate_log
from tests.support.tamper import rewrite_entry
from tests.support.toy import ensure_registered

ensure_registered()


@pytest.fixture
def svc(store):
    return MatchService(store)


def toy_match(svc, moves=2, target=20):
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": target})["id"]
    for _ in range(moves):
        seat = svc.current(mid).game.actors(svc.current(mid).state)[0]
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
    return mid


def test_validation_of_a_clean_log_is_valid_with_annotations(svc, store):
    mid = toy_match(svc)
    verdict = validate_log(store, mid)
    assert verdict["status"] == "valid" and verdict["seq"] == 5
    assert store.verdict(mid)["status"] == "valid"
    assert store.auto_annotations(mid)[3] == [{"kind": "total", "text": "total 2"}]
    assert svc.match(mid)["validation"] == "valid"


def test_validation_finds_the_first_illegal_event_in_a_tampered_log(svc, store):
    mid = toy_match(svc)
    rewrite_entry(store, mid, 3, data={"value": 9})
    verdict = validate_log(store, mid)
    assert verdict["status"] == "invalid"
    assert verdict["first_invalid_seq"] == 3
    assert verdict["rule"] == "toy.die"


def test_a_newer_verdict_is_not_overwritten_by_an_older_job(svc, store):
    mid = toy_match(svc)
    store.save_verdict(mid, {"status": "valid", "seq": 99}, {})
    validate_log(store, mid)
    assert store.verdict(mid)["seq"] == 99


def worker_env(prefix):
    env = dict(os.environ)
    env.update(KRONIEK_PREFIX=prefix, KRONIEK_QUEUE=prefix, KRONIEK_PLUGINS="tests.support.toy")
    return env


def run_burst_worker(prefix, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "worker", "--burst"],
        env=worker_env(prefix), capture_output=True, text=True, timeout=timeout,
    )


def test_real_worker_validates_queued_matches(svc, store, prefix):
    from workers.queue import enqueue_validation

    svc.enqueue_validation = lambda mid: enqueue_validation(prefix, mid)
    mid = toy_match(svc)
    proc = run_burst_worker(prefix)
    assert proc.returncode == 0, proc.stderr
    assert store.verdict(mid)["status"] == "valid"
    assert svc.match(mid)["validation"] == "valid"
    # the log says what was done, not RQ's routine registry clean-ups (ours run every few seconds)
    assert "validate" in proc.stderr and "cleaning registries" not in proc.stderr, proc.stderr


def test_a_finished_job_leaves_nothing_in_redis(svc, store, prefix):
    """Its work is in the store; kept an hour, a finished job's hash and result
    stream cost about 6.7 KB, a third of a live event's bytes over HTTP."""
    from workers.connection import queue_client
    from workers.queue import enqueue_validation

    mid = toy_match(svc)
    job = enqueue_validation(prefix, mid)
    proc = run_burst_worker(prefix)
    assert proc.returncode == 0, proc.stderr
    assert store.verdict(mid)["status"] == "valid"
    conn = queue_client()
    assert not conn.exists(job.key) and not list(conn.scan_iter(match=f"rq:results:{job.id}*"))
    assert conn.zcard(f"rq:finished:{prefix}") == 0


def test_worker_start_sweeps_matches_whose_validation_was_never_queued(svc, store, prefix):
    mid = toy_match(svc)  # this service queues nothing
    assert store.verdict(mid) is None
    proc = run_burst_worker(prefix)
    assert proc.returncode == 0, proc.stderr
    assert store.verdict(mid)["seq"] == 5


def test_a_job_whose_worker_is_killed_mid_job_is_not_lost(svc, store, prefix, redis_url):
    from workers.connection import queue_client
    from workers.queue import enqueue_validation

    # A log long enough that validating it takes a while.
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": 10**9})["id"]
    seat = 0
    for _ in range(6000):
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
        seat = 1 - seat
    enqueue_validation(prefix, mid)
    queue = Queue(prefix, connection=queue_client())
    (job_id,) = queue.job_ids
    worker = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "worker", "--burst"],
        env=worker_env(prefix), start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    job = Job.fetch(job_id, connection=queue_client())
    while job.get_status(refresh=True) != JobStatus.STARTED:
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.01)
    os.killpg(worker.pid, signal.SIGKILL)  # the worker and its work horse, no clean-up
    worker.wait()
    assert store.verdict(mid) is None
    registry = StartedJobRegistry(queue=queue)
    assert job_id in [j.split(":")[0] for j in registry.get_job_ids()] or job.get_status(refresh=True) == JobStatus.STARTED
    # The next worker's maintenance finds the job abandoned once its lease has
    # run out; run that same clean-up as if the lease had expired.
    registry.cleanup(timestamp=time.time() + 3600)
    assert job.get_status(refresh=True) in (JobStatus.QUEUED, JobStatus.SCHEDULED)
    if job.get_status(refresh=True) == JobStatus.SCHEDULED:
        # The retry is scheduled after a back-off: move it to the queue now.
        from rq.registry import ScheduledJobRegistry

        ScheduledJobRegistry(queue=queue).remove(job)
        queue.enqueue_job(job)
    proc = run_burst_worker(prefix, timeout=120)
    assert proc.returncode == 0, proc.stderr
    verdict = store.verdict(mid)
    assert verdict["status"] == "valid" and verdict["seq"] == 12001


def test_verdict_with_thousands_of_annotations_is_saved_whole(store):
    notes = {seq: [{"kind": "x", "text": str(seq)}] for seq in range(2, 6002)}
    assert store.save_verdict("big", {"status": "valid", "seq": 6001}, notes)
    assert len(store.auto_annotations("big")) == 6000
    assert not store.save_verdict("big", {"status": "valid", "seq": 10}, {})
    assert store.verdict("big")["seq"] == 6001


def test_an_undo_is_annotated_as_a_recording_correction(svc, store):
    mid = toy_match(svc, moves=1)
    svc.append(mid, "undo", None, {})
    validate_log(store, mid)
    (note,) = store.auto_annotations(mid)[4]
    assert note["kind"] == "correction" and note["undone"] == [3]
    assert render(from_json(note["text"])) == "Recording corrected: seq 3 (roll) undone"
    # (the toy game gives its "roll" no Dutch name: the Dutch line names it as the API does)
    assert render(from_json(note["text"]), i18n.language("nl")) == "Vastlegging verbeterd: nr. 3 (roll) ongedaan gemaakt"


def recorded(store, game, seed):
    from engine.jogledor.simulate import play_random

    svc = MatchService(store)
    rec = play_random(game, seed, mode="physical")
    mid = svc.create_match(game, rec.setup["players"], rec.setup["options"])["id"]
    for event in rec.log[1:]:
        svc.append(mid, event["type"], event["seat"], event["data"])
    return svc, mid


def test_validation_leaves_the_solver_to_the_analysis_job(store):
    from workers.jobs import analyse_log

    svc, mid = recorded(store, "twaalven", 3)
    owed = []
    verdict = validate_log(store, mid, on_valid=owed.append)
    assert verdict["status"] == "valid" and owed == [mid]
    kinds = {n["kind"] for notes in store.auto_annotations(mid).values() for n in notes}
    assert "pair" in kinds and "deal" not in kinds and "winnable" not in kinds
    assert svc.match(mid)["analysis"] == "pending"

    progress = []
    real = store.analysis_progress
    store.analysis_progress = lambda m, seq, done, total, **kw: (progress.append((seq, done, total)),
                                                                 real(m, seq, done, total, **kw))
    record = analyse_log(store, mid, every=0)
    assert record["status"] == "done" and record["seq"] == verdict["seq"]
    kinds = {n["kind"] for notes in store.auto_annotations(mid).values() for n in notes}
    assert {"pair", "deal", "winnable"} <= kinds
    assert svc.match(mid)["analysis"] == "done"
    # progress: positions decided, never going back, ending with all of them
    dones = [d for _, d, t in progress if t]
    assert dones == sorted(dones) and progress[-1][1] == progress[-1][2] > 1
    assert all(seq == verdict["seq"] for seq, _, _ in progress)
    # a new move makes the analysis pending again (its record is for a shorter log)
    store.save_verdict(mid, {**verdict, "seq": verdict["seq"] + 1}, {})
    svc.store.r.xadd(store.key(mid, "log"), {"event": "{}", "hash": "x"}, id=f"{verdict['seq'] + 1}-0")
    assert store.analysis(mid)[0]["seq"] == verdict["seq"]


@pytest.mark.parametrize("game,seed", [("twaalven", 3), ("stapelen", 2), ("twaalven", 4)])
def test_a_patience_is_evaluated_from_its_solver_winnable_or_lost_at_every_step(store, game, seed):
    """Issue 37: the cooperative patiences' evaluation is the table's chance, exact: 1 while the game could
    still be won, 0 once it could not (never back up: every move after a lost position is lost), read from the
    solver's own notes; the move that threw the game away cost the whole chance and is the solver's ??."""
    from workers.jobs import analyse_log

    svc, mid = recorded(store, game, seed)
    validate_log(store, mid)
    assert analyse_log(store, mid)["status"] == "done"
    ev = svc.review(mid)["evaluation"]
    notes = store.auto_annotations(mid)
    winnable = {seq: n["winnable"] for seq, ns in notes.items() for n in ns if n["kind"] == "winnable"}
    assert ev["perspective"] == "table" and ev["method"] == "exact"
    assert {p["seq"]: p["chances"] for p in ev["points"]} == {
        seq: [1.0 if w else 0.0] for seq, w in winnable.items() if w is not None}
    chances = [p["chances"][0] for p in ev["points"]]
    assert chances == sorted(chances, reverse=True)  # W...W L...L
    fatal = [seq for seq, ns in notes.items() for n in ns if n["kind"] == "fatal"]
    thrown = [m["seq"] for m in ev["moves"] if m["loss"] > 0]
    assert thrown == fatal and all(m["glyph"] == "??" and m["loss"] == 1.0 for m in ev["moves"] if m["loss"])
    assert all(m["accuracy"] == 100.0 for m in ev["moves"] if not m["loss"])
    assert [s["seat"] for s in ev["summary"]] == [0, 1]


def test_the_analysis_shows_running_progress_while_it_runs(store):
    svc, mid = recorded(store, "stapelen", 2)
    validate_log(store, mid)
    seq = svc.current(mid).seq
    store.analysis_progress(mid, seq, 40, 75)
    assert svc.match(mid)["analysis"] == "running 40/75"
    store.analysis_progress(mid, seq - 1, 40, 75)  # a run over an older log
    assert svc.match(mid)["analysis"] == "pending"


def test_the_analysis_stops_at_its_node_budget(store, monkeypatch):
    from workers.jobs import analyse_log

    _, mid = recorded(store, "sir_tommy", 2)
    validate_log(store, mid)
    monkeypatch.setenv("KRONIEK_ANALYSIS_NODES", "1")
    assert analyse_log(store, mid)["status"] == "done"
    notes = [n for ns in store.auto_annotations(mid).values() for n in ns if n.get("source") == "solver"]
    winnable = [n["winnable"] for n in notes if n["kind"] == "winnable"]
    # one solver call (a terminal position costs next to nothing), the rest undecided
    assert len(winnable) > 10 and winnable.count(None) >= len(winnable) - 2
    assert sum(n.get("nodes", 0) for n in notes) <= 10


def test_the_analysis_stops_at_its_time_budget(store, monkeypatch):
    from workers.jobs import analyse_log

    _, mid = recorded(store, "twaalven", 4)
    validate_log(store, mid)
    monkeypatch.setenv("KRONIEK_ANALYSIS_SECONDS", "0")  # no solver call may start
    assert analyse_log(store, mid)["status"] == "done"
    notes = [n for ns in store.auto_annotations(mid).values() for n in ns if n.get("source") == "solver"]
    winnable = [n["winnable"] for n in notes if n["kind"] == "winnable"]
    assert winnable and set(winnable) == {None}
    assert all("nodes" not in n or n["nodes"] == 0 for n in notes)


def test_games_without_an_analysis_say_none(store):
    svc = MatchService(store)
    mid = toy_match(svc)
    owed = []
    validate_log(store, mid, on_valid=owed.append)
    assert owed == [] and svc.match(mid)["analysis"] == "none"
    assert "evaluation" not in svc.review(mid)


def test_a_braverats_match_is_evaluated_round_by_round_and_the_review_serves_it(client, app, store):
    """Issue 37: the analysis job stores the exact evaluation (the table read from the run's tables, built by
    whichever process needed it first); the review serves the chances after each round, each card judged and
    each seat's accuracy, its words in the reader's language; a card played face down and not yet revealed
    shows no point (its seat's choice is hidden) and nothing of it."""
    from tests.support.played import play
    from workers.jobs import analyse_log

    log = play("braverats", 5, mode="physical")
    setup = log[0]["data"]
    mid = client.post("/api/matches", json={"game": "braverats", "players": setup["players"],
                                            "options": setup["options"]}).get_json()["id"]
    for event in log[1:]:
        assert client.post(f"/api/matches/{mid}/events",
                           json={k: event[k] for k in ("type", "seat", "data")}).status_code == 201
    assert client.get(f"/api/matches/{mid}").get_json()["analysis"] == "pending"
    validate_log(store, mid)
    record = analyse_log(store, mid)
    assert record["status"] == "done"
    review = client.get(f"/api/matches/{mid}/review").get_json()
    ev = review["evaluation"]
    from engine import match as M

    rounds = [e["seq"] for e, before, after in M.replay_steps(log)  # where a round resolved
              if before is not None and len(after.state.rounds) > len(before.state.rounds)]
    assert ev["method"] == "exact" and ev["method_said"] == "exact (solved)" and ev["seq"] == review["seq"]
    assert [p["seq"] for p in ev["points"]] == [1, *rounds]
    assert ev["points"][0]["chances"] == [0.5, 0.5]  # the opening is even
    for p in ev["points"]:
        assert abs(sum(p["chances"]) - 1) < 1e-9 and p["method"] == "exact"
    assert ev["points"][-1]["chances"] in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])  # the result
    assert len(ev["moves"]) == 2 * len(rounds)
    for m in ev["moves"]:
        assert m["glyph_said"] == {None: None, "?!": "inaccuracy", "?": "mistake", "??": "blunder"}[m["glyph"]]
        assert (m["loss"] == 0) == (m["accuracy"] == 100.0)
    assert [s["seat"] for s in ev["summary"]] == [0, 1] and all(s["moves"] == len(rounds) for s in ev["summary"])
    notes = [a for s in review["steps"] for a in s["annotations"] if a.get("kind") == "evaluation"]
    assert len(notes) == len(ev["moves"]) and "the equilibrium plays" in notes[0]["text"]
    dutch = client.get(f"/api/matches/{mid}/review", headers={"Accept-Language": "nl"}).get_json()
    assert dutch["evaluation"]["method_said"] == "exact (opgelost)"
    said = [a["text"] for s in dutch["steps"] for a in s["annotations"] if a.get("kind") == "evaluation"]
    assert "evenwicht" in said[0] and "Raadsheer" in " ".join(said)

    # one more game, stopped with Red's card face down: no point, no judged card and no note of it
    mid2 = client.post("/api/matches", json={"game": "braverats", "players": setup["players"],
                                             "options": setup["options"]}).get_json()["id"]
    for event in ({"type": "round", "seat": None, "data": {"cards": ["ambassador", "spy"]}},
                  {"type": "play", "seat": 0, "data": {"card": "wizard"}}):
        assert client.post(f"/api/matches/{mid2}/events", json=event).status_code == 201
    validate_log(store, mid2)
    analyse_log(store, mid2)
    ev2 = client.get(f"/api/matches/{mid2}/review").get_json()["evaluation"]
    assert [p["seq"] for p in ev2["points"]] == [1, 2] and {m["seq"] for m in ev2["moves"]} == {2}
    assert all(n.get("kind") != "evaluation" for n in store.auto_annotations(mid2).get(3, []))
    assert [p["seq"] for p in store.evaluation(mid2)["points"]] == [1, 2]  # as stored, not only as served


def test_hint_endpoint_judges_the_seats_moves(client, app):
    from engine.jogledor.simulate import play_random

    rec = play_random("twaalven", 5, mode="physical")
    res = client.post("/api/matches", json={"game": "twaalven", "players": rec.setup["players"],
                                            "options": rec.setup["options"]})
    mid = res.get_json()["id"]
    for event in rec.log[1:5]:  # the deal, the roles and two moves
        assert client.post(f"/api/matches/{mid}/events", json={k: event[k] for k in ("type", "seat", "data")}).status_code == 201
    ms = app.extensions["kroniek"].current(mid)
    seat = next(a for a in ms.game.actors(ms.state) if isinstance(a, int))
    hint = client.get(f"/api/matches/{mid}/hint?seat={seat}")
    assert hint.status_code == 200, hint.get_json()
    body = hint.get_json()
    assert body["seat"] == seat and body["seq"] == ms.seq
    judged = body["winning"] + body["losing"] + body["unknown"]
    assert judged and all(m["seat"] == seat for m in judged)
    assert client.get(f"/api/matches/{mid}/hint?seat=9").status_code == 400


def test_the_match_endpoint_shows_the_analysis(client):
    m = client.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/api/matches/{m['id']}").get_json()["analysis"] == "none"  # a game with no analysis
    m = client.post("/api/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/api/matches/{m['id']}").get_json()["analysis"] == "pending"
