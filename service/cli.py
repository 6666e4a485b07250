"""The ``kroniek`` command."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import click


class _Commands(click.Group):
    """Turns an unreachable Redis into one line that says what to do, not a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except Exception as exc:
            # redis is not imported here up front: ``kroniek serve``'s workers
            # import it after gevent's patching (see service.gunicorn_worker).
            redis_py = sys.modules.get("redis")
            if redis_py is None or not isinstance(exc, redis_py.exceptions.ConnectionError):
                raise
            from workers.connection import redis_url

            raise click.ClickException(
                f"cannot reach Redis at {redis_url()} ({exc}). Start `make run` (or `kroniek run`) first and run "
                "this from the project's folder (the embedded Redis lives in ./var), or set REDIS_URL."
            ) from None


@click.group(cls=_Commands)
def main() -> None:
    """Kroniek: record real games move by move, replay, review and audit them."""


def _public_url_option(fn):
    return click.option("--public-url", envvar="KRONIEK_PUBLIC_URL", default=None, callback=_checked_public_url,
                        help="the address phones open, which sign-in links and their QR codes carry "
                        "(https://kroniek.club.nl behind a proxy; or KRONIEK_PUBLIC_URL)")(fn)


def _checked_public_url(ctx, param, value):
    from .addresses import BadPublicUrl, check_public_url

    if not value:
        return None
    try:
        return check_public_url(value)
    except BadPublicUrl as exc:
        raise click.BadParameter(str(exc)) from None


def _checked_next(ctx, param, value):
    """A sign-in link's ``--next``: a path of this app, refused up front (before the link is made) when it is
    not, as the API refuses it."""
    from .next_path import problem

    why = problem(value)
    if why is not None:
        raise click.BadParameter(f"{why}; got {value!r}")
    return value


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="gunicorn worker processes")
@click.option("--connections", default=1000, show_default=True, type=int,
              help="connections each worker process serves at once (gevent)")
@_public_url_option
def serve(host: str, port: int, workers: int, connections: int, public_url: str | None) -> None:
    """Serve the API with gunicorn's gevent workers (honours REDIS_URL,
    KRONIEK_BODY_SECONDS, KRONIEK_PUBLIC_URL)."""
    from .addresses import PUBLIC_URL_ENV
    from .gunicorn_worker import serve_app

    if public_url:
        os.environ[PUBLIC_URL_ENV] = public_url  # read by create_app in each worker
    from .metrics_dir import MULTIPROC_ENV, prepare_dir

    if not os.environ.get(MULTIPROC_ENV):  # the workers count in files of their own, a scrape adds them up
        import tempfile

        os.environ[MULTIPROC_ENV] = prepare_dir(tempfile.mkdtemp(prefix="kroniek-metrics-"), clear=True)
    _apart(lambda: (_serves_format("kroniek serve"), _signing_key_made()))
    serve_app(_create_app, host, port, workers, connections)


def _signing_key_made() -> None:
    """The API's signing key, made now if it is not there yet (its workers would make it on first use): a backup
    run with the same settings finds it, and signs with it, before the API has signed a thing."""
    from replays.signing import load_or_create_key

    from .keys import key_path

    try:
        load_or_create_key(key_path())
    except (OSError, ValueError) as exc:  # a directory it may not write, a file that holds no Ed25519 key
        raise click.ClickException(f"the signing key at {key_path()}: {exc}") from None


def _apart(check: Callable[[], None]) -> None:
    """Run ``check`` in a forked child and end this command as it ended, if it failed. gunicorn forks its gevent
    workers from this process, and each patches ``ssl`` as it starts: a Redis client made here first imports
    ``ssl`` (redis-py imports it), and every worker then warned that it patched it too late
    (``MonkeyPatchWarning``). The child's imports stay in the child."""
    sys.stdout.flush(), sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: its exit status is the parent's to read)
        code = 0
        try:
            check()
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush(), sys.stderr.flush()
            os._exit(code)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code:
        sys.exit(code if code > 0 else 1)


class _WrongFormat(click.ClickException):
    """The data is in a format this code does not serve: exit 3, as a worker does (``workers.worker.
    WRONG_FORMAT``), which the units of docs/examples/systemd do not restart."""

    exit_code = 3


def _format_checked(client, by: str) -> None:
    """``replays.format.check`` for a command: a store in another format ends it with exit 3, saying why."""
    from replays.format import FormatMismatch, check
    from workers.connection import key_prefix

    try:
        check(client, key_prefix(), by=by)
    except FormatMismatch as exc:
        raise _WrongFormat(str(exc)) from None


def _serves_format(by: str) -> None:
    """Refuse to start on a store in another format than this code's (``replays.format``). A Redis that does
    not answer yet is not checked here: the API starts degraded, and the workers check when it is back."""
    from workers.connection import store_client
    from workers.worker import REDIS_ERRORS

    try:
        _format_checked(store_client(), by)
    except REDIS_ERRORS as exc:
        click.echo(f"Redis does not answer ({exc}); its data format is checked when it does", err=True)


def _create_app():
    """The app, imported in the gunicorn worker after gevent's patching."""
    from .app import create_app
    from .logs import configure

    configure()  # JSON lines on stderr, one a request (service.logs)
    return create_app()


@main.command()
@click.option("--burst", is_flag=True, help="work until the queues are empty, then exit")
@click.option("--queues", default=None,
              help="one RQ worker for these queues, comma-separated in order of priority: validation (verdicts "
              "and ratings), analysis (solver annotations), or queue names. Default: both, in two processes "
              "(one for validation, one for validation then analysis)")
def worker(burst: bool, queues: str | None) -> None:
    """Run the workers (honours REDIS_URL, KRONIEK_QUEUE). They survive Redis
    outages and take over the scheduling and the jobs of a worker that was
    killed."""
    from workers.worker import run, supervise

    if queues is None:
        if burst:
            run(burst=True)
        else:
            supervise()
        return
    roles = [q.strip() for q in queues.split(",") if q.strip()]
    if not roles:
        raise click.BadParameter("name at least one queue", param_hint="--queues")
    run(roles, burst=burst)


@main.command()
@click.option("--var", "var_dir", default="var", show_default=True, type=click.Path(file_okay=False))
def redis(var_dir: str) -> None:
    """Run the embedded Redis in the foreground, data under VAR."""
    from . import embedded

    proc, socket = embedded.start(Path(var_dir).resolve(), tied=True)
    click.echo(f"embedded Redis on unix://{socket} (data in {Path(var_dir).resolve()})")
    try:
        proc.wait()
    except KeyboardInterrupt:
        embedded.stop(proc, socket)


@main.command()
@click.option("--host", default=None, help="the address to listen on  [default: 127.0.0.1; with --lan, 0.0.0.0]")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--var", "var_dir", default="var", show_default=True, type=click.Path(file_okay=False))
@click.option("--lan", is_flag=True, help="serve the phones on this machine's local network: listen on every "
              "interface, and put this machine's LAN address in the sign-in links")
@_public_url_option
def run(host: str | None, port: int, var_dir: str, lan: bool, public_url: str | None) -> None:
    """Start everything: the embedded Redis (unless REDIS_URL is set), the
    workers and the API. Ctrl-C stops the API and the workers, then Redis;
    data stays in VAR."""
    from . import embedded
    from .addresses import PUBLIC_URL_ENV, lan_url
    from workers.lifeline import tied_to_parent

    host = host or ("0.0.0.0" if lan else "127.0.0.1")
    if lan and public_url is None:
        public_url = lan_url(port)
        if public_url is None:
            raise click.ClickException("--lan: this machine has no address on a local network (is it connected?); "
                                       "name the address phones open with --public-url")

    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    # Ctrl-C reaches only this process: each child runs in its own session,
    # so the worker and the API stop first and Redis last.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    env = dict(os.environ)
    if public_url:
        env[PUBLIC_URL_ENV] = public_url  # the API's links carry it too (service.signin.link_base)
    redis_proc = socket = None
    if not env.get("REDIS_URL"):
        var = Path(var_dir).resolve()
        redis_proc, socket = embedded.start(var, tied=True)
        env["REDIS_URL"] = f"unix://{socket}"
        click.echo(f"Embedded Redis: unix://{socket} (data and append-only file in {var})")
    else:
        click.echo(f"Redis: {env['REDIS_URL']}")
    # the signing key's default home (var/keys) and the solved tables' (var/tables), with an outside Redis too
    env.setdefault("KRONIEK_VAR", str(Path(var_dir).resolve()))
    try:
        _upgrade_for_run(env, Path(var_dir).resolve())
    except BaseException:
        if redis_proc is not None and socket is not None:
            embedded.stop(redis_proc, socket)
        raise
    from .metrics_dir import MULTIPROC_ENV, prepare_dir

    if not env.get(MULTIPROC_ENV):  # the API's workers' metrics, added up by a scrape; an earlier run's let go
        env[MULTIPROC_ENV] = prepare_dir(str(Path(var_dir).resolve() / "metrics"), clear=True)
    children: list[subprocess.Popen] = []
    try:
        token = _first_admin_token(env["REDIS_URL"])
        exe = [sys.executable, "-m", "service.cli"]
        # each stops too if this process is killed outright (workers.lifeline)
        children.append(subprocess.Popen([*exe, "worker"], env=env, start_new_session=True,
                                         preexec_fn=tied_to_parent()))
        children.append(subprocess.Popen([*exe, "serve", "--host", host, "--port", str(port)], env=env,
                                         start_new_session=True, preexec_fn=tied_to_parent()))
        here = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"
        click.echo(f"API:      {here}/api")
        click.echo(f"API docs: {here}/api/docs  (OpenAPI: {here}/api/openapi.json)")
        if public_url:
            click.echo(f"Phones open: {public_url}/  (sign-in links and their QR codes carry this address)")
        if token:
            click.echo(f"Admin token (shown this once; keep it): {token}")
            click.echo(f"  e.g. curl -H 'Authorization: Bearer {token}' {here}/api/me")
            _echo_sign_in(_accounts(env["REDIS_URL"]), "admin", public_url or here)
        else:
            from workers.connection import redis_url

            # the commands find this Redis by themselves only where this shell's settings lead them to it
            cmd = ".venv/bin/kroniek" if env["REDIS_URL"] == redis_url() else \
                f"REDIS_URL={env['REDIS_URL']} .venv/bin/kroniek"
            click.echo(f"Accounts: an admin exists; `{cmd} user token admin` makes a new token for the first "
                       f"admin (`kroniek user token <name>` for anyone else), `{cmd} user link admin` a "
                       "sign-in link for a phone.")
        click.echo("Press Ctrl-C to stop.")
        while not stopping and all(c.poll() is None for c in children):
            time.sleep(0.2)
    finally:
        _stop_children(children)
        if redis_proc is not None and socket is not None:
            embedded.stop(redis_proc, socket)
    failed = [c for c in children if c.returncode not in (0, -signal.SIGTERM, None)]
    if failed and not stopping:
        raise SystemExit("a process stopped unexpectedly; see the output above")
    click.echo("Stopped.")


def _private(path: Path):
    """A new file only its owner may read (mode 0600, whatever the umask): a backup holds what Redis holds,
    the salts of hidden cards and the accounts' token hashes among it."""
    if path.exists():
        path.unlink()  # a leftover .partial (or an older file of the same name): made again, private
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")


def _upgrade_for_run(env: dict[str, str], var: Path) -> None:
    """``kroniek run`` upgrades an older store itself, having backed it up into VAR/backups first: the
    command a newcomer runs after pulling a new version keeps working, and nothing is lost."""
    import redis as redis_py

    from replays import format as data_format
    from replays.backup import write_backup
    from replays.signing import load_or_create_key
    from workers.connection import key_prefix

    from .keys import key_path

    client = redis_py.Redis.from_url(env["REDIS_URL"], decode_responses=True)
    try:
        version = data_format.stored(client, key_prefix())
        if version is not None and version < data_format.FORMAT:
            saved = var / "backups" / f"before-format-{data_format.FORMAT}.backup"
            saved.parent.mkdir(parents=True, exist_ok=True)
            with _private(saved) as out:  # signed with the key the API will sign with (env, not ours)
                write_backup(client, key_prefix(), out, load_or_create_key(key_path(env)))
            click.echo(f"Data format {version}: backed up into {saved}")
            data_format.upgrade(client, key_prefix(), by="kroniek run", say=lambda text: click.echo(text.capitalize()))
        else:
            data_format.check(client, key_prefix(), by="kroniek run")
    except data_format.FormatMismatch as exc:
        raise _WrongFormat(str(exc)) from None
    finally:
        client.close()


def _stop_children(children: list[subprocess.Popen], warm: float = 10.0, cold: float = 5.0) -> None:
    """SIGTERM (the worker finishes its job, gunicorn its requests), then
    SIGTERM again (the worker abandons its job, which is retried later),
    then SIGKILL: each child within ``warm + cold`` seconds."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + warm
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + cold
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


@main.command()
@click.option("--json", "as_json", is_flag=True, help="as GET /api/games answers")
def games(as_json: bool) -> None:
    """List the games: id, name and the player counts each allows."""
    from engine import all_games
    from engine.core import player_count_text

    from engine.text import localized

    infos = [localized(game.info()) for game in all_games()]  # (in English: the CLI speaks it)
    if as_json:
        import json

        click.echo(json.dumps({"games": infos}, ensure_ascii=False, indent=2))
        return
    counts = {info["id"]: f"{player_count_text(info['player_counts'])} players" for info in infos}
    id_width, count_width = max(map(len, counts)), max(map(len, counts.values()))
    for info in infos:
        click.echo(f"{info['id']:<{id_width}}  {counts[info['id']]:<{count_width}}  {info['name']}")


#: Games with a simulator: id -> "module:function". The function takes
#: (games, players, strategies, seed, progress=callback) and returns a summary.
SIMULATORS = {
    "troubadour": "engine.troubadour.simulate:simulate",
    "twaalven": "engine.jogledor.simulate:simulate",
    "stapelen": "engine.jogledor.simulate:simulate",
    "sir_tommy": "engine.jogledor.simulate:simulate",
    "ridder_toernooi": "engine.ridder_toernooi.simulate:simulate",
    "catan": "engine.catan.simulate:simulate",
    "catan-troje": "engine.troje.simulate:simulate",
}
SOLVABLE = ("twaalven", "stapelen", "sir_tommy")


@main.command()
@click.argument("game")
@click.option("--games", default=100, show_default=True, type=int)
@click.option("--players", default=None, type=int, help="players per game  [default: the fewest the game allows]")
@click.option("--strategies", default="greedy", show_default=True,
              help="comma-separated bot names: one for every seat, or several taking the seats in turn (rotated each game)")
@click.option("--seed", default=0, show_default=True, type=int,
              help="the first game's seed; the draws come from the seed alone (no server secret), so the same "
                   "seed plays the same games on any machine")
def simulate(game: str, games: int, players: int | None, strategies: str, seed: int) -> None:
    """Play GAME between bots through the same reducer and summarise.

    A simulation is run for yourself: unlike a simulated match on the server,
    whose draws mix in a secret, it is reproducible from its --seed alone."""
    import importlib

    import engine

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    if game not in SIMULATORS:
        raise click.BadParameter(f"no simulator for {game!r}; there are: {', '.join(sorted(SIMULATORS))}", param_hint="GAME")
    module, function = SIMULATORS[game].split(":")
    run_games = getattr(importlib.import_module(module), function)
    if players is None:
        players = min(engine.get(game).player_counts)
    if game in SOLVABLE:
        run_games = functools.partial(run_games, game)
    console = Console()
    t0 = time.perf_counter()
    with Progress(console=console) as progress:
        task = progress.add_task(f"{game}, {players} players", total=games)
        try:
            summary = run_games(games, players, strategies.split(","), seed, progress=lambda rec: progress.advance(task))
        except (KeyError, ValueError) as exc:
            raise click.UsageError(str(exc)) from None
    elapsed = time.perf_counter() - t0
    table = Table(title=f"{summary['games']} games of {game} in {elapsed:.1f} s ({summary['games'] / elapsed:.1f}/s)")
    table.add_column("measure")
    table.add_column("value")
    for key, value in summary.items():
        if key in ("game", "games", "games_list"):
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif key == "strategies":  # the names given: one for all seats, or taking the seats in turn
            value = value[0] + " (every seat)" if len(value) == 1 else ", ".join(value) + " (taking the seats in turn)"
        elif isinstance(value, list):
            value = ", ".join(f"seat {i}: {v}" for i, v in enumerate(value))
        table.add_row(key.replace("_", " "), str(value))
    console.print(table)


@main.command()
@click.argument("game", type=click.Choice(SOLVABLE))
@click.option("--deals", default=100, show_default=True, type=int)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--budget", default=2_000_000, show_default=True, type=int, help="solver nodes per deal; past it: unknown")
def solve(game: str, deals: int, seed: int, budget: int) -> None:
    """Solve seeded deals of GAME exactly: the share of winnable deals and the
    solve-time distribution."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from engine.jogledor.batch import iter_solve_deals, summary

    console = Console()
    results = []
    with Progress(console=console) as progress:
        task = progress.add_task(f"solving {game}", total=deals)
        for result in iter_solve_deals(game, deals, seed, budget):
            results.append(result)
            progress.advance(task)
    s = summary(results)
    table = Table(title=f"{deals} deals of {game} (seed {seed}, budget {budget:,} nodes)")
    table.add_column("measure")
    table.add_column("value")
    table.add_row("winnable / lost / unknown", f"{s['win']} / {s['loss']} / {s['unknown']}")
    table.add_row("winnable share", f"{s['winnable_share']:.1%} (decided {s['decided_share']:.1%})")
    table.add_row("solve time", f"median {s['median_s'] * 1e3:.2f} ms, p90 {s['p90_s'] * 1e3:.2f} ms, "
                  f"p99 {s['p99_s'] * 1e3:.2f} ms, max {s['max_s'] * 1e3:.1f} ms")
    table.add_row("positions per second", f"{s['positions_per_s']:,.0f}")
    console.print(table)



def _accounts(url: str | None = None):
    import redis as redis_py

    from workers.connection import key_prefix, store_client

    from .accounts import Accounts

    client = redis_py.Redis.from_url(url, decode_responses=True) if url else store_client()
    _format_checked(client, "kroniek user")  # the accounts are data too: an empty store is marked first
    return Accounts(client, key_prefix())


def _first_admin_token(url: str) -> str | None:
    """The first start makes an admin and shows their token; later starts
    show nothing (only the token's hash is kept)."""
    from replays.hashing import utc_now

    accounts = _accounts(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            if accounts.has_admin():
                return None
            return accounts.add_user("admin", admin=True, now=utc_now())[1]
        except Exception as exc:  # Redis still loading its append-only file
            if time.monotonic() > deadline or "loading" not in str(exc).lower():
                raise


@main.group()
def user() -> None:
    """Accounts and API tokens (honours REDIS_URL). A token is printed once;
    only its SHA-256 is stored."""


@user.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="may make users and do anything")
def user_add(name: str, admin: bool) -> None:
    """Create user NAME and print their first token."""
    from engine.core import KroniekError

    from replays.hashing import utc_now

    try:
        _, token = _accounts().add_user(name, admin, utc_now())
    except KroniekError as exc:
        raise click.ClickException(exc.message) from None
    click.echo(token)


@user.command("token")
@click.argument("name")
def user_token(name: str) -> None:
    """Print a new token for NAME (their other tokens stay valid)."""
    from engine.core import KroniekError

    from replays.hashing import utc_now

    try:
        click.echo(_accounts().issue_token(name, utc_now()))
    except KroniekError as exc:
        raise click.ClickException(exc.message) from None


@user.command("link")
@click.argument("name")
@click.option("--url", "base", envvar="KRONIEK_PUBLIC_URL", default="http://127.0.0.1:8000", show_default=True,
              callback=_checked_public_url, help="the app's address as a phone reaches it (or KRONIEK_PUBLIC_URL)")
@click.option("--next", "next_path", default="/", show_default=True, callback=_checked_next,
              help="the page the link opens: a path of this app (/matches/<id>)")
def user_link(name: str, base: str, next_path: str) -> None:
    """Print a one-time sign-in link for NAME and its QR code: opened on a
    phone, one tap signs that phone in (good for 24 hours, once)."""
    from engine.core import KroniekError

    try:
        _echo_sign_in(_accounts(), name, base, next_path)
    except KroniekError as exc:
        raise click.ClickException(exc.message) from None


def _echo_sign_in(accounts, name: str, base: str, next_path: str = "/") -> None:
    """Print a new sign-in link for ``name`` and its QR code, in black and white where the terminal takes
    colours (click would strip them where it judges otherwise: rich's judgement, which honours FORCE_COLOR
    and NO_COLOR, decides)."""
    from replays.hashing import utc_now

    from .signin import PATH, qr_text, terminal_takes_color

    secret, expires = accounts.issue_link(name, "kroniek", utc_now(), next_path)
    url = base.rstrip("/") + PATH + secret
    color = terminal_takes_color()
    click.echo(f"Sign-in link for {name} (one device, once, until {expires}; scan it with a phone):\n  {url}")
    click.echo(qr_text(url, color=color), nl=False, color=color)


@user.command("revoke")
@click.argument("name")
def user_revoke(name: str) -> None:
    """Revoke every way in of NAME: their tokens, their signed-in devices and their unused sign-in links."""
    from engine.core import KroniekError

    try:
        done = _accounts().revoke_user(name)
        click.echo(f"revoked {done['revoked']} token(s) of {name}, ended {done['ended']} signed-in device(s); "
                   "the sign-in links made for them before now no longer sign in")
    except KroniekError as exc:
        raise click.ClickException(exc.message) from None


@user.command("list")
def user_list() -> None:
    """List the users."""
    for u in _accounts().users():
        click.echo(f"{u['name']}{'  (admin)' if u['admin'] else ''}")



DEFAULT_URL = "http://127.0.0.1:8000"


def _api(method: str, url: str, token: str | None, body: bytes | None = None,
         content_type: str | None = None) -> tuple[int, bytes, str]:
    """One request to a running Kroniek API: (status, body, content type)."""
    import urllib.error
    import urllib.request

    headers = {"Accept": "application/json, text/plain"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if content_type:
        headers["Content-Type"] = content_type
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, res.read(), res.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers.get("Content-Type", "")
    except (urllib.error.URLError, OSError) as exc:
        raise click.ClickException(f"cannot reach the API at {url}: {getattr(exc, 'reason', exc)}") from None


def _api_error(status: int, body: bytes) -> click.ClickException:
    import json

    try:
        error = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return click.ClickException(f"the API answered {status}: {body[:200].decode('utf-8', 'replace')}")
    text = f"{status} {error.get('code')}: {error.get('message')}"
    if error.get("rule"):
        text += f"\n  rule {error['rule']}: {error.get('rule_text', '')}"
    return click.ClickException(text)


_url_option = click.option("--url", envvar="KRONIEK_URL", default=DEFAULT_URL, show_default=True,
                           help="the API's address (or KRONIEK_URL)")
_token_option = click.option("--token", envvar="KRONIEK_TOKEN", default=None,
                             help="an API token (or KRONIEK_TOKEN); needed for private views and to import")


@main.command("export")
@click.argument("match_id")
@click.option("--seat", default=None, help="a seat number, referee, or public (the same as leaving it out)")
@click.option("--output", "-o", type=click.File("w", encoding="utf-8"), default="-", help="file (default: stdout)")
@_url_option
@_token_option
def export_notation(match_id: str, seat: str | None, output, url: str, token: str | None) -> None:
    """Print MATCH_ID in the text notation, as the view SEAT saw it."""
    from urllib.parse import quote, urlencode

    query = f"?{urlencode({'seat': seat})}" if seat is not None else ""
    status, body, _ = _api("GET", f"{url.rstrip('/')}/api/matches/{quote(match_id, safe='')}/notation{query}", token)
    if status != 200:
        raise _api_error(status, body)
    output.write(body.decode("utf-8"))


@main.command("import")
@click.argument("notation", type=click.File("rb"))
@_url_option
@_token_option
def import_notation(notation, url: str, token: str | None) -> None:
    """Create a match from the notation in the file NOTATION ('-': stdin) and
    print its id. A refused line says its line, column and rule; nothing is
    written then."""
    import json

    status, body, _ = _api("POST", f"{url.rstrip('/')}/api/matches/import", token, notation.read(),
                           "text/plain; charset=utf-8")
    if status != 201:
        raise _api_error(status, body)
    match = json.loads(body)
    click.echo(match["id"])
    click.echo(f"{match['game']}: {', '.join(match['players'])}; {match['seq']} events, {match['status']}, "
               f"{match.get('annotations', 0)} annotations", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, writable=True))
def backup(file: str) -> None:
    """Write everything Kroniek keeps in Redis (REDIS_URL, KRONIEK_PREFIX) to FILE: every match's and league's
    keys at one cut each, the accounts, the transparency log, the data documents; chained by SHA-256 and
    signed with the service's key. It runs beside a running service."""
    from rich.progress import Progress

    from replays import EventStore
    from replays.backup import BackupRefused, write_backup
    from workers.connection import key_prefix, store_client

    from .keys import key_path, signing_key
    from .matches import MatchService

    target = Path(file)
    if not key_path().exists():  # a file signed by a key made up here would verify against nothing anyone pins
        raise click.ClickException(
            f"no signing key at {key_path()}: a backup is signed with the key the API signs with. Run this with "
            "the API's settings: KRONIEK_SIGNING_KEY, else KRONIEK_VAR (the directory `kroniek run --var` names)")
    matches = MatchService(EventStore(store_client(), key_prefix()), enqueue_validation=lambda match_id: None)
    partial = target.with_name(target.name + ".partial")
    try:
        with Progress(transient=True, disable=not sys.stderr.isatty()) as bar, _private(partial) as out:
            task = bar.add_task("backing up", total=None)
            footer = write_backup(store_client(), key_prefix(), out, signing_key(),
                                  lambda done, total: bar.update(task, completed=done, total=total),
                                  matches.notation_at)
    except BackupRefused as refused:  # a key it cannot keep as it is: no file rather than one that lacks it
        partial.unlink(missing_ok=True)
        raise click.ClickException(f"no backup written: {refused}") from None
    except BaseException:  # Redis gone, Ctrl-C: no half a file left beside the target
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)  # a file that is there is whole
    click.echo(f"{target}: {_count(footer['keys'], 'key')} in {_count(footer['records'] - 1, 'group')} "
               f"({_count(footer['matches'], 'match', 'matches')}, {_count(footer['leagues'], 'league')}), signed")


def _count(n: int, one: str, many: str | None = None) -> str:
    """``n`` things, said as a person would: "1 match", "2 matches"."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--public-key", default=None, help="the service's public key (base64) the file must be signed with; "
              "default: the one the file carries (the report says so)")
def restore(file: str, public_key: str | None) -> None:
    """Write a backup FILE back into an empty Redis (REDIS_URL): the file is checked whole first (its chain and
    signature), then every match and league written back is audited."""
    from rich.progress import Progress

    from replays.backup import BackupRefused, audit_restored, restore as restore_file
    from workers.connection import store_client

    if not Path(file).is_file():
        raise click.ClickException(f"no backup file {file}")
    client = store_client()
    try:
        with Progress(transient=True, disable=not sys.stderr.isatty()) as bar, open(file, "rb") as source:
            task = bar.add_task("restoring", total=None)
            done = restore_file(client, source, public_key,
                                lambda n, total: bar.update(task, completed=n, total=total))
    except BackupRefused as exc:
        raise click.ClickException(f"refused: {exc}") from None
    problems = audit_restored(client, done["prefix"], done["matches"], done["leagues"], done["logs"])
    click.echo(f"restored {_count(done['keys'], 'key')}: {_count(len(done['matches']), 'match', 'matches')}, "
               f"{_count(len(done['leagues']), 'league')} "
               f"(prefix {done['prefix']}); signed by {'the pinned key' if done['pinned'] else 'the key the file carries: pin it with --public-key'}")
    if problems:
        raise click.ClickException("the audit after the restore found: " + "; ".join(problems[:10]))
    click.echo(f"✓ every match and league audits valid{', and its events equal its log in the file' if done['logs'] else ''}")
    from replays import format as data_format

    data_format.upgrade(client, done["prefix"], by="kroniek restore", say=lambda text: click.echo(text.capitalize()))


@main.command()
def upgrade() -> None:
    """Move the data in Redis (REDIS_URL, KRONIEK_PREFIX) to this version's format, a step at a time. Back it
    up first (`kroniek backup FILE`); docs/ops.md says how to upgrade a running deployment."""
    from replays import format as data_format
    from workers.connection import key_prefix, store_client

    client, prefix = store_client(), key_prefix()
    try:
        before = data_format.stored(client, prefix)
        passed = data_format.upgrade(client, prefix, by="kroniek upgrade", say=click.echo)
    except data_format.FormatMismatch as exc:
        raise _WrongFormat(str(exc)) from None
    if before is not None and not passed:
        click.echo(f"the data under {prefix!r} is in format {before} already: nothing to do")


@main.group()
def audit() -> None:
    """Check what the server published, without trusting the server."""


@audit.command("verify")
@click.argument("export", type=click.File("rb"))
@click.option("--public-key", default=None, help="the server's Ed25519 public key (base64, from /api/log/public-key); "
              "without it the archive's own key is used, which proves it intact but not who signed it")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
def audit_verify(export, public_key: str | None, as_json: bool) -> None:
    """Check a league archive (GET /api/leagues/<id>/export) offline: every
    event's hash, every chain, every result against its match's log, the
    Merkle tree and the signature. Exits 1 if anything is wrong."""
    import json

    import orjson

    from leagues.archive import verify_archive

    records = []
    unreadable = []
    for n, line in enumerate(export, start=1):
        if not line.strip():
            continue
        try:
            records.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            unreadable.append(f"line {n}: not JSON ({exc})")
            records.append({"kind": None})
    report = verify_archive(records, public_key)
    out = report.to_dict()
    out["problems"][:0] = [{"where": u.split(":")[0], "problem": u.split(": ", 1)[1]} for u in unreadable]
    if as_json:
        click.echo(json.dumps(out, indent=2))
    else:
        from rich.console import Console

        console = Console()
        checked = report.checked
        console.print(f"League {report.league}: {checked['events']} events, {checked['matches']} match logs, "
                      f"{checked['results']} results checked against their logs, {checked['proofs']} inclusion proofs"
                      + (f" in a tree of {out['tree_size']} heads" if out["tree_size"] else ""))
        for note in report.notes:
            console.print(f"[yellow]note[/]: {note}")
        for problem in out["problems"]:
            console.print(f"[red]✗[/] {problem['where']}: {problem['problem']}", highlight=False)
        if not out["problems"]:
            console.print("[green]✓ the archive verifies[/]")
    if out["problems"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
