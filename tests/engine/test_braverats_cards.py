"""Every pair of cards, with and without a General's +2, against a table written
out by hand from the Dutch rules text and its overview table (Overzichtstabel).

Codes: R / B = Red / Blue wins the round, R2 / B2 = wins it with the Ambassador
(counts as 2), X = on hold (onbeslist), RG / BG = wins the whole game (Princess
catches Prince). Rows are Red's card, columns Blue's, in value order.
"""

import pytest

from engine.braverats.resolve import Flags, resolve
from engine.braverats.state import evolve

from .braverats_support import CARDS, GAME

#            mus   prs   spy   ass   amb   wiz   gen   pri
BASE = {
    "musician":   ["X", "X", "X", "X", "X", "B", "X", "X"],
    "princess":   ["X", "X", "B", "R", "B2", "B", "B", "RG"],
    "spy":        ["X", "R", "X", "R", "B2", "B", "B", "B"],
    "assassin":   ["X", "B", "B", "X", "R", "B", "R", "B"],
    "ambassador": ["X", "R2", "R2", "B", "X", "B", "B", "B"],
    "wizard":     ["R", "R", "R", "R", "R", "X", "B", "B"],
    "general":    ["X", "R", "R", "B", "R", "R", "X", "B"],
    "prince":     ["X", "BG", "R", "R", "R", "R", "R", "X"],
}

# Red played the General in the round before: Red's card is worth 2 more.
# Footnotes of the overview table: (1) Prince 9 vs 7, (2) the player without the
# General wins by the lowest value, (3) on hold (e.g. Wizard 7 vs Prince 7).
RED_BOOSTED = {
    "musician":   ["X", "X", "X", "X", "X", "B", "X", "X"],
    "princess":   ["X", "R", "R", "X", "B2", "B", "B", "RG"],
    "spy":        ["X", "R", "R", "B", "X", "B", "B", "B"],
    "assassin":   ["X", "B", "B", "B", "B2", "X", "R", "B"],
    "ambassador": ["X", "R2", "R2", "B", "R2", "R", "X", "B"],
    "wizard":     ["R", "R", "R", "R", "R", "R", "R", "X"],
    "general":    ["X", "R", "R", "B", "R", "R", "R", "B"],
    "prince":     ["X", "BG", "R", "R", "R", "R", "R", "R"],
}

MIRROR = {"R": "B", "B": "R", "R2": "B2", "B2": "R2", "RG": "BG", "BG": "RG", "X": "X"}


def code(out) -> str:
    if out.winner is None:
        return "X"
    side = "RB"[out.winner]
    if out.game:
        return side + "G"
    return side + ("2" if out.counts == 2 else "")


def cases(table):
    return [(red, blue, table[red][j]) for red in CARDS for j, blue in enumerate(CARDS)]


def test_hand_written_tables_are_consistent_with_seat_symmetry():
    for red, blue, expected in cases(BASE):
        assert BASE[blue][CARDS.index(red)] == MIRROR[expected], (red, blue)


@pytest.mark.rule("braverats.values")
@pytest.mark.rule("braverats.on_hold")
@pytest.mark.rule("braverats.musician")
@pytest.mark.rule("braverats.princess")
@pytest.mark.rule("braverats.spy")
@pytest.mark.rule("braverats.assassin")
@pytest.mark.rule("braverats.ambassador")
@pytest.mark.rule("braverats.wizard")
@pytest.mark.rule("braverats.prince")
@pytest.mark.parametrize("red,blue,expected", cases(BASE))
def test_every_card_pair_resolves_as_the_overview_table(red, blue, expected):
    assert code(resolve(CARDS.index(red), CARDS.index(blue), False, False)) == expected
    # and through the game: a first round with both full hands
    state = GAME.apply(GAME.setup(("a", "b"), {}), "round", None, {"cards": [red, blue]})
    after = code_of_state(state)
    assert after == expected


def code_of_state(state) -> str:
    if state.ended and state.ended[1] == "princess":
        return "RB"[state.ended[0]] + "G"
    r, b = state.score
    if r == b == 0:
        assert state.held == 1
        return "X"
    assert state.held == 0
    return ("R" if r else "B") + ("2" if max(r, b) == 2 else "")


@pytest.mark.rule("braverats.general")
@pytest.mark.rule("braverats.assassin")
@pytest.mark.rule("braverats.values")
@pytest.mark.parametrize("red,blue,expected", cases(RED_BOOSTED))
def test_every_card_pair_with_a_general_bonus(red, blue, expected):
    r, b = CARDS.index(red), CARDS.index(blue)
    assert code(resolve(r, b, True, False)) == expected
    # the same with the seats swapped: Blue has the +2
    assert code(resolve(b, r, False, True)) == MIRROR[expected]
    # through the game, with Red's bonus in force
    state = evolve(GAME.setup(("a", "b"), {}), bonus=(True, False))
    assert code_of_state(GAME.apply(state, "round", None, {"cards": [red, blue]})) == expected


@pytest.mark.rule("braverats.general")
@pytest.mark.parametrize("red,blue,expected", cases(BASE))
def test_both_generals_bonus_cancel_out(red, blue, expected):
    assert code(resolve(CARDS.index(red), CARDS.index(blue), True, True)) == expected


SPY_STOPPED_BY = {"musician", "wizard", "spy"}
GENERAL_STOPPED_BY = {"musician", "wizard"}


@pytest.mark.rule("braverats.spy")
@pytest.mark.rule("braverats.general")
@pytest.mark.rule("braverats.house.musician_cancels_lasting_powers")
@pytest.mark.rule("braverats.house.wizard_cancels_general_bonus")
@pytest.mark.rule("braverats.house.wizard_cancels_spy")
@pytest.mark.parametrize("red", CARDS)
@pytest.mark.parametrize("blue", CARDS)
def test_what_a_round_carries_into_the_next(red, blue):
    out = resolve(CARDS.index(red), CARDS.index(blue), False, False)
    if out.game:
        assert (red, blue) == ("princess", "prince") or (red, blue) == ("prince", "princess")
        return
    expect_spy = 1 if red == "spy" and blue not in SPY_STOPPED_BY else 0 if blue == "spy" and red not in SPY_STOPPED_BY else None
    assert out.spy_first == expect_spy
    assert out.bonus == (red == "general" and blue not in GENERAL_STOPPED_BY, blue == "general" and red not in GENERAL_STOPPED_BY)
    # the house rules off: the Musician / the Wizard only matter for the round itself
    lenient = resolve(CARDS.index(red), CARDS.index(blue), False, False, Flags(False, False, False))
    assert lenient.winner == out.winner and lenient.counts == out.counts
    expect_spy = 1 if red == "spy" and blue != "spy" else 0 if blue == "spy" and red != "spy" else None
    assert lenient.spy_first == expect_spy
    assert lenient.bonus == (red == "general", blue == "general")


def test_flags_are_independent():
    spy, general, wizard, musician = (CARDS.index(c) for c in ("spy", "general", "wizard", "musician"))
    only_music = Flags(True, False, False)
    assert resolve(general, wizard, False, False, only_music).bonus == (True, False)
    assert resolve(spy, wizard, False, False, only_music).spy_first == 1
    assert resolve(general, musician, False, False, only_music).bonus == (False, False)
    only_general = Flags(False, True, False)
    assert resolve(general, wizard, False, False, only_general).bonus == (False, False)
    assert resolve(spy, wizard, False, False, only_general).spy_first == 1
    assert resolve(spy, musician, False, False, only_general).spy_first == 1
    only_spy = Flags(False, False, True)
    assert resolve(spy, wizard, False, False, only_spy).spy_first is None
    assert resolve(general, wizard, False, False, only_spy).bonus == (True, False)


@pytest.mark.rule("braverats.wizard")
@pytest.mark.rule("braverats.prince")
def test_wizard_with_general_bonus_against_prince_is_on_hold():
    # the Prince's ability is ignored; 5 + 2 = 7 against 7 (overview table footnote 3)
    out = resolve(CARDS.index("wizard"), CARDS.index("prince"), True, False)
    assert out.winner is None and out.values == (7, 7) and "wizard" in out.powers


@pytest.mark.rule("braverats.assassin")
def test_boosted_assassin_loses_to_ambassador_which_counts_double():
    out = resolve(CARDS.index("assassin"), CARDS.index("ambassador"), True, False)
    assert out.winner == 1 and out.counts == 2 and out.values == (5, 4)
    assert out.powers == ("assassin", "general", "ambassador")
