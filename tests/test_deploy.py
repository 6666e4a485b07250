"""docs/ops.md's deployment, without systemd: the units of docs/examples/systemd are checked by
``systemd-analyze verify``, then their own commands run here as systemd would run them (each with the
settings of ``kroniek.env`` and nothing else of this process's environment but the suite's settings for what
an analysis costs), on 127.0.0.1: Redis, the first
admin, the API, the workers, Debian's caddy.service command with the Caddyfile of docs/examples in front,
and the nightly backup's three commands. Only the paths (/opt/kroniek: this checkout; /var/lib/kroniek: a
temporary directory), the ports and Caddy's site (127.0.0.1, with its own authority) are changed. Through
Caddy a finished match is imported and the worker's verdict arrives; the backup file verifies against the
key the API signs with; SIGTERM, as systemd stops each unit, ends every process cleanly."""

from __future__ import annotations

import datetime
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
import requests

from tests.test_run import free_port

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "docs" / "examples" / "systemd"
CADDYFILE = ROOT / "docs" / "examples" / "Caddyfile"
DEBIAN_CADDY_UNITS = (Path("/lib/systemd/system/caddy.service"), Path("/usr/lib/systemd/system/caddy.service"))


def unit(path: Path) -> dict[str, list[str]]:
    """A unit file's settings, ``Section.Key`` -> its values in order (a key may be given more than once)."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


def settings(path: Path) -> dict[str, str]:
    """An EnvironmentFile's settings."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


class Deployment:
    def __init__(self, tmp: Path) -> None:
        self.var = tmp / "var"
        self.port, self.https_port = free_port(), free_port()
        self.site = f"https://127.0.0.1:{self.https_port}"
        env = {k: self.paths(v) for k, v in settings(UNITS / "kroniek.env").items()}
        assert set(env) == {"REDIS_URL", "KRONIEK_VAR", "KRONIEK_PUBLIC_URL", "KRONIEK_SITE", "KRONIEK_TLS",
                            "KRONIEK_UPSTREAM"}
        env.update(KRONIEK_PUBLIC_URL=self.site, KRONIEK_SITE=self.site, KRONIEK_TLS="internal",
                   KRONIEK_UPSTREAM=f"127.0.0.1:{self.port}", KRONIEK_HTTPS_PORT=str(self.https_port))
        # what systemd gives a service: a plain PATH and its EnvironmentFile, nothing of this test's process but
        # the suite's settings for what an analysis costs (its shared solver tables, fewer playouts): a fresh
        # BraveRats table would keep the analysis worker busy for minutes, and its stop waiting on it
        suite = {k: os.environ[k] for k in ("KRONIEK_TABLES", "KRONIEK_ANALYSIS_PLAYOUTS") if k in os.environ}
        self.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(tmp), **env, **suite}
        self.caddy_env = {**self.env, "XDG_DATA_HOME": str(tmp / "caddy" / "data"),
                          "XDG_CONFIG_HOME": str(tmp / "caddy" / "config")}
        self.logs = tmp / "logs"
        self.logs.mkdir()
        self.procs: dict[str, subprocess.Popen] = {}

    def paths(self, text: str) -> str:
        return text.replace("/opt/kroniek", str(ROOT)).replace("/var/lib/kroniek", str(self.var))

    def command(self, line: str) -> list[str]:
        """A unit's command line as systemd runs it: ``%%`` is ``%``; then the paths and the API's port."""
        words = shlex.split(self.paths(line.replace("%%", "%")))
        return [str(self.port) if words[i - 1:i] == ["--port"] and w == "8000" else w for i, w in enumerate(words)]

    def start(self, name: str, line: str, env: dict[str, str] | None = None) -> None:
        log = open(self.logs / f"{name}.log", "w")
        self.procs[name] = subprocess.Popen(self.command(line), env=env or self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text()

    def wait(self, what: str, ready, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if ready():
                    return
            except (requests.RequestException, redis.RedisError, OSError):
                pass
            dead = [n for n, p in self.procs.items() if p.poll() is not None]
            assert not dead and time.monotonic() < deadline, \
                f"{what}: not ready; stopped: {dead}\n" + "\n".join(f"--- {n}\n{self.log(n)[-3000:]}" for n in self.procs)
            time.sleep(0.2)

    def stop(self, name: str, seconds: float) -> int:
        """As systemd stops a unit: SIGTERM to its main process (KillMode=mixed; the others, with the default
        control-group mode, get it too: here they stop with their parent), SIGKILL after TimeoutStopSec."""
        proc = self.procs[name]
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                return -9
        return proc.returncode


def test_the_systemd_units_verify():
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is not installed (Debian's package systemd)"
    files = sorted(str(p) for p in UNITS.glob("kroniek-*.*"))
    assert len(files) == 5
    run = subprocess.run([analyze, "verify", "--man=no", *files], capture_output=True, text=True, timeout=60)
    # /opt/kroniek is where the docs install Kroniek, not this machine: that is the only complaint allowed
    complaints = [line for line in (run.stdout + run.stderr).splitlines() if line.strip() and not re.search(
        r"Command /opt/kroniek/\.venv/bin/kroniek is not executable", line)]
    assert complaints == []
    dropin = unit(UNITS / "caddy-kroniek.conf")
    assert dropin["Service.EnvironmentFile"] == ["/etc/kroniek/kroniek.env"]


@pytest.mark.slow(20)
def test_the_units_commands_run_the_service_behind_caddy_on_loopback(tmp_path):
    caddy_unit = next((p for p in DEBIAN_CADDY_UNITS if p.exists()), None)
    assert caddy_unit and shutil.which("caddy"), "Caddy is not installed: apt-get install -y caddy (.ci/run does)"
    deploy = Deployment(tmp_path)
    units = {name: unit(UNITS / f"kroniek-{name}.service") for name in ("redis", "api", "worker", "backup")}
    for name in ("redis", "api", "worker", "backup"):
        assert units[name]["Service.EnvironmentFile"] == ["/etc/kroniek/kroniek.env"]
        assert units[name]["Service.User"] == ["kroniek"]
    try:
        deploy.start("redis", units["redis"]["Service.ExecStart"][0])
        socket = deploy.env["REDIS_URL"].removeprefix("unix://")
        deploy.wait("Redis", lambda: redis.Redis(unix_socket_path=socket).ping())
        # the first admin, as docs/ops.md makes them: the CLI with the units' settings
        made = subprocess.run([str(ROOT / ".venv" / "bin" / "kroniek"), "user", "add", "admin", "--admin"],
                              env=deploy.env, capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        token = made.stdout.strip()
        deploy.start("api", units["api"]["Service.ExecStart"][0])
        deploy.start("worker", units["worker"]["Service.ExecStart"][0])
        caddy_line = unit(caddy_unit)["Service.ExecStart"][0].replace("/etc/caddy/Caddyfile", str(CADDYFILE))
        deploy.start("caddy", caddy_line, deploy.caddy_env)
        root = tmp_path / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deploy.wait("Caddy's authority", root.exists)
        https = requests.Session()
        https.verify, https.trust_env = str(root), False
        https.headers.update({"Authorization": f"Bearer {token}", "Origin": deploy.site})
        deploy.wait("the API through Caddy", lambda: https.get(f"{deploy.site}/api/health", timeout=5).status_code == 200)
        assert https.get(f"{deploy.site}/api/me", timeout=10).json()["name"] == "admin"

        from engine import notation as N
        from tests.support.played import play

        text = N.write(play("braverats", 3, mode="physical", limit=3000, finish=True), [])
        imported = https.post(f"{deploy.site}/api/matches/import", data=text.encode(),
                              headers={"Content-Type": "text/plain"}, timeout=30)
        assert imported.status_code == 201, imported.text
        mid = imported.json()["id"]
        deploy.wait("the worker's verdict", lambda: https.get(f"{deploy.site}/api/matches/{mid}",
                                                               timeout=10).json()["validation"] == "valid")
        metrics = requests.get(f"http://127.0.0.1:{deploy.port}/metrics", timeout=10)
        assert metrics.status_code == 200 and "kroniek_http_request_duration_seconds_count" in metrics.text

        # the nightly backup: its three commands, in order
        backup = units["backup"]
        assert backup["Service.Type"] == ["oneshot"]
        for key in ("Service.ExecStartPre", "Service.ExecStart", "Service.ExecStartPost"):
            done = subprocess.run(deploy.command(backup[key][0]), env=deploy.env, capture_output=True, text=True,
                                  timeout=120)
            assert done.returncode == 0, (key, done.stdout, done.stderr)
        saved = deploy.var / "backups" / f"kroniek-{datetime.date.today():%Y-%m-%d}.backup"
        from replays.backup import read_backup
        from replays.signing import load_or_create_key, public_key_b64

        key = public_key_b64(load_or_create_key(deploy.var / "keys" / "tree-head.pem"))
        assert https.get(f"{deploy.site}/api/log/public-key", timeout=10).json()["public_key"] == key
        with open(saved, "rb") as source:
            header, _ = read_backup(source, key)
        assert header["footer"]["matches"] == 1 and header["data_format"] == 2
    finally:
        stopped = {name: deploy.stop(name, seconds) for name, seconds in
                   (("caddy", 5), ("worker", 120), ("api", 30), ("redis", 60)) if name in deploy.procs}
    assert all(code in (0, -signal.SIGTERM) for code in stopped.values()), stopped
    assert "Traceback" not in deploy.log("worker") + deploy.log("api"), deploy.log("worker")[-3000:]


def test_the_install_commands_of_docs_ops_name_files_that_exist():
    """docs/ops.md's Deployment block copies files of docs/examples and enables units: each exists."""
    text = (ROOT / "docs" / "ops.md").read_text()
    block = text[text.index("## Deployment"):]
    block = block[block.index("```sh"):block.index("```", block.index("```sh") + 5)]
    named = re.findall(r"docs/examples/\S+", block)
    assert len(named) >= 5
    for pattern in named:
        assert list(ROOT.glob(pattern)), f"{pattern} names no file"
    enabled = re.search(r"systemctl enable --now (.+)", block).group(1).split()
    for name in enabled:
        assert (UNITS / (name if "." in name else f"{name}.service")).is_file(), name
    assert set(enabled) >= {"kroniek-redis", "kroniek-api", "kroniek-worker", "kroniek-backup.timer"}
