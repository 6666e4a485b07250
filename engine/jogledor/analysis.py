"""Solver-based analysis of a recorded Jogledor game, for the worker and the
hint endpoint. Pure functions of the log (or a state) and a node budget.

``analyse_log(events, budget, progress=…, max_nodes=…, deadline=…)`` ->
``{seq: [annotation, ...]}`` (``budget``: nodes per solver call;
``max_nodes``, ``deadline``: the whole analysis's, past which no solver call
starts and what is left is undecided; ``progress(done, total)``: positions
decided so far):

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

import time
from typing import Any, Callable, Iterable

from .. import match as M
from ..core import Move
from ..text import Text, say
from . import player_name
from .cards import card_face, parse_card
from .solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN, Solution

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


class _Limits:
    """The whole analysis's budget: solver nodes and a monotonic deadline."""

    def __init__(self, max_nodes: int | None = None, deadline: float | None = None):
        self.left = max_nodes
        self.deadline = deadline

    def allow(self, budget: int) -> int:
        """Nodes the next solver call may use (0: none may start)."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return 0
        return budget if self.left is None else max(0, min(budget, self.left))

    def spent(self, nodes: int) -> None:
        if self.left is not None:
            self.left -= nodes


class _Judge:
    """Solves positions of the line lazily, caching the answers, within the limits."""

    def __init__(self, game_id: str, positions: list[Any], budget: int, solve: Callable[[Any, int], Solution],
                 limits: _Limits | None = None):
        self.game_id = game_id
        self.positions = positions
        self.budget = budget
        self._solve = solve
        self.limits = limits or _Limits()
        self.cache: dict[int, Solution] = {}

    def __call__(self, i: int) -> Solution:
        if i not in self.cache:
            allowed = self.limits.allow(self.budget)
            if allowed <= 0:
                return Solution(UNKNOWN, note="analysis budget spent")  # not cached: never a call
            sol = self._solve(self.positions[i], allowed)
            self.limits.spent(sol.nodes)
            self.cache[i] = sol
        return self.cache[i]


def boundary(n: int, judge: Callable[[int], Solution], won: bool = False,
             progress: Callable[[int, int], None] | None = None) -> tuple[int, int, dict[int, str]]:
    """Over positions 0..n-1 whose winnability is monotone (W…W L…L), find
    ``lo`` (the last position known winnable, -1 if none) and ``hi`` (the
    first known lost, n if none). Returns (lo, hi, statuses probed).
    ``progress(decided, n)`` after each probe: positions known either way."""
    seen: dict[int, str] = {}
    if n == 0:
        return -1, 0, seen
    if won:
        return n - 1, n, seen
    lo, hi = -1, n

    def probe(i: int) -> str:
        if i not in seen:
            seen[i] = judge(i).status
            if progress is not None:
                known_lo = max([lo, i] if seen[i] == WIN else [lo])
                known_hi = min([hi, i] if seen[i] == LOSS else [hi])
                progress(known_lo + 1 + n - known_hi, n)
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


#: what a position is, as a note says it
_STILL = {WIN: say("still winnable"), LOSS: say("lost: no line wins from here"),
          UNKNOWN: say("undecided within the node budget")}


def _describe_move(game_id: str, move: Move, names: tuple[str, ...] = ()) -> Text:
    d = move.data
    face = lambda card: card_face(parse_card(card, "card"))  # noqa: E731
    if move.type == "take" and "columns" in d:
        return say("take {card0} and {card1} (columns {a} and {b})", card0=face(d["cards"][0]),
                   card1=face(d["cards"][1]), a=d["columns"][0], b=d["columns"][1])
    if move.type == "take":
        return say("take {card} from column {column} onto foundation {foundation}", card=face(d["card"]),
                   column=d["column"], foundation=d["foundation"])
    if move.type == "roles":
        return say("{twelves} collects the twelves and {first} starts", twelves=player_name(names, d["twelves"]),
                   first=player_name(names, d["first"]))
    if move.type == "build":
        if d.get("from") == "drawn":
            return say("build {card} from the drawn cards", card=face(d["card"]))
        return say("build {card} from row {row}", card=face(d["card"]), row=d.get("row"))
    if move.type == "place":
        return say("put {card} on row {row}", card=face(d["card"]), row=d["row"])
    if move.type == "end_turn":
        return say("end the turn")
    return say("{type}", type=move.type)


def analyse_log(events: list[dict[str, Any]], budget: int = DEFAULT_BUDGET, *,
                progress: Callable[[int, int], None] | None = None, max_nodes: int | None = None,
                deadline: float | None = None) -> dict[int, list[dict[str, Any]]]:
    """Solver annotations for a Twaalven, Stapelen or Sir Tommy log (see the
    module docstring). ``budget`` is the node budget of each solver call."""
    ms, line = effective_line(events)
    report = progress or (lambda done, total: None)
    return _analyse(ms, line, budget, report, _Limits(max_nodes, deadline))


def _analyse(ms: M.MatchState, line: list[tuple[dict[str, Any], Any, Any]], budget: int,
             report: Callable[[int, int], None], limits: _Limits) -> dict[int, list[dict[str, Any]]]:
    game_id = ms.game.id
    solver = ms.game.solver
    out: dict[int, list[dict[str, Any]]] = {}
    if not line:
        report(1, 1)
        return out

    if game_id == "sir_tommy":
        final = ms.state
        if final.stock == 0 and len(final.order) == 52:
            order = final.order

            def solve(state: Any, b: int) -> Solution:
                return solver.solve_known(state, order[len(state.order):], b)
        else:
            report(0, 1)
            out = _analyse_hidden(ms, line, budget, solver, limits)
            report(1, 1)
            return out
    else:

        def solve(state: Any, b: int) -> Solution:
            return solver.solve(state, b)

    start = _first_decidable(game_id, line)
    if start >= len(line):
        report(1, 1)
        return out  # no deal yet
    positions = [after for _, _, after in line[start:]]
    seqs = [event["seq"] for event, _, _ in line[start:]]
    judge = _Judge(game_id, positions, budget, solve, limits)
    won = ms.result is not None and ms.result.outcome == "win"
    report(0, len(positions))
    lo, hi, probed = boundary(len(positions), judge, won, report)

    first = line[start][0]
    deal = _deal_note(game_id, positions, judge, won, lo, line, start)
    out.setdefault(first["seq"], []).append(deal)

    for i, seq in enumerate(seqs):
        if i <= lo:
            value: bool | None = True
            text = _STILL[WIN]
        elif i >= hi:
            value, text = False, _STILL[LOSS]
        else:
            value, text = None, _STILL[UNKNOWN]
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
            "text": say("this move threw the game away: before it the game could still be won, after it it cannot"),
        }
        if alt.status == WIN and alt.line:
            # the witness from the position before the fatal move starts with a winning alternative
            first_move = next((m for m in alt.line if m.type != "draw"), alt.line[0])
            note["alternative"] = first_move.to_dict()
            note["text"] = say("{first}; {then}", first=note["text"], then=say(
                "{move} instead keeps it winnable", move=_describe_move(game_id, first_move, ms.players)))
        out.setdefault(fatal_event["seq"], []).append(note)
    elif lo == -1 and hi == 0 and game_id != "sir_tommy":
        pass  # lost from the deal: no single move is to blame (the deal note says so)
    report(len(positions), len(positions))
    return out


def _deal_note(game_id: str, positions: list[Any], judge: _Judge, won: bool, lo: int,
               line: list[tuple[dict[str, Any], Any, Any]], start: int) -> dict[str, Any]:
    if won:
        recorded = [Move(e["type"], e["seat"], e["data"]) for e, _, _ in line[start + 1:]]
        return {"kind": "deal", "winnable": True, "source": "solver",
                "text": say("the deal was winnable: the game was won"), "witness": [m.to_dict() for m in recorded]}
    sol = judge(0)
    note: dict[str, Any] = {"kind": "deal", "winnable": sol.winnable, "source": "solver", "nodes": sol.nodes}
    if sol.status == WIN:
        note["text"] = say("the deal was winnable")
        note["witness"] = [m.to_dict() for m in sol.line]
    elif sol.status == LOSS:
        note["text"] = say("the deal could not be won by any play")
    else:
        note["text"] = say("undecided within the node budget whether the deal was winnable")
    return note


def _analyse_hidden(ms: M.MatchState, line: list[tuple[dict[str, Any], Any, Any]], budget: int, solver: Any,
                    limits: _Limits | None = None, samples: int = 30) -> dict[int, list[dict[str, Any]]]:
    """Sir Tommy with cards still in the stock: an estimate for the latest
    position only (from what has been seen), exact once the stock is empty."""
    out: dict[int, list[dict[str, Any]]] = {}
    event, _, after = line[-1]
    limits = limits or _Limits()
    budget = limits.allow(budget)
    if budget <= 0:
        out[event["seq"]] = [{"kind": "estimate", "source": "solver", "p": None,
                              "text": say("undecided within the analysis budget")}]
        return out
    limits.spent(budget)
    if after.stock == 0:
        sol = solver.solve_known(after, (), budget)
        out[event["seq"]] = [{"kind": "winnable", "winnable": sol.winnable, "source": "solver", "nodes": sol.nodes,
                              "text": _STILL[sol.status]}]
        return out
    est = solver.estimate(after, samples=samples, budget=max(1, budget // samples))
    low, high = est["ci95"]
    out[event["seq"]] = [{
        "kind": "estimate", "source": "solver", **est,
        "text": say("about {p}% of the orders of the {n} unseen cards still win (95% interval {low}–{high}%)",
                    p=round(100 * est["p"]), n=after.stock, low=round(100 * low), high=round(100 * high))
        if est["p"] is not None else _STILL[UNKNOWN],
    }]
    return out


def evaluation(events: list[dict[str, Any]], notes: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """The table's chance of winning after each move (``Game.evaluate_log``), read from the solver's notes of
    the same log (``analyse_log``): 1 where the game could still be won, 0 where it could not (exact); Sir
    Tommy's sampled share of the unseen cards' orders that still win where cards are hidden (an estimate,
    with its standard error and the orders decided). A move from a winnable position to a lost one cost the
    whole chance: that is the ``??`` the solver's note names; every other move decided on both sides cost 0.
    Undecided positions (budget spent) get no point."""
    from ..evaluation import judged, standard_error, summary

    ms, line = effective_line(events)
    points: list[dict[str, Any]] = []
    for event, _, _ in line:
        for note in notes.get(event["seq"], []):
            if note.get("kind") == "winnable" and note.get("winnable") is not None:
                points.append({"seq": event["seq"], "chances": [1.0 if note["winnable"] else 0.0], "method": "exact"})
                break
            if note.get("kind") == "estimate" and note.get("p") is not None:
                if note.get("exact"):
                    points.append({"seq": event["seq"], "chances": [note["p"]], "method": "exact"})
                else:
                    decided = note["wins"] + note["losses"]
                    points.append({"seq": event["seq"], "chances": [round(note["p"], 6)], "method": "estimate",
                                   "stderr": round(standard_error(note["p"], decided), 6), "samples": decided})
                break
    at = {p["seq"]: p for p in points}
    moves = []
    for (before, _, _), (event, _, _) in zip(line, line[1:]):
        a, b = at.get(before["seq"]), at.get(event["seq"])
        if isinstance(event["seat"], int) and a and b and a["method"] == b["method"] == "exact":
            moves.append(judged(event["seq"], event["seat"], a["chances"][0] - b["chances"][0]))
    methods = {p["method"] for p in points}
    out = {"perspective": "table", "method": ("estimate" if "estimate" in methods else "exact") if points else None,
           "points": points, "moves": moves, "summary": summary(range(len(ms.players)), moves)}
    if not points:
        out["note"] = say("Not evaluated yet: no position of this log was decided within the analysis budget")
    return out
