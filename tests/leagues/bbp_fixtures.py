"""Replay the bbpPairings fixtures (tests/leagues/fixtures/bbp_dutch) through
``swiss_pairings`` and compare round by round; shared by the test and the bench.

A round is *identical* when Kroniek gives the same boards with the same colours
and the same bye as bbp. A round is *illegal* when it breaks an absolute
criterion: someone paired twice or left out, a rematch, a second bye, or two
players with the same absolute colour preference meeting (C.3; the topscorer
exception of the final round aside).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from leagues.pairing import Pairings, PairingImpossible, _preference, swiss_pairings

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "bbp_dutch"
POINTS = {"1": (Fraction(1), Fraction(0)), "=": (Fraction(1, 2), Fraction(1, 2)), "0": (Fraction(0), Fraction(1))}


@dataclass
class RoundCheck:
    players: int
    round: int
    identical: bool
    same_pairs: bool
    illegal: list[str]
    seconds: float
    bbp_seconds: float
    differences: list[str] = field(default_factory=list)
    #: the rules Kroniek's pairing had to relax (``Pairings.relaxed``); ("none possible",) when it found none
    relaxed: tuple[str, ...] = ()


def load(folder: Path = FIXTURES) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def name(i: int) -> str:
    return f"p{i + 1:04d}"


def replay(data: dict) -> list[RoundCheck]:
    n, total = data["players"], data["rounds"]
    score = [Fraction(0)] * n
    history: list[Pairings] = []
    met: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    colours: dict[str, list[int]] = defaultdict(list)
    participated: set[str] = set()
    out = []
    for rd in data["round_data"]:
        rno = rd["round"]
        absent = set(rd["absent"])
        standings = [(name(i), score[i]) for i in range(n) if i not in absent]
        # pairing numbers count the players present or paired before (bbp's effective numbers)
        counted = [i for i in range(n) if i not in absent or name(i) in participated]
        numbers = {name(i): k + 1 for k, i in enumerate(counted)}
        t0 = time.process_time()  # CPU time: the machine may be shared
        try:
            got = swiss_pairings(standings, history, rno, rounds=total, pairing_numbers=numbers)
        except PairingImpossible:
            got = Pairings(round=rno, boards=(), relaxed=("none possible",))
        took = time.process_time() - t0
        want_boards = {(name(w), name(b)) for w, b in rd["boards"]}
        want_bye = name(rd["bye"]) if rd["bye"] is not None else None
        got_boards = set(got.boards)
        identical = got_boards == want_boards and got.bye == want_bye
        same_pairs = {frozenset(b) for b in got_boards} == {frozenset(b) for b in want_boards} and got.bye == want_bye
        illegal = []
        seated = [p for b in got.boards for p in b] + ([got.bye] if got.bye else [])
        if sorted(seated) != sorted(p for p, _ in standings):
            illegal.append("not everyone paired exactly once")
        top = max(s for _, s in standings) if standings else 0
        last = rno == total
        for w, b in got.boards:
            if frozenset((w, b)) in met:
                illegal.append(f"rematch {w}-{b}")
            (cw, sw), (cb, sb) = _preference(colours[w]), _preference(colours[b])
            topscorer = last and max(score[int(w[1:]) - 1], score[int(b[1:]) - 1]) * 2 > rno - 1
            if sw == sb == 3 and cw == cb and not topscorer:
                illegal.append(f"absolute colour clash {w}-{b}")
        if got.bye and got.bye in had_bye:
            illegal.append(f"second bye {got.bye}")
        diffs = []
        if not identical:
            diffs = [f"kroniek {w}-{b}" for w, b in sorted(got_boards - want_boards)]
            diffs += [f"bbp {w}-{b}" for w, b in sorted(want_boards - got_boards)]
            if got.bye != want_bye:
                diffs.append(f"bye kroniek {got.bye} bbp {want_bye}")
        out.append(RoundCheck(n, rno, identical, same_pairs, illegal, took, rd["bbp_seconds"], diffs, got.relaxed))
        if rd.get("no_valid_pairing"):
            break  # bbp found none: the tournament ends here
        # play bbp's round, as the fixture did
        before = list(score)
        boards = []
        for (w, b), res in zip(rd["boards"], rd["results"]):
            pw, pb = POINTS[res]
            score[w] += pw
            score[b] += pb
            boards.append((name(w), name(b)))
            participated.update(boards[-1])
            met.add(frozenset((name(w), name(b))))
            colours[name(w)].append(1)
            colours[name(b)].append(-1)
        downs = {name(w) if before[w] > before[b] else name(b) for w, b in rd["boards"] if before[w] != before[b]}
        ups = {name(b) if before[w] > before[b] else name(w) for w, b in rd["boards"] if before[w] != before[b]}
        bye = None
        if rd["bye"] is not None:
            bye = name(rd["bye"])
            score[rd["bye"]] += 1
            had_bye.add(bye)
            participated.add(bye)
            downs.add(bye)
        history.append(Pairings(round=rno, boards=tuple(boards), bye=bye,
                                downfloaters=frozenset(downs), upfloaters=frozenset(ups)))
    return out


def replay_all(folder: Path = FIXTURES) -> list[RoundCheck]:
    return [c for data in load(folder) for c in replay(data)]


def summary(checks: list[RoundCheck]) -> dict:
    by_n: dict[int, list[RoundCheck]] = defaultdict(list)
    for c in checks:
        by_n[c.players].append(c)
    return {
        "rounds": len(checks),
        "identical": sum(c.identical for c in checks),
        "same_pairs": sum(c.same_pairs for c in checks),
        "illegal": sum(bool(c.illegal) for c in checks),
        "by_players": {n: (sum(c.identical for c in cs), len(cs)) for n, cs in sorted(by_n.items())},
        "after_round_1": (sum(c.identical for c in checks if c.round > 1), sum(c.round > 1 for c in checks)),
    }


if __name__ == "__main__":
    import sys

    checks = replay_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURES)
    s = summary(checks)
    print(s)
    by_nr: dict[tuple[int, int], list[RoundCheck]] = defaultdict(list)
    for c in checks:
        by_nr[(c.players, c.round)].append(c)
    for (n, r), cs in sorted(by_nr.items()):
        print(f"n={n:5d} round {r}: {sum(c.identical for c in cs)}/{len(cs)} identical, "
              f"{sum(c.same_pairs for c in cs)}/{len(cs)} same pairs, "
              f"kroniek {max(c.seconds for c in cs) * 1000:.1f} ms, bbp {max(c.bbp_seconds for c in cs):.3f} s")
