"""Solver-based analysis of a recorded Jogledor game, for the worker and the
hint endpoint. Pure functions of the log (or a state) and a node budget.

``analyse_log(events, budget)`` -> ``{seq: [annotation, ...]}``:

- on the deal (Sir Tommy: the first draw) whether the deal was winnable at
  all, with a witness line;
- on every move of the effective line (undone moves are left out) whether
  the game could still be won after it: ``true``, ``false`` or ``null`` when
  the budget left it undecided;
- on the move that turned a winnable game into a lost one, a ``??``
  annotation with a winning alternative.

Cooperative games with a forced turn order are monotone along a recorded
line: every successor of a lost position is lost, and a won position's
predecessors on the line are winnable. So winnability is W…W L…L, and a
binary search finds the fatal move in about log2(moves) solver calls. A
solver call that runs out of budget answers unknown and is never taken as a
loss; the boundary is then searched around it.

Sir Tommy is solved exactly once the whole deck order is known (every card
was drawn); while cards are hidden only the latest position gets a sampled
estimate, and positions with an empty stock are solved exactly.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from .. import match as M
from ..core import Move
from . import player_name
from .solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN, Solution

GAMES = ("twaalven", "stapelen", "sir_tommy")


def _solver(game_id: str) -> Any:
    if game_id == "twaalven":
        from ..twaalven import solver
    elif game_id == "stapelen":
        from ..stapelen import solver
    elif game_id == "sir_tommy":
        from ..sir_tommy import solver
    else:
        raise ValueError(f"no solver for {game_id!r}")
    return solver


def effective_line(events: Iterable[dict[str, Any]]) -> tuple[M.MatchState, list[tuple[dict[str, Any], Any, Any]]]:
    """Replay the log; return the final match and its effective events (undone
    ones dropped) as (event, state before, state after)."""
    steps: dict[int, tuple[dict[str, Any], Any, Any]] = {}
    ms = None
    for event, before, after in M.replay_steps(events):
        ms = after
        if before is not None and event["type"] != M.UNDO:
            steps[event["seq"]] = (event, before.state, after.state)
    assert ms is not None
    seqs = []
    step = ms.stack
    while step is not None:
        seqs.append(step.seq)
        step = step.prev
    return ms, [steps[s] for s in reversed(seqs) if s in steps]


def _first_decidable(game_id: str, line: list[tuple[dict[str, Any], Any, Any]]) -> int:
    """Index of the first position (after an event) the solver can judge."""
    for i, (event, before, after) in enumerate(line):
        if game_id in ("twaalven", "stapelen") and event["type"] == "deal":
            return i
        if game_id == "sir_tommy":
            return i  # with the deck order known, from the first draw on
    return len(line)


class _Judge:
    """Solves positions of the line lazily, caching the answers."""

    def __init__(self, game_id: str, positions: list[Any], budget: int, solve: Callable[[Any, int], Solution]):
        self.game_id = game_id
        self.positions = positions
        self.budget = budget
        self._solve = solve
        self.cache: dict[int, Solution] = {}

    def __call__(self, i: int) -> Solution:
        if i not in self.cache:
            self.cache[i] = self._solve(self.positions[i], self.budget)
        return self.cache[i]


def boundary(n: int, judge: Callable[[int], Solution], won: bool = False) -> tuple[int, int, dict[int, str]]:
    """Over positions 0..n-1 whose winnability is monotone (W…W L…L), find
    ``lo`` (the last position known winnable, -1 if none) and ``hi`` (the
    first known lost, n if none). Returns (lo, hi, statuses probed)."""
    seen: dict[int, str] = {}
    if n == 0:
        return -1, 0, seen
    if won:
        return n - 1, n, seen
    lo, hi = -1, n

    def probe(i: int) -> str:
        if i not in seen:
            seen[i] = judge(i).status
        return seen[i]

    # the ends first: the last position is often a terminal loss (no search)
    s = probe(n - 1)
    if s == WIN:
        return n - 1, n, seen
    if s == LOSS:
        hi = n - 1
    s = probe(0)
    if s == LOSS:
        return -1, 0, seen
    if s == WIN:
        lo = 0
    while hi - lo > 1:
        candidates = [i for i in range(lo + 1, hi) if i not in seen]
        if not candidates:
            break
        mid = (lo + hi) // 2
        i = min(candidates, key=lambda k: (abs(k - mid), k))
        s = probe(i)
        if s == WIN:
            lo = i
        elif s == LOSS:
            hi = i
    return lo, hi, seen


def _describe_move(game_id: str, move: Move, names: tuple[str, ...] = ()) -> str:
    d = move.data
    if move.type == "take" and "columns" in d:
        return f"take {d['cards'][0]} and {d['cards'][1]} (columns {d['columns'][0]} and {d['columns'][1]})"
    if move.type == "take":
        return f"take {d['card']} from column {d['column']} onto foundation {d['foundation']}"
    if move.type == "roles":
        return f"{player_name(names, d['twelves'])} collects the twelves and {player_name(names, d['first'])} starts"
    if move.type == "build":
        src = "the drawn cards" if d.get("from") == "drawn" else f"row {d.get('row')}"
        return f"build {d['card']} from {src}"
    if move.type == "place":
        return f"put {d['card']} on row {d['row']}"
    if move.type == "end_turn":
        return "end the turn"
    return move.type


def analyse_log(events: list[dict[str, Any]], budget: int = DEFAULT_BUDGET) -> dict[int, list[dict[str, Any]]]:
    """Solver annotations for a Twaalven, Stapelen or Sir Tommy log (see the
    module docstring). ``budget`` is the node budget of each solver call."""
    ms, line = effective_line(events)
    game_id = ms.game.id
    solver = _solver(game_id)
    out: dict[int, list[dict[str, Any]]] = {}
    if not line:
        return out

    if game_id == "sir_tommy":
        final = ms.state
        if final.stock == 0 and len(final.order) == 52:
            order = final.order

            def solve(state: Any, b: int) -> Solution:
                return solver.solve_known(state, order[len(state.order):], b)
        else:
            return _analyse_hidden(ms, line, budget, solver)
    else:

        def solve(state: Any, b: int) -> Solution:
            return solver.solve(state, b)

    start = _first_decidable(game_id, line)
    if start >= len(line):
        return out  # no deal yet
    positions = [after for _, _, after in line[start:]]
    seqs = [event["seq"] for event, _, _ in line[start:]]
    judge = _Judge(game_id, positions, budget, solve)
    won = ms.result is not None and ms.result.outcome == "win"
    lo, hi, probed = boundary(len(positions), judge, won)

    first = line[start][0]
    deal = _deal_note(game_id, positions, judge, won, lo, line, start)
    out.setdefault(first["seq"], []).append(deal)

    for i, seq in enumerate(seqs):
        if i <= lo:
            value: bool | None = True
            text = "still winnable"
        elif i >= hi:
            value, text = False, "lost: no line wins from here"
        else:
            value, text = None, "undecided within the node budget"
        note: dict[str, Any] = {"kind": "winnable", "winnable": value, "text": text, "source": "solver"}
        if i in judge.cache:
            note["nodes"] = judge.cache[i].nodes
        out.setdefault(seq, []).append(note)

    if 0 <= lo and hi == lo + 1 and hi < len(positions):
        alt = judge(lo)
        fatal_event = line[start + hi][0]
        note = {
            "kind": "fatal",
            "glyph": "??",
            "source": "solver",
            "text": "this move threw the game away: before it the game could still be won, after it it cannot",
        }
        if alt.status == WIN and alt.line:
            # the witness from the position before the fatal move starts with a winning alternative
            first_move = next((m for m in alt.line if m.type != "draw"), alt.line[0])
            note["alternative"] = first_move.to_dict()
            note["text"] += f"; {_describe_move(game_id, first_move, ms.players)} instead keeps it winnable"
        out.setdefault(fatal_event["seq"], []).append(note)
    elif lo == -1 and hi == 0 and game_id != "sir_tommy":
        pass  # lost from the deal: no single move is to blame (the deal note says so)
    return out


def _deal_note(game_id: str, positions: list[Any], judge: _Judge, won: bool, lo: int,
               line: list[tuple[dict[str, Any], Any, Any]], start: int) -> dict[str, Any]:
    if won:
        recorded = [Move(e["type"], e["seat"], e["data"]) for e, _, _ in line[start + 1:]]
        return {"kind": "deal", "winnable": True, "source": "solver",
                "text": "the deal was winnable: the game was won", "witness": [m.to_dict() for m in recorded]}
    sol = judge(0)
    note: dict[str, Any] = {"kind": "deal", "winnable": sol.winnable, "source": "solver", "nodes": sol.nodes}
    if sol.status == WIN:
        note["text"] = "the deal was winnable"
        note["witness"] = [m.to_dict() for m in sol.line]
    elif sol.status == LOSS:
        note["text"] = "the deal could not be won by any play"
    else:
        note["text"] = "undecided within the node budget whether the deal was winnable"
    return note


def _analyse_hidden(ms: M.MatchState, line: list[tuple[dict[str, Any], Any, Any]], budget: int, solver: Any,
                    samples: int = 30) -> dict[int, list[dict[str, Any]]]:
    """Sir Tommy with cards still in the stock: an estimate for the latest
    position only (from what has been seen), exact once the stock is empty."""
    out: dict[int, list[dict[str, Any]]] = {}
    event, _, after = line[-1]
    if after.stock == 0:
        sol = solver.solve_known(after, (), budget)
        out[event["seq"]] = [{"kind": "winnable", "winnable": sol.winnable, "source": "solver", "nodes": sol.nodes,
                              "text": {WIN: "still winnable", LOSS: "lost: no line wins from here",
                                       UNKNOWN: "undecided within the node budget"}[sol.status]}]
        return out
    est = solver.estimate(after, samples=samples, budget=max(1, budget // samples))
    low, high = est["ci95"]
    out[event["seq"]] = [{
        "kind": "estimate", "source": "solver", **est,
        "text": f"about {round(100 * est['p'])}% of the orders of the {after.stock} unseen cards still win "
        f"(95% interval {round(100 * low)}–{round(100 * high)}%)" if est["p"] is not None
        else "undecided within the node budget",
    }]
    return out


def hint(game_id: str, state: Any, seat: int | None, budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """The moves of ``seat`` that keep the game winnable (see each solver's
    ``hint``). Only what ``seat`` can see is used: Twaalven and Stapelen are
    fully open, Sir Tommy's state holds only drawn cards."""
    return _solver(game_id).hint(state, seat, budget)
