"""docs/games/catan-troje.md is code: its Python blocks run here, and the
facts it states about the rules, the board and the options hold."""

from __future__ import annotations

import re
from pathlib import Path

from engine.catan import board as B
from engine.troje import board as TB
from engine.troje import rules as R

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "catan-troje.md"
TEXT = DOC.read_text()


def python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", TEXT, flags=re.S | re.M)


def test_the_python_blocks_run():
    blocks = python_blocks()
    assert blocks
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), {})


def test_every_rule_id_is_on_the_page_and_the_turn_flows_are_named():
    for rule in R.RULES:
        assert f"`{rule}`" in TEXT, rule
    count = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine'][len(R.WIRED_LATER)]
    phrase = f"{count} are applied by the Catan engine's turn flow"
    assert phrase in TEXT
    para = TEXT[TEXT.index(phrase):].split("\n\n")[0]
    assert set(re.findall(r"`(troje\.\w+)`", para)) == set(R.WIRED_LATER)


def test_the_board_figures_on_the_page():
    (doc,) = TB.builtin_boards().values()
    six, four = len(B.topology(doc, 6).hexes), len(B.topology(doc, 4).hexes)
    assert f"{six} land hexes with 6 players and {four} with 4" in TEXT
    (tiles,) = TB.builtin_ship_tiles().values()
    assert TB.tile_counts(tiles, 0) == (2, 2, 1, 1, 1)  # "two 3:1, two VP, one swap, one chip, one draw"
