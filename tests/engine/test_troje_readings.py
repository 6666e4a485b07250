"""Two readings the Troje text leaves open, each an option (issue 20); the
default keeps the engine's first reading, and a setup recorded before the
option existed (without its key) reads as the default, so old logs replay.

- The trade chip: "de speler mag een van de 2:1 handelskaartjes pakken" —
  "mag … pakken", may take. Option ``trade_chip``: ``must_take`` (default:
  the builder takes one of the chips left) or ``may_take`` (he may also leave
  them: ``decline_chip``, Dutch ``geen handelsfiche``).
- Six players: "Bij zes spelers gelden ook de regels van de uitbreiding voor
  vijf en zes spelers." Option ``turn_model``, as Catan's: null (default: the
  Special Building Phase with 6 players), ``special_building``, ``paired`` or
  ``standard``. The battle comes "als een speler zijn beurt beëindigd heeft";
  in a paired turn each part is a player's turn (Catan: Settler 2 wins in his
  part), so with ``battle_timing: before_sbp`` (default) a full stack brings
  the battle after either part, and with ``after_sbp`` only after Settler 2's
  part, once all the turn's building is done — as after the Special Building
  Phase.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import match as M
from engine.catan import knowledge as K
from engine.catan.pieces import MAIN, PRE_ROLL, ROBBER, SBP
from engine.core import InvalidOptions, RuleViolation
from engine.troje import options as O
from engine.troje import ships as SH
from engine.troje.bots import greedy_bot, random_bot
from engine.troje.game import BATTLE, CHIP
from engine.troje.phases import RESUME_NEXT, RESUME_SETTLER_2
from engine.troje.simulate import play_game

from .test_troje_game import G, NAMES, T6, ext, give, main4, refused, roll, set_up, settle, ship_built, step

CHIP_TEXT = "de speler mag een van de 2:1 handelskaartjes pakken"
SIX_TEXT = "Bij zes spelers gelden ook de regels van de uitbreiding voor vijf en zes spelers."
BATTLE_TEXT = "Een episode in de strijd om Troje wordt uitgevochten als een speler zijn beurt beëindigd heeft"
DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "catan-troje.md"
BATTLE_13 = {"ore": 2, "wool": 2, "lumber": 3, "grain": 2, "brick": 1}  # 10 turned up from a stack of 13


def test_the_docs_quote_the_dutch_and_name_each_default():
    text = " ".join(DOC.read_text().split())
    for quote in (CHIP_TEXT, SIX_TEXT, BATTLE_TEXT):
        assert quote in text, quote
    assert "| `trade_chip` | `must_take` |" in text and "| `turn_model` | null:" in text


# -- the trade chip ----------------------------------------------------------------------------------

@pytest.mark.rule("troje.adv_chip")
@pytest.mark.parametrize("options", [{}, {"trade_chip": "must_take"}])
def test_by_default_the_builder_takes_a_chip_as_before_the_option(options):
    """"de speler mag een van de 2:1 handelskaartjes pakken": the engine's first
    reading, kept as the default (and for setups without the key): a chip must
    be taken."""
    s = ship_built(main4(**options), advantage="trade_chip")
    assert s.phase == CHIP and not s.ext.tcfg.chip_optional
    assert {m.type for m in G.legal_moves(s, 0)} == {"take_chip"}
    e = refused(s, "decline_chip", 0, {}, "troje.adv_chip")
    assert "may not leave them" in e.message
    a = step(s, "take_chip", 0, {"resource": "erts"})
    assert a.phase == ROBBER and a.ext.chips[0] == (SH.Chip(4, G.sea(s).index[(-1, -2)]),)


@pytest.mark.rule("troje.adv_chip")
def test_with_may_take_the_builder_may_leave_the_chips():
    """"de speler mag een van de 2:1 handelskaartjes pakken": "mag … pakken"
    read as a choice (option trade_chip may_take)."""
    s = ship_built(main4(trade_chip="may_take"), advantage="trade_chip")
    moves = G.legal_moves(s, 0)
    assert s.phase == CHIP and [m.type for m in moves].count("take_chip") == 5
    assert [m.data for m in moves if m.type == "decline_chip"] == [{}]
    assert M.canonical_type(G, "geen handelsfiche") == "decline_chip"
    refused(s, "end_turn", 0, {}, "troje.adv_chip")  # the choice comes first
    with pytest.raises(RuleViolation):
        step(s, "decline_chip", 1, {})  # the builder's choice
    a = step(s, "decline_chip", 0, {})
    assert a.phase == ROBBER and G.actors(a) == (0,)
    assert a.ext.chip_supply == SH.CHIPS and a.ext.chips[0] == () and G.ratios(a, 0) == G.ratios(s, 0)
    assert a.ext.ships[G.sea(a).index[(-1, -2)]] == (0, SH.CHIP)  # the ship stands, without a chip
    assert str(G.describe(s, "decline_chip", 0, {}, a)) == "Ann leaves the trade chips: the ship gives no 2:1"
    assert G.annotate(s, "decline_chip", 0, {}, a) == []
    assert G.view(a, None)["players"][0]["trade_chips"] == []
    a = step(a, "move_sea_people", 0, {"tile": T6, "victim": None})
    refused(a, "decline_chip", 0, {}, "troje.adv_chip")  # only right after the tile
    # taking one is still the builder's right
    took = step(s, "take_chip", 0, {"resource": "wool"})
    assert took.ext.chip_supply == (2, 2, 1, 2, 2) and G.ratios(step(took, "move_sea_people", 0, {
        "tile": T6, "victim": None}), 0)[2] == 2


@pytest.mark.rule("troje.adv_chip")
def test_with_the_chips_gone_no_choice_is_asked_under_either_value():
    for value in ("must_take", "may_take"):
        s = ext(main4(trade_chip=value), chip_supply=(0, 0, 0, 0, 0))
        assert ship_built(s, advantage="trade_chip").phase == ROBBER


def test_the_bots_handle_both_values():
    for value in ("must_take", "may_take"):
        s = ship_built(main4(trade_chip=value), advantage="trade_chip")
        rng = random.Random(1)
        assert greedy_bot(G, s, 0, rng).type == "take_chip"  # a chip is never worse than none
        picked = {random_bot(G, s, 0, random.Random(k)).type for k in range(40)}
        assert picked == ({"take_chip", "decline_chip"} if value == "may_take" else {"take_chip"})


# -- old setups: a missing key reads as its default ---------------------------------------------------

def test_a_setup_without_the_new_keys_reads_as_the_defaults_and_replays():
    assert O.fill_defaults({})["trade_chip"] == "must_take" and O.fill_defaults({})["turn_model"] is None
    assert G.setup(NAMES[:6], {}).cfg.sbp and not G.setup(NAMES[:6], {}).cfg.paired
    assert not G.setup(NAMES[:4], {}).cfg.sbp
    rec = play_game(4, ["greedy"] * 4, 5, {}, keep_log=True, max_events=3_000)
    log = json.loads(json.dumps(rec["log"]))
    assert log[0]["data"]["options"]["trade_chip"] == "must_take"
    old = [{**log[0], "data": {**log[0]["data"], "options": {
        k: v for k, v in log[0]["data"]["options"].items() if k not in ("trade_chip", "turn_model")}}}] + log[1:]
    assert M.replay(old).state == M.replay(log).state
    # a snapshot stored before the option decodes as the default
    s = ship_built(main4(), advantage="trade_chip")
    enc = json.loads(json.dumps(G.encode_state(s)))
    del enc["ext"]["tcfg"]["chip_optional"]
    assert G.decode_state(enc) == s


# -- six players: the turn models ------------------------------------------------------------------------

@pytest.mark.rule("troje.base_rules")
def test_the_turn_model_is_an_option_and_the_special_building_phase_stays_the_default():
    """"Bij zes spelers gelden ook de regels van de uitbreiding voor vijf en zes
    spelers.": the extension's turn, as the table plays it."""
    assert set_up(6).cfg.sbp and not set_up(6).cfg.paired
    paired = set_up(6, turn_model="paired")
    assert paired.cfg.paired and not paired.cfg.sbp
    standard = roll(set_up(6, turn_model="standard"))
    assert not standard.cfg.sbp and step(standard, "end_turn", 0, {}).phase == PRE_ROLL
    assert set_up(4, turn_model="special_building").cfg.sbp and not set_up(4).cfg.sbp
    with pytest.raises(InvalidOptions) as e:
        G.setup(NAMES[:4], {"turn_model": "paired"})
    assert e.value.details["field"] == "options.turn_model" and e.value.details["rule"] == "troje.base_rules"
    with pytest.raises(InvalidOptions) as e:
        G.check_options({"turn_model": "pairs"}, 6)
    assert e.value.details["field"] == "options.turn_model"


@pytest.mark.rule("troje.base_rules")
def test_a_paired_turn_settler_2_trades_with_the_bank_donates_and_builds_ships_in_his_part():
    """"Bij zes spelers gelden ook de regels van de uitbreiding voor vijf en zes
    spelers.": with the paired turn, Settler 2 (three seats to the roller's
    left) takes a part of each turn; it is his trade and build phase."""
    s = roll(set_up(6, turn_model="paired"))
    s = step(s, "end_turn", 0, {})
    assert s.phase == MAIN and s.turn == 3 and s.step == 1 and G.actors(s) == (3,)
    assert G.view(s, None)["paired_turn"] == {"settler_1": 0, "settler_2": 3, "acting": 2}
    sea = G.sea(s)
    tile = next(t for t in range(len(sea.tiles)) if sea.ship_symbol[t] and sea.corners[t])
    s = ext(settle(give(s, 3, lumber=1, wool=1, ore=4, grain=1), sea.corners[tile][0], 3),
            trade_points=(0, 0, 0, 2, 0, 0))
    kinds = {m.type for m in G.legal_moves(s, 3)}
    assert {"donate", "build_ship", "trade_bank", "end_turn"} <= kinds
    refused(give(s, 4, grain=1), "trade", 3, {"with": 4, "give": {"ore": 1}, "get": {"grain": 1}}, "catan.paired_trade")
    d = step(s, "donate", 3, {"cards": {"ore": 2}})
    assert d.ext.trade_points[3] == 3
    refused(d, "donate", 3, {"cards": {"grain": 1}}, "troje.donate")  # once in his part
    b = step(d, "build_ship", 3, {"tile": list(sea.tiles[tile])})
    b = step(b, "ship_tile", 3, {"advantage": "victory_point"})
    assert b.phase == ROBBER and G.actors(b) == (3,)
    b = step(b, "move_sea_people", 3, {"tile": T6, "victim": None})
    assert b.phase == MAIN and b.turn == 3
    after = step(b, "end_turn", 3, {})
    assert after.phase == PRE_ROLL and after.turn == 1 and after.turn_no == s.turn_no + 1


def test_settler_2_draws_from_the_stack_though_settler_1_did_per_player():
    """Option stack_draws per_player counts each player's own part."""
    s = roll(set_up(6, turn_model="paired", stack_draws="per_player"))
    s = ext(s, ships=tuple((0, SH.DRAW) if t == 0 else (3, SH.DRAW) if t == 1 else None
                           for t in range(len(s.ext.ships))))
    tiles = G.sea(s).tiles
    s = step(s, "use_advantage", 0, {"ship": list(tiles[0])})
    s = step(s, "stack_card", 0, {"card": "wool"})
    refused(s, "use_advantage", 0, {"ship": list(tiles[0])}, "troje.advantage_use")
    s = step(s, "end_turn", 0, {})
    assert s.turn == 3 and s.ext.used == ()
    assert [m.data for m in G.legal_moves(s, 3) if m.type == "use_advantage"] == [{"ship": list(tiles[1])}]


def full_stack(s, cards=(3, 3, 3, 2, 2)):
    n = s.cfg.n
    return s._replace(hands=s.hands[:n] + ((K.exact(cards),) * (n + 2),))


@pytest.mark.rule("troje.battle_trigger")
def test_with_paired_turns_a_full_stack_brings_the_battle_after_either_part_or_after_the_whole_turn():
    """"Een episode in de strijd om Troje wordt uitgevochten als een speler zijn
    beurt beëindigd heeft": each part of a paired turn is a player's turn."""
    # before_sbp (default): after Settler 1's part, then Settler 2 plays his part
    s = full_stack(roll(set_up(6, turn_model="paired")))
    b = step(s, "end_turn", 0, {})
    assert b.phase == BATTLE and b.turn == 0
    assert str(G.describe(s, "end_turn", 0, {}, b)) == ("Ann ends the turn; the support stack holds 13 cards: a battle, "
                                                   "then Dirk takes Settler 2's part")
    assert [n["kind"] for n in G.annotate(s, "end_turn", 0, {}, b)] == ["battle_due"]
    a = step(b, "battle", None, {"revealed": BATTLE_13})
    assert a.phase == MAIN and a.turn == 3 and a.step == 1 and a.ext.saga.mycenae == 1
    # ... and after Settler 2's part when his donation fills the stack again
    a = full_stack(a)
    b = step(a, "end_turn", 3, {})
    assert b.phase == BATTLE
    assert str(G.describe(a, "end_turn", 3, {}, b)).startswith("Dirk ends Settler 2's part of the paired turn; the support")
    a = step(b, "battle", None, {"revealed": BATTLE_13})
    assert a.phase == PRE_ROLL and a.turn == 1 and a.ext.saga.mycenae == 2
    # after_sbp: the battle waits for the end of the whole turn, after Settler 2's part
    s = full_stack(roll(set_up(6, turn_model="paired", battle_timing="after_sbp")))
    a = step(s, "end_turn", 0, {})
    assert a.phase == MAIN and a.turn == 3
    b = step(a, "end_turn", 3, {})
    assert b.phase == BATTLE
    a = step(b, "battle", None, {"revealed": BATTLE_13})
    assert a.phase == PRE_ROLL and a.turn == 1


@pytest.mark.rule("troje.win_15")
def test_settler_2_with_15_vp_after_the_battle_wins_at_the_start_of_his_part():
    """"Een speler is aan de beurt en bezit 15 of meer overwinningspunten": in a
    paired turn Settler 2 is at turn in his part (under the Special Building
    Phase the same player waits for his own turn)."""
    for model in ("paired", "special_building"):
        s = full_stack(roll(set_up(6, turn_model=model)))  # Dirk, seat 3: Mycenae
        s = ext(s, saga=s.ext.saga._replace(mycenae=2))
        s = s._replace(built=s.built[:3] + ((4, 4, 8),) + s.built[4:])  # 12 VP of his own, 2 from the saga
        b = step(s, "end_turn", 0, {})
        a = step(b, "battle", None, {"revealed": BATTLE_13})  # Mycenae wins: field 3, 3 VP
        assert G.total_vp(a, 3) == 15 and a.ext.war is None
        if model == "paired":
            assert G.result(a).winners == (3,) and "in their own turn" in str(G.result(a).reason)
        else:
            assert G.result(a) is None and a.phase == SBP


def test_the_standard_and_special_building_models_with_six_players_keep_their_battle():
    s = full_stack(roll(set_up(6, turn_model="standard")))
    b = step(s, "end_turn", 0, {})
    assert b.phase == BATTLE and step(b, "battle", None, {"revealed": BATTLE_13}).turn == 1
    s = full_stack(roll(set_up(6, turn_model="special_building")))
    a = step(step(s, "end_turn", 0, {}), "battle", None, {"revealed": BATTLE_13})
    assert a.phase == SBP and a.step == 1


# -- simulated: a 6-player paired game ends and replays ---------------------------------------------------------

def test_a_simulated_six_player_paired_game_ends_and_replays():
    options = {"turn_model": "paired", "trade_chip": "may_take"}
    rec = play_game(6, ["greedy", "random"] * 3, 4, options, keep_log=True, max_events=4_000)
    assert rec["finished"], rec
    log = json.loads(json.dumps(rec["log"]))
    settler_2_parts, resumed = 0, set()
    for i, (event, before, after) in enumerate(M.replay_steps(log)):
        if before is None:
            continue
        b, a = before.state, after.state
        if event["type"] == "end_turn" and b.cfg.paired and b.step:
            settler_2_parts += 1
        if event["type"] == "battle":
            resumed.add(b.ext.resume)
        assert G.describe(b, event["type"], event["seat"], event["data"], a)
        G.annotate(b, event["type"], event["seat"], event["data"], a)
        if i % 10 == 0 or b.phase == BATTLE:  # a snapshot decodes to itself (a decode derives the board again)
            assert G.decode_state(json.loads(json.dumps(G.encode_state(a)))) == a
    assert settler_2_parts > 10
    assert resumed == {RESUME_NEXT, RESUME_SETTLER_2}, "battles after both parts of a paired turn"
    assert M.replay(log).state == after.state and after.result is not None
    assert play_game(6, ["greedy", "random"] * 3, 4, options, keep_log=True, max_events=4_000,
                     engine_only=True)["log"] == rec["log"]
