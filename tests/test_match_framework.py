"""The framework shared by all games: setup, undo, chance in simulated mode, replay."""

import pytest

from engine import match as M
from engine.core import InvalidOptions, MalformedEvent, RuleViolation
from tests.support.toy import ensure_registered

ensure_registered()


def play(ms, *events):
    for type_, seat, data in events:
        data = M.normalize_event(ms, type_, seat, data)
        ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
    return ms


def test_setup_fills_option_defaults_and_records_engine_version():
    setup = M.make_setup("toy", ["Ann", "Bob"])
    assert setup["options"] == {"target": 20}
    assert setup["engine_version"] == "1"
    assert setup["mode"] == "physical"


def test_setup_refuses_bad_options_and_player_counts():
    with pytest.raises(InvalidOptions):
        M.make_setup("toy", ["Ann", "Bob"], {"target": 2})
    with pytest.raises(InvalidOptions):
        M.make_setup("toy", ["Ann"])
    with pytest.raises(MalformedEvent):
        M.make_setup("toy", ["Ann", ""])


def test_a_log_from_another_engine_version_is_refused():
    setup = M.make_setup("toy", ["Ann", "Bob"])
    with pytest.raises(InvalidOptions, match="engine"):
        M.start({**setup, "engine_version": "0"})


@pytest.mark.rule("core.turn")
def test_only_the_seat_to_act_may_move():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    with pytest.raises(RuleViolation) as err:
        M.normalize_event(ms, "add", 1, {"n": 1})
    assert err.value.rule == "core.turn"


@pytest.mark.rule("core.chance")
def test_chance_outcome_only_at_a_chance_node():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    with pytest.raises(RuleViolation) as err:
        M.normalize_event(ms, "roll", None, {"value": 3})
    assert err.value.rule == "core.chance"


def test_unknown_type_and_bad_data_are_malformed_not_illegal():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    with pytest.raises(MalformedEvent, match="unknown event type"):
        M.normalize_event(ms, "jump", 0, {})
    with pytest.raises(MalformedEvent, match="invalid add data"):
        M.normalize_event(ms, "add", 0, {"n": "three"})
    with pytest.raises(MalformedEvent, match="seat"):
        M.normalize_event(ms, "add", 7, {"n": 1})


@pytest.mark.rule("core.undo")
def test_undo_reverts_the_latest_effective_move_and_can_repeat():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    ms = play(ms, ("add", 0, {"n": 3}), ("roll", None, {"value": 4}), ("add", 1, {"n": 2}))
    assert ms.state[0].total == 9
    ms = play(ms, ("undo", None, {}))
    assert ms.state[0].total == 7 and ms.undone == (4,)
    ms = play(ms, ("undo", None, {"seq": 3}))
    assert ms.state[0].total == 3 and ms.undone == (3,)
    ms = play(ms, ("undo", None, {}))
    assert ms.state[0].total == 0
    with pytest.raises(RuleViolation) as err:
        play(ms, ("undo", None, {}))
    assert err.value.rule == "core.undo"


def test_an_applied_event_gives_the_same_match_and_undo_step_as_their_constructors():
    # apply_event builds both without the frozen dataclasses' __init__ (speed):
    # they must still be those dataclasses, equal field for field
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    after = M.apply_event(ms, 2, "add", 0, {"n": 3})
    game = ms.game
    step = M.Step(seq=2, type="add", chance=False, before=ms.state, prev=None)
    assert type(after) is M.MatchState and type(after.stack) is M.Step
    assert after.stack == step
    assert after == M.MatchState(game, ms.setup, 2, game.apply(ms.state, "add", 0, {"n": 3}), step, 1, ())
    rolled = M.apply_event(after, 3, "roll", None, {"value": 4})
    assert rolled.stack.chance and rolled.stack.prev is after.stack and rolled.depth == 2
    with pytest.raises(AttributeError):  # still frozen
        rolled.seq = 9
    assert rolled.result is None and rolled.result is None  # computed once, then cached


@pytest.mark.rule("core.undo")
def test_undo_naming_the_wrong_seq_is_refused():
    ms = play(M.start(M.make_setup("toy", ["Ann", "Bob"])), ("add", 0, {"n": 1}))
    with pytest.raises(RuleViolation, match="latest effective move is seq 2"):
        play(ms, ("undo", None, {"seq": 5}))


@pytest.mark.rule("core.finished")
def test_no_move_after_the_end_but_undo_still_works():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"], {"target": 5}))
    ms = play(ms, ("add", 0, {"n": 3}), ("roll", None, {"value": 6}))
    assert ms.status == "finished" and ms.result.winners == (0,)
    with pytest.raises(RuleViolation) as err:
        play(ms, ("add", 1, {"n": 1}))
    assert err.value.rule == "core.finished"
    ms = play(ms, ("undo", None, {}))
    assert ms.status == "in_progress"


@pytest.mark.rule("core.simulated_chance")
def test_simulated_chance_is_drawn_by_the_server_and_replays_identically():
    setup = M.make_setup("toy", ["Ann", "Bob"], mode="simulated", seed=42)
    ms = M.start(setup)
    with pytest.raises(RuleViolation) as err:
        play(ms, ("add", 0, {"n": 1}), ("roll", None, {"value": 1}))
    assert err.value.rule == "core.simulated_chance"
    log = [{"seq": 1, "type": "setup", "seat": None, "data": setup}]
    for n in (1, 2, 3, 1):
        seat = ms.game.actors(ms.state)[0]
        ms = play(ms, ("add", seat, {"n": n}))
        log.append({"seq": ms.seq, "type": "add", "seat": seat, "data": {"n": n}})
        for type_, s, data in M.chance_events(ms, ms.seq + 1):
            ms = M.apply_event(ms, ms.seq + 1, type_, s, data)
            log.append({"seq": ms.seq, "type": type_, "seat": s, "data": data})
    again = M.replay(log)
    assert M.encode(again) == M.encode(ms)
    # A different roll than the seed draws is caught on replay.
    forged = [dict(e) for e in log]
    forged[2] = {**forged[2], "data": {"value": forged[2]["data"]["value"] % 6 + 1}}
    with pytest.raises(RuleViolation, match="seed"):
        M.replay(forged)


@pytest.mark.rule("core.undo", "core.simulated_chance")
def test_simulated_undo_takes_back_the_move_and_its_draw_and_redraws_the_same():
    setup = M.make_setup("toy", ["Ann", "Bob"], mode="simulated", seed=7)
    ms = play(M.start(setup), ("add", 0, {"n": 2}))
    (roll,) = M.chance_events(ms, 3)
    ms = M.apply_event(ms, 3, *roll)
    ms = play(ms, ("undo", None, {}))
    assert ms.undone == (3, 2) and ms.state[0].total == 0
    ms = play(ms, ("add", 0, {"n": 2}))
    assert M.chance_events(ms, ms.seq + 1) == [roll]


def test_snapshot_encoding_round_trips_with_the_undo_stack():
    ms = M.start(M.make_setup("toy", ["Ann", "Bob"]))
    ms = play(ms, ("add", 0, {"n": 3}), ("roll", None, {"value": 4}), ("add", 1, {"n": 1}))
    back = M.decode(ms.setup, M.encode(ms))
    assert M.encode(back) == M.encode(ms)
    assert play(back, ("undo", None, {})).state == play(ms, ("undo", None, {})).state


def test_data_that_fits_no_alternative_is_told_what_the_field_must_be():
    """A field whose schema offers alternatives (a Catan path: its number, or
    its two hexes) answers with the schema's own description, not the
    validator's "must be valid exactly by one definition"."""
    import engine.catan  # noqa: F401  (registers the game)

    ms = M.start(M.make_setup("catan", ["Ann", "Bob", "Cor"]))
    with pytest.raises(MalformedEvent) as exc:
        M.normalize_event(ms, "build_road", 0, {"edge": -1})
    assert "data.edge must be a path: its number on the board, or the two hexes it runs between" in exc.value.message
    assert "exactly by one definition" not in exc.value.message
