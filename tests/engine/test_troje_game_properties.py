"""Simulated Troje games under Hypothesis, 4 and 6 players, random and greedy
bots (mixed too), over combinations of the scenario's options:

- they end within a bound on events (with option revealed_cards removed a
  game may also run dry: see ``_dry``), and replay from their logs through
  ``engine.match`` to the same state; every state's snapshot decodes to
  itself;
- they conserve the resource cards: bank + hands + support stack (+ the cards
  battles put out of the game, with revealed_cards removed) = the bank's
  size, per resource; every viewer counts the same cards in every hand and
  its knowledge allows the real ones;
- no view shows a hidden side: another seat's decision card and saga VP stay
  hidden until the reveal (the decision card's event too);
- brute force: for every viewer not entitled to a hidden thing (another
  seat's decision card, the cards of another seat's donation, blind draw,
  card laid back or stolen card), the log is replayed with that thing
  changed to what else it could have been, as far as it stays legal: the
  viewer's views, event views and the descriptions and notes of the events it
  sees are the same in every world;
- a bot's move does not change when everything its seat may not know changes.
"""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.catan import knowledge as K
from engine.catan.pieces import RES
from engine.core import CHANCE, KroniekError
from engine.troje import GAME
from engine.troje import saga as SG
from engine.troje.bots import BOTS
from engine.troje.simulate import SIMULATOR, play_game

from .troje_support import could_be

#: a bound on a simulated game's events (the longest seen: about 1,400 with 6 players)
MAX_EVENTS = 3_000

OPTIONS = st.fixed_dictionaries({}, optional={
    "allegiances": st.sampled_from(["private", "at_reveal"]),
    "battle_timing": st.sampled_from(["before_sbp", "after_sbp"]),
    "revealed_cards": st.sampled_from(["bank", "removed"]),
    "stack_draws": st.sampled_from(["per_ship", "per_player"]),
    "sea_people_tiles": st.sampled_from(["any_sea", "ship_symbol"]),
    "ships_in_sbp": st.booleans(),
    "donations_in_sbp": st.booleans(),
    "city_counts_as_settlement": st.booleans(),
    "blocked_ship_keeps_vp": st.booleans(),
    "blocked_ship_blocks_chip": st.booleans(),
    "trade_chip": st.sampled_from(["must_take", "may_take"]),
})
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: the scenario's own events (checked at every step; the others at every few)
SCENARIO_EVENTS = frozenset({"decision_card", "donate", "build_ship", "ship_tile", "take_chip", "decline_chip",
                             "move_sea_people", "steal", "use_advantage", "stack_card", "return_card", "battle",
                             "claim_win", "reveal_allegiances"})


def seats(n: int, strategy: str, mixed: bool) -> list[str]:
    other = "greedy" if strategy == "random" else "random"
    return [other if mixed and p % 2 else strategy for p in range(n)]


def out_of_game(s) -> list[int]:
    """Cards the battles put out of the game (option revealed_cards removed)."""
    out = [0] * 5
    if not s.ext.tcfg.revealed_to_bank:
        for revealed, _ in s.ext.battles:
            out = [a + b for a, b in zip(out, revealed)]
    return out


def check_cards(s, knowledge: bool = True) -> None:
    """Conservation per resource; with ``knowledge``, every viewer's
    knowledge of every hand allows the real cards."""
    n = s.cfg.n
    ref = n + 1
    gone = out_of_game(s)
    for r in range(5):
        held = sum(s.hands[p][ref].known[r] for p in range(n + 1))  # the seats and the support stack
        assert s.bank[r] + held + gone[r] == s.ext.tcfg.bank, (RES[r], s.bank, held, gone)
    for p in range(n + 1):
        real = s.hands[p][ref]
        assert real.exact, "a simulated game's log sees every card"
        for v in range(n + 2):
            assert s.hands[p][v].size == real.size, (p, v)
            if knowledge:
                assert could_be(s.hands[p][v], real.known), (p, v)
    x = s.ext
    assert all(tp >= 0 for tp in x.trade_points)
    assert sum(1 for a in x.allegiances if a == "troy") <= n // 2 >= sum(1 for a in x.allegiances if a == "mycenae")


def _dry(s) -> bool:
    """With revealed_cards removed the cards can run out for good: no seat
    holds a card and the stack is short of a battle (every card left is on
    the stack or in a bank whose resources nobody's buildings yield now)."""
    n = s.cfg.n
    return (not s.ext.tcfg.revealed_to_bank and all(s.hands[p][n + 1].size == 0 for p in range(n))
            and s.hands[n][n + 1].size < s.ext.tcfg.battle_size)


# -- the games end, replay, conserve ----------------------------------------------------------------

@pytest.mark.rule("troje.war_end")
@pytest.mark.rule("troje.win_15")
@pytest.mark.rule("troje.battle_cards")
@settings(max_examples=8, **SLOW)
@given(n=st.sampled_from([4, 6]), seed=st.integers(0, 2**32), strategy=st.sampled_from(["random", "greedy"]),
       mixed=st.booleans(), options=OPTIONS)
@example(n=4, seed=10, strategy="greedy", mixed=False, options={"allegiances": "at_reveal"})  # a claimed win
@example(n=6, seed=16, strategy="greedy", mixed=False, options={"battle_timing": "after_sbp"})
@example(n=6, seed=3, strategy="random", mixed=True, options={"revealed_cards": "removed", "stack_draws": "per_player",
                                                             "sea_people_tiles": "ship_symbol"})
@example(n=6, seed=4237, strategy="greedy", mixed=True,
         options={"battle_timing": "after_sbp", "revealed_cards": "removed"})  # dry, a donation late
def test_simulated_games_end_replay_and_conserve(n, seed, strategy, mixed, options):
    rec = play_game(n, seats(n, strategy, mixed), seed, options, keep_log=True, max_events=MAX_EVENTS)
    log = json.loads(json.dumps(rec["log"]))  # what the store keeps reads back the same
    final = None
    for i, (event, before, after) in enumerate(M.replay_steps(log)):
        s = after.state
        check_cards(s, knowledge=i % 3 == 0 or event["type"] in SCENARIO_EVENTS)
        if i % 4 == 0 or event["type"] in SCENARIO_EVENTS:
            assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(s)))) == s
        final = after
    assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(final.state)))) == final.state
    assert final.seq == rec["events"] == len(log)
    s = final.state
    x = s.ext
    if not rec["finished"]:
        assert _dry(s), "a game ends, unless the cards ran out for good (revealed_cards removed)"
        # nothing that scores is left: a card a steal or an advantage brings in may still be donated (6 players,
        # seed 4237, below: two donations in the last 200 of 3,000 events), but the stack stays short of a battle
        assert not any(e["type"] in ("battle", "build_ship", "build_settlement", "build_city")
                       for e in log[-200:]), "a dry game has nothing left to do"
        return
    result = final.result
    assert result is not None and result.winners[0] == rec["winner"] and result.winners == x.winners
    # the end reveals every decision card, equal sides
    assert x.revealed and None not in x.allegiances
    SG.check_deal(x.allegiances)
    vps = tuple(GAME.total_vp(s, p) for p in range(n))
    assert list(vps) == rec["vp"] == list(result.scores)
    if rec["ended"] == "war":
        assert SG.war_won(x.saga, x.tcfg.saga_track) == x.war == rec["war_won_by"]
        assert x.winners == SG.war_winners(vps, x.trade_points)
    else:
        assert rec["ended"] == "vp" and x.war is None
        (w,) = x.winners
        assert vps[w] >= x.tcfg.goal
    types = {e["type"] for e in log}
    if x.tcfg.private_allegiances:
        assert "reveal_allegiances" not in types and "claim_win" not in types
    else:
        assert "decision_card" not in types and "reveal_allegiances" in types
    # the whole log replays to the same state again, and the game's own loop plays the same log
    assert M.replay(log).state == s
    assert play_game(n, seats(n, strategy, mixed), seed, options, keep_log=True, max_events=MAX_EVENTS,
                     engine_only=True)["log"] == rec["log"]


# -- no view shows a hidden side ------------------------------------------------------------------------

@pytest.mark.rule("troje.allegiance_knowledge")
@settings(max_examples=6, **SLOW)
@given(n=st.sampled_from([4, 6]), seed=st.integers(0, 2**32), strategy=st.sampled_from(["random", "greedy"]),
       options=OPTIONS)
@example(n=4, seed=10, strategy="greedy", options={"allegiances": "at_reveal"})
@example(n=6, seed=16, strategy="greedy", options={})
def test_no_view_shows_another_seats_side_before_the_reveal(n, seed, strategy, options):
    log = play_game(n, [strategy] * n, seed, options, keep_log=True, max_events=MAX_EVENTS)["log"]
    cards = [e for e in log if e["type"] == "decision_card"]
    for i, (event, before, after) in enumerate(M.replay_steps(log)):
        s = after.state
        x = s.ext
        if i % 2 and event["type"] not in SCENARIO_EVENTS and after.result is None:
            continue
        for v in [*range(n), None]:
            view = after.view(v)
            for p, entry in enumerate(view["players"]):
                if x.revealed:
                    assert entry["side"] == x.allegiances[p] and entry["saga_vp"] == GAME.side_vp(s, p)
                elif p != v:
                    assert entry["side"] is None and entry["saga_vp"] is None and "vp" not in entry, (i, v, p)
                else:
                    assert entry["side"] == x.allegiances[p]
            if event["type"] in ("decision_card", "battle", "reveal_allegiances") or after.result is not None:
                for e in cards:
                    if e["seq"] > after.seq or e["seat"] == v:
                        continue
                    shown = M.event_view(after, e, v)
                    if x.revealed:
                        assert shown["data"] == e["data"]
                    else:
                        assert shown["data"] == {"side": None} and shown["redacted"]


# -- brute force: every world a viewer cannot tell apart looks the same to it ------------------------------

#: events after a changed card whose views are compared (a decision card's: the whole game)
HORIZON = 150


def _seen(log: list[dict], changes: dict[int, dict], viewers: tuple, start: int, stop: int) -> list[dict]:
    """Replay ``log`` as a physical recording with the data of the events in
    ``changes`` replaced, as far as it stays legal and the game runs; from
    event ``start`` to before ``stop``, what each viewer reads after each
    event (past ``HORIZON`` events after ``start``, after every third): the
    match's view, the event as shown to it, and the event's description and
    notes when the event is shown (the review shows no more)."""
    ms = M.start({**log[0]["data"], "mode": "physical", "seed": None})
    seen = []
    for j, e in enumerate(log[1:stop], start=1):
        data = changes.get(j, e["data"])
        try:
            data = M.normalize_event(ms, e["type"], e["seat"], data)
            after = M.apply_event(ms, e["seq"], e["type"], e["seat"], data)
        except KroniekError:
            break
        if after.result is not None:
            break  # the end reveals the decision cards
        if j >= start and (j - start < HORIZON or j % 3 == 0):
            event = {**e, "data": data}
            step = {}
            for v in viewers:
                shown = M.event_view(after, event, v)
                said = None
                if not shown.get("redacted"):
                    said = (GAME.describe(ms.state, e["type"], e["seat"], data, after.state),
                            GAME.annotate(ms.state, e["type"], e["seat"], data, after.state))
                step[v] = (after.view(v), shown, said)
            seen.append(step)
        ms = after
    return seen


def _cards(counts) -> dict[str, int]:
    return {RES[r]: k for r, k in enumerate(counts) if k}


def _alternatives(log: list[dict], rng: random.Random) -> list[tuple[dict[int, dict], set, int, int]]:
    """Worlds that differ from the log's in one hidden thing: ``(changes,
    entitled seats, first changed event, events compared)``."""
    n = len(log[0]["data"]["players"])
    out = []
    dealt = {e["seat"]: i for i, e in enumerate(log) if e["type"] == "decision_card"}
    if len(dealt) == n:  # two seats of different sides swap their decision cards
        pairs = [(a, b) for a in range(n) for b in range(a + 1, n)
                 if log[dealt[a]]["data"]["side"] != log[dealt[b]]["data"]["side"]]
        for a, b in rng.sample(pairs, min(2, len(pairs))):
            changes = {dealt[a]: log[dealt[b]]["data"], dealt[b]: log[dealt[a]]["data"]}
            out.append((changes, {a, b}, min(dealt[a], dealt[b]), len(log)))
    hidden: dict[str, list] = {"donate": [], "stack_card": [], "return_card": [], "steal": []}
    for i, (e, b, a) in enumerate(M.replay_steps(log)):
        if e["type"] in hidden:
            hidden[e["type"]].append((i, e, b.state))
    picked = [x for kind, found in hidden.items() for x in rng.sample(found, min(3 if kind == "donate" else 2,
                                                                                  len(found)))]
    ref = n + 1
    for i, e, s in sorted(picked, key=lambda x: x[0]):
        stop = min(len(log), i + HORIZON)
        if e["type"] == "donate":
            hand = s.hands[e["seat"]][ref].known
            k = e["data"]["count"]
            combos = []
            for combo in combinations_with_replacement(range(5), k):
                c = tuple(combo.count(r) for r in range(5))
                if all(c[r] <= hand[r] for r in range(5)) and _cards(c) != e["data"]["cards"]:
                    combos.append({"cards": _cards(c), "count": k})
            for data in rng.sample(combos, min(1, len(combos))):
                out.append(({i: data}, {e["seat"]}, i, stop))
            continue
        if e["type"] == "stack_card":
            pool, entitled = s.hands[n][ref].known, {e["seat"]}
        elif e["type"] == "return_card":
            pool, entitled = s.hands[e["seat"]][ref].known, {e["seat"]}
        else:
            pool, entitled = s.hands[e["data"]["from"]][ref].known, {e["seat"], e["data"]["from"]}
        others = [RES[r] for r in range(5) if pool[r] and RES[r] != e["data"]["card"]]
        for card in rng.sample(others, min(1, len(others))):
            out.append(({i: {**e["data"], "card": card}}, entitled, i, stop))
    return out


def brute_force(n, seed, strategy, options, most=12) -> int:
    """Check up to ``most`` worlds of a simulated game, each for the public
    and up to two seats not entitled to what changed; return how many."""
    rng = random.Random(seed)
    log = play_game(n, [strategy] * n, seed, options, keep_log=True, max_events=MAX_EVENTS)["log"]
    worlds = _alternatives(log, rng)
    base: dict[tuple, list] = {}
    checked = 0
    for changes, entitled, start, stop in worlds[:most]:
        others = [p for p in range(n) if p not in entitled]
        viewers = (None, *sorted(rng.sample(others, min(1 if stop == len(log) else 2, len(others)))))
        key = (viewers, start, stop)
        if key not in base:
            base[key] = _seen(log, {}, viewers, start, stop)
        other = _seen(log, changes, viewers, start, stop)
        k = min(len(base[key]), len(other))
        assert k > 0, "the changed event itself is legal"
        for step in range(k):
            for v in viewers:
                assert base[key][step][v] == other[step][v], (start + step, v, changes)
        checked += 1
    return checked


@pytest.mark.rule("troje.donate_face_down")
@pytest.mark.rule("troje.hidden_cards")
@pytest.mark.parametrize("n,seed,options", [(4, 8, {}), (6, 16, {}), (4, 10, {"allegiances": "at_reveal"})])
def test_no_view_depends_on_what_the_viewer_did_not_see_in_these_games(n, seed, options):
    assert brute_force(n, seed, "greedy", options) >= 6


@pytest.mark.rule("troje.allegiance_knowledge")
@settings(max_examples=4, **SLOW)
@given(n=st.sampled_from([4, 6]), seed=st.integers(0, 2**32), strategy=st.sampled_from(["random", "greedy"]),
       options=OPTIONS)
def test_no_view_depends_on_what_the_viewer_did_not_see(n, seed, strategy, options):
    brute_force(n, seed, strategy, options, most=6)


# -- the bots read only what their seat may know ----------------------------------------------------------

def scramble(s, seat: int, rng: random.Random):
    """``s`` with all the seat may not know changed: the other hands and the
    stack (same sizes; the seat's own knowledge of each kept), how the others
    know the seat's hand, and the other seats' sides (permuted)."""
    n = s.cfg.n
    ref = n + 1
    hands = list(s.hands)
    for p in range(n + 1):
        row = list(s.hands[p])
        if p == seat:
            for v in range(n + 1):  # the other seats' and the public's knowledge of the seat's hand
                if v != seat:
                    row[v] = K.Hand(K.ZERO, tuple(sorted(((K.FULL, 0),) * row[ref].size)))
        else:
            counts = [0] * 5
            for _ in range(s.hands[p][ref].size):
                counts[rng.randrange(5)] += 1
            other = K.exact(tuple(counts))
            row = [row[v] if v == seat else other for v in range(n + 2)]
        hands[p] = tuple(row)
    sides = list(s.ext.allegiances)
    others = [p for p in range(n) if p != seat and sides[p] is not None]
    shuffled = [sides[p] for p in others]
    rng.shuffle(shuffled)
    for p, side in zip(others, shuffled):
        sides[p] = side
    return s._replace(hands=tuple(hands), ext=s.ext._replace(allegiances=tuple(sides)))


@settings(max_examples=6, **SLOW)
@given(n=st.sampled_from([4, 6]), seed=st.integers(0, 2**32), options=OPTIONS)
def test_a_bots_move_does_not_depend_on_what_its_seat_may_not_know(n, seed, options):
    rec = play_game(n, ["greedy", "random"] * (n // 2), seed, options, keep_log=True, max_events=MAX_EVENTS)
    head = rec["log"][0]["data"]
    secrets = SIMULATOR.secrets(GAME, GAME.setup(tuple(head["players"]), head["options"]),
                                random.Random(f"{seed}:secrets"))
    rng = random.Random(seed)
    checked = 0
    for i, (event, before, after) in enumerate(M.replay_steps(rec["log"])):
        s = after.state
        acting = [a for a in GAME.actors(s) if a not in (CHANCE, "table")]
        if not acting or after.result is not None or i % 3:
            continue
        seat = acting[0]
        extra = {} if secrets is None else {"secret": secrets[seat]}
        for name, bot in BOTS.items():
            k = rng.random()
            mine = bot(GAME, s, seat, random.Random(k), **extra)
            theirs = bot(GAME, scramble(s, seat, rng), seat, random.Random(k), **extra)
            assert (mine.type, mine.data) == (theirs.type, theirs.data), (i, name, seat)
            checked += 1
    assert checked > 10
