"""A tiny game for testing the framework apart from any real game's rules:
two seats take turns adding 1–3 to a total; after each add a die is rolled
(a chance node) and the roll is added too; whoever brings the total to 20 or
more wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine import registry
from engine.core import CHANCE, EventType, Game, Move, Result, RuleViolation


@dataclass(frozen=True)
class ToyState:
    total: int = 0
    to_move: int = 0
    rolling: bool = False
    winner: int | None = None
    last: int | None = None


class Toy(Game):
    id = "toy"
    name = "Toy"
    version = "1"
    min_players = 2
    max_players = 2
    options_schema = {
        "type": "object",
        "properties": {"target": {"type": "integer", "minimum": 5, "default": 20, "title": "Target",
                              "description": "the total that ends the game"}},
        "additionalProperties": False,
    }
    event_types = {
        "add": EventType("add", "seat", {"type": "object", "properties": {"n": {"type": "integer"}},
                                         "required": ["n"], "additionalProperties": False}, "add 1–3"),
        "roll": EventType("roll", CHANCE, {"type": "object", "properties": {"value": {"type": "integer"}},
                                           "required": ["value"], "additionalProperties": False}, "a die"),
    }
    rules = {"toy.add": "Add 1, 2 or 3.", "toy.die": "A die shows 1 to 6."}

    def setup(self, players, options):
        return (ToyState(), options["target"])

    def apply(self, state, type, seat, data):
        s, target = state
        if type == "add":
            if data["n"] not in (1, 2, 3):
                raise RuleViolation("toy.add", f"cannot add {data['n']}")
            s = replace(s, total=s.total + data["n"], rolling=True, last=seat)
        else:
            if not 1 <= data["value"] <= 6:
                raise RuleViolation("toy.die", f"a die has no {data['value']}")
            s = replace(s, total=s.total + data["value"], rolling=False, to_move=1 - s.to_move)
        if s.total >= target and s.winner is None:
            s = replace(s, winner=s.last)
        return (s, target)

    def actors(self, state):
        s, _ = state
        if s.winner is not None:
            return ()
        return (CHANCE,) if s.rolling else (s.to_move,)

    def legal_moves(self, state, seat):
        s, _ = state
        if seat != s.to_move or s.rolling or s.winner is not None:
            return []
        return [Move("add", seat, {"n": n}) for n in (1, 2, 3)]

    def chance_outcome(self, state, rng: random.Random):
        return Move("roll", None, {"value": rng.randint(1, 6)})

    def view(self, state, seat):
        s, target = state
        return {"total": s.total, "target": target}

    def describe(self, before, type, seat, data, after):
        return f"seat {seat} adds {data['n']}" if type == "add" else f"die shows {data['value']}"

    def annotate(self, before, type, seat, data, after):
        return [{"kind": "total", "text": f"total {after[0].total}"}]

    def result(self, state):
        s, _ = state
        if s.winner is None:
            return None
        return Result("win", (s.winner,), (0, 0), f"seat {s.winner} reached the target")

    def encode_state(self, state):
        s, target = state
        return [s.total, s.to_move, s.rolling, s.winner, s.last, target]

    def decode_state(self, obj):
        total, to_move, rolling, winner, last, target = obj
        return (ToyState(total, to_move, rolling, winner, last), target)


def ensure_registered() -> Toy:
    try:
        return registry.get("toy")
    except Exception:
        return registry.register(Toy())


ensure_registered()
