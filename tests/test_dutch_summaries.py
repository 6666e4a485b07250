"""The review's lines in Dutch (issue 19: every page in Dutch for a Dutch
table): a game whose engine speaks Dutch (``Game.describe_nl``) gives each
event's line in both languages, and the review answers both; the pages show
the Dutch one on a Dutch page."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M
from engine import registry
from engine.core import CHANCE
from engine.text import Text
from service.matches import MatchService
from service.web.i18n import language

from .support.played import play
from .test_web_i18n import ENGLISH

#: the games whose lines come in Dutch: all seven (a plugin game without describe_nl: English, marked so on a page)
DUTCH = ["braverats", "twaalven", "stapelen", "sir_tommy", "ridder_toernooi", "catan", "catan-troje", "troubadour"]
#: English words a Dutch line must not hold (the pages' own list, and the engine's words for play)
NOT_DUTCH = ENGLISH | {"wins", "plays", "draws", "keeps", "passes", "vs", "hold", "each", "held", "series",
                       "face", "down", "first", "gives", "chooses", "variants", "draw", "spy", "general"}


def lines(game, *step):
    """An event's line in English and in Dutch: a game that says its lines as messages (engine/text.py) in
    the catalogue's Dutch, another in its own (``describe_nl``)."""
    line = game.describe(*step)
    if isinstance(line, Text):
        return line.render(), line.render(language("nl"))
    return line, game.describe_nl(*step)


def played(game_id: str, seed: int, options: dict | None = None):
    """A whole game as the tests record them (the game's bots, chance entered by the recorder):
    (before, event type, seat, data, after, game) per event."""
    players = {"catan": 3, "catan-troje": 4}.get(game_id, 2)
    log = play(game_id, seed, players, mode="physical", options=options, finish=False)
    for event, before, after in M.replay_steps(log):
        if before is not None and event["type"] != M.UNDO:
            yield before.state, event["type"], event["seat"], event["data"], after.state, after.game


@pytest.mark.parametrize("game_id", DUTCH)
def test_every_line_of_whole_games_comes_in_dutch_too(game_id):
    """Random whole games (and, for BraveRats, variants and series, G): each
    event's Dutch line exists, is not the English one, and holds none of
    the English words a Dutch reader would stumble on."""
    options = [{}, {"variants": ["G"]}, {"variants": ["B", "D", "G"]}, {"variants": ["A", "C", "E"]}, {"variants": ["F"]}] \
        if game_id == "braverats" else [{}]
    seen = 0
    for seed in range(12):
        for opts in options:
            for before, type_, seat, data, after, game in played(game_id, seed, opts):
                en, nl = lines(game, before, type_, seat, data, after)
                assert nl and nl != en, (type_, en, nl)
                words = {w.lower() for w in re.findall(r"[A-Za-z]+", re.sub(r"Ann|Bob|Cor|Dirk|'[^']*'", "", nl))}
                assert not words & NOT_DUTCH, (sorted(words & NOT_DUTCH), nl, en)
                seen += 1
    assert seen > 200


def test_every_game_speaks_dutch_and_a_game_without_dutch_lines_says_so():
    assert all(registry.get(g).speaks_dutch for g in DUTCH)
    from .support.toy import Toy

    assert not Toy().speaks_dutch  # a game that gives no Dutch: its lines stay English, marked so on the pages


def test_the_review_gives_each_step_in_both_languages_and_a_hidden_one_in_dutch_too(app, client):
    """The API's review carries ``summary_nl`` beside ``summary``: the set-up,
    each move, an undo, and a face-down card a seat may not see (named, not
    shown, in Dutch too); asked in Dutch, ``summary`` is the Dutch line."""
    svc = app.extensions["kroniek"]
    match = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"],
                                              "options": {"variants": ["B"]}}).get_json()["id"]
    ms = svc.current(match)
    for _ in range(3):
        actors = ms.game.actors(ms.state)
        if CHANCE in actors:
            move = ms.game.chance_outcome(ms.state, random.Random(0)).to_dict()
        else:
            move = [m.to_dict() for a in actors for m in ms.game.legal_moves(ms.state, None if a == "table" else a)][0]
        svc.append(match, move["type"], move["seat"], move["data"])
        ms = svc.current(match)
    svc.append(match, "undo", None, {})
    steps = client.get(f"/api/matches/{match}/review?seat=referee").get_json()["steps"]
    assert steps[0]["summary"] == "Setup: BraveRats for Ann, Bob (physical)"
    assert steps[0]["summary_nl"] == "Opzet: BraveRats voor Ann, Bob (fysiek)"
    assert steps[-1]["summary_nl"] == f"Ongedaan gemaakt: nr. {steps[-1]['undoes'][0]}"
    assert all(s["summary_nl"] and s["summary_nl"] != s["summary"] for s in steps)
    dutch = client.get(f"/api/matches/{match}/review?seat=referee", headers={"Accept-Language": "nl"}).get_json()["steps"]
    assert [s["summary"] for s in dutch] == [s["summary_nl"] for s in steps]
    public = client.get(f"/api/matches/{match}/review").get_json()["steps"]
    hidden = [s for s in public if "verborgen" in (s["summary_nl"] or "")]
    assert hidden and all("(hidden from this view)" in s["summary"] for s in hidden)
    # named as the rules text names the event (the draw: "Kaarten trekken"), never by what was drawn
    assert hidden[0]["summary_nl"] == "Kaarten trekken (verborgen in deze weergave)"
    assert len(hidden) > 1 and all(re.fullmatch(r"(Ann|Bob): kaart spelen \(verborgen in deze weergave\)", s["summary_nl"])
                                   for s in hidden[1:])
