"""What every game's evaluation shares (issue 37; ``Game.evaluate_log``, docs/review.md): a move's glyph and
accuracy from the chance of winning it cost, each seat's summary, and Monte Carlo estimates with their error.

Pure: no I/O; randomness only from an RNG the caller seeds.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

#: a move's glyph by the mover's chance of winning it cost (0-1): Lichess's steps of 0.1, 0.2 and 0.3 on its
#: winning chances of -1 to +1 are 5, 10 and 15 percentage points of the chance of winning
GLYPHS = ((0.15, "??"), (0.10, "?"), (0.05, "?!"))


def glyph(loss: float | None) -> str | None:
    """The glyph for a move that cost ``loss`` of the mover's chance of winning (None: nothing to mark)."""
    if loss is None:
        return None
    return next((g for step, g in GLYPHS if loss >= step - 1e-12), None)


def accuracy(drop_percent: float) -> float:
    """Lichess's accuracy of a move that cost ``drop_percent`` percentage points of the chance of winning."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop_percent) - 3.1669))


def judged(seq: int, seat: int, loss: float, **more: Any) -> dict[str, Any]:
    """A judged move as the evaluation lists it (``loss``: the mover's chance of winning it cost, 0-1)."""
    loss = max(0.0, loss)
    return {"seq": seq, "seat": seat, "loss": round(loss, 6), "accuracy": round(accuracy(loss * 100.0), 1),
            "glyph": glyph(loss), **more}


def summary(seats: Iterable[int], moves: list[dict[str, Any]], luck: dict[int, float] | None = None) -> list[dict[str, Any]]:
    """Each seat's accuracy (the mean of its judged moves'; None: none judged), luck (None: chance had no
    part, or none measured) and how many of its moves earned each glyph."""
    out = []
    for seat in seats:
        mine = [m for m in moves if m["seat"] == seat]
        out.append({"seat": seat, "moves": len(mine),
                    "accuracy": round(sum(m["accuracy"] for m in mine) / len(mine), 1) if mine else None,
                    "luck": None if luck is None or seat not in luck else round(luck[seat], 3),
                    "glyphs": {g: sum(m["glyph"] == g for m in mine) for _, g in GLYPHS}})
    return out


def standard_error(p: float, n: int) -> float:
    """The standard error of a share ``p`` estimated from ``n`` independent samples."""
    return math.sqrt(max(p * (1.0 - p), 0.0) / n) if n else 0.0


def playout_shares(game: Any, state: Any, seats: int, bots: Any, rng: Any, n: int, max_events: int = 5000,
                   secrets: Any = None, table_move: Any = None) -> tuple[list[float], int]:
    """Each seat's share of ``n`` games played on from ``state`` by the game's own ``bots`` (chance drawn from
    ``rng`` by the game's ``chance_outcome``): a win counts 1 for its winner (1/k each for k winners), a draw
    1/seats each. Returns the shares and how many playouts finished within ``max_events`` (only those count)."""
    from .core import CHANCE
    from .simulation import _move_of

    totals = [0.0] * seats
    done = 0
    for _ in range(n):
        s, result = state, game.result(state)
        for _ in range(max_events):
            if result is not None:
                break
            acting = game.actors(s)
            move = game.chance_outcome(s, rng) if CHANCE in acting else None
            if move is not None:
                s = game.apply(s, move.type, move.seat, game.normalize(s, move.type, move.seat, move.data))
            else:
                seat, move = _move_of(bots, table_move, secrets, game, s, acting, rng)
                s = game.apply(s, move.type, seat, move.data)
            result = game.result(s)
        if result is None:
            continue
        if result.outcome == "win" and result.winners:
            for w in result.winners:
                totals[w] += 1.0 / len(result.winners)
        else:
            totals = [t + 1.0 / seats for t in totals]
        done += 1
    return ([t / done for t in totals] if done else []), done


def effective_steps(events: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any, Any]]:
    """(event, match before, match after) of each event that stands: the set-up, undos and undone events left
    out (a move taken back at the table was never part of the game)."""
    from . import match as M

    undone = M.undone_seqs(events)
    return [(e, before, after) for e, before, after in M.replay_steps(events)
            if before is not None and e["type"] != M.UNDO and e["seq"] not in undone]


def estimate_log(game: Any, events: list[dict[str, Any]], simulator: Any, playouts: int,
                 deadline: float | None = None, points: int = 25, max_events: int = 5000,
                 luck: Any = None, key: Any = None) -> dict[str, Any]:
    """A win-chance estimate after up to ``points`` moves spread evenly over the log (``Game.evaluate_log`` of a
    game with bots; at least 8 playouts a point, so a small budget gives fewer points, 3 at least):
    ``playouts`` games in all, played on by the game's own default bots with chance drawn at
    random (a seed from the game and the seq: the same log gives the same estimate), each point with its
    standard error and sample count; the final result, when there is one, exact. No playout starts past
    ``deadline`` (``time.monotonic()``). What a seat keeps secret and the log does not record (Troje's
    allegiances) is drawn afresh for each point, as the simulator draws it. Only a finished match is estimated
    (see below). ``luck(steps)``: the game's luck over the log (``{"unit", "series": [{"seq", "values"}],
    "final": {seat: value}, "robber"?: {seat: {...}}}``), in the summary and as ``luck``. ``key(before,
    after)``: the moves worth a point (a knights' duel decided); the points are spread over those."""
    import random
    import time

    from .text import say

    steps = effective_steps(events)
    if not steps or steps[-1][2].result is None:
        # Played on from the referee's state, the games would use cards and secrets some seat cannot see, and
        # a live match would be played on again after every move: estimated once, when the match is over.
        return {"perspective": "seats", "method": None, "points": [], "moves": [], "summary": [],
                "note": say("Estimated once the match is over")}
    final = steps[-1][2]
    seats = len(final.players)
    bots = [simulator.bots[simulator.default_strategy]] * seats
    chosen = [step for step in steps[:-1] if key is None or key(step[1], step[2])] or steps[:-1]
    k = min(points, max(3, playouts // 8), len(chosen))
    picks = sorted({round(i * (len(chosen) - 1) / max(1, k - 1)) for i in range(k)}) if k else []
    per_point = max(4, playouts // max(1, len(picks)))
    out_points: list[dict[str, Any]] = []
    for i in picks:
        if deadline is not None and time.monotonic() >= deadline:
            break
        event, _, after = chosen[i]
        rng = random.Random(f"{game.id}:estimate:{event['seq']}")
        secrets = simulator.secrets(game, after.state, rng) if simulator.secrets is not None else None
        shares, done = playout_shares(game, after.state, seats, bots, rng, per_point, max_events, secrets,
                                      simulator.table_move)
        if done:
            out_points.append({"seq": event["seq"], "chances": [round(x, 6) for x in shares], "method": "estimate",
                               "stderr": round(max(standard_error(x, done) for x in shares), 6), "samples": done})
    r = final.result
    shares = ([1.0 / len(r.winners) if s in r.winners else 0.0 for s in range(seats)]
              if r.outcome == "win" and r.winners else [1.0 / seats] * seats)
    out_points.append({"seq": steps[-1][0]["seq"], "chances": shares, "method": "exact"})
    out = {"perspective": "seats", "method": "estimate", "points": out_points, "moves": []}
    told = luck(steps) if luck is not None else None
    out["summary"] = summary(range(seats), [], told["final"] if told else None)
    if told:
        for entry in out["summary"]:
            if entry["seat"] in told.get("robber", {}):
                entry["robber"] = told["robber"][entry["seat"]]
        out["luck"] = {"unit": told["unit"], "series": told["series"]}
    return out
