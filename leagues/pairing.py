"""Who plays whom in a league round: Berger round robins, Swiss (Dutch) pairings
for two-player games, and score-grouped tables for multi-player games.

Everything here is pure: the same standings and history always give the same
pairings (no clock, no global random), so a round's pairings can be recomputed
from the league stream and checked by anyone.

Seats: in a two-player game seat 0 is "white" and seat 1 "black" (the side that
moves first, deals, or sits first); the colour rules below balance seats.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import gcd as _gcd
from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.core import KroniekError

WHITE, BLACK = 1, -1

Score = Fraction | int
#: A round of history: a ``Pairings`` or a plain sequence of ``(seat0, seat1)``
#: pairs where ``seat1`` is None for a bye.
HistoryRound = Any


class PairingImpossible(KroniekError):
    """No pairing of this round keeps the absolute rules (no rematch, at most
    one bye each): the league needs a referee's decision."""

    code = "no_legal_pairing"
    status = 422


# -- round robin ----------------------------------------------------------------

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
    rounds = [_berger_boards(slot, n, r) for r in range(1, m + 1)]
    if double:
        second = [[(b, w) for w, b in boards] for boards in rounds]
        if m >= 3:
            rounds[-2], rounds[-1] = rounds[-1], rounds[-2]
        rounds += second
    return rounds


def _berger_boards(slot: list[str | None], n: int, r: int) -> list[tuple[str | None, str | None]]:
    """Round ``r`` (1 .. n-1) of the Berger table of ``n`` (even) slots."""
    m = n - 1

    def number(k: int) -> int:  # 1..m
        return (k - 1) % m + 1

    a = (r + 1) // 2 if r % 2 else (r + 1 + m) // 2
    first = (a, n) if r % 2 else (n, a)
    boards = [first] + [(number(a + k), number(a - k)) for k in range(1, n // 2)]
    return [(slot[w - 1], slot[b - 1]) for w, b in boards]


def berger_round(players: list[str], number: int, double: bool = False,
                 seam_swap: bool = True) -> list[tuple[str | None, str | None]]:
    """Round ``number`` (from 1) of ``berger_round_robin(players, double)``,
    worked out alone: a league pairs one round at a time, and the whole
    table of 4,096 players is 8,190 rounds of 2,048 boards (4 s and 1.2 GB
    for each round paired). ``seam_swap=False``: the double round robin as
    the first releases (``pairing_v1``) played it, without the swap of the
    first cycle's last two rounds. IndexError for a round the table has not."""
    if len(set(players)) != len(players):
        raise ValueError("players must be distinct")
    count = len(players)
    n = count + (count % 2)
    m = n - 1
    if count < 2 or not 1 <= number <= m * (2 if double else 1):
        raise IndexError(f"the table has no round {number}")
    slot: list[str | None] = list(players) + [None] * (n - count)
    if number > m:  # the second cycle: the first's rounds (before its seam swap), colours reversed
        return [(b, w) for w, b in _berger_boards(slot, n, number - m)]
    if double and seam_swap and m >= 3 and number >= m - 1:
        number = 2 * m - 1 - number  # m - 1 <-> m
    return _berger_boards(slot, n, number)


# -- Swiss ------------------------------------------------------------------------

@dataclass(frozen=True)
class Pairings:
    """One Swiss round: boards top first, each ``(seat 0 / white, seat 1 / black)``.

    ``downfloaters``/``upfloaters`` are the players paired out of their score
    group (the bye counts as a downfloat); the next rounds read them from the
    history. ``relaxed`` names the rules that could not be kept this round:
    ``"colour"`` when no pairing avoids a third same colour in a row or a
    colour difference beyond ±2.
    """

    round: int
    boards: tuple[tuple[str, str], ...]
    bye: str | None = None
    downfloaters: frozenset[str] = frozenset()
    upfloaters: frozenset[str] = frozenset()
    relaxed: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "boards": [list(b) for b in self.boards],
            "bye": self.bye,
            "downfloaters": sorted(self.downfloaters),
            "upfloaters": sorted(self.upfloaters),
            "relaxed": list(self.relaxed),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pairings:
        return cls(
            round=int(d["round"]),
            boards=tuple((w, b) for w, b in d["boards"]),
            bye=d.get("bye"),
            downfloaters=frozenset(d.get("downfloaters", ())),
            upfloaters=frozenset(d.get("upfloaters", ())),
            relaxed=tuple(d.get("relaxed", ())),
        )


def _round_view(rnd: HistoryRound) -> tuple[list[tuple[str, str]], list[str], frozenset[str]]:
    """(played boards, bye players, downfloaters) of one history round."""
    if isinstance(rnd, Pairings):
        return list(rnd.boards), [rnd.bye] if rnd.bye else [], rnd.downfloaters
    boards, byes = [], []
    for pair in rnd:
        a, b = pair
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            boards.append((a, b))
    return boards, byes, frozenset()


def _preference(colours: list[int]) -> tuple[int, int]:
    """C.04.3 A.6: (colour, strength) with strength 3 absolute, 2 strong,
    1 mild, 0 none. ``colours`` holds +1/-1 per game actually played."""
    if not colours:
        return 0, 0
    cd = sum(colours)
    if cd > 1 or cd < -1:
        return (BLACK if cd > 0 else WHITE), 3
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return -colours[-1], 3
    if cd:
        return -cd, 2
    return -colours[-1], 1


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
    - the bye (C.2, C.5–C.9): its score is the lowest that still leaves a
      complete pairing; who gets it is left open (a bye vertex in the
      completion matching, joined to everyone of that score or below without
      a bye) until the last bracket, so the higher brackets are paired
      first, by C.5–C.8, as the rules order them; there it goes to the
      player that bracket's pairing leaves over: the highest scores paired
      (C.6), the fewest unplayed games (C.9), then the criteria below.
    - a last bracket of up to ``EXACT_LAST`` players (everyone left, so
      any legal pairing of it completes the round) is paired exactly
      (``_pair_last_bracket``): every pairing of it weighed by the criteria
      in their order, then the first the rules generate — the moved-down
      players' pairing (MDP-pairing) before the remainder's, so the bye is
      the player the remainder leaves over, not the one a single
      homogeneous group of moved-down players and residents would.
    - a bracket above it of up to ``EXACT_BRACKET`` players is paired
      exactly as well (``_pair_bracket``): the fewest left over with the
      round still completable (C.4, C.5), the highest scores paired (C.6),
      the most pairs then possible in the next bracket and the highest
      scores among them, each game there counted only if the round can be
      completed around it and only if it meets a resident there, as
      moved-down players do not meet each other (C.7, C.8), in the bracket
      of the bye's score a single player left over (who gets the bye) with
      the fewest unplayed games (C.9), colours, floats, then the rules'
      order.
    - a bracket pairs as many players as it can (C.5). Moved-down players
      come first, each with the resident that keeps, in this order, the most
      pairs (C.5), the highest scores paired (C.6), floaters who can meet
      someone in the next bracket with the round still completable (C.7, in
      part), the fewest denied colour preferences (C.12) and strong ones
      (C.13) over the whole bracket, no repeated downfloat or upfloat
      (C.14–C.17, counted over every pair the choice leads to), then the
      highest resident; each choice is judged by a plan for the whole
      bracket that the round can complete (C.4). A moved-down player floats
      on instead when that plan is better, his own float counted.
    - the remainder, up to ``EXACT_PAIRS`` pairs, is paired exactly by those
      criteria and then by the rules' order of candidates: the fewest and
      smallest exchanges between S1 (top half) and S2, then the first
      transposition (S1 players in order, each with the lowest S2 player
      possible); an odd remainder floats the S2 player the first
      transposition leaves over. One assignment problem per exchange tried
      (``_best_remainder``), over pairs the round can be completed around;
      when the best pairing as a whole cannot complete it, the best ones
      without one of its pairs are tried before more players float (C.4
      before C.5). Larger remainders (big brackets at 1,024
      players) pair S1 against S2 greedily in transposition order, each pair
      accepted only while the colour minimums stay reachable, counted for the
      bracket and for S1 against S2 (``_SplitCount``); the last preference
      the bracket may deny is spent only if the players left can then pair
      without denying one.
    - in the final round, pairs of topscorers with the same absolute
      preference weigh C.10 (a colour difference beyond ±2) and C.11 (a
      third same colour in a row) above C.12 in the exact remainders.
    - colours (E.1–E.5): both preferences; else the stronger (absolute over
      strong over mild; between absolutes the wider colour difference); else
      alternate from the last game both played with different colours,
      counted by games played, not rounds (E.3); else the higher-ranked
      player's preference (E.4); else the pairing-number parity with
      ``initial_colour`` (E.5).

    Simplified, so the pairing can differ from bbpPairings (the FIDE-endorsed
    engine; never in legality): in brackets larger than the exact ones
    above, the moved-down players' opponents are chosen one by one, each by
    a planned remainder, where the rules weigh the whole bracket at once;
    there C.7 and C.8 only as far as a floater can meet someone in the next
    bracket, and C.18–C.21 (score differences of repeated floaters) only
    through which moved-down player floats on; large brackets use the greedy path above; forfeited games in
    the history count as played for rematches and colours. On the committed
    random tournaments 99% of rounds are identical to bbpPairings v6
    (tests/leagues/test_dutch_vs_bbp.py), and about as many on fresh ones
    made the same way. This is pairing system 4; leagues recorded with
    system 3 replay with ``leagues.pairing_v3``, with system 2 with
    ``leagues.pairing_v2``.
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
    bye_open = False  # n is odd: the bye is handed in the last bracket
    bye_ok: list[bool] = []
    bye_score: Fraction | None = None
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
            bye = _bye_score_player(m, exposed[0], order, score, had_bye)
            if bye is None:
                continue
            # The bye's score is now known: the lowest that leaves a complete
            # pairing (C.5). Who of that score (or below) gets it is left to the
            # bracket that ends up with an odd player over, as the rules pair
            # the higher brackets first (C.5-C.8 before C.9): a vertex ``n``
            # stands for the bye in the completion matcher, joined to every
            # player who may still get it.
            bye_score = score[order[bye]]
            bye_ok = [not had_bye[i] and score[order[i]] <= bye_score for i in range(n)]

            def with_bye(i: int, j: int, ok: Callable[[int, int], bool] = ok) -> bool:
                if i == n:
                    return bye_ok[j]
                if j == n:
                    return bye_ok[i]
                return ok(i, j)

            m = _Matcher(n + 1, with_bye, range(n + 1))
            if m.maximise():  # pragma: no cover - the bye found above completes it
                continue
            bye = None
            bye_open = True
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

    weight = n + 2  # above any count of pairs: C.10 over C.11 over C.12

    def repeated(i: int) -> int:
        """The colour of the player's two latest games if they were the same."""
        c = colours[i]
        return c[-1] if len(c) >= 2 and c[-1] == c[-2] else 0

    def quality(i: int, j: int) -> tuple[int, int]:
        """(C.10–C.12, C.13) of one pair: a denied preference counts 1 (C.12)
        and a denied strong one (a strong or absolute player meeting one with
        the same preference who is not weaker) 1 in the second place (C.13).
        Two absolute preferences of one colour meet only among topscorers in
        the final round (C.3); there, that one of them ends with a colour
        difference beyond ±2 weighs above all C.12 denials (C.10), and that
        the one E.2 denies gets a third same colour in a row (C.11) above
        them too."""
        if not col[i] or col[i] != col[j]:
            return 0, 0
        strong = strength[i] >= 2 and strength[j] >= 2 and not (strength[i] == 3 and strength[j] == 3)
        c12 = 1
        if strength[i] == 3 and strength[j] == 3:
            di, dj = abs(sum(colours[i])), abs(sum(colours[j]))
            if di > 1 and dj > 1:
                c12 += weight * weight  # C.10
            if di == dj:
                c11 = repeated(i) != 0 and repeated(i) == repeated(j)
            else:
                c11 = repeated(j if di > dj else i) == -col[i]  # E.2: the wider difference gets his colour
            c12 += weight * c11  # C.11
        return c12, 1 if strong else 0

    quality.most = 1 + weight + weight * weight  # type: ignore[attr-defined]  # the largest C.12 value

    def up_cost(i: int) -> int:
        """An upfloat for i repeats last round's (C.15) or the one before's (C.17)."""
        return 2 * up[0][i] + up[1][i]

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
        if last and len(mdps) + len(residents) <= EXACT_LAST:
            exact_last = _pair_last_bracket(mdps, residents, bye_open, bye_ok, played, ok, quality, lvl, down, up)
            if exact_last is not None and (not bye_open or matcher.fix(exact_last[1], n)):
                if _commit(exact_last[0], matcher, taken, pairs):
                    if bye_open:
                        bye, bye_open = exact_last[1], False
                        taken[bye] = True
                    mdps = []
                    break
                if bye_open:  # pragma: no cover - the last bracket holds everyone left
                    matcher.unfix(exact_last[1], n)
        if not last and len(mdps) + len(residents) <= EXACT_BRACKET:
            nxt = [i for i in group_of.get(lvl[residents[-1]] + 1, []) if not taken[i]]

            def next_pairs(left: tuple[int, ...], chosen: list[tuple[int, int]],
                           nxt: list[int] = nxt) -> tuple[int, tuple[int, ...]]:
                """(pairs the next bracket can make (C.7), the moved-down players
                among them by score, highest first (C.8)), as costs. A
                moved-down player counts as paired there only if the round
                can then still be completed (C.4) around that game and the
                bracket's own pairs ``chosen`` (who is left depends only on
                ``left``, so any pairing of the bracket that leaves them
                will do); the residents there count as they can pair among
                themselves."""
                def across(a: int, b: int) -> bool:  # moved-down players pair with residents there
                    return ok(a, b) and not (a in left and b in left)

                def most(pool: list[int]) -> int:
                    return (len(pool) - len(_Matcher(n, across, pool).maximise())) // 2

                fixed: list[tuple[int, int]] = []
                completing = True
                for a, b in chosen:
                    if not matcher.fix(a, b):
                        completing = False  # the candidate cannot complete the round: it is not chosen
                        break
                    fixed.append((a, b))
                pool = list(left) + nxt
                best = most(pool)
                order_f = sorted(left, key=lambda x: (lvl[x], x)) if completing else []
                levels_f = sorted({lvl[x] for x in left})

                def value(met: list[int]) -> tuple[int, ...]:
                    return tuple(sum(1 for f in met if lvl[f] == lv) for lv in levels_f)

                def search(k: int, used: set[int], met: list[int]) -> tuple[tuple[int, ...], list[int], set[int]]:
                    """The moved-down players, highest first, each with an opponent
                    there (those that keep the most pairs possible, C.7, first) with
                    the round completable: the most of them by score (C.8), a few
                    opponents tried each."""
                    if k == len(order_f):
                        return value(met), list(met), set(used)
                    f = order_f[k]
                    found = None
                    tried = 0
                    for keep_most in (True, False):
                        looked = 0
                        for r in nxt:
                            if r in used or not ok(f, r):
                                continue
                            looked += 1
                            if looked > 6:  # enough: a large next bracket has opponents to spare
                                break
                            kept = most([x for x in pool if x not in used and x != f and x != r]) \
                                == best - len(met) - 1
                            if kept != keep_most or not matcher.fix(f, r):
                                continue
                            got = search(k + 1, used | {f, r}, met + [f])
                            matcher.unfix(f, r)
                            tried += 1
                            if found is None or got[0] > found[0]:
                                found = got
                            if found[0] == value(met + order_f[k:]) or tried >= 3:
                                return found
                    got = search(k + 1, used, met)
                    return got if found is None or got[0] > found[0] else found

                _, met, used = search(0, set(), [])
                for a, b in reversed(fixed):
                    matcher.unfix(a, b)
                pairs_there = len(met) + most([x for x in nxt if x not in used])
                return -pairs_there, tuple(-sum(1 for f in met if lvl[f] == lv) for lv in sorted({lvl[x] for x in left}))

            at_bye_score = bye_open and score[order[residents[0]]] == bye_score
            most_played = max(played[i] for i in mdps + residents)

            def unplayed(left: tuple[int, ...], at_bye_score: bool = at_bye_score, most: int = most_played) -> int:
                """C.9: a single player left over in the bracket of the bye's
                score is the one who gets it: the fewest unplayed games."""
                return most - played[left[0]] if at_bye_score and len(left) == 1 and bye_ok[left[0]] else 0

            exact_bracket = _pair_bracket(mdps, residents, ok, quality, lvl, down, up,
                                          lambda chosen: _plan_completes(matcher, chosen), next_pairs, unplayed)
            if exact_bracket is not None and _commit(exact_bracket[0], matcher, taken, pairs):
                mdps = sorted(exact_bracket[1])
                continue
        if last and bye_open:
            bye, mdps, residents = _hand_bye(mdps, residents, matcher, taken, bye_ok, played, down,
                                             ok, quality, col, strength, lvl, up_cost)
            bye_open = False
        bracket = mdps + residents
        budget = _Budget(bracket, col, strength)
        floating: list[int] = []
        # the next score group (C.7), the bye's player included: he is not paired there
        below = [] if last else group_of.get(lvl[residents[-1]] + 1, [])
        # when the next bracket is the last and the bye is still open, one
        # player moved down there takes the bye instead of a game
        bye_below = bye_open and bool(below) and lvl[below[0]] == max(lvl)

        meets_below: dict[int, bool] = {}

        def float_cost(i: int, below: list[int] = below, memo: dict[int, bool] = meets_below,
                       bye_below: bool = bye_below) -> tuple[int, int]:
            """For a player left over: (cannot meet anyone in the next
            bracket (C.7), repeated downfloat: C.14 then C.16). Meeting
            someone there counts only if the rest of the round can still be
            paired around that game (C.4), so the player who must take the
            bye is no opponent; taking the bye handed in the next (last)
            bracket costs no game there either."""
            if i not in memo:
                memo[i] = (not below or any(not taken[r] and ok(i, r) and _completes(matcher, i, r) for r in below)
                           or (bye_below and bye_ok[i] and _completes(matcher, i, n)))
            return (0 if memo[i] else 1), 2 * down[0][i] + down[1][i]

        completes: dict[tuple[int, int], bool] = {}

        def ok_here(a: int, b: int, memo: dict[tuple[int, int], bool] = completes) -> bool:
            """A pair the rest of the round can be completed around (C.4), so
            that a remainder planned for a moved-down player's choice is one
            the round can keep."""
            key = (a, b) if a < b else (b, a)
            if key not in memo:
                memo[key] = ok(a, b) and _completes(matcher, a, b)
            return memo[key]

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
                mdp_left = False  # the best pairing with p leaves another moved-down player over
                for q in cands:
                    later = [m for m in mdps if m > p and not taken[m]]  # they pair here too
                    rest_q = later + [i for i in residents if not taken[i] and i != q]
                    for extra in range(3):  # C.5: as many pairs as possible
                        best = _completable_remainder(rest_q, [(p, q)], matcher, ok_here, quality,
                                                      _colour_cost(rest_q, col, strength), float_cost, extra, lvl,
                                                      up_cost)
                        if best is not None:
                            break
                    c12, c13 = quality(p, q)
                    if best is None:
                        k = (n, 0, 0, 0, 0, 0, 0, 0, 0, q)
                    else:
                        left = best[2]
                        mdp_left = mdp_left or any(f in later for f in left)
                        lower = [q] + [b if lvl[b] > lvl[a] else a for a, b in best[1] if lvl[a] != lvl[b]]
                        k = (len(left), -sum(lvl[f] for f in left), best[0][0], c12 + best[0][1], c13 + best[0][2],
                             sum(down[0][f] for f in left), sum(up[0][u] for u in lower),
                             sum(down[1][f] for f in left), sum(up[1][u] for u in lower), q)
                    ranked.append(k)
                    if k[0] == len(rest_q) % 2 and k[2:9] == (0, *floor, 0, 0, 0, 0) and (
                            not k[0] or k[1] == -lvl[residents[-1]]):
                        break
                later = [m for m in mdps if m > p and not taken[m]]
                free = [i for i in residents if not taken[i]]
                if len(later) + 1 > len(free) or mdp_left:  # not every moved-down player pairs: maybe not this one
                    rest_f = later + free
                    for extra in range(3):
                        best = _completable_remainder(rest_f, [], matcher, ok_here, quality,
                                                      _colour_cost(rest_f, col, strength), float_cost, extra, lvl,
                                                      up_cost)
                        if best is not None:
                            break
                    if best is not None:
                        # p floats on: his own C.7 and repeated downfloat count
                        # as those of the players left over (C.14, C.16; a
                        # repeated downfloater paired in the nearer bracket
                        # keeps his score difference smaller, C.18, C.20)
                        left = best[2] + [p]
                        lower = [b if lvl[b] > lvl[a] else a for a, b in best[1] if lvl[a] != lvl[b]]
                        ranked.append((len(left), -sum(lvl[f] for f in left), best[0][0] + float_cost(p)[0],
                                       best[0][1], best[0][2], sum(down[0][f] for f in left),
                                       sum(up[0][u] for u in lower), sum(down[1][f] for f in left),
                                       sum(up[1][u] for u in lower), n))
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
                exact = _best_remainder(rest, ok_here, quality, _colour_cost(rest, col, strength),
                                        floats=float_cost, extra=extra, tries=24 if len(rest) <= 32 else 6)
                if exact is not None and len(rest) <= 2 * BAN_RETRY_PAIRS and not _plan_completes(matcher, exact[1]):
                    exact = _completable_remainder(rest, [], matcher, ok_here, quality,
                                                   _colour_cost(rest, col, strength), float_cost, extra, lvl, up_cost)
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
#: A remainder up to this many pairs whose best pairing the round cannot
#: complete tries the best ones without one of its pairs before more floaters.
BAN_RETRY_PAIRS = 12


def _best_remainder(rest: list[int], ok: Callable[[int, int], bool],
                    quality: Callable[[int, int], tuple[int, int]], floor: tuple[int, int], tries: int = 24,
                    floats: Callable[[int], tuple[int, int]] | None = None, extra: int = 0,
                    level: Sequence[int] | None = None, upfloat: Callable[[int], int] | None = None,
                    ) -> tuple[tuple[int, int, int], list[tuple[int, int]], list[int]] | None:
    """The pairing of a remainder by the rules' order, exactly: over the
    exchanges tried (see ``_exchanges``), first the players left over
    (``len(rest) % 2 + 2 * extra`` of them) who cannot meet anyone in the next
    bracket (C.7, ``floats(q)[0]``), then the least total ``quality`` (colour
    criteria C.12, then C.13), then the repeated downfloats of those left over
    (C.14, C.16, ``floats(q)[1]``), and for that the first exchange, then the
    first transposition (S1 players in order, each the lowest S2 player
    possible; the S2 players left over float). Above all of these, when
    ``rest`` mixes scores (moved-down players with residents; ``level`` gives
    each player's score level, 0 = top), the players left over are the
    lowest scored possible: the highest scores are paired first (C.6); and
    below the repeated downfloats of those left over come the repeated
    upfloats of the lower players of mixed-score pairs (C.15, C.17:
    ``upfloat(q)``). One assignment problem per
    exchange: the weight of S1[i]–S2[j] is the criteria above j·base^(P-1-i),
    so the minimum is lexicographically the first transposition. ``floor``:
    lower bounds of the denied preferences; reaching it ends the search, as
    does ``tries`` exchanges. Returns ((C.7, C.12, C.13) totals, pairs,
    floaters), or None if no exchange tried gives a legal pairing."""
    left = len(rest) % 2 + 2 * extra
    half = (len(rest) - left) // 2
    if half < 0:
        return None
    if not half:  # nobody pairs: all float, each counted for C.7 as below
        return (sum(floats(q)[0] for q in rest) if floats else 0, 0, 0), [], list(rest)
    t = (half + left + 2) * getattr(quality, "most", 1)  # above any total of one criterion
    ufb = 3 * half + 1  # above any total of the pairs' repeated upfloats
    fb = (3 * left + 1) * ufb
    base = half + 2
    scale = base ** half
    # C.6: leaving over a player of the k-th lowest score in ``rest`` costs
    # (left + 1) ** k - 1, so fewer high scores left over always wins
    lowest = max(level[q] for q in rest) if level is not None else 0
    above = len({level[q] for q in rest}) if level is not None else 1
    ranks = sorted({level[q] for q in rest}, reverse=True) if level is not None else [0]
    score_rank = {lv: k for k, lv in enumerate(ranks)}
    sc_radix = (left + 1) ** above
    worst = sc_radix * t ** 3 * fb * scale * 4

    def sc_cost(q: int) -> int:
        return 0 if level is None or level[q] == lowest else (left + 1) ** score_rank[level[q]] - 1
    floor12, floor13 = floor if not extra else (0, 0)  # the bounds assume everyone but one paired
    floor_q = (floor12 * t + floor13) * fb
    best: tuple[int, list[tuple[int, int]], list[int]] | None = None
    place = [base ** (half - 1 - k) for k in range(half)]

    def packed(nb: int, c12: int, c13: int, fl: int, sc: int = 0) -> int:
        return (((sc * t + nb) * t + c12) * t + c13) * fb + fl

    for tried, s1set in enumerate(_exchanges(rest, half)):
        s1 = [i for i in rest if i in s1set]
        s2 = [i for i in rest if i not in s1set]
        cost = []
        for k, p in enumerate(s1):
            row = []
            for j, q in enumerate(s2):
                if ok(p, q):
                    c12, c13 = quality(p, q)
                    fl = 0
                    if upfloat is not None and level is not None and level[p] != level[q]:
                        fl = upfloat(q if level[q] > level[p] else p)
                    row.append(packed(0, c12, c13, fl) * scale + j * place[k])
                else:
                    row.append(worst)
            cost.append(row)
        if left:
            dummy = [packed(*((floats(q)[0], 0, 0, floats(q)[1] * ufb) if floats else (0, 0, 0, 0)), sc_cost(q)) * scale
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
    rest_q, c12 = divmod(rest_q, t)
    nb = rest_q % t
    return (nb, c12, c13), best[1], best[2]


def _completes(matcher: _Matcher, i: int, j: int) -> bool:
    """Whether the round can still be paired completely with i against j."""
    if i == j or i not in matcher.alive or j not in matcher.alive:
        return False
    if matcher.fix(i, j):
        matcher.unfix(i, j)
        return True
    return False


def _completable_remainder(rest: list[int], prefix: list[tuple[int, int]], matcher: _Matcher,
                           ok: Callable[[int, int], bool], quality: Callable[[int, int], tuple[int, int]],
                           floor: tuple[int, int], floats: Callable[[int], tuple[int, int]], extra: int,
                           level: Sequence[int], upfloat: Callable[[int], int],
                           ) -> tuple[tuple[int, int, int], list[tuple[int, int]], list[int]] | None:
    """``_best_remainder`` of ``rest`` (``tries=8``) that the round can
    complete together with the ``prefix`` pairs (C.4): when the best one
    cannot, the best of those without one of its pairs that can."""
    best = _best_remainder(rest, ok, quality, floor, tries=8, floats=floats, extra=extra, level=level, upfloat=upfloat)
    if best is None or _plan_completes(matcher, prefix + best[1]):
        return best
    found = None
    for a, b in best[1]:
        def without(x: int, y: int, a: int = a, b: int = b) -> bool:
            return ok(x, y) and {x, y} != {a, b}

        alt = _best_remainder(rest, without, quality, floor, tries=8, floats=floats, extra=extra, level=level,
                              upfloat=upfloat)
        if alt is not None and (found is None or alt[0] < found[0]) and _plan_completes(matcher, prefix + alt[1]):
            found = alt
    return found


def _plan_completes(matcher: _Matcher, chosen: list[tuple[int, int]]) -> bool:
    """Whether the round can still be paired completely with all these pairs
    made together (C.4); the matcher is left as it was."""
    done: list[tuple[int, int]] = []
    fine = True
    for p, q in chosen:
        if not matcher.fix(p, q):
            fine = False
            break
        done.append((p, q))
    for p, q in reversed(done):
        matcher.unfix(p, q)
    return fine


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

    split = _SplitCount(s1, s2, budget.col, budget.strength)
    if not split.reachable(budget.spent, budget.allowed):
        return False  # this S1/S2 cannot keep the colour minimum (C.12, C.13 before exchanges)
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
            if not across(p, q) or not budget.allows(p, q, cost) or not split.allows(p, q, budget, cost):
                continue
            last_denial = None
            if cost and budget.spent[0] + cost == budget.allowed[0]:
                # the last preference this bracket may deny: the players left
                # must then pair with no denied preference at all, rematches
                # avoided (C.1, C.12), or this pair is not the one to make
                last_denial = _Matcher(n, lambda a, b: across(a, b) and not bad(a, b),
                                       [i for i in rest if not taken[i] and i != p and i != q])
                if last_denial.maximise():
                    continue
            if not local.fix(p, q):
                continue
            if not matcher.fix(p, q):
                local.unfix(p, q)
                continue
            budget.pair(p, q, cost)
            split.pair(p, q)
            if last_denial is not None:
                local = last_denial
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


class _SplitCount:
    """The colour preferences S1 against S2 must deny, as counts (C.12, C.13).
    Each S1 player meets one S2 player, so with w1 white and b1 black
    preferences in S1, w2, b2 in S2 and z2 players without one in S2 (the
    halves being equal in size), at least max(0, w1 - b2 - z2, b1 - w2 - z2)
    pairs join two players wanting the same colour; such a pair denies a
    strong preference unless one of the two is mild, so at least that excess
    less the mild players of that colour on both sides deny a strong one."""

    def __init__(self, s1: list[int], s2: list[int], col: list[int], strength: list[int]) -> None:
        self.col, self.strength = col, strength
        self.counts = [[0] * 5 for _ in range(2)]  # per half: white, black, none, mild white, mild black
        self.side: dict[int, int] = {}
        for half, members in enumerate((s1, s2)):
            for i in members:
                self.side[i] = half
                self._count(i, 1)

    def _count(self, i: int, sign: int) -> None:
        c, counts = self.col[i], self.counts[self.side[i]]
        k = 2 if not c else (0 if c == WHITE else 1)
        counts[k] += sign
        if c and self.strength[i] == 1:
            counts[k + 3] += sign

    def bound(self) -> tuple[int, int]:
        (w1, b1, z1, mw1, mb1), (w2, b2, z2, mw2, mb2) = self.counts
        white = max(0, w1 - b2 - z2)
        black = max(0, b1 - w2 - z2)
        return white + black, max(0, white - mw1 - mw2) + max(0, black - mb1 - mb2)

    def reachable(self, spent: list[int], allowed: list[int]) -> bool:
        b12, b13 = self.bound()
        return spent[0] + b12 <= allowed[0] and spent[1] + b13 <= allowed[1]

    def allows(self, p: int, q: int, budget: _Budget, cost: int) -> bool:
        self._count(p, -1)
        self._count(q, -1)
        b12, b13 = self.bound()
        self._count(p, 1)
        self._count(q, 1)
        return (budget.spent[0] + cost + b12 <= budget.allowed[0]
                and budget.spent[1] + budget._cost13(p, q) + b13 <= budget.allowed[1])

    def pair(self, p: int, q: int) -> None:
        self._count(p, -1)
        self._count(q, -1)


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
    then the one the first transposition leaves over (S1 players in order,
    each with the first S2 player he may meet, granting both preferences
    where he can), then the lowest ranked; the others must still pair among
    themselves."""
    by_kind: dict[tuple[int, int], tuple[int, int]] = {}  # the cost depends on the kind left out
    for c in _one_of_each(rest, col, strength):
        by_kind[col[c], strength[c]] = _colour_cost([i for i in rest if i != c], col, strength)
    half = len(rest) // 2
    free = list(rest[half:])
    for p in rest[:half]:
        fits = [q for q in free if ok(p, q)]
        good = [q for q in fits if not (col[p] and col[p] == col[q])]
        if good or fits:
            free.remove((good or fits)[0])
    over = set(free)

    def key(c: int) -> tuple[tuple[int, int], bool, bool, bool, int]:
        return by_kind[col[c], strength[c]], down[0][c], down[1][c], c not in over, -c

    for c in sorted(rest, key=key):
        local = _Matcher(n, ok, [i for i in rest if i != c])
        if not local.maximise():
            return c
    return rest[-1]


def _hand_bye(mdps: list[int], residents: list[int], matcher: _Matcher, taken: list[bool],
              bye_ok: list[bool], played: list[int], down: list[list[bool]],
              ok: Callable[[int, int], bool], quality: Callable[[int, int], tuple[int, int]],
              col: list[int], strength: list[int], lvl: list[int],
              up_cost: Callable[[int], int]) -> tuple[int, list[int], list[int]]:
    """The pairing-allocated bye, handed in the last bracket (an odd one):
    the player that bracket's pairing leaves over, by the criteria in their
    order — as many pairs and the highest scores paired (C.5, C.6), among
    those who may get it (C.2, the bye's score) the fewest unplayed games
    (C.9), the fewest denied colour preferences among the others (C.12,
    C.13), no repeated downfloat (C.14, C.16) nor upfloat of the players
    paired (C.15, C.17), then the rules' order of candidates (the lowest
    ranked). Used for a last bracket too large to pair exactly: the
    moved-down players are first given residents (as the MDP-pairing
    would), and the bye is looked for in the residents' remainder, whose
    S1 and S2 the moved-down players do not shift; a remainder too large
    for ``_best_remainder`` offers the player its first transposition
    leaves over. The matcher's bye vertex (``len(taken)``)
    is paired with him. Returns the bye and the moved-down players and
    residents left to pair."""
    n = len(taken)
    members = sorted(mdps + residents)
    cands = [c for c in members if bye_ok[c]]
    most = max(played[c] for c in members)

    def bye_cost(c: int) -> tuple[int, int]:
        """(not a candidate, else unplayed games: C.9; repeated downfloat: C.14, C.16)"""
        return (1000 if not bye_ok[c] else most - played[c]), 2 * down[0][c] + down[1][c]

    def first_fit(p: int, candidates: list[int]) -> int | None:
        """The first of ``candidates`` ``p`` may meet granting both colour preferences, else the first he may
        meet at all."""
        fallback = None
        for q in candidates:
            if ok(p, q):
                if quality(p, q) == (0, 0):
                    return q
                fallback = q if fallback is None else fallback
        return fallback

    first = None
    # the moved-down players pair first (the MDP-pairing), each with the first
    # resident he meets without denying a colour preference if he can; the
    # bye is then the player the residents' remainder leaves over
    rem = list(residents)
    for m in mdps:
        fit = first_fit(m, rem)
        if fit is not None:
            rem.remove(fit)
    if len(rem) % 2 == 0:
        rem = members  # a moved-down player is left over: weigh them all together
    if len(rem) <= 2 * EXACT_PAIRS + 1:
        best = _best_remainder(rem, ok, quality, _colour_cost(rem, col, strength), floats=bye_cost, level=lvl,
                               upfloat=up_cost)
        first = best[2][0] if best is not None and best[2] else None
    else:  # too large to weigh exactly: the player the first transposition leaves over
        half = len(rem) // 2
        free = list(rem[half:])
        for p in rem[:half]:
            fit = first_fit(p, free)
            if fit is not None:
                free.remove(fit)
        over = [q for q in free if bye_ok[q]]
        first = over[-1] if over else None

    def key(c: int) -> tuple[bool, int, bool, bool, int]:
        return c != first, -played[c], down[0][c], down[1][c], -c

    for c in sorted(cands, key=key):
        if matcher.fix(c, n):
            taken[c] = True
            return c, [i for i in mdps if i != c], [i for i in residents if i != c]
    raise AssertionError("no player can take the bye")  # pragma: no cover - the matcher holds one


#: A last bracket of up to this many players is paired exactly (every
#: pairing of it weighed, see ``_pair_last_bracket``).
EXACT_LAST = 11


def _pair_last_bracket(mdps: list[int], residents: list[int], bye_open: bool, bye_ok: list[bool],
                       played: list[int], ok: Callable[[int, int], bool],
                       quality: Callable[[int, int], tuple[int, int]], lvl: list[int],
                       down: list[list[bool]], up: list[list[bool]],
                       ) -> tuple[list[tuple[int, int]], int | None] | None:
    """The last bracket (everyone left, so C.4 holds for any legal pairing
    of it) paired by the rules as written: every pairing of it, with the
    bye when the count is odd, is weighed by the criteria in their order —
    the bye to a player who may get it (C.2) of the lowest score (C.6) and
    with the fewest unplayed games (C.9), the fewest denied colour
    preferences (C.10–C.13), no repeated downfloat for the bye (C.14, C.16)
    nor repeated upfloat for a resident paired with a moved-down player
    (C.15, C.17), the lowest scores for such repeated floats (C.18–C.21) —
    and among equals the first the rules generate: the
    moved-down players (S1) in order, each with the lowest resident
    possible (the MDP-pairing's transpositions), then the remainder's
    exchanges and transpositions. The moved-down players pair in the
    MDP-pairing, not as part of one homogeneous group: treated so, the bye
    went to the wrong resident. None when no pairing keeps the absolute
    criteria with every moved-down player meeting a resident."""
    members = mdps + residents
    if bye_open != bool(len(members) % 2):
        return None
    is_mdp = set(mdps)
    pos = {r: k for k, r in enumerate(residents)}
    most = max(played[i] for i in members)
    levels = sorted({lvl[i] for i in members})
    best: tuple | None = None

    def consider(mdp_pairs: list[tuple[int, int]], rem_pairs: list[tuple[int, int]], bye: int | None) -> None:
        nonlocal best
        c12 = c13 = 0
        for a, b in mdp_pairs + rem_pairs:
            q12, q13 = quality(a, b)
            c12 += q12
            c13 += q13
        ups0 = sum(up[0][r] for _, r in mdp_pairs)
        ups1 = sum(up[1][r] for _, r in mdp_pairs)
        if bye is None:
            head: tuple = (0, 0)
            d0 = d1 = 0
        else:
            head = (-lvl[bye], most - played[bye])
            d0, d1 = down[0][bye], down[1][bye]
        key: tuple = (*head, c12, c13, d0, ups0, d1, ups1)
        if best is not None and key > best[0][:8]:
            return  # worse on the counts: the rest need not be looked at
        partner = dict(mdp_pairs)  # each moved-down player in order: his opponent, or the bye after all
        mdp_key = tuple(pos[partner[m]] if m in partner else len(residents) + k for k, m in enumerate(mdps))
        floater = bye if bye is not None and bye not in is_mdp else None
        key += (_float_scores([bye] if bye is not None else [], mdp_pairs, lvl, down, up, levels), mdp_key)
        if best is not None and key > best[0][:-1]:
            return  # worse before the remainder's order is looked at
        key += (_remainder_key(rem_pairs, [floater] if floater is not None else [], pos),)
        if best is None or key < best[0]:
            best = (key, mdp_pairs + rem_pairs, bye)

    def pair_rest(rest: list[int], acc: list[tuple[int, int]], mdp_pairs: list[tuple[int, int]],
                  bye: int | None, head: tuple, denied: int) -> None:
        if best is not None and (*head, denied) > best[0][:3]:
            return  # already more denied preferences (C.12) than the best: prune
        if not rest:
            consider(mdp_pairs, list(acc), bye)
            return
        a = rest[0]
        for k in range(1, len(rest)):
            b = rest[k]
            if ok(a, b):
                acc.append((a, b))
                pair_rest(rest[1:k] + rest[k + 1:], acc, mdp_pairs, bye, head, denied + quality(a, b)[0])
                acc.pop()

    def pair_mdps(k: int, free: list[int], acc: list[tuple[int, int]], bye: int | None) -> None:
        if k == len(mdps):
            denied = sum(quality(m, r)[0] for m, r in acc)
            if bye is None and len(free) % 2:
                for c in free:
                    if bye_ok[c]:
                        pair_rest([r for r in free if r != c], [], acc, c, (-lvl[c], most - played[c]), denied)
            else:
                head = (0, 0) if bye is None else (-lvl[bye], most - played[bye])
                pair_rest(free, [], acc, bye, head, denied)
            return
        m = mdps[k]
        if m == bye:
            pair_mdps(k + 1, free, acc, bye)
            return
        for r in free:
            if ok(m, r):
                acc.append((m, r))
                pair_mdps(k + 1, [x for x in free if x != r], acc, bye)
                acc.pop()

    pair_mdps(0, list(residents), [], None)
    if best is None and bye_open:  # a moved-down player takes the bye
        for m in mdps:
            if bye_ok[m]:
                pair_mdps(0, list(residents), [], m)
    if best is None:
        return None
    return best[1], best[2]


#: A bracket above the last of up to this many players (moved-down players
#: included) is paired exactly too (``_pair_bracket``).
EXACT_BRACKET = 10


def _pair_bracket(mdps: list[int], residents: list[int], ok: Callable[[int, int], bool],
                  quality: Callable[[int, int], tuple[int, int]], lvl: list[int],
                  down: list[list[bool]], up: list[list[bool]],
                  completes: Callable[[list[tuple[int, int]]], bool],
                  next_pairs: Callable[[tuple[int, ...], list[tuple[int, int]]], tuple[int, tuple[int, ...]]],
                  unplayed: Callable[[tuple[int, ...]], int],
                  ) -> tuple[list[tuple[int, int]], list[int]] | None:
    """A small bracket above the last paired by the rules as written: the
    fewest players left over (C.5) such that the round can still be
    completed (C.4), the highest scores paired (C.6), the most pairs then
    possible in the next bracket (C.7) and the highest scores among them
    (C.8), the most games played by the one left over when he takes the
    bye (C.9), the fewest denied colour preferences (C.10-C.13), no
    repeated downfloat for those left over nor repeated upfloat for
    residents meeting a moved-down player (C.14-C.17), the lowest scores
    for such repeated floats (C.18-C.21), and among equals the first
    pairing the rules generate (the moved-down players' pairing, then the
    remainder's exchanges and transpositions). Returns (pairs, floaters),
    or None when no pairing of the bracket lets the round complete."""
    members = mdps + residents
    pos = {r: k for k, r in enumerate(residents)}
    levels = sorted({lvl[i] for i in members})
    next_memo: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
    for floats in range(len(members) % 2, len(members) + 1, 2):
        cands: list[tuple[tuple, list[tuple[int, int]], list[tuple[int, int]], tuple[int, ...]]] = []

        def pair_rest(rest: list[int], acc: list[tuple[int, int]], mdp_pairs: list[tuple[int, int]],
                      left: list[int], budget: int) -> None:
            if not rest:
                if budget == 0:
                    record(mdp_pairs, list(acc), tuple(sorted(left)))
                return
            a = rest[0]
            if budget > 0:  # a is left over
                left.append(a)
                pair_rest(rest[1:], acc, mdp_pairs, left, budget - 1)
                left.pop()
            for k in range(1, len(rest)):
                b = rest[k]
                if ok(a, b):
                    acc.append((a, b))
                    pair_rest(rest[1:k] + rest[k + 1:], acc, mdp_pairs, left, budget)
                    acc.pop()

        def record(mdp_pairs: list[tuple[int, int]], rem_pairs: list[tuple[int, int]], left: tuple[int, ...]) -> None:
            c12 = c13 = 0
            for a, b in mdp_pairs + rem_pairs:
                q12, q13 = quality(a, b)
                c12 += q12
                c13 += q13
            if left not in next_memo:
                next_memo[left] = next_pairs(left, mdp_pairs + rem_pairs)
            c6 = tuple(sum(1 for x in left if lvl[x] == lv) for lv in levels)
            d0 = sum(down[0][x] for x in left)
            d1 = sum(down[1][x] for x in left)
            ups0 = sum(up[0][r] for _, r in mdp_pairs)
            ups1 = sum(up[1][r] for _, r in mdp_pairs)
            key = (c6, next_memo[left], unplayed(left), c12, c13, d0, ups0, d1, ups1)
            cands.append((key, mdp_pairs, rem_pairs, left))

        def order_key(cand: tuple) -> tuple:
            """C.18-C.21, then the rules' order: only needed among candidates
            even on everything before."""
            _, mdp_pairs, rem_pairs, left = cand
            partner = dict(mdp_pairs)
            mdp_key = tuple(pos[partner[m]] if m in partner else len(residents) + k for k, m in enumerate(mdps))
            return (_float_scores(left, mdp_pairs, lvl, down, up, levels), mdp_key,
                    _remainder_key(rem_pairs, [x for x in left if x in pos], pos))

        def pair_mdps(k: int, free: list[int], acc: list[tuple[int, int]], limbo: list[int], budget: int) -> None:
            if k == len(mdps):
                pair_rest(free, [], list(acc), list(limbo), budget)
                return
            m = mdps[k]
            if budget > 0:
                limbo.append(m)
                pair_mdps(k + 1, free, acc, limbo, budget - 1)
                limbo.pop()
            for r in free:
                if ok(m, r):
                    acc.append((m, r))
                    pair_mdps(k + 1, [x for x in free if x != r], acc, limbo, budget)
                    acc.pop()

        pair_mdps(0, list(residents), [], [], floats)
        if not cands:
            continue
        cands.sort(key=lambda c: c[0])
        k = 0
        while k < len(cands):
            j = k
            while j < len(cands) and cands[j][0] == cands[k][0]:
                j += 1
            group = sorted(cands[k:j], key=order_key)
            for _, mdp_pairs, rem_pairs, left in group:
                if completes(mdp_pairs + rem_pairs):
                    return mdp_pairs + rem_pairs, list(left)
            k = j
    return None


def _float_scores(left: Iterable[int], mdp_pairs: list[tuple[int, int]], lvl: list[int],
                  down: list[list[bool]], up: list[list[bool]], levels: list[int]) -> tuple[tuple[int, ...], ...]:
    """C.18-C.21 as costs, each a count per score level from the top (so the
    higher scores weigh first): the scores of those left over who floated
    down last round (C.18), of the moved-down opponents of residents who
    floated up last round (C.19), then the same for two rounds ago (C.20,
    C.21)."""
    def per_level(players: list[int]) -> tuple[int, ...]:
        return tuple(sum(1 for x in players if lvl[x] == lv) for lv in levels)

    left = list(left)
    return (per_level([x for x in left if down[0][x]]), per_level([m for m, r in mdp_pairs if up[0][r]]),
            per_level([x for x in left if down[1][x]]), per_level([m for m, r in mdp_pairs if up[1][r]]))


def _remainder_key(pairs: list[tuple[int, int]], floaters: list[int], pos: dict[int, int]) -> tuple:
    """(exchange, transposition) that first generates this pairing of a
    remainder, the ``floaters`` left over at the end of S2 (see
    ``_pair_last_bracket``). The first S1 that generates it holds the
    higher-ranked player of each pair: any other moves more players between
    S1 and S2, or moves a lower-ranked one out or a higher-ranked one in,
    which the rules' order of exchanges tries later."""
    rem = sorted([i for pr in pairs for i in pr] + floaters, key=pos.__getitem__)
    bsn = {r: k for k, r in enumerate(rem)}
    half = len(pairs)
    ordered = sorted((min(bsn[a], bsn[b]), max(bsn[a], bsn[b])) for a, b in pairs)
    out = sorted([hi for lo, hi in ordered if hi < half] + [bsn[f] for f in floaters if bsn[f] < half], reverse=True)
    inn = sorted(lo for lo, hi in ordered if lo >= half)
    return len(out), sum(inn) - sum(out), tuple(-b for b in out), tuple(inn), tuple(hi for _, hi in ordered)


def _bye_score_player(m: _Matcher, exposed: int, order: list[str], score: dict[str, Fraction],
                      had_bye: list[bool]) -> int | None:
    """A player of the lowest score who can be left out for the bye (no bye
    yet, C.2) with everyone else still paired (C.4): that fixes the bye's
    score; who of it gets the bye is settled in the last bracket
    (``_hand_bye``). Takes the player out of ``m``; None if nobody can."""
    n = len(order)
    by_score: dict[Fraction, list[int]] = {}
    for c in range(n):
        by_score.setdefault(score[order[c]], []).append(c)
    for s in sorted(by_score):
        for c in reversed(by_score[s]):
            if not had_bye[c] and m.drop(c, exposed):
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


# -- multi-player tables ----------------------------------------------------------

def table_sizes(n: int, size_min: int = 3, size_max: int = 6, preferred: int = 4) -> list[int]:
    """Sizes of the tables for ``n`` players, largest first: as close to
    ``preferred`` as possible (sum of deviations), then as many tables of
    exactly ``preferred`` as possible, then fewer tables."""
    if not 2 <= size_min <= preferred <= size_max:
        raise ValueError("need 2 <= size_min <= preferred <= size_max")
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for t in range(1, n // size_min + 1):
        q, r = divmod(n, t)
        if q < size_min or q + (r > 0) > size_max:
            continue
        sizes = [q + 1] * r + [q] * (t - r)
        key = (sum(abs(s - preferred) for s in sizes), -sizes.count(preferred), t)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:
        raise PairingImpossible(f"{n} players cannot be seated at tables of {size_min}–{size_max}")
    return best[1]


def table_groups(
    standings: Sequence[tuple[str, Score]],
    history: Sequence[Sequence[Sequence[str]]],
    size_min: int = 3,
    size_max: int = 6,
    preferred: int = 4,
) -> list[list[str]]:
    """Tables for a round of a multi-player game: everyone plays, tables of
    ``size_min``–``size_max`` (``preferred`` where the count allows), filled in
    score order so players meet others on their score, then improved by
    swapping players between nearby tables (up to two tables apart) while that
    lowers, first, the number of repeated opponents (pairs already seated
    together, counted with multiplicity) and, second, the spread of points at
    the tables (sum over each table of the point differences of its pairs).

    ``standings``: ``(player, points)`` in pairing-number order; ``history``:
    earlier rounds, each a list of tables in seat order. Within a table, seats
    go to those who sat furthest back before (seat rotation), then by rank.
    Tables are listed top first.
    """
    names = [p for p, _ in standings]
    if len(set(names)) != len(names):
        raise ValueError("players must be distinct")
    score = {p: Fraction(s) for p, s in standings}
    number = {p: i for i, p in enumerate(names)}
    score_level = {s: k for k, s in enumerate(sorted(set(score.values()), reverse=True))}  # 0 = top
    order = sorted(names, key=lambda p: (score_level[score[p]], number[p]))
    sizes = table_sizes(len(order), size_min, size_max, preferred)

    met: Counter[tuple[str, str]] = Counter()
    seat_sum: dict[str, Fraction] = {p: Fraction(0) for p in names}
    seat_games: Counter[str] = Counter()
    for rnd in history:
        for table in rnd:
            table = list(table)
            for a, b in combinations(table, 2):
                met[(a, b) if a < b else (b, a)] += 1
            for s, p in enumerate(table):
                if p in seat_sum and len(table) > 1:
                    seat_sum[p] += Fraction(s, len(table) - 1)
                    seat_games[p] += 1

    tables: list[list[str]] = []
    start = 0
    for s in sizes:
        tables.append(order[start:start + s])
        start += s

    # Points as integers (one common denominator) keep the local search exact and fast.
    unit = 1
    for p in names:
        unit = unit * score[p].denominator // _gcd(unit, score[p].denominator)
    pts = {p: int(score[p] * unit) for p in names}
    pair_met: dict[str, dict[str, int]] = {}
    for (a, b), k in met.items():
        pair_met.setdefault(a, {})[b] = k
        pair_met.setdefault(b, {})[a] = k

    def gain(a: str, b: str, table: list[str]) -> tuple[int, int]:
        """Change in (repeats, spread) at ``table`` when ``b`` replaces ``a``."""
        ma, mb = pair_met.get(a, {}), pair_met.get(b, {})
        pa, pb = pts[a], pts[b]
        rep = spread = 0
        for x in table:
            if x != a:
                rep += mb.get(x, 0) - ma.get(x, 0)
                spread += abs(pb - pts[x]) - abs(pa - pts[x])
        return rep, spread

    for _ in range(50):
        improved = False
        for ta in range(len(tables)):
            for tb in range(ta + 1, min(ta + 3, len(tables))):
                for ia in range(len(tables[ta])):
                    for ib in range(len(tables[tb])):
                        a, b = tables[ta][ia], tables[tb][ib]
                        if pts[a] == pts[b] and a not in pair_met and b not in pair_met:
                            continue
                        ra, sa = gain(a, b, tables[ta])
                        rb, sb = gain(b, a, tables[tb])
                        if (ra + rb, sa + sb) < (0, 0):
                            tables[ta][ia], tables[tb][ib] = b, a
                            improved = True
        if not improved:
            break

    rank = {p: i for i, p in enumerate(order)}

    def seat_key(p: str) -> tuple[Fraction, int]:
        mean = seat_sum[p] / seat_games[p] if seat_games[p] else Fraction(1, 2)
        return -mean, rank[p]

    tables = [sorted(t, key=seat_key) for t in tables]
    tables.sort(key=lambda t: min(rank[p] for p in t))
    return tables
