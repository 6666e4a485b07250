"""Reviews and results name the players by their names, in every game.

Issue 9: texts said "Red", "Blue", "Seat 0" while the match knows Ann and
Bob (`Red won 5 rounds (5–1)` never said Ann). Random simulated matches of
each game are played to the end through the framework; every summary
(``describe``), every worker note (``annotate``) and the result's reason must
speak of players by name. A seat or colour may follow a name in brackets,
"Ann (Red)", "Ann (seat 0)", never stand alone.
"""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M
from engine import registry
from engine.core import CHANCE

NAMES = {2: ["Ann", "Bob"], 3: ["Ann", "Bob", "Cas"]}
COLOURS = ("Red", "Blue")


def play(game_id: str, seed: int, players: list[str], limit: int = 3000):
    """A simulated match with random legal moves: [(before, event, after)]."""
    rng = random.Random(seed)
    ms = M.start(M.make_setup(game_id, players, {}, mode="simulated", seed=seed))
    steps = []

    def apply(type_, seat, data):
        nonlocal ms
        before = ms
        ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
        steps.append((before, {"type": type_, "seat": seat, "data": data}, ms))

    def chance():
        for type_, seat, data in M.chance_events(ms, ms.seq + 1):
            apply(type_, seat, data)

    chance()
    for _ in range(limit):
        if ms.result is not None:
            break
        actors = [a for a in ms.game.actors(ms.state) if a != CHANCE]
        rng.shuffle(actors)
        for actor in actors:
            moves = M.legal_moves(ms, None if actor == "table" else actor)
            if moves:
                move = rng.choice(moves)
                apply(move["type"], move["seat"], M.normalize_event(ms, move["type"], move["seat"], move["data"]))
                chance()
                break
        else:
            pytest.fail(f"{game_id}: nobody has a legal move at seq {ms.seq}")
    return steps, ms


def unnamed(text: str, names: list[str]) -> list[str]:
    """Mentions of a seat or colour that no name comes with."""
    for i, name in enumerate(names):
        text = text.replace(f"{name} (seat {i})", name)
        if i < 2:
            text = text.replace(f"{name} ({COLOURS[i]})", name)
    found = re.findall(r"\b[Ss]eats? \d\b", text)
    found += re.findall(r"\b(?:Red|Blue)\b(?!['’]s card)", text)
    return found


CASES = [("braverats", 2), ("troubadour", 2), ("troubadour", 3), ("twaalven", 2), ("stapelen", 2), ("sir_tommy", 2)]


@pytest.mark.parametrize(("game_id", "n"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_summaries_notes_and_results_name_the_players(game_id, n):
    game = registry.get(game_id)
    names = NAMES[n]
    finished = 0
    for seed in range(6 if game_id != "troubadour" else 2):
        steps, ms = play(game_id, seed, names)
        for before, event, after in steps:
            # (in English: a game that says its lines as messages, engine/text.py, read as English here)
            texts = [str(game.describe(before.state, event["type"], event["seat"], event["data"], after.state))]
            texts += [str(note["text"]) for note in game.annotate(before.state, event["type"], event["seat"],
                                                             event["data"], after.state) if "text" in note]
            for text in texts:
                assert not unnamed(text, names), f"{game_id} seq {after.seq} {event['type']}: {text!r}"
            if isinstance(event["seat"], int) and game.event_types[event["type"]].actor == "seat":
                assert names[event["seat"]] in texts[0], f"{game_id}: {texts[0]!r} does not name the mover"
        if ms.result is None:
            continue
        finished += 1
        reason = str(ms.result.reason)
        assert not unnamed(reason, names), f"{game_id}: {reason!r}"
        if ms.result.outcome == "win" and len(ms.result.winners) < n:
            assert all(names[w] in reason for w in ms.result.winners), reason
        if ms.result.outcome == "loss":
            assert any(name in reason for name in names) or "passed" in reason or "either player" in reason, reason
    assert finished, f"no simulated {game_id} match finished"


def test_braverats_results_and_game_overs_say_who_won(client):
    """The example of the issue: `Red won 4 rounds (4–1)` now says Ann."""
    match = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json["id"]
    for cards in (["prince", "spy"], ["general", "assassin"], ["ambassador", "musician"], ["wizard", "wizard"],
                  ["spy", "princess"], ["musician", "general"]):
        r = client.post(f"/api/matches/{match}/events", json={"type": "round", "data": {"cards": cards}})
        assert r.status_code == 201, r.json
        if r.json["status"] == "finished":
            break
    assert client.get(f"/api/matches/{match}").json["result"]["reason"] == "Ann (Red) won 4 rounds (4–1)"
    review = client.get(f"/api/matches/{match}/review").json["steps"]
    assert review[-1]["summary"].endswith("; Ann wins the game 4–1")
    assert all("Ann (Red)" in s["summary"] and "Bob (Blue)" in s["summary"] for s in review[1:])


@pytest.mark.parametrize("game_id", ["braverats", "twaalven", "stapelen", "sir_tommy", "troubadour"])
def test_states_keep_the_names_through_a_snapshot(game_id):
    """The names live in each game's state: a snapshot keeps them exactly, and
    a snapshot written before they did still decodes (texts then fall back to
    seats or colours)."""
    game = registry.get(game_id)
    steps, ms = play(game_id, 3, NAMES[2], limit=40)
    for _, _, after in steps[-5:]:
        snap = M.encode(after)
        assert M.decode(after.setup, snap).state == after.state
        assert M.encode(M.decode(after.setup, snap)) == snap
    state = game.encode_state(ms.state)
    holder = state["cfg"] if game_id == "braverats" else state
    assert holder["names"] == NAMES[2]
    del holder["names"]
    old = game.decode_state(state)
    assert game.encode_state(old) is not None
