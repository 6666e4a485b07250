"""Sir Tommy voor twee: every rule of the text, the events, views and snapshots."""

from __future__ import annotations

import json

import pytest

import engine.sir_tommy  # noqa: F401  (registers the game)
from engine import match as M
from engine.core import CHANCE, REFEREE, RuleViolation
from engine.jogledor.cards import CARD_IDS
from engine.jogledor.simulate import Recorder, play_random
from engine.sir_tommy import GAME
from engine.sir_tommy.game import END, PLAY, State

ID = {c: i for i, c in enumerate(CARD_IDS)}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def cards(*names: str) -> tuple[int, ...]:
    return tuple(ID[n] for n in names)


def up_pile(top: str, suit: str) -> tuple[int, ...]:
    return cards(*(r + suit for r in RANKS[: RANKS.index(top) + 1]))


def down_pile(low: str, suit: str) -> tuple[int, ...]:
    return cards(*(r + suit for r in reversed(RANKS[RANKS.index(low):])))


def violation(rec: Recorder, type_, seat, data) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        rec.add(type_, seat, data)
    return exc.value


def endgame(rows, up_piles, down_piles, to_move=0, phase=END, drawn=(), passes=0, built=False) -> State:
    """A state with the stock empty; ``rows`` and piles as tuples of card ids."""
    order = tuple(range(52))
    return State(up=0, order=order, drawn=tuple(drawn), rows=tuple(tuple(r) for r in rows),
                 foundations=(tuple(tuple(p) for p in up_piles), tuple(tuple(p) for p in down_piles)),
                 to_move=to_move, phase=phase, passes=passes, built=built)


def test_registered_with_the_fixed_contract():
    assert (GAME.id, GAME.version, GAME.min_players, GAME.max_players) == ("sir_tommy", "1", 2, 2)
    assert GAME.aliases["raapstapel"] == "stock" and GAME.aliases["passen"] == "end_turn"
    assert set(GAME.event_types) == {"draw", "build", "place", "end_turn"}


def test_every_rule_id_has_a_marked_test(rules_covered):
    # the markers of the collected tests; the file's own markers too, so that a -k run still passes
    from pathlib import Path
    import re

    marked = set(rules_covered) | set(re.findall(r'mark\.rule\("([^"]+)"\)', Path(__file__).read_text()))
    missing = {r for r in GAME.rules if r not in marked}
    assert not missing, f"rules without a marked test: {sorted(missing)}"
    unknown = {r for r in marked if r.startswith(GAME.id + ".") and r not in GAME.rules}
    assert not unknown, f"markers naming no rule: {sorted(unknown)}"


# -- the stock and the draws ---------------------------------------------------------

@pytest.mark.rule("sir_tommy.deck")
def test_a_card_drawn_twice_is_refused():
    rec = Recorder("sir_tommy")
    rec.add("draw", 0, {"cards": ["AS", "5H", "KD"]})
    rec.add("place", 0, {"card": "5H", "row": 1})
    rec.add("place", 0, {"card": "KD", "row": 2})
    rec.add("place", 0, {"card": "AS", "row": 3})
    err = violation(rec, "draw", 1, {"cards": ["2C", "5H", "9D"]})
    assert err.rule == "sir_tommy.deck" and "♥5" in err.message
    err = violation(rec, "draw", 1, {"cards": ["2C", "2C", "9D"]})
    assert err.rule == "sir_tommy.deck"


@pytest.mark.rule("sir_tommy.stock")
def test_the_stock_is_face_down_no_view_shows_it():
    rec = Recorder("sir_tommy", mode="simulated", seed=5)
    state = rec.state
    assert len(state.order) == 3 and state.stock == 49  # the state holds drawn cards only
    for viewer in (0, 1, None, REFEREE):
        view = rec.ms.view(viewer)
        shown = {c for c in json.dumps(view).replace('"', " ").replace(",", " ").split() if c in ID}
        assert shown == {CARD_IDS[c] for c in state.order}
        assert view["stock"] == 49
    # the seed that decides every future draw stays hidden until the end
    assert M.event_view(rec.ms, rec.log[0], 0)["data"]["seed"] == "hidden"
    # a physical match knows nothing of the stock: the recorder enters each draw
    assert GAME.actors(Recorder("sir_tommy").state) == (CHANCE,)


@pytest.mark.rule("sir_tommy.draw_three")
@pytest.mark.rule("sir_tommy.turns")
@pytest.mark.rule("sir_tommy.after_stock")
def test_three_cards_a_turn_the_last_time_one_then_turns_go_on_without_a_stock():
    order = list(range(52))
    rec = Recorder("sir_tommy")
    err = violation(rec, "draw", 0, {"cards": [CARD_IDS[0], CARD_IDS[1]]})
    assert err.rule == "sir_tommy.draw_three"
    seat = 0
    while order:
        k = min(3, len(order))
        drawn, order = order[:k], order[k:]
        assert rec.state.draw_size == k and rec.state.to_move == seat
        with pytest.raises(RuleViolation) as exc:
            rec.add("draw", 1 - seat, {"cards": [CARD_IDS[c] for c in drawn]})
        assert exc.value.rule == "sir_tommy.turns"
        rec.add("draw", seat, {"cards": [CARD_IDS[c] for c in drawn]})
        if rec.ms.result is not None:
            break
        for c in drawn:
            if rec.ms.result is None and rec.state.phase == PLAY and c in rec.state.drawn:
                rec.add("place", seat, {"card": CARD_IDS[c], "row": 1 + (c % 4)})
        seat = 1 - seat
    assert len(rec.state.order) == 52 and rec.state.stock == 0
    assert [len(e["data"]["cards"]) for e in rec.log if e["type"] == "draw"] == [3] * 17 + [1]
    # the stock is empty: the game is over (nobody could build), or turns go on with builds from the rows
    assert rec.ms.result is not None or rec.state.phase == END
    with pytest.raises(RuleViolation):
        GAME.apply(rec.state, "draw", None, {"cards": ["AS"]})


@pytest.mark.rule("sir_tommy.first")
def test_the_player_building_up_starts():
    for up in (0, 1):
        rec = Recorder("sir_tommy", {"up_seat": up})
        rec.add("draw", None, {"cards": ["AS", "KH", "7C"]})
        assert rec.state.to_move == up and GAME.actors(rec.state) == (up,)
        assert rec.ms.view(None)["up_seat"] == up and rec.ms.view(None)["down_seat"] == 1 - up


# -- building -----------------------------------------------------------------------

@pytest.mark.rule("sir_tommy.foundations")
@pytest.mark.rule("sir_tommy.up_down")
@pytest.mark.rule("sir_tommy.suits")
def test_up_from_the_aces_down_from_the_kings_any_suits():
    rec = Recorder("sir_tommy")
    view = rec.ms.view(None)
    assert [[f["cards"] for f in view["foundations"][s]] for s in (0, 1)] == [[[]] * 4, [[]] * 4]
    rec.add("draw", 0, {"cards": ["AS", "2H", "KD"]})
    err = violation(rec, "build", 0, {"card": "KD"})  # the up player cannot start with a King
    assert err.rule == "sir_tommy.build_sources"  # it fits only the other player's foundations
    err = violation(rec, "build", 0, {"card": "2H", "foundation": 1})  # an empty foundation takes an Ace
    assert err.rule == "sir_tommy.up_down"
    rec.add("build", 0, {"card": "AS"})
    rec.add("build", 0, {"card": "2H"})  # a red 2 on a black Ace
    assert [f["top"] for f in rec.ms.view(None)["foundations"][0]] == ["2H", None, None, None]
    rec.add("place", 0, {"card": "KD", "row": 1})
    rec.add("draw", 1, {"cards": ["QS", "3C", "JH"]})
    err = violation(rec, "build", 1, {"card": "QS", "foundation": 1})  # the down player starts with a King
    assert err.rule == "sir_tommy.up_down"
    rec.add("build", 1, {"card": "KD"})  # from row 1
    rec.add("build", 1, {"card": "QS"})
    rec.add("build", 1, {"card": "JH"})
    assert rec.state.needs(1) == (10, 13, 13, 13) and rec.state.needs(0) == (3, 1, 1, 1)


@pytest.mark.rule("sir_tommy.max_thirteen")
def test_a_foundation_holds_at_most_thirteen_cards():
    full = up_pile("K", "S")
    state = endgame([cards("AH")], [full, (), (), ()], [(), (), (), ()])
    assert state.needs(0) == (0, 1, 1, 1)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, "build", 0, {"card": "AH", "from": "row", "row": 1, "foundation": 1})
    assert exc.value.rule == "sir_tommy.max_thirteen"
    after = GAME.apply(state, "build", 0, GAME.normalize(state, "build", 0, {"card": "AH"}))
    assert after.foundations[0][1] == cards("AH")


@pytest.mark.rule("sir_tommy.build_sources")
@pytest.mark.rule("sir_tommy.rows")
def test_building_interleaves_drawn_cards_and_row_tops_including_uncovered_ones():
    rec = Recorder("sir_tommy")
    rec.add("draw", 0, {"cards": ["3S", "2S", "KD"]})
    rec.add("place", 0, {"card": "2S", "row": 1})
    rec.add("place", 0, {"card": "3S", "row": 1})  # 3S on top of 2S
    rec.add("place", 0, {"card": "KD", "row": 2})
    rec.add("draw", 1, {"cards": ["5C", "6C", "7C"]})
    for c in ("5C", "6C", "7C"):
        rec.add("place", 1, {"card": c, "row": 3})
    rec.add("draw", 0, {"cards": ["AH", "4H", "9C"]})
    err = violation(rec, "build", 0, {"card": "2S"})  # under the 3S
    assert err.rule == "sir_tommy.rows" and "under 1 card" in err.message
    err = violation(rec, "build", 0, {"card": "8C"})  # never drawn
    assert err.rule == "sir_tommy.build_sources"
    rec.add("build", 0, {"card": "AH"})  # drawn
    err = violation(rec, "build", 0, {"card": "3S"})  # a 3 on an Ace: no
    assert err.rule == "sir_tommy.up_down"
    assert rec.state.rows[0] == cards("2S", "3S")
    view = rec.ms.view(0)
    assert view["row_tops"] == ["3S", "KD", "7C", None]
    with pytest.raises(RuleViolation) as exc:
        rec.add("build", 0, {"card": "3S", "from": "drawn"})
    assert exc.value.rule == "sir_tommy.build_sources"
    rec.add("place", 0, {"card": "4H", "row": 4})
    rec.add("place", 0, {"card": "9C", "row": 4})
    rec.add("draw", 1, {"cards": ["QD", "JD", "2D"]})
    rec.add("build", 1, {"card": "KD"})  # from row 2
    rec.add("build", 1, {"card": "QD"})  # drawn
    rec.add("build", 1, {"card": "JD"})  # drawn: interleaved sources
    rec.add("place", 1, {"card": "2D", "row": 2})
    rec.add("draw", 0, {"cards": ["2H", "3H", "10S"]})
    rec.add("build", 0, {"card": "2H"})
    rec.add("build", 0, {"card": "3S"})  # from row 1, uncovering the 2S
    with pytest.raises(RuleViolation):
        rec.add("build", 0, {"card": "2S"})  # a 2 on a 3: no
    assert rec.state.needs(0) == (4, 1, 1, 1)


@pytest.mark.rule("sir_tommy.optional")
@pytest.mark.rule("sir_tommy.place_leftovers")
def test_building_is_optional_and_leftovers_go_on_any_row():
    rec = Recorder("sir_tommy")
    rec.add("draw", 0, {"cards": ["AS", "AH", "9C"]})
    err = violation(rec, "end_turn", 0, {})  # drawn cards must first go on the rows
    assert err.rule == "sir_tommy.place_leftovers"
    rec.add("place", 0, {"card": "AS", "row": 2})  # a fitting Ace may go on the tableau
    rec.add("place", 0, {"card": "AH", "row": 2})  # on any card, whatever its value
    assert rec.state.phase == PLAY and rec.state.to_move == 0
    rec.add("place", 0, {"card": "9C", "row": 4})  # the last leftover: the turn passes
    assert rec.state.rows == ((), cards("AS", "AH"), (), cards("9C"))
    assert GAME.actors(rec.state) == (CHANCE,) and rec.state.to_move == 1
    rec.add("draw", 1, {"cards": ["KS", "QS", "JS"]})
    err = violation(rec, "place", 1, {"card": "AH", "row": 1})  # a tableau card is no leftover
    assert err.rule == "sir_tommy.place_leftovers"
    rec.add("build", 1, {"card": "KS"})
    rec.add("build", 1, {"card": "QS"})
    rec.add("build", 1, {"card": "JS"})
    assert rec.state.phase == PLAY and rec.state.drawn == ()
    rec.add("end_turn", 1, {})  # all drawn cards built: the player ends the turn himself
    assert rec.state.to_move == 0 and GAME.actors(rec.state) == (CHANCE,)


@pytest.mark.rule("sir_tommy.place_last")
def test_after_placing_a_leftover_no_more_building_unless_interleaving():
    for interleave in (False, True):
        rec = Recorder("sir_tommy", {"interleave_placing": interleave})
        rec.add("draw", 0, {"cards": ["AS", "2S", "9C"]})
        rec.add("place", 0, {"card": "9C", "row": 1})
        if interleave:
            rec.add("build", 0, {"card": "AS"})
            rec.add("build", 0, {"card": "2S"})
            assert rec.state.needs(0)[0] == 3
        else:
            err = violation(rec, "build", 0, {"card": "AS"})
            assert err.rule == "sir_tommy.place_last"
            assert {m["type"] for m in M.legal_moves(rec.ms, 0)} == {"place"}


@pytest.mark.rule("sir_tommy.no_moving")
def test_foundation_cards_stay_and_row_cards_never_change_rows():
    assert "move" not in GAME.event_types
    rec = Recorder("sir_tommy")
    rec.add("draw", 0, {"cards": ["AS", "5H", "KD"]})
    rec.add("build", 0, {"card": "AS"})
    rec.add("place", 0, {"card": "5H", "row": 1})
    rec.add("place", 0, {"card": "KD", "row": 2})
    rec.add("draw", 1, {"cards": ["2C", "3C", "4C"]})
    err = violation(rec, "build", 1, {"card": "AS"})
    assert err.rule == "sir_tommy.no_moving"
    err = violation(rec, "place", 1, {"card": "5H", "row": 3})
    assert err.rule == "sir_tommy.place_leftovers" and "never move" in err.message


# -- the end ------------------------------------------------------------------------

@pytest.mark.rule("sir_tommy.win")
@pytest.mark.rule("sir_tommy.super_winner")
def test_all_cards_on_the_foundations_win_and_thirty_make_a_super_winner():
    up = [up_pile("K", "S"), up_pile("K", "H"), up_pile("4", "D"), ()]  # 30 cards
    down = [down_pile("A", "C"), down_pile("6", "D"), (), ()]  # 21 cards
    state = endgame([cards("5D")], up, down, to_move=1)
    assert state.needs(1)[1] == 5 and state.needs(0)[2] == 5
    after = GAME.apply(state, "build", 1, GAME.normalize(state, "build", 1, {"card": "5D"}))
    res = GAME.result(after)
    assert res.outcome == "win" and res.winners == (0, 1) and res.scores == (30, 22)
    assert "seat 0 is the super-winner with 30 cards" in str(res.reason)
    assert GAME.view(after, None)["super_winner"] == 0
    assert GAME.annotate(state, "build", 1, {"card": "5D", "from": "row", "row": 1, "foundation": 2}, after)[-1]["kind"] == "super_winner"
    # 29 cards: a plain win
    up29 = [up_pile("K", "S"), up_pile("K", "H"), up_pile("3", "D"), ()]
    down22 = [down_pile("A", "C"), down_pile("5", "D"), (), ()]
    state = endgame([cards("4D")], up29, down22, to_move=0)
    after = GAME.apply(state, "build", 0, GAME.normalize(state, "build", 0, {"card": "4D"}))
    res = GAME.result(after)
    assert res.outcome == "win" and res.scores == (30, 22) and "super-winner" in str(res.reason)
    state = endgame([cards("4D")], up29, down22, to_move=1)
    after = GAME.apply(state, "build", 1, GAME.normalize(state, "build", 1, {"card": "4D"}))
    res = GAME.result(after)
    assert res.outcome == "win" and res.scores == (29, 23) and "super-winner" not in str(res.reason)
    assert GAME.view(after, None)["super_winner"] is None


@pytest.mark.rule("sir_tommy.loss")
def test_lost_at_once_when_nobody_can_build():
    up = [up_pile("3", s) for s in "SHDC"]  # needs 4s
    down = [down_pile("J", s) for s in "SHDC"]  # needs 10s
    rest = [ID[r + s] for r in ("5", "6", "7", "8", "9", "4", "10") for s in "SHDC"]
    rows = [[], [], [], []]
    for i, c in enumerate(rest):
        rows[i % 4].append(c)
    rows = [r[::-1] for r in rows]  # 4s and 10s at the bottom, tops 5s
    drawn = rows[0].pop()  # the last card drawn, still to place
    state = endgame(rows, up, down, to_move=1, phase=PLAY, drawn=[drawn])
    after = GAME.apply(state, "place", 1, {"card": CARD_IDS[drawn], "row": 2})
    res = GAME.result(after)
    assert res.outcome == "loss" and res.winners == () and "none of the" in str(res.reason)


@pytest.mark.rule("sir_tommy.loss")
@pytest.mark.rule("sir_tommy.optional")
@pytest.mark.rule("sir_tommy.after_stock")
def test_two_passes_in_a_row_lose_one_pass_does_not():
    up = [up_pile("K", "S"), up_pile("K", "H"), up_pile("4", "D"), ()]
    down = [down_pile("A", "C"), down_pile("6", "D"), (), ()]
    state = endgame([cards("5D")], up, down, to_move=0)
    one = GAME.apply(state, "end_turn", 0, {})  # seat 0 could build but passes
    assert one.passes == 1 and one.to_move == 1 and GAME.result(one) is None
    assert str(GAME.describe(state, "end_turn", 0, {}, one)) == "Seat 0 passes"
    two = GAME.apply(one, "end_turn", 1, {})
    res = GAME.result(two)
    assert res.outcome == "loss" and "passed in succession" in str(res.reason)
    # a build in between resets the count
    up2 = [up_pile("K", "H"), up_pile("4", "D"), up_pile("J", "S"), ()]
    s2 = endgame([cards("5D"), cards("QS")], up2, [down_pile("A", "C"), down_pile("6", "D"), (), ()], to_move=0)
    a = GAME.apply(s2, "end_turn", 0, {})
    b = GAME.apply(a, "build", 1, GAME.normalize(a, "build", 1, {"card": "5D"}))
    c = GAME.apply(b, "end_turn", 1, {})
    assert c.passes == 0 and GAME.result(c) is None and c.to_move == 0


# -- views, snapshots -----------------------------------------------------------------

def test_random_games_replay_and_snapshot_identically():
    for seed in range(6):
        rec = play_random("sir_tommy", seed, undo_rate=0.05)
        assert rec.ms.result is not None
        assert rec.replayed().state == rec.state
        enc = GAME.encode_state(rec.state)
        assert GAME.decode_state(json.loads(json.dumps(enc))) == rec.state
        snap = M.encode(rec.ms)
        assert M.decode(rec.setup, json.loads(json.dumps(snap))).state == rec.state
        for event in rec.log[1:]:
            assert M.event_view(rec.ms, event, 0) == event  # every drawn card lies face up


def test_describe_and_views_for_both_seats_agree():
    rec = Recorder("sir_tommy")
    before = rec.state
    data = rec.add("draw", 0, {"cards": ["KD", "AS", "5H"]})
    assert data == {"cards": ["AS", "5H", "KD"]}  # stored sorted
    assert str(GAME.describe(before, "draw", 0, data, rec.state)).startswith("Ann draws ♠A, ♥5, ♦K")
    assert GAME.view(rec.state, 0) == GAME.view(rec.state, 1) == GAME.view(rec.state, None)
