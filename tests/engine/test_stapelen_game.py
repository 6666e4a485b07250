"""Stapelen: every rule of the text, the events, views and snapshots."""

from __future__ import annotations

import json

import pytest

import engine.stapelen  # noqa: F401  (registers the game)
from engine import match as M
from engine.core import CHANCE, MalformedEvent, RuleViolation
from engine.jogledor.cards import CARD_IDS, RANK
from engine.jogledor.simulate import Recorder, play_random
from engine.stapelen import GAME
from engine.stapelen.game import State


def deal_with_tops(tops: list[str], seconds: list[str] | None = None) -> list[list[str]]:
    """13 columns whose top cards (and, optionally, the cards under them)
    have the given ranks; the other cards fill the columns underneath."""
    used: set[str] = set()

    def take(rank: str) -> str:
        for suit in "SHDC":
            cid = rank + suit
            if cid not in used:
                used.add(cid)
                return cid
        raise ValueError(rank)

    top_ids = [take(r) for r in tops]
    second_ids = [take(r) for r in seconds] if seconds else []
    rest = iter(c for c in CARD_IDS if c not in used)
    cols = []
    for c in range(13):
        under = [next(rest), next(rest)]
        under.append(second_ids[c] if c < len(second_ids) else next(rest))
        cols.append(under + [top_ids[c]])
    return cols


TOPS = ["5", "6", "7", "K", "A", "2", "9", "9", "3", "4", "8", "10", "J"]


def rec_with(columns, first=0) -> Recorder:
    rec = Recorder("stapelen", {"first_seat": first})
    rec.add("deal", None, {"columns": columns})
    return rec


def violation(rec: Recorder, type_, seat, data) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        rec.add(type_, seat, data)
    return exc.value


def test_registered_with_the_fixed_contract():
    assert (GAME.id, GAME.version, GAME.min_players, GAME.max_players) == ("stapelen", "1", 2, 2)
    assert GAME.aliases["fundament"] == "foundation" and GAME.aliases["klaveren boer"] == "JC"
    assert set(GAME.event_types) == {"deal", "take"}


def test_every_rule_id_has_a_marked_test(rules_covered):
    # the markers of the collected tests; the file's own markers too, so that a -k run still passes
    from pathlib import Path
    import re

    marked = set(rules_covered) | set(re.findall(r'mark\.rule\("([^"]+)"\)', Path(__file__).read_text()))
    missing = {r for r in GAME.rules if r not in marked}
    assert not missing, f"rules without a marked test: {sorted(missing)}"
    unknown = {r for r in marked if r.startswith(GAME.id + ".") and r not in GAME.rules}
    assert not unknown, f"markers naming no rule: {sorted(unknown)}"


@pytest.mark.rule("stapelen.deck")
def test_deal_missing_or_repeating_a_card_is_refused():
    cols = deal_with_tops(TOPS)
    bad = [list(c) for c in cols]
    bad[5][1] = bad[6][1]
    rec = Recorder("stapelen")
    with pytest.raises(RuleViolation) as exc:
        rec.add("deal", None, {"columns": bad})
    assert exc.value.rule == "stapelen.deck"
    flat = [c for col in cols for c in col]
    with pytest.raises(MalformedEvent):
        rec.add("deal", None, {"cards": flat[:51]})
    assert rec.add("deal", None, {"seed": 99})["columns"]


@pytest.mark.rule("stapelen.tableau")
def test_tableau_of_thirteen_columns_with_the_last_card_on_top():
    cols = deal_with_tops(TOPS)
    rec = rec_with(cols)
    view = rec.ms.view(None)
    assert view["tops"] == [c[3] for c in cols] and view["left"] == 52
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "deal", None, {"columns": cols})
    assert exc.value.rule == "stapelen.tableau"
    assert GAME.actors(Recorder("stapelen").state) == (CHANCE,)


@pytest.mark.rule("stapelen.foundations")
@pytest.mark.rule("stapelen.empty_foundation")
def test_three_empty_foundations_each_take_any_card():
    rec = rec_with(deal_with_tops(TOPS))
    view = rec.ms.view(0)
    assert [[f["count"] for f in view["foundations"][s]] for s in (0, 1)] == [[0, 0, 0], [0, 0, 0]]
    rec.add("take", 0, {"column": 4})  # a King on an empty foundation
    rec.add("take", 1, {"column": 7, "foundation": 3})  # a 9 on seat 1's third
    rec.add("take", 0, {"column": 1, "foundation": 2})  # a 5 on a second foundation
    assert rec.state.tops(0) == (13, 5, 0) and rec.state.tops(1) == (0, 0, 9)
    assert rec.ms.view(None)["foundations"][0][0] == {"cards": ["KS"], "top": "KS", "count": 1}


@pytest.mark.rule("stapelen.first")
def test_either_seat_may_start():
    for first in (0, 1):
        rec = rec_with(deal_with_tops(TOPS), first=first)
        assert GAME.actors(rec.state) == (first,)
        rec.add("take", first, {"column": 1})
        assert GAME.actors(rec.state) == (1 - first,)


@pytest.mark.rule("stapelen.turns")
def test_one_card_per_turn_in_turn_no_skipping():
    rec = rec_with(deal_with_tops(TOPS))
    with pytest.raises(RuleViolation) as exc:
        rec.add("take", 1, {"column": 1})
    assert exc.value.rule == "core.turn"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "take", 1, {"column": 1, "card": "5S", "foundation": 1})
    assert exc.value.rule == "stapelen.turns"
    rec.add("take", 0, {"column": 1})
    assert rec.state.left == 51 and GAME.actors(rec.state) == (1,)
    assert {m["type"] for m in M.legal_moves(rec.ms, 1)} == {"take"}


def scenario() -> Recorder:
    """Column 1: 5 on top with a 6 under it; the other tops as in TOPS."""
    return rec_with(deal_with_tops(TOPS, seconds=["6"]))


@pytest.mark.rule("stapelen.build_up")
@pytest.mark.rule("stapelen.suits")
@pytest.mark.rule("stapelen.wrap")
@pytest.mark.rule("stapelen.own_foundation")
def test_building_one_higher_with_the_wrap_on_own_foundations_only():
    rec = scenario()
    rec.add("take", 0, {"column": 1})  # seat 0: 5S on foundation 1
    rec.add("take", 1, {"column": 3})  # seat 1: 7S on foundation 1
    assert rec.state.top(0) == CARD_IDS.index("6H")
    rec.add("take", 0, {"card": "6H", "foundation": 1})  # a red 6 on a black 5: suits do not matter
    err = violation(rec, "take", 1, {"column": 4, "foundation": 1})  # K on 7
    assert err.rule == "stapelen.build_up" and "only a 8" in err.message
    rec.add("take", 1, {"column": 4, "foundation": 2})  # K on an empty foundation
    rec.add("take", 0, {"column": 2, "foundation": 2})  # 6S
    err = violation(rec, "take", 1, {"column": 7, "foundation": 2})  # 9 on the King
    assert err.rule == "stapelen.wrap" and "only an Ace goes on a King" in err.message
    rec.add("take", 1, {"column": 5, "foundation": 2})  # A on K: the wrap
    rec.add("take", 0, {"column": 9, "foundation": 3})  # 3: seat 0 has no empty foundation left
    rec.add("take", 1, {"column": 6, "foundation": 2})  # 2 on A
    assert rec.state.tops(0) == (6, 6, 3) and rec.state.tops(1) == (7, 2, 0)
    err = violation(rec, "take", 0, {"column": 11})  # an 8 fits seat 1's 7, none of seat 0's
    assert err.rule == "stapelen.own_foundation"
    err = violation(rec, "take", 0, {"column": 11, "foundation": 1})
    assert err.rule == "stapelen.own_foundation"
    rec.add("take", 0, {"column": 10})  # 4 on the 3 (the only foundation it fits)
    assert rec.state.tops(0) == (6, 6, 4)


def test_a_foundation_must_be_named_when_the_choice_matters():
    rec = scenario()
    rec.add("take", 0, {"column": 1})  # seat 0: 5
    rec.add("take", 1, {"column": 3})
    with pytest.raises(MalformedEvent) as exc:  # the 6 fits on the 5 and on an empty foundation
        rec.add("take", 0, {"card": "6H"})
    assert exc.value.details["field"] == "foundation"
    assert rec.add("take", 0, {"card": "6H", "foundation": 3})["foundation"] == 3


@pytest.mark.rule("stapelen.unlimited")
def test_a_foundation_grows_past_thirteen_cards():
    cols = deal_with_tops(TOPS)
    ids = {c: i for i, c in enumerate(CARD_IDS)}
    # seat 0's first foundation already holds A..K (13 cards); the Ace of column 5 goes on it as the 14th
    pile = tuple(ids[r + "C"] for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
    state = State(columns=tuple(tuple(ids[c] for c in col) for col in cols), first=1,
                  foundations=((pile, (), ()), ((), (), ())), heights=(4, 4, 4, 4, 4, 0, 0, 0, 3, 4, 4, 4, 4))
    assert state.to_move == 0  # 13 cards taken
    assert GAME.normalize(state, "take", 0, {"column": 5, "foundation": 1}) == {"column": 5, "card": "AS", "foundation": 1}
    after = GAME.apply(state, "take", 0, {"column": 5, "card": "AS", "foundation": 1})
    assert len(after.foundations[0][0]) == 14 and after.tops(0)[0] == 1


@pytest.mark.rule("stapelen.top_cards")
def test_only_top_cards_can_be_taken():
    cols = deal_with_tops(TOPS)
    rec = rec_with(cols)
    err = violation(rec, "take", 0, {"card": cols[2][1]})
    assert err.rule == "stapelen.top_cards" and "under 2 card" in err.message
    err = violation(rec, "take", 0, {"column": 1, "card": cols[2][3]})
    assert err.rule == "stapelen.top_cards"


@pytest.mark.rule("stapelen.no_moving")
def test_no_card_moves_between_columns_or_back_from_a_foundation():
    assert set(GAME.event_types) == {"deal", "take"}
    rec = play_random("stapelen", 5)
    dealt = next(e for e in rec.log if e["type"] == "deal")["data"]["columns"]
    view = rec.ms.view(None)
    for c in range(13):
        assert view["columns"][c] == dealt[c][: len(view["columns"][c])]
    state = State(columns=rec.state.columns, heights=(0,) + (4,) * 12)
    with pytest.raises(RuleViolation) as exc:
        GAME.normalize(state, "take", 0, {"column": 1})
    assert exc.value.rule == "stapelen.no_moving"
    # a card on a foundation cannot be taken again
    rec2 = rec_with(deal_with_tops(TOPS))
    rec2.add("take", 0, {"column": 1})
    err = violation(rec2, "take", 1, {"card": "5S"})
    assert err.rule == "stapelen.top_cards" and "no longer on the tableau" in err.message


def three_left(first: int = 0) -> State:
    """Three cards left, one per column (5H, 9H, AH), seat 1 to move. Seat 0
    needs a 3 on every foundation; seat 1 needs 5, 9 and an Ace."""
    ids = {c: i for i, c in enumerate(CARD_IDS)}
    last = [ids["5H"], ids["9H"], ids["AH"]]
    rest = [c for c in range(52) if c not in last]
    cols = []
    for c in range(13):
        bottom = last[c] if c < 3 else rest.pop()
        cols.append((bottom, rest.pop(), rest.pop(), rest.pop()))
    seat0 = ((ids["2S"],), (ids["2C"],), (ids["2D"],))
    seat1 = ((ids["4S"],), (ids["8S"],), (ids["KS"],))
    return State(columns=tuple(cols), heights=(1, 1, 1) + (0,) * 10, first=first, foundations=(seat0, seat1))


@pytest.mark.rule("stapelen.loss_strict")
def test_the_strict_rule_loses_even_when_the_partner_could_play_the_last_cards():
    state = three_left()
    assert state.to_move == 1
    after = GAME.apply(state, "take", 1, {"column": 1, "card": "5H", "foundation": 1})
    # two cards left (9H, AH): both fit seat 1's foundations, none of seat 0's
    res = GAME.result(after)
    assert res is not None and res.outcome == "loss" and res.winners == ()
    assert "strict" in str(res.reason) and after.left == 2
    assert GAME.actors(after) == ()


@pytest.mark.rule("stapelen.win")
def test_clearing_the_tableau_wins_for_both():
    from engine.stapelen.solver import solve

    rec = Recorder("stapelen", mode="simulated", seed=8)
    sol = solve(rec.state)
    assert sol.status == "win"
    for move in sol.line:
        rec.play(move)
    res = rec.ms.result
    assert res.outcome == "win" and res.winners == (0, 1) and res.scores == (26, 26)


def test_views_describe_annotate_snapshots():
    rec = play_random("stapelen", 3)
    ms = rec.ms
    assert GAME.view(ms.state, 0) == GAME.view(ms.state, None) == GAME.view(ms.state, "referee")
    assert rec.replayed().state == rec.state
    enc = GAME.encode_state(rec.state)
    assert GAME.decode_state(json.loads(json.dumps(enc))) == rec.state
    assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(Recorder("stapelen").state)))) == Recorder("stapelen").state
    r2 = rec_with(deal_with_tops(TOPS))
    before = r2.state
    data = r2.add("take", 0, {"column": 1})
    assert str(GAME.describe(before, "take", 0, data, r2.state)).startswith("Ann takes ♠5 from column 1 onto foundation 1")
    assert GAME.annotate(before, "take", 0, data, r2.state)[0]["kind"] == "new_foundation"
    r2.undo()
    assert r2.state == before
