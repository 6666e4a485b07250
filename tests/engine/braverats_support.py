"""Helpers for the BraveRats tests: a match driven through the framework."""

from __future__ import annotations

import random
from typing import Any

from engine import match as M
from engine import registry
from engine.core import CHANCE

GAME = registry.get("braverats")
CARDS = ("musician", "princess", "spy", "assassin", "ambassador", "wizard", "general", "prince")


class Rec:
    """A match recorded through the framework, with its log for replay."""

    def __init__(self, options: dict[str, Any] | None = None, mode: str = "physical", seed: int | None = None):
        self.setup = M.make_setup("braverats", ["Ann", "Bob"], options or {}, mode=mode, seed=seed)
        self.ms = M.start(self.setup)
        self.log: list[dict[str, Any]] = [{"seq": 1, "type": "setup", "seat": None, "data": self.setup}]
        self.steps: list[tuple[Any, str, Any, dict[str, Any], Any]] = []  # (before, type, seat, data, after)
        self.draw_chance()

    @property
    def state(self):
        return self.ms.state

    @property
    def next_seq(self) -> int:
        return self.ms.seq + 1

    def _apply(self, type_: str, seat: Any, data: dict[str, Any]) -> None:
        before = self.ms.state
        self.ms = M.apply_event(self.ms, self.next_seq, type_, seat, data)
        self.log.append({"seq": self.ms.seq, "type": type_, "seat": seat, "data": data})
        self.steps.append((before, type_, seat, data, self.ms.state))

    def add(self, type_: str, seat: Any, data: dict[str, Any]) -> dict[str, Any]:
        norm = M.normalize_event(self.ms, type_, seat, data)
        self._apply(type_, seat, norm)
        self.draw_chance()
        return norm

    def draw_chance(self) -> None:
        for type_, seat, data in M.chance_events(self.ms, self.next_seq):
            self._apply(type_, seat, data)

    def round(self, red: Any, blue: Any) -> None:
        self.add("round", None, {"cards": [red, blue]})

    def undo(self) -> None:
        self.add("undo", None, {})

    def replayed(self) -> M.MatchState:
        return M.replay(self.log)

    def describe_last(self) -> str:
        before, type_, seat, data, after = self.steps[-1]
        return str(GAME.describe(before, type_, seat, data, after))

    def annotate_last(self) -> list[dict[str, Any]]:
        before, type_, seat, data, after = self.steps[-1]
        return GAME.annotate(before, type_, seat, data, after)


def play_random(rec: Rec, rng: random.Random, use_plays: bool | None = None, limit: int = 500) -> None:
    """Play random legal moves (and, simulated, the server's chance draws) to the end."""
    for _ in range(limit):
        if rec.ms.result is not None:
            return
        actors = [a for a in GAME.actors(rec.state) if a != CHANCE]
        assert actors, f"nobody can act in phase {rec.state.phase}"
        if "table" in actors and (use_plays is False or (use_plays is None and rng.random() < 0.5)):
            actor = "table"
        else:
            seats = [a for a in actors if a != "table"]
            actor = rng.choice(seats) if seats else "table"
        seat = None if actor == "table" else actor
        moves = M.legal_moves(rec.ms, seat)
        assert moves, f"no legal move for {actor} in phase {rec.state.phase}"
        move = rng.choice(moves)
        rec.add(move["type"], move["seat"], move["data"])
    raise AssertionError("the match did not end")
