"""(l7) The Dutch system against bbpPairings on fresh seeds, size by size: random Swiss tournaments (the
results drawn from the ratings, players absent now and then, as tests/leagues/fixtures/make_bbp_fixtures.py
makes the committed ones) paired round by round by bbpPairings, each round then paired by Kroniek from the
same history and compared: the share of rounds with the same boards, colours and bye (goal: >= 99% at every
size, 0 illegal). Where bbpPairings finds no valid pairing, Kroniek must find none either without relaxing a
rule (the league then asks the organiser, service.leagues.pair_next_round).

bbpPairings is not part of Kroniek: build it from its public source (``make`` with g++) and name it in
``BBP`` (the path of bbpPairings.exe). Without it the row says so. ``BBP_SEEDS`` moves the seeds (default:
from the clock, printed, so a run can be repeated); ``BBP_PLAN`` sets sizes and tournaments, e.g.
``8:40,16:20,32:10,64:6,128:3,256:2,1024:1``. bbpPairings takes minutes a round at 1,024 players.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

DEFAULT_PLAN = ((8, 40), (16, 20), (32, 10), (64, 6), (128, 3), (256, 2), (1024, 1))


def plan() -> tuple[tuple[int, int], ...]:
    text = os.environ.get("BBP_PLAN")
    if not text:
        return DEFAULT_PLAN
    return tuple((int(a), int(b)) for a, b in (part.split(":") for part in text.split(",")))


def _bbp_round(bbp: str, trf: str) -> tuple[list[tuple[int, int]], int | None, float] | None:
    """bbpPairings's next round of ``trf``, or None where it finds no valid pairing."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.trf", Path(tmp) / "out.txt"
        src.write_text(trf)
        t0 = time.perf_counter()
        run = subprocess.run([bbp, "--dutch", str(src), "-p", str(out)], capture_output=True, text=True)
        took = time.perf_counter() - t0
        if run.returncode != 0:
            if "No valid pairing exists" in run.stderr:
                return None
            raise RuntimeError(f"bbpPairings failed: {run.stderr.strip()}")
        nums = list(map(int, out.read_text().split()))
    boards, bye = [], None
    for k in range(nums[0]):
        w, b = nums[1 + 2 * k], nums[2 + 2 * k]
        if b == 0:
            bye = w - 1
        else:
            boards.append((w - 1, b - 1))
    return boards, bye, took


def tournament(bbp: str, players: int, seed: int) -> dict:
    from tests.leagues.fixtures.make_bbp_fixtures import ABSENT_RATE, result, trf_text

    rng = random.Random(seed)
    total = min(rng.randint(5, 9), players - 1)
    ratings = sorted((min(2850, max(1000, int(rng.gauss(1800, 300)))) for _ in range(players)), reverse=True)
    names = [f"p{i + 1:04d}" for i in range(players)]
    rounds: list[dict] = []
    for rno in range(1, total + 1):
        absent = sorted(p for p in range(players) if rng.random() < ABSENT_RATE)
        answer = _bbp_round(bbp, trf_text(names, ratings, rounds, total, absent))
        if answer is None:
            rounds.append({"round": rno, "absent": absent, "boards": [], "bye": None, "results": [],
                           "bbp_seconds": 0.0, "no_valid_pairing": True})
            break
        boards, bye, took = answer
        rounds.append({"round": rno, "absent": absent, "boards": boards, "bye": bye,
                       "results": [result(rng, ratings[w], ratings[b]) for w, b in boards], "bbp_seconds": took})
    return {"players": players, "rounds": total, "ratings": ratings, "round_data": rounds}


def measure() -> list[tuple[str, str, str, str]]:
    from tests.leagues.bbp_fixtures import replay

    bbp = os.environ.get("BBP")
    if not bbp or not Path(bbp).is_file():
        return [("(l7) Dutch pairings identical to bbpPairings on fresh seeds",
                 "not measured: set BBP to a bbpPairings built from its source", "—", ">= 99% at every size")]
    base = int(os.environ.get("BBP_SEEDS") or time.time())
    rows = []
    for players, count in plan():
        same = rounds = illegal = none_agree = none_total = 0
        for t in range(count):
            data = tournament(bbp, players, base * 100 + players * 7 + t)
            for check, rd in zip(replay(data), data["round_data"]):
                if rd.get("no_valid_pairing"):
                    none_total += 1
                    none_agree += bool(check.relaxed)  # Kroniek, too, pairs none without relaxing a rule
                    continue
                rounds += 1
                same += check.identical
                illegal += bool(check.illegal)
        share = same / rounds if rounds else 0.0
        rows.append((f"(l7) Dutch pairings identical to bbpPairings, {players:,} players, fresh seeds "
                     f"(BBP_SEEDS={base})",
                     f"{same}/{rounds} rounds of {count} tournaments; {illegal} illegal; bbp found no valid "
                     f"pairing in {none_total} round(s), Kroniek none either in {none_agree}",
                     f"{share:.1%}", ">= 99%, 0 illegal"))
    return rows


if __name__ == "__main__":
    from rich.console import Console
    from rich.table import Table

    table = Table("measure", "measured", "ratio", "goal")
    for row in measure():
        table.add_row(*row)
    Console().print(table)
