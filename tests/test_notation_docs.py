"""Every ```notation block of the docs is a scoresheet that imports: each
game's page has one, and it is imported through the API as a user would
(a scoresheet that stops reading fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import notation as N
from engine import registry
from tests.test_docs_examples import blocks

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md"))
SHEETS = [b for page in PAGES for b in blocks(page) if b.lang == "notation"]


def test_every_game_page_has_a_scoresheet():
    games = {}
    for sheet in SHEETS:
        if sheet.page.parent.name == "games":
            games.setdefault(N.read("\n".join(sheet.lines)).setup["game"], []).append(sheet.where)
    assert set(games) == {g.id for g in registry.all_games() if type(g).__module__.startswith("engine.")}, games


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda b: b.where)
def test_a_scoresheet_of_the_docs_imports(client, sheet):
    text = "\n".join(sheet.lines) + "\n"
    res = client.post("/api/matches/import", data=text.encode("utf-8"), content_type="text/plain; charset=utf-8")
    assert res.status_code == 201, f"{sheet.where}: {res.get_json()}"
    match = res.get_json()
    moves = [line for line in sheet.lines if line[:1].isdigit()]
    assert match["seq"] == len(moves) + 1
    # a comment opens with "{" outside a quoted value (a Troje battle's cards are quoted JSON)
    unquoted = [re.sub(r'"(?:[^"\\]|\\.)*"', '""', line) for line in sheet.lines]
    assert match["annotations"] == sum(line.count("{") for line in unquoted) + sum(
        1 for line in moves for word in line.split() if word in N.GLYPHS)
    exported = client.get(f"/api/matches/{match['id']}/notation?seat=referee").get_data(as_text=True)
    again = N.read(exported)
    assert len(again.events) == len(moves) and again.final.result_english == match["result"]


def test_the_braverats_scoresheet_is_a_whole_game():
    sheet = next(b for b in SHEETS if b.page.name == "braverats.md")
    result = N.read("\n".join(sheet.lines)).final.result_english
    assert result["outcome"] == "win" and result["winners"] == [1] and result["scores"] == [3, 4]
