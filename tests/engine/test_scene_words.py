"""A drawing's labels read as sentences in both languages (issue 35, "Form"): a count takes its singular
or its plural, never "card(s)" or "kaart(en)", never "1 kaarten"; a label is never empty. Whole games of every game, every
viewer's scene at every step."""

from __future__ import annotations

import re

import pytest

from engine import match as M
from engine import registry

from ..support.played import play

GAMES = ["braverats", "twaalven", "stapelen", "sir_tommy", "ridder_toernooi", "troubadour", "catan", "catan-troje"]
#: a word with its plural ending in brackets: "card(s)", "kaart(en)", "ronde(n)"
HEDGED = re.compile(r"\w\((s|en|n|es)\)")
#: one of something in its plural: "1 cards", "Hand: 1 kaarten"
ONE_MANY = re.compile(r"(?<![\d.,])1 (cards|kaarten|rounds|ronden|rondes|dice|dobbelstenen|points|punten)\b")


def labels(value):
    """Every {"en", "nl"} label in a scene (elements, zones, moves, pickers)."""
    if isinstance(value, dict):
        if set(value) == {"en", "nl"} and all(isinstance(v, str) for v in value.values()):
            yield value
            return
        for v in value.values():
            yield from labels(v)
    elif isinstance(value, list):
        for v in value:
            yield from labels(v)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_label_hedges_a_plural_in_either_language(game_id):
    players = {"catan": 3, "catan-troje": 4}.get(game_id, 2)
    seen = 0
    where: dict[tuple[str, str], tuple[int, object]] = {}  # each label once (a Catan game draws ~1.2M, ~2k distinct)
    for seed in range(3):
        log = play(game_id, seed, players, mode="physical", finish=False)
        for _, _, after in M.replay_steps(log):
            viewers = ["referee", None] + list(range(len(after.players)))
            for viewer in viewers:
                for label in labels(M.scene(after, viewer)):
                    seen += 1
                    where.setdefault((label["en"], label["nl"]), (after.seq, viewer))
    for (en, nl), (seq, viewer) in where.items():
        for text in (en, nl):
            assert text.strip(), (game_id, seq, viewer, en, nl)
            assert not HEDGED.search(text), (game_id, seq, viewer, text)
            assert not ONE_MANY.search(text), (game_id, seq, viewer, text)
    assert seen > 100, game_id
