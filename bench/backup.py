"""(bk) ``kroniek backup`` and ``kroniek restore`` of a million events: their rates (events/s) and the peak
memory of each process, at a tenth of the size and at the whole, so a memory that grows with the data shows.

The data: matches of every game played through the service layer between random players (``bytes_per_event
.play``, up to 100 events each; those that finished validated, so compacted and in the transparency log),
then copied key by key (``DUMP``/``RESTORE`` under new match ids: an event's hash does not name its match, so
each copy's chain is valid) until the store holds the events asked for. The commands run as the operator runs
them, each a process of its own (``python -m service.cli backup FILE`` on ``REDIS_URL``), and ``os.wait4``
gives each one's peak resident memory. The restore goes into a second, empty Redis; it checks the whole file
first, writes, audits every match and compares each with its log in the file, all inside the time shown.

``python -m bench.backup [--events N] [--seed S]``  (default 1,000,000)
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import redis

from bench import bench_redis
from bench import console as bench_console
from engine import registry
from replays import EventStore

console = bench_console()


def fill(url: str, prefix: str, events: int, seed: int) -> tuple[int, int]:
    """Matches under ``prefix`` until ``events`` are stored: (events, matches)."""
    from bench.bytes_per_event import play
    from service.matches import MatchService
    from workers.jobs import validate_log

    client = redis.Redis.from_url(url, decode_responses=True)
    raw = redis.Redis.from_url(url)
    store = EventStore(client, prefix)
    svc = MatchService(store)
    templates: list[tuple[str, int]] = []
    for game in registry.all_games():
        if game.id == "toy":
            continue
        for i in range(3):
            mid, n = play(svc, game, seed * 1000 + i, 100)
            if svc.current(mid).status == "finished":
                validate_log(store, mid)
            templates.append((mid, n))
    total, matches = sum(n for _, n in templates), len(templates)
    dumps = []
    for mid, n in templates:
        keys = sorted(client.scan_iter(match=f"{prefix}:{{m:{mid}}}:*", count=1000))
        pipe = raw.pipeline(transaction=False)
        for key in keys:
            pipe.dump(key)
            pipe.pttl(key)
        got = pipe.execute()
        dumps.append((mid, n, [(key, got[2 * i], got[2 * i + 1]) for i, key in enumerate(keys)]))
    rng = random.Random(seed)
    pipe = raw.pipeline(transaction=False)
    while total < events:
        mid, n, keys = rng.choice(dumps)
        copy = uuid.UUID(int=rng.getrandbits(128)).hex[:16]
        for key, dumped, ttl in keys:
            pipe.restore(key.replace(f"{{m:{mid}}}", f"{{m:{copy}}}"), max(ttl, 0), dumped)
        total, matches = total + n, matches + 1
        if len(pipe) >= 2000:
            pipe.execute()
    pipe.execute()
    client.close()
    raw.close()
    return total, matches


def _command(args: list[str], url: str, prefix: str, key: Path) -> tuple[float, int, str]:
    """Run ``kroniek ARGS`` as a process: (seconds, peak resident KiB, its output)."""
    env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_SIGNING_KEY": str(key)}
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", *args], env=env, stdout=out, stderr=out)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"kroniek {' '.join(args)} failed ({proc.returncode}):\n{text[-3000:]}")
    return took, usage.ru_maxrss, text


def measure_size(events: int, seed: int, tmp: Path) -> dict[str, float]:
    prefix = f"bk-{uuid.uuid4().hex[:8]}"
    from replays.signing import load_or_create_key

    key = tmp / "key.pem"
    load_or_create_key(key)  # the API's key, made as `kroniek serve` makes it (a backup never makes one)
    file = tmp / f"backup-{events}.jsonl"
    with bench_redis("backup-from") as source:
        t0 = time.perf_counter()
        stored, matches = fill(source, prefix, events, seed)
        console.print(f"  {stored:,} events in {matches:,} matches stored in {time.perf_counter() - t0:.0f} s")
        backup_s, backup_kib, _ = _command(["backup", str(file)], source, prefix, key)
    size = file.stat().st_size
    with bench_redis("backup-into") as target:
        restore_s, restore_kib, said = _command(["restore", str(file)], target, prefix, key)
    file.unlink()
    if "every match and league audits valid" not in said:
        raise RuntimeError(f"the restore did not say every match audits valid:\n{said[-2000:]}")
    return {"events": stored, "matches": matches, "bytes": size, "backup_s": backup_s, "backup_kib": backup_kib,
            "restore_s": restore_s, "restore_kib": restore_kib}


def measure(events: int = 1_000_000, seed: int = 1) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="kroniek-bk-") as tmp:
        sizes = {}
        for n in (events // 10, events):
            console.print(f"(bk) backup and restore of {n:,} events …")
            sizes[n] = measure_size(n, seed, Path(tmp))
    small, big = sizes[events // 10], sizes[events]
    for label, m in (("a tenth", small), ("all", big)):
        rows.append((f"(bk) kroniek backup, {label}: {m['events']:,} events in {m['matches']:,} matches, a "
                     f"{m['bytes'] / 2**20:,.0f} MiB file ({m['bytes'] / m['events']:,.0f} B an event)",
                     f"{m['backup_s']:.1f} s, peak {m['backup_kib'] / 1024:,.0f} MiB",
                     f"{m['events'] / m['backup_s']:,.0f} events/s", "memory bounded"))
        rows.append((f"(bk) kroniek restore of it into an empty Redis (file checked, written, every match "
                     f"audited and compared with its log), {label}",
                     f"{m['restore_s']:.1f} s, peak {m['restore_kib'] / 1024:,.0f} MiB",
                     f"{m['events'] / m['restore_s']:,.0f} events/s", "memory bounded"))
    rows.append(("(bk) peak memory at all ÷ at a tenth of the events: backup, restore",
                 f"{big['backup_kib'] / 1024:,.0f} / {small['backup_kib'] / 1024:,.0f} MiB, "
                 f"{big['restore_kib'] / 1024:,.0f} / {small['restore_kib'] / 1024:,.0f} MiB",
                 f"{big['backup_kib'] / small['backup_kib']:.2f}, {big['restore_kib'] / small['restore_kib']:.2f}",
                 "bounded: far below 10"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from rich.table import Table

    table = Table(title="(bk) backup and restore")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in measure(args.events, args.seed):
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
