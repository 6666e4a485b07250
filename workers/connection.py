"""Where Redis is. Every process (API, worker, CLI) reads the same settings:

- ``REDIS_URL``: the Redis (or one node of a Redis Cluster) holding the event
  streams; unset, the embedded server that ``kroniek redis`` / ``make run``
  starts on ``./var/redis.sock``.
- ``REDIS_CLUSTER=1``: talk to ``REDIS_URL`` as a Redis Cluster.
- ``RQ_REDIS_URL``: the Redis for the job queue, if it should differ (RQ
  itself does not run on a Cluster, so point it at a plain Redis there).
- ``KRONIEK_PREFIX``: the prefix of every key (default ``kroniek``).
- ``KRONIEK_PLUGINS``: modules to import at start (games defined elsewhere).
- ``KRONIEK_REDIS_TIMEOUT``: seconds a command waits for Redis to answer, or
  for a connection to be made (default 1): a Redis that hangs (frozen,
  swapping, a network dropping packets) then gets a 503 from the API within
  about that long, and a command that timed out is not sent again (Redis may
  still run it). Blocking reads stay within it: a live stream's ``XREAD``
  blocks for at most half of it, and a worker's wait for a job has a
  connection of its own (``worker_queue_client``).
"""

from __future__ import annotations

import importlib
import os
import re
from functools import lru_cache
from pathlib import Path

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry


def embedded_socket() -> Path:
    return Path(os.environ.get("KRONIEK_VAR", "var")).resolve() / "redis.sock"


def redis_url() -> str:
    return os.environ.get("REDIS_URL") or f"unix://{embedded_socket()}"


def key_prefix() -> str:
    return os.environ.get("KRONIEK_PREFIX", "kroniek")


def redis_timeout() -> float:
    """Seconds a command waits for Redis's answer, and a connection for
    Redis to take it (``KRONIEK_REDIS_TIMEOUT``, default 1)."""
    return float(os.environ.get("KRONIEK_REDIS_TIMEOUT") or DEFAULT_TIMEOUT)


def _client(url: str, decode: bool, cluster: bool, timeout: float | None = None) -> redis.Redis:
    timeout = redis_timeout() if timeout is None else timeout
    if cluster:
        from redis.cluster import RedisCluster

        return RedisCluster.from_url(url, decode_responses=decode, socket_timeout=timeout,  # type: ignore[return-value]
                                     socket_connect_timeout=timeout)
    # redis-py's default retries a failed connection for about 4 s; while Redis
    # is away the API should say so (503) at once, and callers retry anyway.
    # Its default timeout, 5 s a read, retried twice, held every request 15 s
    # while Redis was frozen (SIGSTOP): a timeout is now ``timeout`` and never
    # retried (quick_retry).
    # A plain pool opens a connection for every command in flight at once and
    # keeps it: under gevent, 200 live streams woken by moves took ~70 per
    # process. This one holds at most POOL_SIZE, and a command waits up to
    # POOL_WAIT seconds for one to come back (then a ConnectionError: a 503).
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=POOL_SIZE, timeout=POOL_WAIT, decode_responses=decode, health_check_interval=30,
        retry=quick_retry(), client_name=connection_name(), socket_timeout=timeout, socket_connect_timeout=timeout)
    return redis.Redis.from_pool(pool)


#: The most connections one client (the store's, or RQ's) of one process holds
#: at once. A move's own connections (replays.connection) come on top: 8 at
#: most, and the live streams' reader (service.watch) takes one of these.
POOL_SIZE = 16
#: Seconds a command waits for one of them before it fails. (A second was
#: too short: 100 clients recording at once on a busy machine got 503s.)
POOL_WAIT = 5.0
#: Seconds a command waits for Redis (``KRONIEK_REDIS_TIMEOUT``): a command of
#: ours takes milliseconds; Redis stalls longer only when it hangs.
DEFAULT_TIMEOUT = 1.0


def connection_name() -> str:
    """The name every connection of ours gives itself (``CLIENT LIST`` shows
    it): ``kroniek.<prefix>``, so an operator, or a test, can count them."""
    return "kroniek." + re.sub(r"[^A-Za-z0-9_.:-]", "_", key_prefix())


def quick_retry() -> Retry:
    """Two retries, 10 ms and 20 ms apart: rides over a dropped connection,
    gives up at once when the server is down. A timeout is not retried: the
    server that did not answer in time would make each try wait as long
    again, and it may yet run what it was sent."""
    return Retry(ExponentialBackoff(cap=0.1, base=0.01), 2, supported_errors=(redis.ConnectionError,))


@lru_cache(maxsize=None)
def _cached(url: str, decode: bool, cluster: bool) -> redis.Redis:
    return _client(url, decode, cluster)


def store_client() -> redis.Redis:
    """Client for the event store (text replies)."""
    return _cached(redis_url(), True, os.environ.get("REDIS_CLUSTER") == "1")


def queue_url() -> str:
    return os.environ.get("RQ_REDIS_URL") or redis_url()


def queue_client() -> redis.Redis:
    """Client for RQ (RQ wants byte replies)."""
    return _cached(queue_url(), False, False)


def worker_queue_client(block: float) -> redis.Redis:
    """A client of its own for an RQ worker, which waits for a job with a
    blocking pop of up to ``block`` seconds: its reads may last that long
    and 10 s more (RQ would raise the timeout of the client it is given to
    that, and so of every command of the process). The jobs' own commands
    go through ``store_client`` and ``queue_client``."""
    return _cached_worker(queue_url(), block + 10)


@lru_cache(maxsize=None)
def _cached_worker(url: str, timeout: float) -> redis.Redis:
    return _client(url, False, False, timeout=timeout)


def load_plugins() -> None:
    """Import the modules named in KRONIEK_PLUGINS (comma-separated), so games
    defined outside this package register themselves in this process too."""
    for name in filter(None, (n.strip() for n in os.environ.get("KRONIEK_PLUGINS", "").split(","))):
        importlib.import_module(name)
