"""Ratings per game, against a real Redis: leagues played with real, validated
matches through the service layer; the worker's job rates them from scratch;
the stored table is the same whatever order the jobs ran or finished in; the
API serves what the job stored."""

import itertools
import os
import random
import subprocess
import sys

import pytest
from rq import Queue

from engine import match as M
from engine.core import CHANCE
from engine.troubadour.bots import BOTS
from leagues.ratings import GAME
from replays import EventStore
from service.leagues import LeagueService
from service.matches import MatchService
from replays.rating_tables import RatingsStore
from tests.support.tamper import rewrite_entry
from workers.connection import queue_client
from workers.jobs import compute_ratings, recompute_ratings, stale_rating_games, sweep, validate_log

ROUNDS = [("prince", "spy"), ("general", "assassin"), ("ambassador", "musician"), ("wizard", "wizard"),
          ("spy", "princess"), ("musician", "general"), ("assassin", "ambassador"), ("princess", "prince")]


@pytest.fixture
def changed():
    """Games whose results changed, as the league service reported them (the queue, recorded)."""
    return []


@pytest.fixture
def matches(store, validations):
    return MatchService(store, validations.append)


@pytest.fixture
def leagues_store(store):
    return EventStore(store.r, store.prefix, kind="l")


@pytest.fixture
def leagues(leagues_store, matches, changed):
    return LeagueService(leagues_store, matches, on_results_changed=changed.append)


@pytest.fixture
def ratings(store):
    return RatingsStore(store.r, store.prefix)


@pytest.fixture
def api(store, validations):
    """Reads only: the ratings endpoints need no token."""
    from service.app import create_app

    return create_app(store=store, enqueue_validation=validations.append, enqueue_ratings=lambda game: None).test_client()


# -- playing leagues through the service layer ------------------------------------------

def play_braverats(matches, mid, flip):
    """The same eight rounds, seats' cards swapped with ``flip``: the other seat wins."""
    for red, blue in ROUNDS:
        ms = matches.append(mid, "round", None, {"cards": [blue, red] if flip else [red, blue]})
        if ms["status"] == "finished":
            return
    raise AssertionError("the match did not finish")


def play_out(matches, mid, seed):
    """Play a physical match to its end: chance outcomes entered as a recorder
    would, Troubadour seats by its greedy bot, other games by random legal moves."""
    rng = random.Random(seed)
    for _ in range(5000):
        ms = matches.current(mid)
        if ms.result is not None:
            return
        actors = ms.game.actors(ms.state)
        if CHANCE in actors:
            move = ms.game.chance_outcome(ms.state, rng)
            matches.append(mid, move.type, move.seat, move.data)
            continue
        if ms.game.id == "troubadour":
            seat = next(a for a in actors if a not in (CHANCE, "table"))
            move = BOTS["greedy"](ms.state, seat, rng).to_dict()
        else:
            actor = rng.choice([a for a in actors if a != CHANCE])
            seat = None if actor == "table" else actor
            move = rng.choice(M.legal_moves(ms, seat))
        matches.append(mid, move["type"], seat, move["data"])
    raise AssertionError("the match did not end")


def play_round(leagues, matches, store, lid, rng):
    """Pair the league's next round and play, validate and record every board."""
    rnd = leagues.pair_next_round(lid)["league"]["rounds"][-1]
    for board in rnd["boards"]:
        match = leagues.start_match(lid, rnd["round"], board["board"])
        if match["game"] == "braverats":
            play_braverats(matches, match["id"], flip=rng.random() < 0.5)
        else:
            play_out(matches, match["id"], rng.random())
        validate_log(store, match["id"])
        leagues.record_result(lid, match["id"])
    return rnd


def table_of(ratings, game):
    """The stored table, without the one bookkeeping field that is not a function of the logs."""
    stored = ratings.dump(game)
    assert stored, "no table stored"
    stored.pop("computed_at")
    return stored


# -- the job ---------------------------------------------------------------------------------

def test_same_table_whatever_order_the_jobs_ran_or_finished_in(leagues, matches, store, leagues_store, ratings,
                                                               prefix, changed):
    rng = random.Random(7)
    a = leagues.create("A", "braverats", "round_robin", None, {}, ["Ann", "Bob", "Cas", "Dirk"])["id"]
    b = leagues.create("B", "braverats", "round_robin", None, {}, ["Eva", "Fien", "Gijs", "Ann2"])["id"]
    # A job after every result, and the table each would compute, as the two
    # leagues' rounds interleave.
    snapshots = []
    leagues.on_results_changed = lambda game: (changed.append(game), recompute_ratings(prefix, game),
                                               snapshots.append(compute_ratings(leagues_store, game)))
    for _ in range(3):
        play_round(leagues, matches, store, a, rng)
        play_round(leagues, matches, store, b, rng)
    assert changed == ["braverats"] * 12
    after_each = table_of(ratings, "braverats")
    meta = ratings.meta("braverats")
    assert meta["system"] == "glicko2" and meta["results"] == 12 and meta["skipped"] == []
    assert set(meta["inputs"]) == {a, b}

    # Once at the end, from nothing: the same table.
    store.r.delete(ratings.key("braverats"))
    assert recompute_ratings(prefix, "braverats")["saved"] == "stored"
    assert table_of(ratings, "braverats") == after_each
    assert recompute_ratings(prefix, "braverats")["saved"] == "unchanged"

    # Jobs finishing in any order (a slow job that read fewer results saving
    # last): the table of every result wins.
    orders = [snapshots, snapshots[::-1]] + [rng.sample(snapshots, len(snapshots)) for _ in range(5)]
    for order in orders:
        store.r.delete(ratings.key("braverats"))
        outcomes = [ratings.save(t, f"2026-01-01T00:00:{i:02}.000Z") for i, t in enumerate(order)]
        assert table_of(ratings, "braverats") == after_each
        assert outcomes[order.index(snapshots[-1]) + 1:].count("stored") == 0
    assert ratings.save(snapshots[0], "x") == "stale"

    # One history point per round each player played, in the league's order.
    for player, league in itertools.chain(((p, a) for p in ["Ann", "Bob", "Cas", "Dirk"]),
                                          ((p, b) for p in ["Eva", "Fien", "Gijs", "Ann2"])):
        history = ratings.history("braverats", player)
        assert [(h["league"], h["round"]) for h in history] == [(league, 1), (league, 2), (league, 3)]
        assert all(h["games"] == 1 and h["match"] is None for h in history)
    current = ratings.load("braverats")["ratings"]
    assert [r["player"] for r in current] == [r["player"] for r in sorted(current, key=lambda r: -r["conservative"])]
    assert sum(r["games"] for r in current) == 24


def test_a_league_whose_log_is_tampered_is_left_out(leagues, matches, store, leagues_store, ratings, prefix):
    rng = random.Random(1)
    good = leagues.create("G", "braverats", "round_robin", None, {}, ["A", "B"])["id"]
    bad = leagues.create("T", "braverats", "round_robin", None, {}, ["C", "D"])["id"]
    play_round(leagues, matches, store, good, rng)
    play_round(leagues, matches, store, bad, rng)
    assert recompute_ratings(prefix, "braverats")["results"] == 2
    events = leagues.events(bad)
    rewrite_entry(leagues_store, bad, events[-1]["seq"], data={**events[-1]["data"], "ranks": [2, 1]})
    done = recompute_ratings(prefix, "braverats")
    assert done["saved"] == "stored" and done["results"] == 1
    meta = ratings.meta("braverats")
    assert [s["league"] for s in meta["skipped"]] == [bad] and "hash chain" in meta["skipped"][0]["reason"]
    assert ratings.history("braverats", "C") is None and ratings.history("braverats", "A")


def test_multi_player_tables_use_openskill(leagues, matches, store, ratings, prefix, changed):
    rng = random.Random(3)
    players = ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]
    lid = leagues.create("Tables", "troubadour", "tables", 2, {}, players)["id"]
    played = [play_round(leagues, matches, store, lid, rng) for _ in range(2)]
    assert [sorted(len(b["players"]) for b in r["boards"]) for r in played] == [[3, 4], [3, 4]]
    assert set(changed) == {"troubadour"}
    recompute_ratings(prefix, "troubadour")
    table = ratings.load("troubadour")
    assert table["system"] == "openskill-pl" and table["results"] == 4
    assert {r["player"] for r in table["ratings"]} == set(players)
    assert all(r["volatility"] is None and r["games"] == 2 for r in table["ratings"])
    for p in players:
        history = ratings.history("troubadour", p)
        assert [h["round"] for h in history] == [1, 2]
        assert all(h["match"] for h in history)  # openskill: one point per match


def test_cooperative_games_rate_the_team_against_the_game(leagues, matches, store, ratings, prefix, monkeypatch):
    monkeypatch.setenv("KRONIEK_SOLVER_BUDGET", "2000")
    lid = leagues.create("Duo", "twaalven", "round_robin", None, {}, ["Ann", "Bob", "Cas"])["id"]
    rng = random.Random(5)
    for _ in range(3):
        play_round(leagues, matches, store, lid, rng)
    recompute_ratings(prefix, "twaalven")
    table = ratings.load("twaalven")
    assert table["system"] == "openskill-pl" and table["results"] == 3
    assert {r["player"] for r in table["ratings"]} == {"Ann", "Bob", "Cas", GAME}
    assert len(ratings.history("twaalven", GAME)) == 3


def test_sweep_queues_a_recompute_for_a_missing_or_stale_table(leagues, matches, store, ratings, prefix):
    rng = random.Random(2)
    lid = leagues.create("S", "braverats", "swiss", 2, {}, ["A", "B", "C", "D"])["id"]
    leagues.create("Empty", "troubadour", "tables", 1, {}, ["X", "Y", "Z"])
    play_round(leagues, matches, store, lid, rng)  # the service queued nothing (the hook only records)
    assert stale_rating_games(prefix) == ["braverats", "troubadour"]
    recompute_ratings(prefix, "troubadour")  # no results: an empty table, stored
    assert ratings.load("troubadour")["ratings"] == [] and stale_rating_games(prefix) == ["braverats"]

    assert sweep(prefix) == 3  # the ratings, and the analysis each of the two matches owes (issue 37)
    queue = Queue(prefix, connection=queue_client())
    (job,) = queue.jobs
    assert job.func_name == "workers.jobs.recompute_ratings" and job.args == (prefix, "braverats")
    analyses = Queue(f"{prefix}-analysis", connection=queue_client()).jobs
    assert sorted(j.func_name for j in analyses) == ["workers.jobs.analyse_match"] * 2
    # A real worker runs it (it sweeps first: the job is queued twice, and the
    # second run finds the table unchanged).
    env = {**os.environ, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix}
    proc = subprocess.run([sys.executable, "-m", "service.cli", "worker", "--burst"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert ratings.meta("braverats")["results"] == 2
    assert stale_rating_games(prefix) == []

    # Round 2 paired, then a forfeit: stale again, until recomputed.
    rnd = leagues.pair_next_round(lid)["league"]["rounds"][-1]
    assert stale_rating_games(prefix) == []  # a pairing changes no result
    leagues.forfeit(lid, 2, 1, [rnd["boards"][0]["players"][0]], "did not show")
    assert stale_rating_games(prefix) == ["braverats"]
    assert recompute_ratings(prefix, "braverats")["saved"] == "stored"
    assert stale_rating_games(prefix) == []


# -- the endpoints ---------------------------------------------------------------------------

def test_endpoints_serve_what_the_job_stored(leagues, matches, store, ratings, prefix, api):
    rng = random.Random(11)
    lid = leagues.create("Club", "braverats", "round_robin", None, {}, ["Ann", "Bob", "Cas", "Dirk"])["id"]
    # Nothing rated yet: an empty table, not a 404.
    empty = api.get("/api/ratings/braverats")
    assert empty.status_code == 200
    assert empty.get_json() == {"game": "braverats", "system": "glicko2", "results": 0, "computed_at": None,
                                "ratings": []}
    for _ in range(3):
        play_round(leagues, matches, store, lid, rng)
    recompute_ratings(prefix, "braverats")
    stored = ratings.load("braverats")

    body = api.get("/api/ratings/braverats").get_json()
    assert body == {k: stored[k] for k in ("game", "system", "results", "computed_at", "ratings")}
    assert body["results"] == 6 and body["computed_at"]
    assert [set(r) for r in body["ratings"]] == [{"player", "rating", "deviation", "volatility", "games",
                                                 "conservative"}] * 4
    conservative = [r["conservative"] for r in body["ratings"]]
    assert conservative == sorted(conservative, reverse=True)

    player = body["ratings"][0]["player"]
    res = api.get(f"/api/ratings/braverats/players/{player}")
    assert res.status_code == 200
    mine = res.get_json()
    assert mine["current"] == body["ratings"][0]
    assert mine["history"] == ratings.history("braverats", player) and len(mine["history"]) == 3
    assert mine["history"][-1]["rating"] == mine["current"]["rating"]

    for url in ("/api/ratings/braverats/players/Nobody", "/api/ratings/chess", "/api/ratings/chess/players/Ann"):
        res = api.get(url)
        assert res.status_code == 404, url
        assert set(res.get_json()["error"]) >= {"code", "message"}
    # A cooperative game, nothing rated yet: openskill, empty.
    assert api.get("/api/ratings/twaalven").get_json()["system"] == "openskill-pl"
    assert "/api/ratings/{game}" in api.get("/api/openapi.json").get_json()["paths"]


def test_a_league_read_replays_only_the_events_since_the_last_and_equals_a_fresh_replay(leagues, matches, store,
                                                                                       leagues_store, monkeypatch):
    """Each request reads the league: this process keeps the league it
    replayed, so a read after a write replays only the new events (a round's
    pairing is not computed again), and what it reads equals a replay from
    the start, also after the stored log went back (a league re-created
    under the same id, as after a Redis restore)."""
    from leagues import league as L

    rng = random.Random(3)
    lid = leagues.create("S", "braverats", "swiss", 3, {}, ["Ann", "Bob", "Cas", "Dirk"])["id"]
    for _ in range(2):
        play_round(leagues, matches, store, lid, rng)
        fresh = LeagueService(leagues_store, matches)
        assert leagues.state(lid) == fresh.state(lid) == L.replay(leagues.events(lid))
    pairings = []
    real = L.next_pairing
    monkeypatch.setattr(L, "next_pairing", lambda state: pairings.append(1) or real(state))
    leagues.standings(lid)
    leagues.get(lid)
    assert pairings == [], "a read pairs no round again"
    leagues.pair_next_round(lid)
    assert len(pairings) == 2, "the new round's pairing: computed, then checked by the reducer as it is written"
    # the stored log shortened behind the process's back: read from the start
    key = leagues_store.key(lid, "log")
    last = store.r.xrevrange(key, count=1)[0][0]
    store.r.xdel(key, last)
    assert leagues.state(lid) == L.replay(leagues.events(lid)) and len(leagues.state(lid).rounds) == 2
