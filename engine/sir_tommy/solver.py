"""Solvers for Sir Tommy voor twee.

``solve_known(state, rest)``: exact winnability when the order of the cards
still in the stock is known (after the game, from the log), by a depth-first
search over whole turns with a table of positions proven dead. Both players
are assumed to cooperate (the super-win is ignored).

- A stock turn is: the draw, any builds by the player to move (from the drawn
  cards and the row tops, in any order), then the leftovers placed on rows.
  Building after placing reaches no position that building first does not,
  so the search builds first under both readings of ``interleave_placing``.
  The distinct results of a turn are enumerated: every set of builds
  reachable, then every placement of the leftovers (rows alike in content
  are tried once).
- Once the stock is empty, any interleaving of single builds by either
  player can be played out as turns: a player whose partner must build next
  ends his turn (a pass if he built nothing), and no two passes ever follow
  each other, except where the log already has one pass: then the player to
  move must build first.

``estimate(state, samples, budget, seed)``: while cards are hidden, the share
of winnable completions over random orders of the *unseen* cards
(determinisation), with a 95% Wilson interval. It reads only the state, and
the state holds only cards that were drawn face up, so it never uses a card
the asking seat has not seen.

Positions are keyed by ranks only (suits never matter) with the rows sorted
(rows are interchangeable). Every call has a node budget and answers
``unknown`` when it runs out; it never says ``loss`` then.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from ..core import Move
from ..jogledor.cards import CARD_IDS, DECK, RANK
from ..jogledor.solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN, Solution, share
from .game import DRAW, END, OVER, PLAY, SirTommy, State
#: the game's rules, to apply the moves the search finds (the registered game carries this solver)
_RULES = SirTommy()

_UP_NEXT = tuple(0 if r == 13 else r + 1 for r in range(14))  # after building r, an up foundation needs
_DOWN_NEXT = tuple(0 if r <= 1 else r - 1 for r in range(14))


class _Abort(Exception):
    pass


def _needs_sorted(state: State, seat: int) -> tuple[int, ...]:
    return tuple(sorted(state.needs(seat)))


def _replace_need(needs: tuple[int, ...], rank: int, up: bool) -> tuple[int, ...]:
    lst = list(needs)
    lst[lst.index(rank)] = _UP_NEXT[rank] if up else _DOWN_NEXT[rank]
    lst.sort()
    return tuple(lst)


def _rows_key(rows: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(RANK[c] for c in r) for r in rows))


def groups_of(rest: Sequence[int]) -> list[tuple[int, ...]]:
    """The stock ``rest`` (cards in draw order) as draws: threes, the last one one card."""
    out = []
    i = 0
    while i < len(rest):
        k = min(3, len(rest) - i)
        out.append(tuple(sorted(rest[i:i + k])))
        i += k
    return out


#: steps one relaxed dead-position test may take before it gives up (and prunes nothing)
RELAXED_CAP = 2000


class _Search:
    def __init__(self, up: int, groups: list[tuple[int, ...]], draws_done: int, budget: int,
                 dead: set[Any] | None = None, rng: random.Random | None = None) -> None:
        self.up = up
        self.groups = groups
        self.draws_done = draws_done
        self.budget = budget
        self.nodes = 0
        # positions proven dead: added only when a subtree was searched to the end (an abort adds nothing), so a
        # table one search filled holds for every other search of the same stock, whatever its move order
        self.dead: set[Any] = set() if dead is None else dead
        self.rng = rng  # None: the turns' ends in their heuristic order; else shuffled (a restart)
        self.line: list[tuple[str, int | None, dict[str, Any]]] = []
        # the ranks still in the stock before draw d, as counts per rank
        self.pools: list[tuple[int, ...]] = []
        counts = [0] * 14
        for g in reversed(groups):
            for c in g:
                counts[RANK[c]] += 1
            self.pools.append(tuple(counts))
        self.pools.reverse()
        self.pools.append((0,) * 14)

    def relaxed_dead(self, rows: tuple[tuple[int, ...], ...], needs: tuple[tuple[int, ...], tuple[int, ...]],
                     pool: tuple[int, ...]) -> bool:
        """A sound cut: True only if the rows cannot be cleared even when
        both players may build at any time and every card still in the stock
        is at hand whenever wanted. (Any real winning line is such a line:
        stock cards placed above a row card only leave it earlier.) Gives up,
        pruning nothing, after RELAXED_CAP steps; the steps count as nodes."""
        up_seat = self.up
        seen: set[Any] = set()
        steps = 0

        class _GiveUp(Exception):
            pass

        def rec(rows, n_up, n_dn, pool) -> bool:
            nonlocal steps
            if not any(rows):
                return True
            key = (tuple(sorted(rows)), n_up, n_dn, pool)
            if key in seen:
                return False
            seen.add(key)
            steps += 1
            self.tick()
            if steps > RELAXED_CAP:
                raise _GiveUp
            tops = set()
            for i, row in enumerate(rows):
                if not row:
                    continue
                r = row[-1]
                tops.add(r)
                rest = rows[:i] + (row[:-1],) + rows[i + 1:]
                if r in n_up and rec(rest, _replace_need(n_up, r, True), n_dn, pool):
                    return True
                if r in n_dn and rec(rest, n_up, _replace_need(n_dn, r, False), pool):
                    return True
            # a stock card only for a rank no row top offers (a row card of the same rank does better)
            for r in sorted(set(n_up)):
                if r and pool[r] and r not in tops:
                    p = pool[:r] + (pool[r] - 1,) + pool[r + 1:]
                    if rec(rows, _replace_need(n_up, r, True), n_dn, p):
                        return True
            for r in sorted(set(n_dn), reverse=True):
                if r and pool[r] and r not in tops:
                    p = pool[:r] + (pool[r] - 1,) + pool[r + 1:]
                    if rec(rows, n_up, _replace_need(n_dn, r, False), p):
                        return True
            return False

        ranks = tuple(tuple(RANK[c] for c in r) for r in rows)
        try:
            return not rec(ranks, needs[up_seat], needs[1 - up_seat], pool)
        except _GiveUp:
            return False

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Abort

    # -- urgency, for ordering ----------------------------------------------------------
    @staticmethod
    def _dist(rank: int, needs: tuple[tuple[int, ...], tuple[int, ...]], up_seat: int) -> int:
        best = 99
        for n in needs[up_seat]:
            if n and rank >= n:
                best = min(best, rank - n)
        for n in needs[1 - up_seat]:
            if n and rank <= n:
                best = min(best, n - rank)
        return best

    # -- one turn of the stock phase ----------------------------------------------------------
    def _closure(self, seat: int, hand: tuple[int, ...], rows: tuple[tuple[int, ...], ...],
                 need: tuple[int, ...]) -> list[tuple[list[tuple[str, int | None, dict[str, Any]]], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]]:
        """Every distinct (hand, rows, needs) reachable by builds, with the builds."""
        up = seat == self.up
        seen = set()
        out = []

        def rec(events, hand, rows, need):
            key = (tuple(sorted(RANK[c] for c in hand)), _rows_key(rows), need)
            if key in seen:
                return
            seen.add(key)
            self.tick()
            out.append((list(events), hand, rows, need))
            tried = set()
            for card in hand:
                r = RANK[card]
                if r in need and r not in tried:
                    tried.add(r)
                    events.append(("build", seat, {"card": CARD_IDS[card]}))
                    rec(events, tuple(c for c in hand if c != card), rows, _replace_need(need, r, up))
                    events.pop()
            rows_tried = set()
            for i, row in enumerate(rows):
                if not row:
                    continue
                r = RANK[row[-1]]
                content = tuple(RANK[c] for c in row)
                if r in need and content not in rows_tried:
                    rows_tried.add(content)
                    events.append(("build", seat, {"card": CARD_IDS[row[-1]]}))
                    new_rows = rows[:i] + (row[:-1],) + rows[i + 1:]
                    rec(events, hand, new_rows, _replace_need(need, r, up))
                    events.pop()

        rec([], hand, rows, need)
        out.sort(key=lambda o: len(o[1]) + sum(len(r) for r in o[2]))  # more built first (stable)
        return out

    def _placements(self, seat: int, hand: tuple[int, ...], rows: tuple[tuple[int, ...], ...],
                    needs: tuple[tuple[int, ...], tuple[int, ...]]) -> list[tuple[int, list[tuple[str, int | None, dict[str, Any]]], tuple[tuple[int, ...], ...]]]:
        """Every distinct way to put the leftovers on the rows: (penalty, events, rows)."""
        results: dict[Any, tuple[int, list, tuple]] = {}
        dist = {c: self._dist(RANK[c], needs, self.up) for c in hand}
        for row in rows:
            if row:
                dist.setdefault(row[-1], self._dist(RANK[row[-1]], needs, self.up))

        def rec(events, hand, rows, penalty):
            if not hand:
                key = _rows_key(rows)
                if key not in results or results[key][0] > penalty:
                    results[key] = (penalty, list(events), rows)
                return
            done_ranks = set()
            for card in hand:
                if RANK[card] in done_ranks:
                    continue
                done_ranks.add(RANK[card])
                rest = tuple(c for c in hand if c != card)
                done_rows = set()
                for i, row in enumerate(rows):
                    content = tuple(RANK[c] for c in row)
                    if content in done_rows:
                        continue
                    done_rows.add(content)
                    cost = 0
                    if row:
                        top = row[-1]
                        d_top = dist.get(top)
                        if d_top is None:
                            d_top = dist[top] = self._dist(RANK[top], needs, self.up)
                        cost = max(0, dist[card] - d_top)
                    events.append(("place", seat, {"card": CARD_IDS[card], "row": i + 1}))
                    rec(events, rest, rows[:i] + (row + (card,),) + rows[i + 1:], penalty + cost)
                    events.pop()

        rec([], hand, rows, 0)
        return sorted(results.values(), key=lambda x: x[0])

    def turn_outcomes(self, seat: int, hand: tuple[int, ...], rows: tuple[tuple[int, ...], ...],
                      needs: tuple[tuple[int, ...], tuple[int, ...]], may_build: bool):
        """The distinct ends of the rest of a stock turn: (events, rows, needs)."""
        if may_build:
            closures = self._closure(seat, hand, rows, needs[seat])
        else:
            closures = [([], hand, rows, needs[seat])]
        seen = set()
        for builds, h2, r2, n2 in closures:
            new_needs = (n2, needs[1]) if seat == 0 else (needs[0], n2)
            if not h2:
                key = (_rows_key(r2), new_needs)
                if key not in seen:
                    seen.add(key)
                    yield builds + [("end_turn", seat, {})], r2, new_needs
                continue
            for _, places, r3 in self._placements(seat, h2, r2, new_needs):
                key = (_rows_key(r3), new_needs)
                if key in seen:
                    continue
                seen.add(key)
                yield builds + places, r3, new_needs

    def stock(self, d: int, rows: tuple[tuple[int, ...], ...], needs: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
        """Before draw ``d`` of ``groups`` (or the endgame when none is left)."""
        gd = self.draws_done + d
        seat = self.up if gd % 2 == 0 else 1 - self.up
        if d == len(self.groups):
            return self.end(rows, needs, seat, built=False, passes=0)
        key = ("S", gd, _rows_key(rows), needs)
        if key in self.dead:
            return False
        self.tick()
        if self.relaxed_dead(rows, needs, self.pools[d]):
            self.dead.add(key)
            return False
        hand = self.groups[d]
        self.line.append(("draw", seat, {"cards": [CARD_IDS[c] for c in hand]}))
        if self.rest_of_turn(d, seat, hand, rows, needs, True):
            return True
        self.line.pop()
        self.dead.add(key)
        return False

    def rest_of_turn(self, d: int, seat: int, hand, rows, needs, may_build: bool) -> bool:
        mark = len(self.line)
        outcomes = self.turn_outcomes(seat, hand, rows, needs, may_build)
        if self.rng is not None:
            outcomes = list(outcomes)
            self.rng.shuffle(outcomes)
        for events, r2, n2 in outcomes:
            self.line.extend(events)
            if self.stock(d + 1, r2, n2):
                return True
            del self.line[mark:]
        return False

    # -- the endgame: the stock is empty ------------------------------------------------------
    def end(self, rows, needs, mover: int, built: bool, passes: int) -> bool:
        """Can the rows be cleared? ``mover`` is to move, has ``built`` this turn,
        after ``passes`` passes in a row."""
        must = mover if (passes == 1 and not built) else None
        actions: list[tuple[int, int, int]] = []  # (seat, row, card)
        if self._end(rows, needs, must, actions):
            self._emit_endgame(actions, mover, built, passes)
            return True
        return False

    def _end(self, rows, needs, must, actions) -> bool:
        if not any(rows):
            return True
        key = ("E", _rows_key(rows), needs, must)
        if key in self.dead:
            return False
        self.tick()
        seats = (must,) if must is not None else (0, 1)
        tried = set()
        for i, row in enumerate(rows):
            if not row:
                continue
            content = tuple(RANK[c] for c in row)
            if content in tried:
                continue
            tried.add(content)
            r = RANK[row[-1]]
            for s in seats:
                if r in needs[s]:
                    n2 = _replace_need(needs[s], r, s == self.up)
                    new_needs = (n2, needs[1]) if s == 0 else (needs[0], n2)
                    actions.append((s, i, row[-1]))
                    if self._end(rows[:i] + (row[:-1],) + rows[i + 1:], new_needs, None, actions):
                        return True
                    actions.pop()
        self.dead.add(key)
        return False

    def _emit_endgame(self, actions, mover: int, built: bool, passes: int) -> None:
        for s, _, card in actions:
            if s != mover:
                self.line.append(("end_turn", mover, {}))
                mover, built = s, False
            self.line.append(("build", s, {"card": CARD_IDS[card]}))
            built = True


def _canonical_line(state: State, line: list[tuple[str, int | None, dict[str, Any]]]) -> tuple[Move, ...]:
    """The witness as canonical events, each checked through the reducer."""
    out = []
    s = state
    for type_, seat, data in line:
        if s.over is not None:  # the last build won: an end_turn the search added after it is moot
            break
        data = _RULES.normalize(s, type_, seat, data)
        s = _RULES.apply(s, type_, seat, data)
        out.append(Move(type_, seat, data))
    return tuple(out)


def solve_known(state: State, rest: Sequence[int], budget: int = DEFAULT_BUDGET) -> Solution:
    """Exact winnability of ``state`` when the stock holds ``rest`` in draw
    order (the cards of every draw still to come). Cooperative: both players
    play to win; the witness line includes the draws."""
    if state.phase == OVER:
        return Solution(WIN if state.over[0] == "win" else LOSS, note="the game is over")  # type: ignore[index]
    if len(rest) != state.stock or set(rest) & set(state.order) or len(set(rest)) != len(rest):
        raise ValueError("rest must be the cards still in the stock, each once")
    groups = groups_of(rest)
    draws_done = (len(state.order) + 2) // 3
    rows = tuple(tuple(r) for r in state.rows)
    needs = (_needs_sorted(state, 0), _needs_sorted(state, 1))
    # Searches of RESTART nodes while the budget lasts: a depth-first search that chose badly early can spend
    # any budget in a lost subtree while a win lies one choice away (9 of 10 deals the first search left
    # undecided at 20,000 nodes were won within 12 shuffled restarts of that size). The first keeps the
    # heuristic order (a budget of at most RESTART: one search, as before), the others shuffle each turn's
    # ends; all add what they proved dead to one table the next ones skip (a search that runs to its end
    # proves a loss with all of them).
    dead: set[Any] = set()
    spent, attempt = 0, 0
    while spent < budget:
        rng = None if attempt == 0 else random.Random(f"sir_tommy-restart:{attempt}")
        attempt += 1
        search = _Search(state.up, groups, draws_done, min(RESTART, budget - spent), dead, rng)
        try:
            if state.phase == DRAW:
                won = search.stock(0, rows, needs)
            elif state.phase == PLAY:
                may_build = not (state.placing and not state.interleave)
                # the current draw is done: the next one is groups[0], i.e. d = -1 now
                won = search.rest_of_turn(-1, state.to_move, state.drawn, rows, needs, may_build)
            else:  # END
                won = search.end(rows, needs, state.to_move, state.built, state.passes)
        except _Abort:
            spent += search.nodes
            continue
        spent += search.nodes
        if not won:  # a search that ran to its end: no order finds a win (the dead table holds for all)
            return Solution(LOSS, (), spent)
        return Solution(WIN, _canonical_line(state, search.line), spent)
    return Solution(UNKNOWN, (), spent)


#: the nodes of each search of a ``solve_known`` call, restarted while its budget lasts
RESTART = 20_000


def solve(state: State, budget: int = DEFAULT_BUDGET, rest: Sequence[int] | None = None) -> Solution:
    """With ``rest`` (the stock order) exact; without it, exact only once the
    stock is empty, else ``unknown`` (use ``estimate``)."""
    if rest is not None:
        return solve_known(state, rest, budget)
    if state.phase == OVER or state.stock == 0:
        return solve_known(state, (), budget)
    return Solution(UNKNOWN, note="cards are still hidden in the stock; see estimate()")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def unseen(state: State) -> list[int]:
    """The cards nobody has seen: exactly the stock (as a set)."""
    seen = set(state.order)
    return [c for c in DECK if c not in seen]


def estimate(state: State, samples: int = 50, budget: int = 20_000, seed: int = 0) -> dict[str, Any]:
    """Share of winnable completions of the hidden stock, sampled.

    Each sample orders the unseen cards at random (a local RNG from ``seed``:
    pure) and solves that open game with ``budget`` nodes. The interval is the
    95% Wilson interval over the decided samples; ``unknown`` samples (budget
    spent) are counted apart, and the bounds ``low_all``/``high_all`` count
    them as losses resp. wins. Determinisation is optimistic: it assumes the
    players would know the order (an upper bound on real chances)."""
    if state.phase == OVER or state.stock == 0:
        sol = solve_known(state, (), budget * samples)
        p = {WIN: 1.0, LOSS: 0.0}.get(sol.status)
        return {"exact": True, "status": sol.status, "p": p, "samples": 0, "wins": int(p == 1.0), "losses": int(p == 0.0),
                "unknown": int(p is None), "ci95": [p, p] if p is not None else [0.0, 1.0], "nodes": sol.nodes}
    rng = random.Random(f"sir_tommy-estimate:{seed}")
    hidden = unseen(state)
    wins = losses = unknown = nodes = 0
    for _ in range(samples):
        order = hidden[:]
        rng.shuffle(order)
        sol = solve_known(state, order, budget)
        nodes += sol.nodes
        if sol.status == WIN:
            wins += 1
        elif sol.status == LOSS:
            losses += 1
        else:
            unknown += 1
    decided = wins + losses
    low, high = wilson(wins, decided)
    return {
        "exact": False,
        "samples": samples,
        "wins": wins,
        "losses": losses,
        "unknown": unknown,
        "p": wins / decided if decided else None,
        "ci95": [round(low, 4), round(high, 4)],
        "low_all": round(wilson(wins, samples)[0], 4),
        "high_all": round(wilson(wins + unknown, samples)[1], 4),
        "nodes": nodes,
    }


def hint(state: State, seat: int | None, budget: int = 20_000, samples: int = 20, seed: int = 0) -> dict[str, Any]:
    """For each legal move of ``seat``: once the stock is empty, whether it
    keeps the game winnable (exact); before that, the estimated share of
    winnable completions after it. Uses only what the seat has seen.
    ``budget`` is the nodes of the whole hint, shared out over the moves and,
    for an estimate, over its samples."""
    moves = _RULES.legal_moves(state, seat)
    out: dict[str, Any] = {"exact": state.stock == 0, "winning": [], "losing": [], "unknown": [], "estimates": [],
                           "nodes": 0}
    each = share(budget, len(moves))
    for move in moves:
        after = _RULES.apply(state, move.type, move.seat, move.data)
        if state.stock == 0 or after.phase == OVER:
            sol = solve_known(after, (), each)
            out["nodes"] += sol.nodes
            out[{WIN: "winning", LOSS: "losing", UNKNOWN: "unknown"}[sol.status]].append(move.to_dict())
        else:
            est = estimate(after, samples, share(each, samples), seed)
            out["nodes"] += est["nodes"]
            out["estimates"].append({"move": move.to_dict(), **est})
    out["estimates"].sort(key=lambda e: -(e["p"] or 0))
    return out
