"""Upgrades keep the data (issue 39; ``replays.format``): a store written by the version before stored data
carried a format (format 1, ``tests/fixtures/upgrade/format-1``, made by ``make_format_1.py`` with commit
e895dd1), kept as a Redis dump and as a backup file of version 1, is read, replayed, audited and verified by
this version, which answers every read of it as that version did, byte for byte. The API and the workers take
an online step (the one from format 1 is) as they start; a step that is not online, or a store of a newer
format, they refuse with what to do (exit 3)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import orjson
import pytest
import redis
from click.testing import CliRunner

from leagues.archive import verify_archive
from replays import EventStore
from replays import format as data_format
from replays.backup import audit_restored, read_backup, restore
from service import embedded
from tests.conftest import client_with_token
from tests.fixtures.upgrade.make_format_1 import fixture_signing_key

FIXTURE = Path(__file__).parent / "fixtures" / "upgrade" / "format-1"
ROOT = Path(__file__).resolve().parent.parent

#: reads whose answer this version changed on purpose, with why (none so far: keep it that way unless a
#: change of an answer is meant, and say so here)
CHANGED_ON_PURPOSE: dict[str, str] = {}


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads((FIXTURE / "answers.json").read_text())


@contextlib.contextmanager
def embedded_server(var: Path, with_dump: bool) -> Iterator[redis.Redis]:
    """An embedded Redis of its own in ``var``; with the format-1 dump loaded when ``with_dump``."""
    var.mkdir(parents=True, exist_ok=True)
    if with_dump:
        shutil.copyfile(FIXTURE / "dump.rdb", var / "dump.rdb")
    proc, sock = embedded.start(var, persistent=False)
    client = redis.Redis(unix_socket_path=str(sock), decode_responses=True)
    try:
        yield client
    finally:
        client.close()
        embedded.stop(proc, sock)


@pytest.fixture
def old_store(tmp_path):
    """An embedded Redis that loaded the format-1 dump."""
    with embedded_server(tmp_path / "dump", with_dump=True) as client:
        yield client


@pytest.fixture
def empty_server(tmp_path):
    with embedded_server(tmp_path / "empty", with_dump=False) as client:
        yield client


def answers_now(client: redis.Redis, recorded: dict) -> dict[str, list]:
    from service.app import create_app

    app = create_app(store=EventStore(client, recorded["prefix"]), enqueue_validation=lambda m: None,
                     enqueue_ratings=lambda g: None, signing_key=fixture_signing_key())
    http = client_with_token(app, recorded["token"])
    out = {}
    for url in recorded["answers"]:
        res = http.get(url)
        out[url] = [res.status_code, res.get_data(as_text=True)]
    export = http.get(f"/api/leagues/{recorded['league']}/export")
    assert export.status_code == 200
    out["export"] = [orjson.loads(line) for line in export.get_data().splitlines() if line.strip()]
    return out


def same_answers(now: dict, recorded: dict) -> None:
    differ = [url for url, answer in recorded["answers"].items()
              if now[url] != answer and url not in CHANGED_ON_PURPOSE]
    assert not differ, [(url, recorded["answers"][url][1][:300], now[url][1][:300]) for url in differ[:3]]


def test_a_format_1_redis_dump_is_refused_until_upgraded_then_reads_audits_and_verifies_as_before(old_store,
                                                                                               recorded):
    prefix = recorded["prefix"]
    assert data_format.stored(old_store, prefix) == 1
    with pytest.raises(data_format.FormatMismatch, match="kroniek upgrade"):
        data_format.check(old_store, prefix, online=False)
    assert data_format.upgrade(old_store, prefix, by="test") == [1]
    assert data_format.check(old_store, prefix) == data_format.FORMAT == 2
    assert data_format.upgrade(old_store, prefix) == []  # run again: nothing to do
    # read and replayed: every read as the old version answered it (states, reviews, notation, standings, TRF)
    now = answers_now(old_store, recorded)
    same_answers(now, recorded)
    # audited: every chain, and the league's replay with the pairing system it recorded
    assert audit_restored(old_store, prefix, recorded["matches"], [recorded["league"]]) == []
    # verified: the league's archive checks offline against the old version's key
    from replays.signing import public_key_b64

    report = verify_archive(now["export"], public_key_b64(fixture_signing_key()))
    assert report.valid, report.to_dict()["problems"]
    assert report.checked["proofs"] >= 1 and report.checked["matches"] >= 1


def test_a_format_1_backup_file_restores_into_this_version_and_answers_as_before(empty_server, recorded):
    from replays.signing import public_key_b64

    with open(FIXTURE / "kroniek.backup", "rb") as source:
        header, _ = read_backup(source, public_key_b64(fixture_signing_key()))
        assert header["version"] == 1 and "data_format" not in header  # written before either existed
        done = restore(empty_server, source, public_key_b64(fixture_signing_key()))
    assert done["data_format"] == 1 and done["logs"] == {}  # a version-1 file carries no logs to compare
    assert sorted(done["matches"]) == sorted(recorded["matches"]) and done["leagues"] == [recorded["league"]]
    assert audit_restored(empty_server, done["prefix"], done["matches"], done["leagues"]) == []
    assert data_format.upgrade(empty_server, done["prefix"]) == [1]
    same_answers(answers_now(empty_server, recorded), recorded)


def test_a_store_of_a_newer_format_or_an_unreadable_mark_is_refused_and_not_touched(empty_server):
    prefix = "kroniek"
    assert data_format.stored(empty_server, prefix) is None
    assert data_format.check(empty_server, prefix, by="test") == 2  # an empty store is marked with this format
    assert empty_server.hget(f"{prefix}:format", "created_by") == "test"
    empty_server.hset(f"{prefix}:format", "version", "3")
    for act in (data_format.check, data_format.upgrade):
        with pytest.raises(data_format.FormatMismatch, match="format 3, written by a newer Kroniek"):
            act(empty_server, prefix)
    assert empty_server.hget(f"{prefix}:format", "version") == "3"
    empty_server.hset(f"{prefix}:format", "version", "two")
    with pytest.raises(data_format.FormatMismatch, match="not a number"):
        data_format.check(empty_server, prefix)


def test_the_commands_take_an_online_step_and_refuse_a_newer_store(old_store, recorded, monkeypatch):
    """``kroniek worker`` on format 1 takes the online step to 2 as it starts; on a store of a newer format
    ``kroniek worker``, ``kroniek serve`` and ``kroniek upgrade`` stop with exit 3 (which the systemd units do
    not restart) and say why, and leave it as it was."""
    from service.cli import main
    from workers.worker import WRONG_FORMAT

    sock = old_store.connection_pool.connection_kwargs["path"]
    env = {**os.environ, "REDIS_URL": f"unix://{sock}", "KRONIEK_PREFIX": recorded["prefix"]}

    def kroniek(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "service.cli", *args], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)

    worker = kroniek("worker", "--burst", "--queues", "validation")
    assert worker.returncode == 0, worker.stderr[-2000:]
    assert "from format 1 to 2" in worker.stderr
    assert old_store.hgetall(f"{recorded['prefix']}:format")["upgraded_by"] == "kroniek worker"
    old_store.hset(f"{recorded['prefix']}:format", "version", "3")
    worker = kroniek("worker", "--burst", "--queues", "validation")
    assert worker.returncode == WRONG_FORMAT and "format 3, written by a newer Kroniek" in worker.stderr
    serve = kroniek("serve", "--port", "0")
    assert serve.returncode == WRONG_FORMAT and "format 3, written by a newer Kroniek" in serve.stderr
    monkeypatch.setenv("REDIS_URL", env["REDIS_URL"])
    monkeypatch.setenv("KRONIEK_PREFIX", recorded["prefix"])
    refused = CliRunner().invoke(main, ["upgrade"])
    assert refused.exit_code == WRONG_FORMAT and "newer Kroniek" in refused.output
    assert old_store.hget(f"{recorded['prefix']}:format", "version") == "3"


def test_a_step_that_is_not_online_is_refused_until_kroniek_upgrade_takes_it(old_store, recorded, monkeypatch):
    """A later format whose step the old code cannot run beside: ``check`` (every process's start) refuses
    the store, saying to back up and upgrade; ``kroniek upgrade`` takes the steps in order and says so."""
    from service.cli import main

    prefix = recorded["prefix"]
    taken = []
    monkeypatch.setattr(data_format, "FORMAT", 3)
    monkeypatch.setitem(data_format.UPGRADES, 2, data_format.Step(lambda r, p: taken.append(p), online=False,
                                                                  what="keys rewritten"))
    with pytest.raises(data_format.FormatMismatch, match=r"format 2; this Kroniek serves format 3\. Back it up"):
        data_format.check(old_store, prefix)  # takes the online step 1 -> 2, then stops before 2 -> 3
    assert data_format.stored(old_store, prefix) == 2 and taken == []
    monkeypatch.setenv("REDIS_URL", f"unix://{old_store.connection_pool.connection_kwargs['path']}")
    monkeypatch.setenv("KRONIEK_PREFIX", prefix)
    result = CliRunner().invoke(main, ["upgrade"])
    assert result.exit_code == 0, result.output
    assert "from format 2 to 3: keys rewritten" in result.output and taken == [prefix]
    assert data_format.check(old_store, prefix) == 3
    again = CliRunner().invoke(main, ["upgrade"])
    assert again.exit_code == 0 and "format 3 already: nothing to do" in again.output


def test_kroniek_run_backs_an_older_store_up_then_upgrades_it(old_store, recorded, tmp_path, capsys, monkeypatch):
    """The command a newcomer runs after pulling a new version: it keeps working, and the data as it was is
    kept in a backup under VAR/backups first, signed with the key the API signs with."""
    from replays.signing import load_or_create_key, public_key_b64
    from service.cli import _upgrade_for_run

    monkeypatch.setenv("KRONIEK_PREFIX", recorded["prefix"])
    var = tmp_path / "var"
    sock = old_store.connection_pool.connection_kwargs["path"]
    _upgrade_for_run({"REDIS_URL": f"unix://{sock}", "KRONIEK_VAR": str(var)}, var)
    said = capsys.readouterr().out
    saved = var / "backups" / "before-format-2.backup"
    assert f"Data format 1: backed up into {saved}" in said and "from format 1 to 2" in said
    assert data_format.stored(old_store, recorded["prefix"]) == 2
    assert saved.stat().st_mode & 0o777 == 0o600
    key = public_key_b64(load_or_create_key(var / "keys" / "tree-head.pem"))
    with open(saved, "rb") as source:
        header, records = read_backup(source, key)
        assert header["data_format"] == 1 and header["footer"]["matches"] == len(recorded["matches"])
    _upgrade_for_run({"REDIS_URL": f"unix://{sock}", "KRONIEK_VAR": str(var)}, var)  # again: nothing to do
    assert "backed up" not in capsys.readouterr().out
