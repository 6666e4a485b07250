"""Solved tables kept between analyses (workers/tables.py), and BraveRats's table as bytes (``Solver.freeze``)."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from engine.braverats.equilibrium import Position, Solver, hand_of, key_of, order, position_of_key
from workers.tables import MAGIC, FileTables


def test_a_table_is_built_once_then_read_back_as_written(tmp_path):
    tables = FileTables(tmp_path)
    calls = []
    body = bytes(range(256)) * 10

    def build():
        calls.append(1)
        return body

    assert tables.get("demo-1", build) == body
    assert tables.get("demo-1", build) == body and FileTables(tmp_path).get("demo-1", build) == body
    assert calls == [1] and tables.built == ["demo-1"]


@pytest.mark.parametrize("spoil", ["flip a byte", "cut short", "another name", "no header"])
def test_a_kept_table_that_does_not_read_back_is_built_again_never_trusted(tmp_path, spoil, caplog):
    tables = FileTables(tmp_path)
    tables.get("demo", lambda: b"the right bytes")
    path = tables.path("demo")
    raw = path.read_bytes()
    if spoil == "flip a byte":
        raw = raw[:-3] + bytes([raw[-3] ^ 1]) + raw[-2:]
    elif spoil == "cut short":
        raw = raw[:-1]
    elif spoil == "another name":
        raw = raw.replace(b'"name": "demo"', b'"name": "dem0"')
    else:
        raw = raw[len(MAGIC):]
    path.write_bytes(raw)
    assert tables.read("demo") is None
    assert tables.get("demo", lambda: b"the right bytes") == b"the right bytes"
    assert "built again" in caplog.text


@pytest.mark.parametrize("name", ["../escape", "UPPER", "", "a/b", "x" * 200, "ünï"])
def test_a_tables_name_is_a_plain_file_name(tmp_path, name):
    with pytest.raises(ValueError):
        FileTables(tmp_path).path(name)


def _slow_get(root: str, out) -> None:
    def build():
        time.sleep(0.5)
        return b"built by %d" % multiprocessing.current_process().pid

    tables = FileTables(__import__("pathlib").Path(root))
    out.put((tables.get("shared", build), tables.built))


def test_processes_asking_at_once_build_it_once_and_read_the_same_bytes(tmp_path):
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=_slow_get, args=(str(tmp_path), out)) for _ in range(3)]
    for p in procs:
        p.start()
    got = [out.get(timeout=30) for _ in procs]
    for p in procs:
        p.join(10)
    assert len({body for body, _ in got}) == 1  # every process read what one of them built
    assert sum(len(built) for _, built in got) == 1
    assert not list(tmp_path.glob("*.tmp"))


def test_a_solved_braverats_table_thaws_to_the_same_values(tmp_path):
    """A small position's tree (three cards a hand), frozen and thawed: each position's value read back bit for
    bit, its mirror's the negation; bytes that are no table are refused."""
    pos = Position((hand_of([0, 3, 7]), hand_of([1, 5, 6])), (2, 1), 1, (True, False), None)
    solved = Solver()
    solved.value(pos)
    blob = solved.freeze()
    thawed = Solver()
    n = thawed.thaw(blob)
    thawed.round = lambda p: pytest.fail(f"{p} was solved again, not read")
    assert n == sum(order(p) <= order(p.swapped()) for p in solved.values)
    assert all(position_of_key(key_of(p)) == p for p in solved.values)
    for p, v in solved.values.items():
        assert thawed.value(p) == v  # read back exactly: no false alarm in a review
    for bad in (b"", blob[:-1], blob[:8] + blob[16:24] + blob[8:16] + blob[24:]):
        with pytest.raises(ValueError):
            Solver().thaw(bad)
