"""Twaalven en veertienen: every rule of the text, the events, views and snapshots."""

from __future__ import annotations

import json

import pytest

import engine.twaalven  # noqa: F401  (registers the game)
from engine import match as M
from engine.core import CHANCE, InvalidOptions, MalformedEvent, RuleViolation
from engine.jogledor.cards import CARD_IDS, RANK
from engine.jogledor.simulate import Recorder, play_random
from engine.twaalven import GAME
from engine.twaalven.game import State
from engine.twaalven.rules import PAIR_NAMES, QUOTA, TYPE

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def deal_with_tops(tops: list[str]) -> list[list[str]]:
    """13 columns whose top cards have the given ranks (suits assigned in
    order); the other 39 cards fill the columns underneath."""
    used: set[str] = set()

    def take(rank: str) -> str:
        for suit in "SHDC":
            cid = rank + suit
            if cid not in used:
                used.add(cid)
                return cid
        raise ValueError(rank)

    top_ids = [take(r) for r in tops]
    rest = [c for c in CARD_IDS if c not in used]
    return [[rest[3 * c], rest[3 * c + 1], rest[3 * c + 2], top_ids[c]] for c in range(13)]


def rec_with(columns, twelves=0, first=0, roles_in_options=True) -> Recorder:
    opts = {"twelves_seat": twelves, "first_seat": first} if roles_in_options else {}
    rec = Recorder("twaalven", opts)
    rec.add("deal", None, {"columns": columns})
    return rec


def violation(rec: Recorder, type_, seat, data) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        rec.add(type_, seat, data)
    return exc.value


SEEDED = {"seed": 7}


# -- registration ---------------------------------------------------------------

def test_registered_with_the_fixed_contract():
    assert (GAME.id, GAME.version, GAME.min_players, GAME.max_players) == ("twaalven", "1", 2, 2)
    assert GAME.summary and "\n" not in GAME.summary
    assert GAME.aliases["harten vrouw"] == "QH" and GAME.aliases["rijtje"] == "column"
    assert set(GAME.event_types) == {"deal", "roles", "take"}


def test_every_rule_id_has_a_marked_test(rules_covered):
    # the markers of the collected tests; the file's own markers too, so that a -k run still passes
    from pathlib import Path
    import re

    marked = set(rules_covered) | set(re.findall(r'mark\.rule\("([^"]+)"\)', Path(__file__).read_text()))
    missing = {r for r in GAME.rules if r not in marked}
    assert not missing, f"rules without a marked test: {sorted(missing)}"
    unknown = {r for r in marked if r.startswith(GAME.id + ".") and r not in GAME.rules}
    assert not unknown, f"markers naming no rule: {sorted(unknown)}"


# -- the deal ---------------------------------------------------------------------

@pytest.mark.rule("twaalven.deck")
def test_deal_missing_or_repeating_a_card_is_refused():
    cols = deal_with_tops(["A"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"])
    bad = [list(c) for c in cols]
    bad[0][0] = bad[1][0]  # one card twice, another missing
    rec = Recorder("twaalven")
    with pytest.raises(RuleViolation) as exc:
        rec.add("deal", None, {"columns": bad})
    assert exc.value.rule == "twaalven.deck"
    assert "repeated" in exc.value.message and "missing" in exc.value.message
    with pytest.raises(MalformedEvent):
        rec.add("deal", None, {"columns": bad[:12]})
    with pytest.raises(MalformedEvent):
        rec.add("deal", None, {"columns": [["XX"] * 4] * 13})


@pytest.mark.rule("twaalven.deck")
@pytest.mark.rule("twaalven.tableau")
def test_deal_forms_rows_cards_and_seed_are_stored_as_columns():
    cols = deal_with_tops(["K"] * 4 + ["Q"] * 4 + ["J"] * 4 + ["10"])
    rows = [[cols[c][layer] for c in range(13)] for layer in range(4)]
    flat = [cols[c][layer] for layer in range(4) for c in range(13)]
    stored = []
    for data in ({"columns": cols}, {"rows": rows}, {"cards": flat}):
        rec = Recorder("twaalven")
        stored.append(rec.add("deal", None, data))
    assert stored[0] == stored[1] == stored[2] == {"columns": cols}
    rec = Recorder("twaalven")
    seeded = rec.add("deal", None, SEEDED)
    assert list(seeded) == ["columns"] and len({c for col in seeded["columns"] for c in col}) == 52
    assert Recorder("twaalven").add("deal", None, SEEDED) == seeded  # the same seed, the same deal
    # Dutch names are accepted and stored canonically
    dutch = [list(c) for c in cols]
    assert cols[0][3] == "KS"
    dutch[0][3] = "schoppen heer"
    dutch[1][3] = "King of hearts"
    assert Recorder("twaalven").add("deal", None, {"columns": dutch}) == {"columns": cols}


@pytest.mark.rule("twaalven.tableau")
def test_the_last_dealt_card_of_a_column_is_its_top():
    cols = deal_with_tops(["A", "J"] + ["2"] * 4 + ["3"] * 4 + ["4"] * 3)
    rec = rec_with(cols)
    view = rec.ms.view(None)
    assert view["tops"] == [c[3] for c in cols]
    assert view["columns"] == cols and view["left"] == 52
    # a simulated match deals from its seed
    sim = Recorder("twaalven", mode="simulated", seed=3)
    assert sim.state.columns is not None and GAME.actors(sim.state) == ("table",)


# -- roles --------------------------------------------------------------------------

@pytest.mark.rule("twaalven.roles")
@pytest.mark.rule("twaalven.first")
def test_roles_are_chosen_after_the_deal_and_once():
    rec = Recorder("twaalven")
    assert GAME.actors(rec.state) == (CHANCE,)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "roles", None, {"twelves": 0, "first": 1})
    assert exc.value.rule == "twaalven.first"
    rec.add("deal", None, SEEDED)
    assert GAME.actors(rec.state) == ("table",)
    assert len(M.legal_moves(rec.ms, None)) == 4
    rec.add("roles", None, {"twelves": 1, "first": 0})
    assert rec.state.kind(0) == 14 and rec.state.kind(1) == 12 and rec.state.to_move == 0
    view = rec.ms.view(0)
    assert (view["twelves"], view["fourteens"], view["first"]) == (1, 0, 0)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "roles", None, {"twelves": 0, "first": 0})
    assert exc.value.rule == "twaalven.roles"


@pytest.mark.rule("twaalven.roles")
def test_roles_fixed_in_the_options_skip_the_roles_event():
    rec = rec_with(deal_with_tops(["Q", "K"] + ["A"] * 4 + ["2"] * 4 + ["3"] * 3), twelves=1, first=1)
    assert rec.state.twelves == 1 and GAME.actors(rec.state) == (1,)
    with pytest.raises(InvalidOptions):
        M.make_setup("twaalven", ["a", "b"], {"twelves_seat": 0})


# -- pairs --------------------------------------------------------------------------

@pytest.mark.rule("twaalven.values")
@pytest.mark.rule("twaalven.pairs_twelve")
@pytest.mark.rule("twaalven.pairs_fourteen")
def test_the_pairs_are_exactly_those_of_the_text():
    value = {r: i + 1 for i, r in enumerate(RANKS)}
    twelves = {frozenset(p) for p in [("Q", "K"), ("A", "J"), ("2", "10"), ("3", "9"), ("4", "8"), ("5", "7"), ("6",)]}
    fourteens = {frozenset(p) for p in [("A", "K"), ("2", "Q"), ("3", "J"), ("4", "10"), ("5", "9"), ("6", "8"), ("7",)]}
    for a in RANKS:
        for b in RANKS:
            pair = frozenset((a, b))
            assert (TYPE[12][value[a]][value[b]] >= 0) == (pair in twelves), (a, b)
            assert (TYPE[14][value[a]][value[b]] >= 0) == (pair in fourteens), (a, b)
            # fourteen is the plain sum with Q=12, K=13; twelve the plain sum except Q+K
            assert (pair in fourteens) == (value[a] + value[b] == 14)
            assert (pair in twelves) == (value[a] + value[b] == 12 and "Q" not in pair and "K" not in pair
                                         or pair == frozenset(("Q", "K")))


@pytest.mark.rule("twaalven.values")
@pytest.mark.rule("twaalven.pairs_twelve")
def test_queen_and_king_are_a_twelve_and_not_a_fourteen():
    cols = deal_with_tops(["Q", "K", "2", "A", "J", "3"] + ["4"] * 4 + ["5"] * 3)
    rec = rec_with(cols, twelves=0, first=0)
    data = rec.add("take", 0, {"cards": [cols[1][3], cols[0][3]]})
    assert data == {"columns": [1, 2], "cards": [cols[0][3], cols[1][3]]}
    rec2 = rec_with(cols, twelves=1, first=0)  # seat 0 collects fourteens
    err = violation(rec2, "take", 0, {"columns": [1, 2]})
    assert err.rule == "twaalven.pairs_fourteen" and "other player's" in err.message
    rec2.add("take", 0, {"columns": [1, 3]})  # 2 + Q = 14: the Queen counts 12


@pytest.mark.rule("twaalven.pairs_fourteen")
@pytest.mark.rule("twaalven.values")
def test_ace_and_king_are_a_fourteen_and_jack_counts_eleven():
    cols = deal_with_tops(["A", "K", "J", "3", "A", "J"] + ["4"] * 4 + ["5"] * 3)
    rec = rec_with(cols, twelves=1, first=0)  # seat 0: fourteens
    rec.add("take", 0, {"cards": [cols[0][3], cols[1][3]]})  # A + K
    rec.add("take", 1, {"cards": [cols[4][3], cols[5][3]]})  # A + J = 12
    rec.add("take", 0, {"cards": [cols[2][3], cols[3][3]]})  # 3 + J = 14
    assert [len(t) for t in rec.state.taken] == [2, 1]


@pytest.mark.rule("twaalven.suits")
def test_suits_do_not_matter():
    cols = deal_with_tops(["Q", "K", "Q", "K"] + ["A"] * 4 + ["2"] * 4 + ["3"])
    assert (cols[0][3], cols[3][3]) == ("QS", "KH")  # a black Queen and a red King
    rec = rec_with(cols)
    rec.add("take", 0, {"columns": [1, 4]})  # a Queen and a King of any suits
    assert rec.state.turns == 1


def test_a_non_pair_is_refused_naming_the_pairs():
    cols = deal_with_tops(["Q", "K", "2", "A", "J", "3"] + ["4"] * 4 + ["5"] * 3)
    rec = rec_with(cols)
    err = violation(rec, "take", 0, {"columns": [3, 4]})
    assert err.rule == "twaalven.pairs_twelve" and "Q-K, A-J" in err.message


# -- turns and taking ---------------------------------------------------------------

@pytest.mark.rule("twaalven.turns")
def test_turns_alternate_and_cannot_be_skipped():
    rec = rec_with(deal_with_tops(["Q", "K", "2", "A", "J", "3", "9", "5", "7"] + ["4"] * 4))
    assert GAME.actors(rec.state) == (0,)
    with pytest.raises(RuleViolation) as exc:
        rec.add("take", 1, {"columns": [5, 6]})
    assert exc.value.rule == "core.turn"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "take", 1, {"columns": [5, 6], "cards": [CARD_IDS[rec.state.top(4)], CARD_IDS[rec.state.top(5)]]})
    assert exc.value.rule == "twaalven.turns"
    rec.add("take", 0, {"columns": [1, 2]})
    assert GAME.actors(rec.state) == (1,)
    # no pass: the only moves on offer are pairs
    assert {m["type"] for m in M.legal_moves(rec.ms, 1)} == {"take"}
    assert "pass" not in GAME.event_types


@pytest.mark.rule("twaalven.top_cards")
def test_only_top_cards_can_be_taken():
    cols = deal_with_tops(["Q", "K", "2", "A", "J", "3"] + ["4"] * 4 + ["5"] * 3)
    rec = rec_with(cols)
    err = violation(rec, "take", 0, {"cards": [cols[0][3], cols[1][2]]})
    assert err.rule == "twaalven.top_cards" and "under 1 card" in err.message
    err = violation(rec, "take", 0, {"columns": [1, 2], "cards": [cols[0][3], cols[2][3]]})
    assert err.rule == "twaalven.top_cards"


@pytest.mark.rule("twaalven.different_columns")
def test_a_pair_comes_from_two_columns():
    rec = rec_with(deal_with_tops(["Q", "K", "2", "A", "J", "3"] + ["4"] * 4 + ["5"] * 3))
    err = violation(rec, "take", 0, {"columns": [2, 2]})
    assert err.rule == "twaalven.different_columns"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "take", 0, {"columns": [2, 2], "cards": ["KS", "KS"]})
    assert exc.value.rule == "twaalven.different_columns"


@pytest.mark.rule("twaalven.no_moving")
def test_cards_never_move_and_an_empty_column_stays_empty():
    assert set(GAME.event_types) == {"deal", "roles", "take"}  # no event moves a card
    state = State(columns=tuple(tuple(range(c * 4, c * 4 + 4)) for c in range(13)), heights=(0,) + (4,) * 12,
                  twelves=0, first=0)
    with pytest.raises(RuleViolation) as exc:
        GAME.normalize(state, "take", 0, {"columns": [1, 2]})
    assert exc.value.rule == "twaalven.no_moving"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, "take", 0, {"columns": [1, 2], "cards": ["AS", "2S"]})
    assert exc.value.rule == "twaalven.no_moving"
    rec = play_random("twaalven", 11)
    dealt = next(e for e in rec.log if e["type"] == "deal")["data"]["columns"]
    view = rec.ms.view(None)
    for c in range(13):  # every column only ever lost cards from its top
        assert view["columns"][c] == dealt[c][: len(view["columns"][c])]


# -- the end ------------------------------------------------------------------------

@pytest.mark.rule("twaalven.win")
def test_clearing_the_tableau_wins_for_both():
    from engine.twaalven.solver import solve

    rec = Recorder("twaalven", mode="simulated", seed=21)
    sol = solve(rec.state)
    assert sol.status == "win"
    for move in sol.line:
        rec.play(move)
    res = rec.ms.result
    assert res.outcome == "win" and res.winners == (0, 1) and res.scores == (26, 26)
    assert GAME.actors(rec.state) == () and rec.state.left == 0
    counts = [GAME.pair_counts(rec.state, s) for s in (0, 1)]
    for s in (0, 1):  # every pair type exactly its quota (tactics section)
        assert all(counts[s][name] == QUOTA[PAIR_NAMES.index(name)] for name in counts[s])
    with pytest.raises(RuleViolation) as exc:
        rec.add("take", 0, {"columns": [1, 2]})
    assert exc.value.rule == "core.finished"


@pytest.mark.rule("twaalven.loss")
def test_the_player_to_move_without_a_pair_loses_for_both():
    # tops: Q K and only A, 2, 3 besides: after Q+K the fourteen player has no pair
    cols = deal_with_tops(["Q", "K"] + ["A"] * 4 + ["2"] * 4 + ["3"] * 3)
    rec = rec_with(cols, twelves=0, first=0)
    assert [m["data"]["columns"] for m in M.legal_moves(rec.ms, 0)] == [[1, 2]]
    rec.add("take", 0, {"columns": [1, 2]})
    res = rec.ms.result
    assert res.outcome == "loss" and res.winners == () and "Bob (collects fourteens) cannot take" in str(res.reason)
    assert GAME.actors(rec.state) == ()


@pytest.mark.rule("twaalven.loss")
def test_a_starter_without_a_pair_loses_at_once():
    cols = deal_with_tops(["A"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"])
    rec = rec_with(cols, twelves=0, first=0, roles_in_options=False)
    rec.add("roles", None, {"twelves": 1, "first": 1})  # the twelve player starts: A,2,3,4 make no twelve
    assert rec.ms.result.outcome == "loss"


# -- views, descriptions, snapshots ----------------------------------------------

def test_everything_is_face_up_so_all_views_agree():
    rec = play_random("twaalven", 4, mode="physical")
    ms = rec.ms
    assert GAME.view(ms.state, 0) == GAME.view(ms.state, 1) == GAME.view(ms.state, None) == GAME.view(ms.state, "referee")
    for event in rec.log[1:]:
        assert M.event_view(ms, event, 0) == event


def test_describe_and_annotate_a_take():
    cols = deal_with_tops(["Q", "K", "2", "A", "J", "3"] + ["4"] * 4 + ["5"] * 3)
    rec = rec_with(cols)
    before = rec.state
    data = rec.add("take", 0, {"columns": [1, 2]})
    text = GAME.describe(before, "take", 0, data, rec.state)
    assert str(text).startswith("Ann takes ♠Q (column 1) and ♠K (column 2): 12")
    # in Dutch, the cards as a Dutch table writes them (the catalogue's words, engine/text.py)
    from service.web.i18n import language
    assert text.render(language("nl")).startswith("Ann neemt ♠V (rijtje 1) en ♠H (rijtje 2): 12")
    notes = GAME.annotate(before, "take", 0, data, rec.state)
    assert notes[0]["pair"] == "Q-K" and notes[0]["count"] == 1 and notes[0]["quota"] == 2


def test_a_pair_over_its_quota_is_flagged():
    six = [c for c in range(52) if RANK[c] == 6]
    cols = [tuple(range(c * 4, c * 4 + 4)) for c in range(13)]
    cols[0] = (0, 1, 2, six[2])
    cols[1] = (4, 6, 7, six[3])
    # the twelve player (seat 0) took 6-6 once already and takes it a second time
    before = State(columns=tuple(cols), twelves=0, first=0, taken=(((six[0], six[1]),), ((12, 13),)))
    data = GAME.normalize(before, "take", 0, {"columns": [1, 2]})
    after = GAME.apply(before, "take", 0, data)
    notes = GAME.annotate(before, "take", 0, data, after)
    assert notes[0]["pair"] == "6-6" and notes[0]["count"] == 2 and notes[0]["quota"] == 1
    assert notes[-1]["kind"] == "over_quota" and notes[-1]["glyph"] == "??"


def test_snapshots_round_trip_and_replay_is_identical():
    for seed in range(5):
        rec = play_random("twaalven", seed)
        again = rec.replayed()
        assert again.state == rec.state
        for state in (rec.state, Recorder("twaalven").state):
            enc = GAME.encode_state(state)
            assert GAME.decode_state(json.loads(json.dumps(enc))) == state
        snap = M.encode(rec.ms)
        assert M.decode(rec.setup, json.loads(json.dumps(snap))).state == rec.state


def test_undo_takes_back_a_pair():
    rec = Recorder("twaalven", mode="simulated", seed=2)
    rec.add("roles", None, {"twelves": 0, "first": 0})
    before = rec.state
    move = M.legal_moves(rec.ms, 0)[0]
    rec.play(move)
    rec.undo()
    assert rec.state == before
