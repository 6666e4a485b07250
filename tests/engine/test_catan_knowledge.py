"""What each viewer knows of each hand: known cards plus unseen ones, narrowed
only by what the table saw; views and event views never show more.

The brute-force check: at every steal and development-card draw of simulated
games, the hidden card is replaced by every other card it could have been and
the rest of the log replayed as far as it stays legal; every viewer not
entitled to the card (the public, the other seats) reads exactly the same
views and event views in every one of those worlds."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.catan import knowledge as K
from engine.catan.game import DEV, RES
from engine.catan.simulate import play_game
from engine.core import KroniekError, RuleViolation

from .catan_support import G, act, counts, give, hand, new, place


# -- the knowledge operations ---------------------------------------------------------------

def test_pay_takes_known_cards_first_then_matches_unseen_ones():
    h = K.Hand((1, 0, 0, 0, 0), ((0b00110, 7), (0b01000, 9)))  # brick|wool since 7, grain since 9
    assert K.can_pay(h, (1, 1, 0, 1, 0))
    assert not K.can_pay(h, (0, 1, 1, 0, 0))  # one unseen card cannot be both brick and wool
    after = K.pay(h, (1, 1, 0, 0, 0))
    assert after == K.Hand((0, 0, 0, 0, 0), ((0b01000, 9),))
    with pytest.raises(K.Contradiction) as exc:
        K.pay(h, (0, 0, 0, 0, 1))
    assert exc.value.origins == (7, 9)


def test_paying_with_one_of_several_unseen_cards_widens_the_rest():
    h = K.Hand((0, 0, 0, 0, 0), ((0b00011, 1), (0b00110, 2)))
    after = K.pay(h, (0, 1, 0, 0, 0))
    assert after.size == 1 and after.unseen[0][0] == 0b00111


def test_a_card_lost_unseen_could_be_any_the_hand_might_hold():
    h = K.Hand((2, 0, 0, 0, 1), ())
    after, mask = K.lose_random(h, 3)
    assert mask == 0b10001 and after.size == 2
    assert after.known == (1, 0, 0, 0, 0) and after.unseen == ((0b10001, 3),)


def test_a_monopoly_count_outside_what_the_hand_can_hold_is_a_contradiction():
    h = K.Hand((0, 0, 1, 0, 0), ((0b00100, 1), (0b00101, 2)))
    assert K.give_all(h, 2, 3, 5) == K.Hand()
    assert K.give_all(h, 2, 2, 5) == K.Hand((0, 0, 0, 0, 0), ((0b00001, 5),))
    with pytest.raises(K.Contradiction):
        K.give_all(h, 2, 1, 5)
    with pytest.raises(K.Contradiction):
        K.give_all(h, 2, 4, 5)


# -- what each viewer sees --------------------------------------------------------------------

def robbed():
    """Seat 0 stole a wool from seat 1 (who held 1 wool and 2 ore); the log saw it."""
    s = new(4)._replace(phase=2, turn=0, turn_no=1)
    v = next(v for v in s.topo.hex_vertices[s.topo.hex_index[(0, -1)]])
    s = place(s, 1, vertices=[v])
    s = give(s, 1, {"wool": 1, "ore": 2})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [3, 4]})
    s = act(s, "move_robber", 0, {"hex": [0, -1], "victim": 1})
    return act(s, "steal", 0, {"card": "wool"})


def test_a_steal_is_seen_by_thief_and_victim_only():
    s = robbed()
    assert hand(s, 0).known == counts({"wool": 1})
    assert hand(s, 1, 0).known == counts({"ore": 2})  # the thief knows what is left
    assert hand(s, 0, 1).known == counts({"wool": 1})  # the victim knows what was taken
    for viewer in (2, 3, "public"):
        h0, h1 = hand(s, 0, viewer), hand(s, 1, viewer)
        assert h0.known == (0, 0, 0, 0, 0) and [m for m, _ in h0.unseen] == [0b10100]
        assert h1.size == 2 and h1.known == counts({"ore": 1})
    public = G.view(s, None)
    assert public["players"][0]["hand"] == {"known": {}, "unseen": 1, "unseen_could_be": [["wool", "ore"]]}
    assert G.view(s, 0)["players"][0]["hand"] == {"known": {"wool": 1}, "unseen": 0}


def test_the_steal_event_is_redacted_for_everyone_else():
    s = robbed()
    event = {"seq": 9, "type": "steal", "seat": 0, "data": {"card": "wool", "from": 1}}
    assert G.event_view(s, event, 0) == event and G.event_view(s, event, 1) == event
    for viewer in (2, 3, None):
        seen = G.event_view(s, event, viewer)
        assert seen["redacted"] and seen["data"] == {"card": None, "from": 1}


def test_a_bought_card_is_known_to_the_buyer_only_until_played():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
    s = act(act(s, "buy_dev", 0), "draw_dev", 0, {"card": "monopoly"})
    assert G.view(s, 0)["players"][0]["development_known"] == {"monopoly": 1}
    for viewer in (1, None):
        p0 = G.view(s, viewer)["players"][0]
        assert p0["development_cards"] == 1 and p0["development_known"] == {} and "vp" not in p0
    event = {"seq": 5, "type": "draw_dev", "seat": 0, "data": {"card": "monopoly"}}
    assert G.event_view(s, event, 1)["data"] == {"card": None}
    assert G.event_view(s, event, 0) == event


def test_a_recorder_may_enter_a_stolen_card_as_unknown_and_the_log_narrows_it_later():
    s = new(4)._replace(phase=2, turn=0, turn_no=1)
    v = s.topo.hex_vertices[s.topo.hex_index[(0, -1)]][0]
    s = place(s, 1, vertices=[v])
    s = give(s, 1, {"brick": 1, "ore": 1})
    s = give(s, 0, {"lumber": 1})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [3, 4]})
    s = act(s, "move_robber", 0, {"hex": [0, -1], "victim": 1})
    s = act(s, "steal", 0, {"card": None})
    assert hand(s, 0).unseen and hand(s, 1).unseen  # the log itself does not know
    # seat 0 builds a road: only possible if the stolen card was the brick
    spot = next(x for x in range(len(s.buildings)) if G._distance_ok(s, x) and x != v)
    s = place(s, 0, vertices=[spot])
    road = s.topo.vertex_edges[spot][0]
    s = act(s, "build_road", 0, {"edge": road})
    assert hand(s, 0).exact and hand(s, 0).size == 0
    # and so the victim kept the ore: the log links the two hands
    assert hand(s, 1) == K.Hand(counts({"ore": 1}), ()) and s.worlds is None
    # the public only saw a road: for it the victim's last card is still ore or brick
    assert hand(s, 1, "public").size == 1 and not hand(s, 1, "public").exact


def test_the_stolen_card_cannot_be_spent_by_both_thief_and_victim():
    s = new(4)._replace(phase=2, turn=0, turn_no=1)
    v = s.topo.hex_vertices[s.topo.hex_index[(0, -1)]][0]
    s = place(s, 1, vertices=[v])
    s = give(give(give(s, 1, {"brick": 1, "ore": 1}), 0, {"lumber": 1}), 2, {"lumber": 1, "grain": 1})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [3, 4]})
    s = act(s, "move_robber", 0, {"hex": [0, -1], "victim": 1})
    s = act(s, "steal", 0, {"card": None})
    assert len(s.worlds) == 2  # Ann took the brick, or the ore
    s = act(s, "trade", 0, {"with": 1, "give": {"lumber": 1}, "get": {"brick": 1}})  # Bob still had the brick …
    # … so Ann stole the ore, and cannot pay a brick now
    assert s.worlds is None and hand(s, 0).known == counts({"brick": 1, "ore": 1})
    with pytest.raises(RuleViolation) as exc:
        act(s, "trade", 0, {"with": 2, "give": {"brick": 2}, "get": {"grain": 1}})
    assert exc.value.rule == "catan.hand"


def test_a_contradiction_across_hands_names_the_unseen_steal():
    s = new(4)._replace(phase=2, turn=0, turn_no=1)
    v = s.topo.hex_vertices[s.topo.hex_index[(0, -1)]][0]
    s = place(s, 1, vertices=[v])
    s = give(give(s, 1, {"brick": 1, "ore": 1}), 0, {"lumber": 1})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [3, 4]})
    s = act(s, "move_robber", 0, {"hex": [0, -1], "victim": 1})
    s = act(s, "steal", 0, {"card": None})
    # later Cor plays Monopoly on brick: the table saw Ann and Bob each hand one over — each hand alone
    # could, both together cannot (there was one brick): the recording is refused, naming the steal
    s = s._replace(turn=2, phase=7, dev=s.dev[:2] + (tuple(((0, 0, 0, 1, 0), 0) for _ in range(6)),) + s.dev[3:])
    with pytest.raises(RuleViolation) as exc:
        act(s, "play_monopoly", 2, {"resource": "brick", "given": {"0": 1, "1": 1, "3": 0}})
    assert exc.value.rule == "catan.hand" and "steal by Ann from Bob in turn 1" in exc.value.message
    after = act(s, "play_monopoly", 2, {"resource": "brick", "given": {"0": 0, "1": 1, "3": 0}})
    assert hand(after, 0).known == counts({"lumber": 1, "ore": 1}) and hand(after, 2).known[1] == 1


# -- brute force: no view depends on a card the viewer may not see ----------------------------------

def _alternatives(ms, event):
    """Other values the hidden card of ``event`` could have had at that point."""
    s = ms.state
    if event["type"] == "steal":
        held = s.hands[event["data"]["from"]][-1].known
        return [RES[r] for r in range(5) if held[r] and RES[r] != event["data"]["card"]]
    pool = s.pools[s.cfg.n + 1]
    return [DEV[k] for k in range(5) if pool[k] and DEV[k] != event["data"]["card"]]


def _check_world(log, i, card, viewers):
    """Replay ``log`` with event i's card replaced, as far as it stays legal;
    return the views and event views each viewer reads at every step."""
    setup = {**log[0]["data"], "mode": "physical", "seed": None}
    ms = M.start(setup)
    seen = []
    for j, e in enumerate(log[1:], start=1):
        data = {**e["data"], "card": card} if j == i else e["data"]
        try:
            data = M.normalize_event(ms, e["type"], e["seat"], data)
            ms = M.apply_event(ms, e["seq"], e["type"], e["seat"], data)
        except KroniekError:
            break
        if ms.result is not None:
            break  # the end of the game reveals (a victory point card may end it)
        if j >= i:
            seen.append({v: (ms.view(v), G.event_view(ms.state, {**e, "data": data}, v)) for v in viewers})
    return seen


def brute_force(players, seed, most=6):
    """Check up to ``most`` alternative cards; return how many were checked."""
    record = play_game(players, ["greedy"] * players, seed, keep_log=True, max_events=300)
    log = record["log"]
    checked = 0
    for i, e in enumerate(log):
        if e["type"] not in ("steal", "draw_dev") or e["data"].get("card") is None:
            continue
        entitled = {e["seat"], e["data"].get("from")}
        viewers = [None] + [p for p in range(players) if p not in entitled][:1]
        before = M.replay(log[:i])
        base = _check_world(log, i, e["data"]["card"], viewers)
        for alt in _alternatives(before, e):
            other = _check_world(log, i, alt, viewers)
            n = min(len(base), len(other))
            assert base[:n] == other[:n], (i, e, alt)
            checked += 1
        if checked >= most:
            break
    return checked


@pytest.mark.parametrize("players,seed", [(4, 1), (6, 2)])
def test_no_view_depends_on_a_hidden_card_in_these_games(players, seed):
    assert brute_force(players, seed) >= 3


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_no_view_depends_on_a_hidden_card(players, seed):
    brute_force(players, seed)


# -- development cards the recorder did not see ------------------------------------------------

def _own_turn_again(s):
    s = act(s, "end_turn", s.turn)
    for seat in range(1, s.cfg.n):
        s = act(act(s, "roll", seat), "dice", None, {"dice": [2, 3]})
        s = act(s, "end_turn", seat)
    return s


def test_an_unseen_development_card_is_accepted_when_played_and_the_deck_narrows():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
    s = act(act(s, "buy_dev", 0), "draw_dev", 0, {"card": None})
    ref = s.cfg.n + 1
    assert s.dev[0][ref] == ((0, 0, 0, 0, 0), 1) and s.pools[ref] == (14, 2, 2, 2, 5)
    s = _own_turn_again(s)
    s = act(s, "play_monopoly", 0, {"resource": "wool"})
    assert s.dev[0][ref] == ((0, 0, 0, 0, 0), 0) and s.pools[ref] == (14, 2, 2, 1, 5)
    assert s.pools[1] == (14, 2, 2, 1, 5)  # everyone saw a monopoly played


def test_a_draw_is_entered_with_the_buyers_seat():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
    s = act(s, "buy_dev", 0)
    from engine.core import MalformedEvent
    with pytest.raises(MalformedEvent) as exc:
        act(s, "draw_dev", None, {"card": "knight"})
    assert exc.value.details["field"] == "seat"


def test_a_card_the_deck_no_longer_holds_cannot_be_drawn():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    for _ in range(2):
        s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
        s = act(act(s, "buy_dev", 0), "draw_dev", 0, {"card": "monopoly"})
    s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
    s = act(s, "buy_dev", 0)
    with pytest.raises(RuleViolation) as exc:
        act(s, "draw_dev", 0, {"card": "monopoly"})
    assert exc.value.rule == "catan.dev_buy"


def test_a_snapshot_keeps_the_joint_knowledge():
    import json
    s = new(4)._replace(phase=2, turn=0, turn_no=1)
    v = s.topo.hex_vertices[s.topo.hex_index[(0, -1)]][0]
    s = place(s, 1, vertices=[v])
    s = give(give(s, 1, {"brick": 1, "ore": 1, "wool": 2}), 0, {"lumber": 1})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [3, 4]})
    s = act(act(s, "move_robber", 0, {"hex": [0, -1], "victim": 1}), "steal", 0, {"card": None})
    assert len(s.worlds) == 3
    again = G.decode_state(json.loads(json.dumps(G.encode_state(s))))
    assert again == s and again.worlds == s.worlds
