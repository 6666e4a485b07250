"""The pairings of leagues recorded before the FIDE Dutch system (pairing
system v1), frozen: a league's stream says which system paired it, and its
replay (the audit, ``kroniek audit verify``) recomputes each round with that
system, so a league paired by v1 still verifies after the system changed.

Never change this module: every v1 league's audit depends on it giving the
same pairings it gave. New leagues are paired by ``leagues.pairing``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Iterable, Sequence

from .pairing import BLACK, WHITE, HistoryRound, PairingImpossible, Pairings, Score, _preference, _round_view


def berger_round_robin(players: list[str], double: bool = False) -> list[list[tuple[str | None, str | None]]]:
    """The FIDE Berger tables (C.05 Annex 1): one list of boards per round, each
    board ``(white, black)`` = ``(seat 0, seat 1)`` exactly as the tables give
    them, with ``players[0]`` as number 1. An odd count plays the table of the
    next even size and the highest number is the bye: its slot is None (so a
    bye board is ``(x, None)`` or ``(None, x)``). ``double`` repeats the cycle
    with colours reversed.

    Built from the tables' arithmetic rather than stored: with n (even) and
    m = n - 1, round r pairs i and j (numbers 1..m) with i + j ≡ r + 1 (mod m);
    the number a with 2a ≡ r + 1 meets n (a has white in odd rounds); the other
    boards are (a + k, a - k) for k = 1 .. n/2 - 1, white first.
    """
    if len(set(players)) != len(players):
        raise ValueError("players must be distinct")
    count = len(players)
    if count < 2:
        return []
    n = count + (count % 2)
    m = n - 1
    slot: list[str | None] = list(players) + [None] * (n - count)

    def number(k: int) -> int:  # 1..m
        return (k - 1) % m + 1

    rounds: list[list[tuple[str | None, str | None]]] = []
    for r in range(1, m + 1):
        a = (r + 1) // 2 if r % 2 else (r + 1 + m) // 2
        first = (a, n) if r % 2 else (n, a)
        boards = [first] + [(number(a + k), number(a - k)) for k in range(1, n // 2)]
        rounds.append([(slot[w - 1], slot[b - 1]) for w, b in boards])
    if double:
        rounds += [[(b, w) for w, b in boards] for boards in rounds]
    return rounds


# -- Swiss ------------------------------------------------------------------------


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
        free = [v for v in self.alive if mate[v] == -1]
        while free:
            u = free.pop(0)
            for k, v in enumerate(free):
                if ok(u, v):
                    mate[u], mate[v] = v, u
                    del free[k]
                    break
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
) -> Pairings:
    """Pair a Swiss round of a two-player game, in the spirit of the FIDE Dutch
    system (C.04.3).

    ``standings``: ``(player, points)`` for everyone to be paired, listed in
    pairing-number order (initial ranking, strongest first); players are then
    ranked by points, pairing number breaking ties. ``history``: the earlier
    rounds (``Pairings`` or lists of ``(seat0, seat1)``, None for a bye).
    ``no_bye``: players who may not get the bye for another reason (C.2: a
    forfeit win already scored). Raises ``PairingImpossible`` only when no
    pairing keeps the absolute rules.

    Implemented from C.04.3:
    - absolute criteria: C.1 no rematch (any earlier board counts, forfeited or
      not); C.2 at most one bye each; C.3 two players with the same absolute
      colour preference never meet, unless no pairing at all avoids it (then
      ``relaxed == ("colour",)``); so nobody gets a colour difference beyond ±2
      or the same colour three times running where that can be avoided (once
      relaxed, clashing pairs are only avoided greedily, not minimised).
    - C.4 completion, exactly: each pair is accepted only if everyone left can
      still be paired (incremental Edmonds matching), so a legal pairing is
      always found when one exists, bracket by bracket, never by backtracking.
    - score brackets top-down; moved-down players (MDPs) first, each with the
      highest resident it may meet; the residents left: S1 (top half) against
      S2 (bottom half), S1[i] taking the first S2 player that satisfies the
      criteria (the first valid transposition), then exchanges (an S1 player
      from the bottom of S1), then pairs among the leftovers (C.5: as many
      pairs as possible); whoever is left floats to the next bracket.
    - the bye: the lowest-ranked eligible player whose removal leaves a
      complete pairing (this replaces pairing the lowest bracket first).
    - colours: A.6 preferences (absolute, strong, mild); within a bracket a
      partner granting both preferences is preferred to the natural one (C.10);
      allocation by E.1–E.5 (both preferences, the stronger, alternate to the
      last differing round, the higher-ranked player's, pairing-number parity
      with ``initial_colour``).
    - C.12 in part: in an odd bracket the floater is the lowest player who did
      not float down in the previous round.

    Simplified: no PSD arithmetic (C.6/C.7: score differences are minimised only
    bracket by bracket, by floating as few as possible one bracket down); no
    topscorer exceptions (A.7, C.3 applies to everyone); strong preferences
    are not weighed above mild ones when choosing partners, and the float
    criteria other than the one above (upfloats, floats two rounds back,
    score differences of floaters) are not considered; transpositions and
    exchanges are tried greedily per S1 player rather than by D.1–D.3's
    complete enumeration, so on brackets with conflicts the pairing can differ
    from FIDE's (never in legality). Forfeited games in the history count as
    played for rematches and colours.
    """
    names = [p for p, _ in standings]
    if len(set(names)) != len(names):
        raise ValueError("players must be distinct")
    score = {p: Fraction(s) for p, s in standings}
    number = {p: i + 1 for i, p in enumerate(names)}
    order = sorted(names, key=lambda p: (-score[p], number[p]))
    idx = {p: i for i, p in enumerate(order)}
    n = len(order)
    if n < 2:
        raise PairingImpossible("a Swiss round needs at least two players")

    opp: list[set[int]] = [set() for _ in range(n)]
    colours: list[list[int]] = [[] for _ in range(n)]
    by_round: list[dict[int, int]] = [{} for _ in range(n)]  # round index -> colour
    had_bye = [False] * n
    last_down = [False] * n
    for rno, rnd in enumerate(history):
        boards, byes, downs = _round_view(rnd)
        for w, b in boards:
            iw, ib = idx.get(w), idx.get(b)
            if iw is not None:
                colours[iw].append(WHITE)
                by_round[iw][rno] = WHITE
                if ib is not None:
                    opp[iw].add(ib)
            if ib is not None:
                colours[ib].append(BLACK)
                by_round[ib][rno] = BLACK
                if iw is not None:
                    opp[ib].add(iw)
        for p in byes:
            if p in idx:
                had_bye[idx[p]] = True
        if rno == len(history) - 1:
            for p in downs:
                if p in idx:
                    last_down[idx[p]] = True
            for p in byes:
                if p in idx:
                    last_down[idx[p]] = True
    for p in no_bye:
        if p in idx:
            had_bye[idx[p]] = True

    pref = [_preference(c) for c in colours]
    absc = [c if s == 3 else 0 for c, s in pref]
    col = [c for c, _ in pref]

    def strict(i: int, j: int) -> bool:
        return j not in opp[i] and not (absc[i] and absc[i] == absc[j])

    def loose(i: int, j: int) -> bool:
        return j not in opp[i]

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
            for c in reversed(range(n)):
                if not had_bye[c] and m.drop(c, exposed[0]):
                    bye = c
                    break
            else:
                continue
        matcher, relaxed = m, level
        break
    if matcher is None:
        raise PairingImpossible(
            "no pairing avoids a rematch" + (" and gives the bye to a player without one" if n % 2 else ""),
            round=round_no,
        )
    ok = matcher.ok
    fix = matcher.fix

    def colour_good(i: int, j: int) -> bool:
        return not col[i] or not col[j] or col[i] != col[j]

    pairs: list[tuple[int, int]] = []
    taken = [False] * n
    if bye is not None:
        taken[bye] = True

    def take(i: int, j: int) -> bool:
        if ok(i, j) and fix(i, j):
            taken[i] = taken[j] = True
            pairs.append((i, j) if i < j else (j, i))
            return True
        return False

    def first(p: int, candidates: list[int], good_first: bool = True) -> bool:
        if good_first:
            for q in candidates:
                if not taken[q] and colour_good(p, q) and take(p, q):
                    return True
        for q in candidates:
            if not taken[q] and take(p, q):
                return True
        return False

    groups: list[list[int]] = []
    for i in range(n):
        if taken[i]:
            continue
        if groups and score[order[groups[-1][0]]] == score[order[i]]:
            groups[-1].append(i)
        else:
            groups.append([i])

    mdps: list[int] = []
    for g, residents in enumerate(groups):
        last = g == len(groups) - 1
        floating: list[int] = []
        for p in mdps:  # heterogeneous part: MDPs meet the highest residents
            if not first(p, residents):
                floating.append(p)
        rest = [i for i in residents if not taken[i]]
        floater = None
        if len(rest) % 2 and not last:
            floater = next((i for i in reversed(rest) if not last_down[i]), rest[-1])
            rest.remove(floater)
        half = len(rest) // 2
        s1, s2 = rest[:half], rest[half:]
        for k, p in enumerate(s1):
            if taken[p]:
                continue
            if not first(p, s2):
                first(p, list(reversed(s1[k + 1:])), good_first=False)  # exchange
        leftovers = [i for i in floating + rest if not taken[i]]
        for k, p in enumerate(leftovers):
            if not taken[p]:
                first(p, leftovers[k + 1:])
        mdps = [i for i in leftovers if not taken[i]]
        if floater is not None:
            mdps.append(floater)
        mdps.sort()
    for k, p in enumerate(mdps):  # the lowest bracket: whatever is left pairs up
        if not taken[p] and not first(p, mdps[k + 1:]):
            raise AssertionError("completion matching lost")  # pragma: no cover

    boards: list[tuple[str, str]] = []
    downs: set[str] = set()
    ups: set[str] = set()
    for i, j in pairs:  # i is the higher ranked
        w, b = _allocate(i, j, pref, colours, by_round, number[order[i]], initial_colour)
        boards.append((order[w], order[b]))
        if score[order[i]] != score[order[j]]:
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


def _allocate(
    i: int,
    j: int,
    pref: list[tuple[int, int]],
    colours: list[list[int]],
    by_round: list[dict[int, int]],
    number_i: int,
    initial_colour: int,
) -> tuple[int, int]:
    """C.04.3 E: (white, black) for the pair; ``i`` is the higher-ranked."""
    (ci, si), (cj, sj) = pref[i], pref[j]

    def give(p: int, c: int) -> tuple[int, int]:
        other = j if p == i else i
        return (p, other) if c == WHITE else (other, p)

    if ci and cj and ci != cj:  # E.1
        return give(i, ci)
    if ci and not cj:
        return give(i, ci)
    if cj and not ci:
        return give(j, cj)
    if ci and cj:
        if si != sj:  # E.2
            return give(i, ci) if si > sj else give(j, cj)
        if si == 3:  # both absolute (colour rule relaxed): the wider difference wins
            di, dj = abs(sum(colours[i])), abs(sum(colours[j]))
            if di != dj:
                return give(i, ci) if di > dj else give(j, cj)
        for r in sorted(set(by_round[i]) & set(by_round[j]), reverse=True):  # E.3
            if by_round[i][r] != by_round[j][r]:
                return give(i, -by_round[i][r])
        return give(i, ci)  # E.4
    # E.5: no preferences at all
    return give(i, initial_colour if number_i % 2 else -initial_colour)
