"""Views never show a seat another seat's hidden cards (B, D, E), and the public
view shows nobody's. Checked as a property: changing what a seat cannot see
must not change its view."""

import json

import pytest
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.braverats.state import evolve
from engine.core import CHANCE, REFEREE
from engine.text import to_json  # (a view holds messages: said as their JSON)

from .braverats_support import CARDS, GAME, Rec

HIDDEN_VARIANTS = [["B"], ["D"], ["E"], ["B", "D"], ["B", "E"], ["A", "B"], ["A", "E"], ["A", "B", "D"], ["B", "C", "E"], ["G", "D"]]


def shift(cards, to=0):
    """Other cards, as many: what the viewer must not be able to tell apart."""
    if cards and set(cards) == {to}:
        to = (to + 1) % 8
    return (to,) * len(cards)


def scramble(state, seat):
    """The state with everything ``seat`` keeps secret replaced by other cards,
    plus every card nobody sees (the draft stack, the unseen pool)."""
    hands = list(state.hands)
    h = hands[seat]
    hands[seat] = h._replace(known=shift(h.known), own=shift(h.own, 5))
    pending = list(state.pending)
    if pending[seat] is not None and state.spy_first != seat:
        pending[seat] = (pending[seat] + 1) % 8
    changes = dict(hands=tuple(hands), pending=tuple(pending), deck=shift(state.deck), pool=shift(state.pool))
    if state.offer and state.picker == seat:
        changes["offer"] = shift(state.offer)
    return evolve(state, **changes)


def seen_in_view(view, seat):
    """The cards of ``seat`` that a view shows on the table: played in resolved
    rounds (of any game of a series) or face up now."""
    rounds = list(view["rounds"]) + [r for g in view.get("series", {}).get("games", []) for r in g["rounds"]]
    seen = {r["cards"][seat] for r in rounds}
    if view["table"][seat]["face_up"]:
        seen.add(view["table"][seat]["card"])
    return seen


def check_log(rec):
    """No viewer sees, in the log, a card of another seat its view does not show."""
    over = rec.ms.result is not None
    for viewer in (0, 1, None):
        view = GAME.view(rec.state, viewer)
        for event in rec.log[1:]:
            shown = M.event_view(rec.ms, event, viewer)
            others = [s for s in (0, 1) if s != viewer]
            kind, data = shown["type"], shown["data"]
            if over:
                assert shown == event
            elif kind == "play" and event["seat"] in others and not shown.get("redacted"):
                assert data["card"] in seen_in_view(view, event["seat"]), (viewer, event)
            elif kind in ("pick", "draft") and event["seat"] != viewer:
                assert "hidden" in json.dumps(data) and not set(json.dumps(data).split('"')) & set(CARDS)
            elif kind in ("draw", "deal"):
                field = "cards" if kind == "draw" else "hands"
                for s in others:
                    assert set(data[field][s]) <= {"hidden"}


def check_views(state):
    if not state.spec.hands_hidden:
        return
    for viewer in (0, 1):
        other = 1 - viewer
        view = GAME.view(state, viewer)
        assert view == GAME.view(scramble(state, other), viewer)
        assert view["hands"][other]["cards"] is None
        if state.pending[other] is not None and state.spy_first != other:
            assert view["table"][other]["card"] is None
        if "draft" in view and state.picker != viewer:
            assert view["draft"]["offer"] is None
        json.dumps(to_json(view))
    public = GAME.view(state, None)
    assert public == GAME.view(scramble(scramble(state, 0), 1), None)
    assert public["hands"][0]["cards"] is None and public["hands"][1]["cards"] is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variants=st.sampled_from(HIDDEN_VARIANTS),
    seed=st.integers(0, 10_000),
    plays=st.booleans(),
)
def test_views_and_log_never_leak_hidden_cards(variants, seed, plays):
    rec = Rec({"variants": variants}, mode="simulated", seed=seed)
    rng = random.Random(seed)
    check_views(rec.state)
    for _ in range(300):
        if rec.ms.result is not None:
            break
        if rec.ms.depth > 1 and rng.random() < 0.1:
            rec.undo()
        else:
            actors = [a for a in GAME.actors(rec.state) if a != CHANCE]
            seats = [a for a in actors if a != "table"]
            seat = rng.choice(seats) if (plays or "table" not in actors) and seats else None
            move = rng.choice(M.legal_moves(rec.ms, seat))
            rec.add(move["type"], move["seat"], move["data"])
        check_views(rec.state)
        check_log(rec)
    assert rec.ms.result is not None
    check_log(rec)


def test_scramble_does_change_what_the_referee_sees():
    # the property above is not vacuous: the scrambled parts are really there
    rec = Rec({"variants": ["D"]}, mode="simulated", seed=5)
    assert GAME.view(rec.state, REFEREE) != GAME.view(scramble(rec.state, 0), REFEREE)
    assert GAME.view(rec.state, 0) != GAME.view(scramble(rec.state, 0), 0)
    rec = Rec({"variants": ["E"]}, mode="simulated", seed=5)
    assert GAME.view(rec.state, 1) != GAME.view(scramble(rec.state, 1), 1)


def test_descriptions_of_hidden_moves_name_no_card():
    rec = Rec({"variants": ["D", "B"]}, mode="simulated", seed=9)
    play = random.Random(2)
    while rec.state.phase == "draft":
        seat = GAME.actors(rec.state)[0]
        rec.add("pick", seat, play.choice(M.legal_moves(rec.ms, seat))["data"])
    rec.add("play", 0, {"card": CARDS[rec.state.hands[0].known[0]]})
    for before, type_, seat, data, after in rec.steps:
        if type_ in ("draft", "pick", "draw", "deal", "play"):
            text = str(GAME.describe(before, type_, seat, data, after)).lower()
            assert not any(card in text for card in CARDS), text


# -- the log as each viewer may see it ------------------------------------------------

def log_as(rec: Rec, viewer):
    return [M.event_view(rec.ms, e, viewer) for e in rec.log]


def test_face_down_play_is_hidden_in_the_log_until_the_round_resolves():
    rec = Rec()
    rec.add("play", 0, {"card": "prince"})
    for viewer in (1, None):
        ev = log_as(rec, viewer)[1]
        assert ev["data"] == {"card": "hidden"} and ev["redacted"] is True
    assert log_as(rec, 0)[1]["data"] == {"card": "prince"}
    assert log_as(rec, REFEREE)[1] == rec.log[1]
    rec.add("play", 1, {"card": "spy"})
    for viewer in (0, 1, None):
        assert [e["data"] for e in log_as(rec, viewer)[1:]] == [{"card": "prince"}, {"card": "spy"}]
    # Blue's Spy: Red now plays first, face up, so Red's next play is seen at once
    rec.add("play", 0, {"card": "wizard"})
    assert log_as(rec, 1)[-1]["data"] == {"card": "wizard"}
    rec.add("play", 1, {"card": "general"})
    # while Blue has a card face down, none of Blue's plays is shown (which one is pending cannot be told)
    rec.add("play", 1, {"card": "princess"})
    assert [e["data"] for e in log_as(rec, 0) if e["type"] == "play" and e["seat"] == 1] == [{"card": "hidden"}] * 3


def test_the_whole_log_is_shown_once_the_match_is_over():
    rec = Rec({"variants": ["B", "E"]}, mode="simulated", seed=4)
    assert log_as(rec, None)[1]["redacted"]
    from .braverats_support import play_random

    play_random(rec, random.Random(4))
    assert log_as(rec, None) == rec.log and log_as(rec, 1) == rec.log


def test_undone_face_down_play_stays_hidden():
    rec = Rec({"variants": ["E"]})
    red = ["musician", "musician", "princess", "princess", "spy", "spy", "prince", "prince"]
    rec.add("deal", None, {"hands": [red, ["unknown"] * 8]})
    rec.add("play", 0, {"card": "prince"})
    rec.undo()
    rec.add("play", 0, {"card": "spy"})
    rec.add("play", 1, {"card": "general"})
    plays = [e for e in log_as(rec, 1) if e["type"] == "play"]
    assert [e["data"]["card"] for e in plays] == ["hidden", "spy", "general"]
    assert "prince" not in json.dumps([e for e in log_as(rec, None) if e["type"] == "play"])


def test_dealt_drawn_and_drafted_cards_are_seen_only_by_their_seat():
    rec = Rec({"variants": ["E", "B"]})
    red = ["musician", "musician", "princess", "princess", "spy", "spy", "prince", "prince"]
    blue = ["assassin", "assassin", "ambassador", "ambassador", "wizard", "wizard", "general", "general"]
    rec.add("deal", None, {"hands": [red, blue]})
    rec.add("draw", None, {"cards": [["spy", "prince", "unknown"], ["wizard", "general", "assassin"]]})
    deal, draw = log_as(rec, 0)[1:3]
    assert deal["data"]["hands"] == [red, ["hidden"] * 8] and deal["redacted"]
    assert draw["data"]["cards"] == [["spy", "prince", "unknown"], ["hidden"] * 3]
    deal, draw = log_as(rec, None)[1:3]
    assert deal["data"]["hands"] == [["hidden"] * 8] * 2 and draw["data"]["cards"] == [["hidden"] * 3] * 2
    rec.round("prince", "general")
    rec.add("draw", None, {"cards": [["unknown"], ["general"]]})
    assert log_as(rec, 1)[-1]["data"]["cards"] == [["hidden"], ["general"]]

    rec = Rec({"variants": ["D"]})
    rec.add("draft", 0, {"cards": ["prince", "spy", "prince", "musician"]})
    rec.add("pick", 0, {"card": "prince"})
    assert log_as(rec, 1)[1]["data"] == {"cards": ["hidden"] * 4}
    assert log_as(rec, 1)[2]["data"] == {"card": "hidden"}
    assert log_as(rec, 0)[1:3] == rec.log[1:3]
    rec.add("pick", 1, {"card": "spy"})
    assert log_as(rec, 0)[3]["data"] == {"card": "hidden"} and log_as(rec, 1)[3] == rec.log[3]


@pytest.mark.rule("braverats.one_card_per_round")
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), rounds=st.integers(0, 6), seat=st.sampled_from([0, 1]))
def test_a_face_down_play_changes_nothing_the_others_see(seed, rounds, seat):
    """Whatever card a seat lays face down, the other seat's view and the
    public view are the same (unless a Spy made it play face up)."""
    rng = random.Random(seed)
    ms = M.start(M.make_setup("braverats", ["A", "B"]))
    for _ in range(rounds):
        moves = M.legal_moves(ms, None)
        if not moves:
            return
        move = rng.choice(moves)
        ms = M.apply_event(ms, ms.seq + 1, move["type"], None, move["data"])
    plays = M.legal_moves(ms, seat)
    if len(plays) < 2 or ms.state.spy_first == seat:
        return
    views = set()
    for move in plays:
        after = M.apply_event(ms, ms.seq + 1, "play", seat, move["data"])
        views.add((json.dumps(to_json(after.view(1 - seat)), sort_keys=True), json.dumps(to_json(after.view(None)), sort_keys=True)))
    assert len(views) == 1
