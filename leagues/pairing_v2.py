"""The Swiss pairings of leagues recorded with pairing system v2, frozen: the
first FIDE Dutch-system implementation (C.04.3 as approved in 2025), as it
was released (commit 8625f6a's leagues/pairing.py). A league's stream says
which system paired it, and its replay (the audit, ``kroniek audit verify``)
recomputes each round with that system, so a league paired by v2 still
verifies after ``leagues.pairing`` (v3) came closer to bbpPairings.

Never change this module: every v2 league's audit depends on it giving the
same pairings it gave (tests/leagues/test_pairing_v2.py holds it to pairings
recorded from the released code). The Berger tables and the multi-player
tables did not change between v2 and v3; they stay in ``leagues.pairing``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence

from .pairing import BLACK, WHITE, HistoryRound, PairingImpossible, Pairings, Score, _preference, _round_view


class _Matcher:
    """A perfect (or maximum) matching of the players still to be paired, kept
    up to date while the Dutch procedure fixes pairs one by one.

    It is the completion test (C.04.3 C.4) made cheap: a tentative pair is
    accepted only if the players left can still all be paired, which costs one
    augmenting-path search (Edmonds' blossoms, general graphs). In the dense
    graphs of a Swiss (each player has met only a few others) the path is
    almost always of length 1 or 3 and found at once.
    """

    def __init__(self, n: int, ok: Callable[[int, int], bool], members: Iterable[int]) -> None:
        self.n = n
        self.ok = ok
        self.alive: dict[int, None] = dict.fromkeys(members)
        self.mate = [-1] * n

    # -- building ---------------------------------------------------------------
    def maximise(self) -> list[int]:
        """Greedy, then augment; returns the vertices left exposed."""
        ok, mate = self.ok, self.mate
        pending: list[int] = []  # greedy: each vertex with one of the last few still free
        for v in self.alive:
            if mate[v] != -1:
                continue
            for k in range(len(pending) - 1, max(-1, len(pending) - 9), -1):
                u = pending[k]
                if ok(u, v):
                    mate[u], mate[v] = v, u
                    del pending[k]
                    break
            else:
                pending.append(v)
        exposed = [v for v in self.alive if mate[v] == -1]
        stuck: list[int] = []
        while len(exposed) >= 2:
            u = exposed.pop(0)
            if not self._quick(u, exposed) and not self._edmonds(u):
                stuck.append(u)  # no augmenting path from u now means none later
            exposed = [v for v in exposed if mate[v] == -1]
        return stuck + exposed

    def _quick(self, u: int, targets: list[int]) -> bool:
        """Augmenting paths of length 1 or 3 from ``u`` to one of ``targets``."""
        ok, mate = self.ok, self.mate
        for t in targets:
            if t != u and ok(u, t):
                mate[u], mate[t] = t, u
                return True
        for x in self.alive:
            y = mate[x]
            if y == -1 or x == u or not ok(u, x):
                continue
            for t in targets:
                if t != u and t != y and ok(y, t):
                    mate[u], mate[x], mate[y], mate[t] = x, u, t, y
                    return True
        return False

    def _edmonds(self, root: int) -> bool:
        """One search for an augmenting path from the exposed ``root``; augments
        and returns True when found, leaves the matching untouched otherwise."""
        ok, mate, alive, n = self.ok, self.mate, self.alive, self.n
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = [root]
        head = 0

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: set[int]) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while head < len(queue):
            v = queue[head]
            head += 1
            for to in alive:
                if to == v or base[v] == base[to] or mate[v] == to or not ok(v, to):
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    cur = lca(v, to)
                    blossom: set[int] = set()
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for i in alive:
                        if base[i] in blossom:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:  # augment along the path
                            pv = parent[to]
                            nxt = mate[pv]
                            mate[to], mate[pv] = pv, to
                            to = nxt
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _repair(self, a: int, b: int) -> bool:
        """``a`` and ``b`` are the only exposed vertices: join them by a path."""
        return self._quick(a, [b]) or self._edmonds(a)

    # -- fixing pairs -----------------------------------------------------------
    def fix(self, p: int, q: int) -> bool:
        """Pair p with q if the rest can still be paired; on refusal nothing changes."""
        mate = self.mate
        if mate[p] == q:
            del self.alive[p], self.alive[q]
            return True
        a, b = mate[p], mate[q]
        del self.alive[p], self.alive[q]
        mate[p] = mate[q] = mate[a] = mate[b] = -1
        if self._repair(a, b):
            return True
        self.alive[p] = self.alive[q] = None
        mate[p], mate[a], mate[q], mate[b] = a, p, b, q
        return False

    def unfix(self, p: int, q: int) -> None:
        """Undo ``fix(p, q)``: the pair goes back into the matching."""
        self.alive[p] = self.alive[q] = None
        self.mate[p], self.mate[q] = q, p

    def drop(self, c: int, exposed: int) -> bool:
        """Take ``c`` out (it gets the bye) if the rest can still be paired;
        ``exposed`` is the one vertex the matching leaves unpaired."""
        mate = self.mate
        if c == exposed:
            del self.alive[c]
            return True
        a = mate[c]
        del self.alive[c]
        mate[c] = mate[a] = -1
        if self._repair(a, exposed):
            return True
        self.alive[c] = None
        mate[c], mate[a] = a, c
        return False


def swiss_pairings(
    standings: Sequence[tuple[str, Score]],
    history: Sequence[HistoryRound],
    round_no: int,
    *,
    no_bye: Iterable[str] = (),
    initial_colour: int = WHITE,
    rounds: int | None = None,
    pairing_numbers: Mapping[str, int] | None = None,
    win_points: Score = 1,
) -> Pairings:
    """Pair a Swiss round of a two-player game by the FIDE Dutch system,
    C.04.3 as approved by the FIDE Council in 2025 (applied from February
    2026; criteria numbered C.1–C.21 as there).

    ``standings``: ``(player, points)`` for everyone to be paired, listed in
    pairing-number order (initial ranking, strongest first); players are then
    ranked by points, pairing number breaking ties. ``history``: the earlier
    rounds (``Pairings`` or lists of ``(seat0, seat1)``, None for a bye); a
    player missing from a round did not play it. ``no_bye``: players who may
    not get the bye for another reason (C.2: a forfeit win already scored).
    ``rounds``: the planned number of rounds (the final round relaxes C.3 for
    topscorers, players above half of the maximum score ``win_points`` per
    round). ``pairing_numbers``: the players' tournament pairing numbers when
    absent players make them differ from the positions in ``standings``
    (colour rule E.5 reads their parity). Raises ``PairingImpossible`` only
    when no pairing keeps the absolute criteria.

    The procedure, bracket by bracket from the top score down:

    - absolute criteria: C.1 no rematch, C.2 at most one pairing-allocated
      bye, C.3 no two players with the same absolute colour preference (A.6)
      meet — except topscorers in the final round. C.4 completion holds
      exactly: every pair is accepted only if everyone left can still be
      paired (an incremental Edmonds matching over all players), so a legal
      pairing is found whenever one exists, never by backtracking; if C.3
      leaves none, it is relaxed (``relaxed == ("colour",)``).
    - the bye (C.2, C.5–C.9): it stays at the lowest score that still leaves
      a complete pairing; once the last bracket is known, it goes to the
      player that bracket's pairing leaves over (below), among those without
      a bye and with the fewest unplayed games (C.9).
    - a bracket pairs as many players as it can (C.5). Moved-down players
      come first, each with the resident that keeps, in this order, the most
      pairs (C.5), the highest scores paired (C.6), floaters who can meet
      someone in the next bracket (C.7, in part), the fewest denied colour
      preferences (C.12) and strong ones (C.13) over the whole bracket, no
      repeated downfloat or upfloat (C.14–C.17), then the highest resident;
      when not all of them can pair, the one that floats on is chosen the
      same way.
    - the remainder, up to ``EXACT_PAIRS`` pairs, is paired exactly by those
      criteria and then by the rules' order of candidates: the fewest and
      smallest exchanges between S1 (top half) and S2, then the first
      transposition (S1 players in order, each with the lowest S2 player
      possible); an odd remainder floats the S2 player the first
      transposition leaves over. One assignment problem per exchange tried
      (``_best_remainder``). Larger remainders (big brackets at 1,024
      players) pair S1 against S2 greedily in transposition order, each pair
      accepted only while the colour minimums (counted: white and black
      preferences against the pairs to make) stay reachable.
    - colours (E.1–E.5): both preferences; else the stronger (absolute over
      strong over mild; between absolutes the wider colour difference); else
      alternate from the last game both played with different colours,
      counted by games played, not rounds (E.3); else the higher-ranked
      player's preference (E.4); else the pairing-number parity with
      ``initial_colour`` (E.5).

    Simplified, so the pairing can differ from bbpPairings (the FIDE-endorsed
    engine; never in legality): brackets are settled one after the other
    (moved-down players' opponents, then the remainder, then the bye) where
    the rules weigh them together; C.7 and C.8 only as far as a floater can
    meet someone in the next bracket; C.10/C.11 (final-round topscorer
    colours) and C.18–C.21 (score differences of repeated floaters) are not
    weighed; large brackets use the greedy path above; forfeited games in
    the history count as played for rematches and colours. On the committed
    random tournaments 92% of rounds are identical to bbpPairings v6
    (tests/leagues/test_dutch_vs_bbp.py).
    """
    names = [p for p, _ in standings]
    if len(set(names)) != len(names):
        raise ValueError("players must be distinct")
    score = {p: Fraction(s) for p, s in standings}
    if pairing_numbers is None:
        number = {p: i + 1 for i, p in enumerate(names)}
    else:
        number = {p: int(pairing_numbers[p]) for p in names}
    score_level = {s: k for k, s in enumerate(sorted(set(score.values()), reverse=True))}  # 0 = top
    order = sorted(names, key=lambda p: (score_level[score[p]], number[p]))
    idx = {p: i for i, p in enumerate(order)}
    n = len(order)
    if n < 2:
        raise PairingImpossible("a Swiss round needs at least two players")

    opp: list[set[int]] = [set() for _ in range(n)]
    colours: list[list[int]] = [[] for _ in range(n)]
    had_bye = [False] * n
    down = [[False] * n, [False] * n]  # floated down 1 and 2 rounds ago
    up = [[False] * n, [False] * n]
    for rno, rnd in enumerate(history):
        boards, byes, downs = _round_view(rnd)
        back = len(history) - 1 - rno
        for w, b in boards:
            iw, ib = idx.get(w), idx.get(b)
            if iw is not None:
                colours[iw].append(WHITE)
                if ib is not None:
                    opp[iw].add(ib)
            if ib is not None:
                colours[ib].append(BLACK)
                if iw is not None:
                    opp[ib].add(iw)
        for p in byes:
            if p in idx:
                had_bye[idx[p]] = True
        if back < 2:
            ups = rnd.upfloaters if isinstance(rnd, Pairings) else frozenset()
            for p in list(downs) + byes:
                if p in idx:
                    down[back][idx[p]] = True
            for p in ups:
                if p in idx:
                    up[back][idx[p]] = True
    for p in no_bye:
        if p in idx:
            had_bye[idx[p]] = True

    pref = [_preference(c) for c in colours]
    col = [c for c, _ in pref]
    strength = [s for _, s in pref]
    absc = [c if s == 3 else 0 for c, s in pref]
    played = [len(c) for c in colours]
    final = rounds is not None and round_no >= rounds
    half_max = (round_no - 1) * Fraction(win_points) / 2  # topscorers: above half the maximum score
    top_levels = {k for s, k in score_level.items() if final and s > half_max}
    top = [score_level[score[p]] in top_levels for p in order]

    def strict(i: int, j: int) -> bool:
        return j not in opp[i] and not (absc[i] and absc[i] == absc[j] and not (top[i] or top[j]))

    def loose(i: int, j: int) -> bool:
        return j not in opp[i]

    # -- the bye, and the completion matcher ---------------------------------
    bye: int | None = None
    matcher = None
    relaxed: tuple[str, ...] = ()
    for level, ok in (((), strict), (("colour",), loose)):
        m = _Matcher(n, ok, range(n))
        exposed = m.maximise()
        if n % 2 == 0:
            if exposed:
                continue
        else:
            if len(exposed) != 1:
                continue
            bye = _choose_bye(m, exposed[0], order, score, had_bye, played, col, strength, down)
            if bye is None:
                continue
        matcher, relaxed = m, level
        break
    if matcher is None:
        raise PairingImpossible(
            "no pairing avoids a rematch" + (" and gives the bye to a player without one" if n % 2 else ""),
            round=round_no,
        )
    ok = matcher.ok

    pairs: list[tuple[int, int]] = []
    taken = [False] * n
    if bye is not None:
        taken[bye] = True

    def bad(i: int, j: int) -> int:
        """C.12 cost of the pair: 1 when one of them cannot get his preference."""
        return 1 if col[i] and col[i] == col[j] else 0

    def quality(i: int, j: int) -> int:
        """C.12 then C.13 as one number: denied preferences, then denied
        strong ones (a strong or absolute player meeting one with the same
        preference who is not weaker)."""
        if not col[i] or col[i] != col[j]:
            return 0, 0
        strong = strength[i] >= 2 and strength[j] >= 2 and not (strength[i] == 3 and strength[j] == 3)
        return 1, 1 if strong else 0

    def take(i: int, j: int, local: _Matcher | None = None) -> bool:
        if not ok(i, j):
            return False
        if local is not None and i in local.alive and j in local.alive:
            if not local.fix(i, j):
                return False
            if not matcher.fix(i, j):
                return False  # pragma: no cover - local pairs are a subset of global ones
        elif not matcher.fix(i, j):
            return False
        taken[i] = taken[j] = True
        pairs.append((i, j) if i < j else (j, i))
        return True

    lvl = [score_level[score[p]] for p in order]
    group_of: dict[int, list[int]] = {}  # score level -> its players, the bye's included
    for i in range(n):
        group_of.setdefault(lvl[i], []).append(i)
    groups: list[list[int]] = []
    for i in range(n):
        if taken[i]:
            continue
        if groups and lvl[groups[-1][0]] == lvl[i]:
            groups[-1].append(i)
        else:
            groups.append([i])

    mdps: list[int] = []
    for g, residents in enumerate(groups):
        last = g == len(groups) - 1
        if last and bye is not None and len(mdps) + len(residents) <= 2 * EXACT_PAIRS:
            bye, mdps, residents = _rechoose_bye(bye, mdps, residents, matcher, taken, order, score,
                                           had_bye, played, down, ok, quality, col, strength)
        bracket = mdps + residents
        budget = _Budget(bracket, col, strength)
        floating: list[int] = []
        # the next score group (C.7), the bye's player included: he is not paired there
        below = [] if last else group_of.get(lvl[residents[-1]] + 1, [])

        def float_cost(i: int, below: list[int] = below) -> tuple[int, int]:
            """For a player left over: (cannot meet anyone in the next
            bracket (C.7), repeated downfloat: C.14 then C.16)."""
            stuck = 0 if not below or any(not taken[r] and ok(i, r) for r in below) else 1
            return stuck, 2 * down[0][i] + down[1][i]

        # moved-down players first, each with the highest resident that keeps the criteria
        small = len(residents) <= 2 * EXACT_PAIRS
        for p in mdps:
            cands = [q for q in residents if not taken[q] and ok(p, q)]
            if small and cands:
                # the resident that keeps the bracket's colour totals best, then
                # no repeated upfloat (C.15, C.17), then the highest; the search
                # stops at the first one that reaches the colour lower bound
                floor = _colour_cost([i for i in bracket if not taken[i] or i == p], col, strength)
                ranked = []
                for q in cands:
                    later = [m for m in mdps if m > p and not taken[m]]  # they pair here too
                    rest_q = later + [i for i in residents if not taken[i] and i != q]
                    for extra in range(3):  # C.5: as many pairs as possible
                        best = _best_remainder(rest_q, ok, quality, _colour_cost(rest_q, col, strength),
                                               tries=8, floats=float_cost, extra=extra)
                        if best is not None:
                            break
                    c12, c13 = quality(p, q)
                    if best is None:
                        k = (n, 0, 0, 0, 0, 0, 0, 0, 0, q)
                    else:
                        left = best[2]
                        k = (len(left), -sum(lvl[f] for f in left), best[0][0], c12 + best[0][1], c13 + best[0][2],
                             sum(down[0][f] for f in left), up[0][q], sum(down[1][f] for f in left), up[1][q], q)
                    ranked.append(k)
                    if k[0] == len(rest_q) % 2 and k[2:9] == (0, *floor, 0, False, 0, False) and (
                            not k[0] or k[1] == -lvl[residents[-1]]):
                        break
                later = [m for m in mdps if m > p and not taken[m]]
                free = [i for i in residents if not taken[i]]
                if len(later) + 1 > len(free):  # not every moved-down player can pair: maybe not this one
                    rest_f = later + free
                    for extra in range(3):
                        best = _best_remainder(rest_f, ok, quality, _colour_cost(rest_f, col, strength),
                                               tries=8, floats=float_cost, extra=extra)
                        if best is not None:
                            break
                    if best is not None:
                        left = best[2]
                        ranked.append((1 + len(left), -sum(lvl[f] for f in left) - lvl[p], best[0][0], best[0][1],
                                       best[0][2], sum(down[0][f] for f in left), 0, sum(down[1][f] for f in left), 0, n))
                ranked.sort()
                cands = [k[-1] for k in ranked]
                if cands and cands[0] == n:  # it floats on: the others pair better without it
                    floating.append(p)
                    continue
                cands = [q for q in cands if q != n]
            else:
                cands.sort(key=lambda q: (up[0][q], up[1][q], q))
            for q in cands:
                if (small or budget.allows(p, q, bad(p, q))) and take(p, q):
                    budget.pair(p, q, bad(p, q))
                    break
            else:
                for q in cands:
                    if not taken[q] and take(p, q):
                        budget.pair(p, q, bad(p, q))
                        break
                else:
                    floating.append(p)
        rest = [i for i in residents if not taken[i]]
        floater = None
        exact = None
        extra_floaters: list[int] = []
        if len(rest) // 2 <= EXACT_PAIRS and (len(rest) % 2 == 0 or not last):
            for extra in range(1 if last else 3):  # more floaters only if the round cannot complete
                exact = _best_remainder(rest, ok, quality, _colour_cost(rest, col, strength),
                                        floats=float_cost, extra=extra, tries=24 if len(rest) <= 32 else 6)
                if exact is not None and _commit(exact[1], matcher, taken, pairs):
                    left = exact[2]
                    if len(left) % 2:
                        floater = left[-1]
                        left = left[:-1]
                    extra_floaters = left
                    rest = [i for i in rest if i != floater and i not in left]
                    break
                exact = None
        if exact is None and len(rest) % 2 and not last:
            floater = _choose_floater(rest, ok, n, col, strength, down)
            rest.remove(floater)
            budget.remove(floater)
        if exact is not None:
            pass
        elif len(rest) % 2 == 0 and _pair_by_exchanges(rest, ok, n, matcher, _Budget(rest, col, strength), bad, taken, pairs):
            pass
        else:
            local = _Matcher(n, ok, rest)
            if local.maximise():
                local = None  # the remainder cannot all pair among themselves: completion decides
            half = len(rest) // 2
            s1, s2 = rest[:half], rest[half:]
            for k, p in enumerate(s1):
                if taken[p]:
                    continue
                done = False
                for strict_colours in (True, False):
                    for q in s2:
                        if not taken[q] and (not strict_colours or budget.allows(p, q, bad(p, q))) and take(p, q, local):
                            budget.pair(p, q, bad(p, q))
                            done = True
                            break
                    if done:
                        break
                    for q in reversed(s1[k + 1:]):  # exchange
                        if not taken[q] and (not strict_colours or budget.allows(p, q, bad(p, q))) and take(p, q, local):
                            budget.pair(p, q, bad(p, q))
                            done = True
                            break
                    if done:
                        break
        leftovers = [i for i in floating + rest if not taken[i]]
        leftovers.sort()
        for k, p in enumerate(leftovers):
            if not taken[p]:
                for q in leftovers[k + 1:]:
                    if not taken[q] and take(p, q):
                        break
        mdps = [i for i in leftovers if not taken[i]] + extra_floaters
        if floater is not None:
            mdps.append(floater)
        mdps.sort()
    for k, p in enumerate(mdps):  # the lowest bracket: whatever is left pairs up
        if not taken[p]:
            for q in mdps[k + 1:]:
                if not taken[q] and take(p, q):
                    break
            else:
                raise AssertionError("completion matching lost")  # pragma: no cover

    boards: list[tuple[str, str]] = []
    downs: set[str] = set()
    ups: set[str] = set()
    for i, j in pairs:  # i is the higher ranked
        w, b = _allocate(i, j, pref, colours, number[order[i]], initial_colour)
        boards.append((order[w], order[b]))
        if lvl[i] != lvl[j]:
            downs.add(order[i])
            ups.add(order[j])
    boards.sort(key=lambda wb: (
        -max(score[wb[0]], score[wb[1]]),
        -(score[wb[0]] + score[wb[1]]),
        min(idx[wb[0]], idx[wb[1]]),
    ))
    if bye is not None:
        downs.add(order[bye])
    return Pairings(
        round=round_no,
        boards=tuple(boards),
        bye=order[bye] if bye is not None else None,
        downfloaters=frozenset(downs),
        upfloaters=frozenset(ups),
        relaxed=relaxed,
    )


def _exchanges(rest: list[int], half: int | None = None) -> Iterable[set[int]]:
    """S1 of a remainder in the order the exchanges are tried: none; then one
    S1 player for one S2 player, the smallest difference of bracket sequence
    numbers first, the lowest S1 player and then the highest S2 player first;
    then two for two the same way (among the four lowest of S1 and the four
    highest of S2). ``half``: the size of S1 (default: half the players)."""
    if half is None:
        half = len(rest) // 2
    s1 = set(rest[:half])
    yield s1
    singles = sorted(((b - a, -a, b) for a in range(half) for b in range(half, len(rest))))
    for _, a, b in singles:
        yield (s1 - {rest[-a]}) | {rest[b]}
    low, high = range(max(0, half - 4), half), range(half, min(len(rest), half + 4))
    doubles = sorted(
        ((b1 + b2 - a1 - a2, -max(a1, a2), -min(a1, a2), b1, b2), (a1, a2, b1, b2))
        for a1, a2 in combinations(low, 2) for b1, b2 in combinations(high, 2)
    )
    for _, (a1, a2, b1, b2) in doubles:
        yield (s1 - {rest[a1], rest[a2]}) | {rest[b1], rest[b2]}


def _pair_by_exchanges(rest: list[int], ok: Callable[[int, int], bool], n: int, matcher: _Matcher,
                       budget: _Budget, bad: Callable[[int, int], int], taken: list[bool],
                       pairs: list[tuple[int, int]]) -> bool:
    """Pair an even remainder S1 against S2: the first exchange (see
    ``_exchanges``) whose S1 and S2 can be paired completely within the colour
    minimum, then each S1 player with the first S2 player that keeps that
    possible (transpositions) and the rest of the round completable (C.4).
    Returns False, touching nothing, when no exchange tried works."""
    base = list(budget.allowed)
    for extra in range(4):  # the count bounds can be short of the true minimums
        budget.allowed = [base[0] + extra, base[1] + extra]
        exact = budget.allowed[0] == budget.spent[0]  # no pair may deny a preference
        for s1set in _exchanges(rest):
            if _try_exchange(rest, s1set, ok, n, matcher, budget, bad, taken, pairs, exact):
                return True
    budget.allowed = base
    return False


def _assignment(cost: list[list[int]]) -> tuple[int, list[int]]:
    """Minimum-cost perfect assignment of a square matrix (the Hungarian
    method with potentials, O(n^3)): (cost, column of each row). Exact on
    Python integers, however large the weights."""
    n = len(cost)
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    way = [0] * (n + 1)
    p = [0] * (n + 1)  # p[j]: row matched to column j (1-based), 0 = none
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv: list[Any] = [None] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta: Any = None
            j1 = 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, n + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if minv[j] is None or cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if delta is None or minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    assign = [0] * n
    for j in range(1, n + 1):
        assign[p[j] - 1] = j - 1
    return sum(cost[i][assign[i]] for i in range(n)), assign


#: Remainders up to this many pairs are paired exactly (one assignment per
#: exchange tried); larger ones by the greedy transpositions below.
EXACT_PAIRS = 40


def _best_remainder(rest: list[int], ok: Callable[[int, int], bool],
                    quality: Callable[[int, int], tuple[int, int]], floor: tuple[int, int], tries: int = 24,
                    floats: Callable[[int], tuple[int, int]] | None = None, extra: int = 0,
                    ) -> tuple[tuple[int, int, int], list[tuple[int, int]], list[int]] | None:
    """The pairing of a remainder by the rules' order, exactly: over the
    exchanges tried (see ``_exchanges``), first the players left over
    (``len(rest) % 2 + 2 * extra`` of them) who cannot meet anyone in the next
    bracket (C.7, ``floats(q)[0]``), then the least total ``quality`` (colour
    criteria C.12, then C.13), then the repeated downfloats of those left over
    (C.14, C.16, ``floats(q)[1]``), and for that the first exchange, then the
    first transposition (S1 players in order, each the lowest S2 player
    possible; the S2 players left over float). One assignment problem per
    exchange: the weight of S1[i]–S2[j] is the criteria above j·base^(P-1-i),
    so the minimum is lexicographically the first transposition. ``floor``:
    lower bounds of the denied preferences; reaching it ends the search, as
    does ``tries`` exchanges. Returns ((C.7, C.12, C.13) totals, pairs,
    floaters), or None if no exchange tried gives a legal pairing."""
    left = len(rest) % 2 + 2 * extra
    half = (len(rest) - left) // 2
    if half < 0:
        return None
    if not half:
        return (0, 0, 0), [], list(rest)
    t = half + left + 2  # above any total of one criterion
    fb = 3 * left + 1
    base = half + 2
    scale = base ** half
    worst = t ** 3 * fb * scale * 4
    floor12, floor13 = floor if not extra else (0, 0)  # the bounds assume everyone but one paired
    floor_q = (floor12 * t + floor13) * fb
    best: tuple[int, list[tuple[int, int]], list[int]] | None = None
    place = [base ** (half - 1 - k) for k in range(half)]

    def packed(nb: int, c12: int, c13: int, fl: int) -> int:
        return ((nb * t + c12) * t + c13) * fb + fl

    for tried, s1set in enumerate(_exchanges(rest, half)):
        s1 = [i for i in rest if i in s1set]
        s2 = [i for i in rest if i not in s1set]
        cost = []
        for k, p in enumerate(s1):
            row = []
            for j, q in enumerate(s2):
                if ok(p, q):
                    c12, c13 = quality(p, q)
                    row.append(packed(0, c12, c13, 0) * scale + j * place[k])
                else:
                    row.append(worst)
            cost.append(row)
        if left:
            dummy = [packed(*((floats(q)[0], 0, 0, floats(q)[1]) if floats else (0, 0, 0, 0))) * scale
                     for q in s2]
            cost.extend(list(dummy) for _ in range(left))
        total, assign = _assignment(cost)
        if total >= worst:
            continue
        q_cost = total // scale
        if best is None or q_cost < best[0]:
            used = {assign[k] for k in range(half)}
            best = (q_cost, [(s1[k], s2[assign[k]]) for k in range(half)],
                    [q for j, q in enumerate(s2) if j not in used])
        if best[0] <= floor_q or tried >= tries:
            break
    if best is None:
        return None
    rest_q, _ = divmod(best[0], fb)
    rest_q, c13 = divmod(rest_q, t)
    nb, c12 = divmod(rest_q, t)
    return (nb, c12, c13), best[1], best[2]


def _commit(chosen: list[tuple[int, int]], matcher: _Matcher, taken: list[bool],
            pairs: list[tuple[int, int]]) -> bool:
    """Fix the pairs if the round stays completable (C.4); else change nothing."""
    done: list[tuple[int, int]] = []
    for p, q in chosen:
        if not matcher.fix(p, q):
            for a, b in done:
                matcher.unfix(a, b)
            return False
        done.append((p, q))
    for p, q in done:
        taken[p] = taken[q] = True
        pairs.append((p, q) if p < q else (q, p))
    return True


def _try_exchange(rest: list[int], s1set: set[int], ok: Callable[[int, int], bool], n: int,
                  matcher: _Matcher, budget: _Budget, bad: Callable[[int, int], int],
                  taken: list[bool], pairs: list[tuple[int, int]], exact: bool) -> bool:
    s1 = [i for i in rest if i in s1set]
    s2 = [i for i in rest if i not in s1set]

    def across(a: int, b: int) -> bool:
        return (a in s1set) != (b in s1set) and ok(a, b) and not (exact and bad(a, b))

    local = _Matcher(n, across, rest)
    if local.maximise():
        return False
    saved = budget.snapshot()
    chosen: list[tuple[int, int]] = []
    for p in s1:
        for q in s2:
            if taken[q]:
                continue
            cost = bad(p, q)
            if not across(p, q) or not budget.allows(p, q, cost):
                continue
            if not local.fix(p, q):
                continue
            if not matcher.fix(p, q):
                local.unfix(p, q)
                continue
            budget.pair(p, q, cost)
            taken[p] = taken[q] = True
            chosen.append((p, q))
            break
        else:
            break
    if len(chosen) == len(s1):
        pairs.extend((p, q) if p < q else (q, p) for p, q in chosen)
        return True
    for p, q in chosen:  # undo and try the next exchange
        matcher.unfix(p, q)
        taken[p] = taken[q] = False
    budget.restore(saved)
    return False


class _Budget:
    """The colour preferences a bracket cannot all grant, as counts: with W
    white and B black preferences among 2P players to pair, at least
    max(0, W - P, B - P) pairs join two players wanting the same colour (C.12),
    and such a pair denies a strong preference unless one of them is mild
    (C.13). A pair that denies a preference is accepted only while both
    minimums stay reachable by the players left."""

    def __init__(self, members: list[int], col: list[int], strength: list[int]) -> None:
        self.col, self.strength = col, strength
        self.counts = [0, 0, 0, 0, len(members)]  # white, black, mild white, mild black, size
        for i in members:
            self._count(i, 1)
        self.spent = [0, 0]
        self.allowed = list(self._bound(self.counts))

    def _count(self, i: int, sign: int) -> None:
        c = self.col[i]
        if c:
            k = 0 if c == WHITE else 1
            self.counts[k] += sign
            if self.strength[i] == 1:
                self.counts[k + 2] += sign

    @staticmethod
    def _bound(counts: list[int]) -> tuple[int, int]:
        white, black, mild_w, mild_b, size = counts
        pairs = size // 2
        cw, cb = max(0, white - pairs), max(0, black - pairs)
        return cw + cb, max(0, cw - mild_w) + max(0, cb - mild_b)

    def _cost13(self, i: int, j: int) -> int:
        si, sj = self.strength[i], self.strength[j]
        return int(bool(self.col[i]) and self.col[i] == self.col[j] and si >= 2 and sj >= 2 and not si == sj == 3)

    def allows(self, i: int, j: int, cost: int) -> bool:
        self._count(i, -1)
        self._count(j, -1)
        self.counts[4] -= 2
        b12, b13 = self._bound(self.counts)
        self._count(i, 1)
        self._count(j, 1)
        self.counts[4] += 2
        return (self.spent[0] + cost + b12 <= self.allowed[0]
                and self.spent[1] + self._cost13(i, j) + b13 <= self.allowed[1])

    def pair(self, i: int, j: int, cost: int) -> None:
        self._count(i, -1)
        self._count(j, -1)
        self.counts[4] -= 2
        self.spent[0] += cost
        self.spent[1] += self._cost13(i, j)

    def remove(self, i: int) -> None:
        self._count(i, -1)
        self.counts[4] -= 1
        b12, b13 = self._bound(self.counts)
        self.allowed = [self.spent[0] + b12, self.spent[1] + b13]

    def snapshot(self) -> tuple[list[int], list[int]]:
        return list(self.counts), list(self.spent)

    def restore(self, snap: tuple[list[int], list[int]]) -> None:
        self.counts, self.spent = list(snap[0]), list(snap[1])


def _one_of_each(members: list[int], col: list[int], strength: list[int] | None) -> list[int]:
    """One member of each (colour, strength) kind: the candidates to leave out."""
    seen: dict[tuple[int, int], int] = {}
    for i in members:
        seen.setdefault((col[i], strength[i] if strength is not None else 0), i)
    return list(seen.values())


def _colour_cost(members: list[int], col: list[int], strength: list[int] | None = None) -> tuple[int, int]:
    """Lower bounds of the colour preferences (C.12) and strong ones (C.13)
    that pairing ``members`` among themselves must deny: with W white
    preferences and P pairs, W - P pairs join two of them (the same for
    black); such a pair denies a strong preference unless one is mild."""
    if len(members) % 2:  # one of them floats: the best one to leave out
        return min(_colour_cost([i for i in members if i != c], col, strength) for c in _one_of_each(members, col, strength))
    pairs = len(members) // 2
    c12 = c13 = 0
    for colour in (WHITE, BLACK):
        wanting = [i for i in members if col[i] == colour]
        clash = max(0, len(wanting) - pairs)
        c12 += clash
        if strength is not None:
            mild = sum(1 for i in wanting if strength[i] == 1)
            c13 += max(0, clash - mild)
    return c12, c13


def _choose_floater(rest: list[int], ok: Callable[[int, int], bool], n: int,
                    col: list[int], strength: list[int], down: list[list[bool]]) -> int:
    """The resident an odd remainder sends down: the fewest unmet colour
    preferences among those left (C.12), no repeated downfloat (C.14, C.16),
    then the lowest ranked; the others must still pair among themselves."""
    by_kind: dict[tuple[int, int], tuple[int, int]] = {}  # the cost depends on the kind left out
    for c in _one_of_each(rest, col, strength):
        by_kind[col[c], strength[c]] = _colour_cost([i for i in rest if i != c], col, strength)

    def key(c: int) -> tuple[tuple[int, int], bool, bool, int]:
        return by_kind[col[c], strength[c]], down[0][c], down[1][c], -c

    for c in sorted(rest, key=key):
        local = _Matcher(n, ok, [i for i in rest if i != c])
        if not local.maximise():
            return c
    return rest[-1]


def _rechoose_bye(bye: int, mdps: list[int], residents: list[int], matcher: _Matcher,
                  taken: list[bool], order: list[str], score: dict[str, Fraction],
                  had_bye: list[bool], played: list[int], down: list[list[bool]],
                  ok: Callable[[int, int], bool], quality: Callable[[int, int], tuple[int, int]],
                  col: list[int], strength: list[int]) -> tuple[int, list[int], list[int]]:
    """The bye once the last bracket is known: among the players of the bye's
    score there (C.5/C.6), the fewest unplayed games (C.9), then the fewest
    denied colour preferences among the others (C.12, C.13), then no repeated
    downfloat (C.14, C.16), then the lowest ranked. Returns the bye and the
    moved-down players and residents to pair."""
    members = sorted(mdps + residents + [bye])
    bye_score = score[order[bye]]
    cands = [c for c in members if score[order[c]] == bye_score and not had_bye[c] and (c == bye or not taken[c])]

    most = max(played[c] for c in members)

    def bye_cost(c: int) -> tuple[int, int]:
        """(not a candidate, else unplayed games: C.9; repeated downfloat: C.14, C.16)"""
        return (1000 if c not in cands else most - played[c]), 2 * down[0][c] + down[1][c]

    best = _best_remainder(members, ok, quality, _colour_cost(members, col, strength), floats=bye_cost)
    first = best[2][0] if best is not None and best[2] else None

    def key(c: int) -> tuple[int, ...]:
        return (c != first,)

    for c in sorted(cands, key=key):
        if c == bye:
            break
        matcher.alive[bye] = None  # back in, unpaired
        matcher.mate[bye] = -1
        if matcher.drop(c, bye):
            taken[bye], taken[c] = False, True
            residents = sorted(i for i in residents + [bye] if i != c)
            return c, [i for i in mdps if i != c], residents
        del matcher.alive[bye]
    return bye, mdps, residents


def _choose_bye(m: _Matcher, exposed: int, order: list[str], score: dict[str, Fraction],
                had_bye: list[bool], played: list[int], col: list[int], strength: list[int],
                down: list[list[bool]]) -> int | None:
    """The pairing-allocated bye: the lowest score that leaves a complete
    pairing (C.5/C.6), then the fewest unplayed games (C.9), the fewest unmet
    colour preferences in that score group (C.12), no repeated downfloat
    (C.14, C.16), the lowest ranked. Takes the player out of ``m``."""
    n = len(order)
    by_score: dict[Fraction, list[int]] = {}
    for c in range(n):
        by_score.setdefault(score[order[c]], []).append(c)
    for s in sorted(by_score):
        group = by_score[s]

        by_kind = {(col[c], strength[c]): _colour_cost([i for i in group if i != c], col, strength)
                   for c in _one_of_each(group, col, strength)}

        def key(c: int) -> tuple[int, tuple[int, int], bool, bool, int]:
            return -played[c], by_kind[col[c], strength[c]], down[0][c], down[1][c], -c

        for c in sorted((c for c in group if not had_bye[c]), key=key):
            if m.drop(c, exposed):
                return c
    return None


def _allocate(
    i: int,
    j: int,
    pref: list[tuple[int, int]],
    colours: list[list[int]],
    number_i: int,
    initial_colour: int,
) -> tuple[int, int]:
    """C.04.3 E: (white, black) for the pair; ``i`` is the higher-ranked."""
    (ci, si), (cj, sj) = pref[i], pref[j]

    def give(p: int, c: int) -> tuple[int, int]:
        other = j if p == i else i
        return (p, other) if c == WHITE else (other, p)

    if ci != cj or not ci:  # E.1: compatible (or no) preferences
        if ci:
            return give(i, ci)
        if cj:
            return give(j, cj)
        return give(i, initial_colour if number_i % 2 else -initial_colour)  # E.5
    # the same preference: E.2, the stronger wins
    di, dj = abs(sum(colours[i])), abs(sum(colours[j]))
    if si == 3 and (sj < 3 or di > dj):
        return give(i, ci)
    if sj == 3 and (si < 3 or dj > di):
        return give(j, cj)
    if si == 2 and sj < 2:
        return give(i, ci)
    if sj == 2 and si < 2:
        return give(j, cj)
    # E.3: alternate from the latest game both played with different colours (by games played)
    for a, b in zip(reversed(colours[i]), reversed(colours[j])):
        if a != b:
            return give(i, b)
    return give(i, ci)  # E.4

