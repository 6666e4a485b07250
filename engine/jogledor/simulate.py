"""Recording and random play through the match framework, for ``kroniek
simulate``, the tests and the benchmarks.

``Recorder`` enters events as the API would (normalize, apply, then the
server's chance draws in a simulated match) and keeps the log: it is
``engine.simulation.Table`` set up from a game id.
``play_random`` plays random legal moves to the end with a local seeded RNG.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from .. import match as M
from ..core import CHANCE, Move
from ..simulation import Table, check_players

Policy = Callable[[Any, list[dict[str, Any]], random.Random], dict[str, Any]]


class Recorder(Table):
    """A match driven through the framework, with its log (``engine.simulation.Table``)."""

    def __init__(self, game_id: str, options: dict[str, Any] | None = None, mode: str = "physical",
                 seed: int | None = None, players: tuple[str, str] = ("Ann", "Bob")) -> None:
        super().__init__(M.make_setup(game_id, list(players), options or {}, mode=mode, seed=seed))

    def add(self, type_: str, seat: Any = None, data: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.enter(type_, seat, data or {})

    def play(self, move: Move | dict[str, Any]) -> dict[str, Any]:
        m = move.to_dict() if isinstance(move, Move) else move
        return self.add(m["type"], m["seat"], m["data"])

    def undo(self) -> None:
        self.add("undo", None, {})

    def replayed(self) -> M.MatchState:
        return M.replay(self.log)


def random_policy(state: Any, moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice(moves)


def builder_policy(state: Any, moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Random, but building nine times in ten when a build is possible (Sir
    Tommy games then get further)."""
    builds = [m for m in moves if m["type"] == "build"]
    if builds and rng.random() < 0.9:
        return rng.choice(builds)
    return rng.choice(moves)


def play_random(game_id: str, seed: int, options: dict[str, Any] | None = None, mode: str = "simulated",
                policy: Policy = builder_policy, limit: int = 2000, undo_rate: float = 0.0) -> Recorder:
    """Play a whole match with random legal moves (``rng`` seeded by ``seed``).
    In a physical match the chance events (deal, draws) are drawn with the same
    RNG and entered like a recorder would. ``undo_rate``: chance of an undo
    after a move."""
    rng = random.Random(f"play_random:{game_id}:{seed}")
    rec = Recorder(game_id, options, mode=mode, seed=seed if mode == "simulated" else None)
    game = rec.game
    for _ in range(limit):
        if rec.ms.result is not None:
            return rec
        actors = game.actors(rec.state)
        if CHANCE in actors:
            move = game.chance_outcome(rec.state, rng)
            rec.play(move)
            continue
        actor = rng.choice(list(actors))
        seat = None if actor == "table" else actor
        moves = M.legal_moves(rec.ms, seat)
        if not moves:  # pragma: no cover - every engine offers a move to its actor
            raise AssertionError(f"no legal move for {actor!r}")
        rec.play(policy(rec.state, moves, rng))
        if undo_rate and rec.ms.result is None and rng.random() < undo_rate:
            rec.undo()
    raise AssertionError("the match did not end")


POLICIES: dict[str, Policy] = {"random": random_policy, "builder": builder_policy}


def simulate(game_id: str, games: int, players: int = 2, strategies: Sequence[str] = ("builder",), seed: int = 0,
             progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``games`` seeded matches (both seats follow one policy: the games
    are cooperative) and summarise: won, lost, super-wins, moves per game."""
    check_players(game_id, players)
    name = strategies[0] if strategies else "builder"
    if name not in POLICIES:
        raise ValueError(f"unknown strategy {name!r}; known: {', '.join(sorted(POLICIES))}")
    won = lost = unfinished = 0
    lengths = []
    for g in range(games):
        rec = play_random(game_id, seed * 1_000_003 + g, policy=POLICIES[name])
        result = rec.ms.result
        if result is None:
            unfinished += 1
        elif result.outcome == "win":
            won += 1
        else:
            lost += 1
        lengths.append(rec.ms.seq)
        if progress is not None:
            progress({"seq": rec.ms.seq, "result": rec.ms.result_english})
    return {
        "game": game_id,
        "games": games,
        "strategy": name,
        "won": won,
        "lost": lost,
        "unfinished": unfinished,
        "events per game": {"mean": round(sum(lengths) / len(lengths), 1) if lengths else 0,
                            "min": min(lengths, default=0), "max": max(lengths, default=0)},
    }
