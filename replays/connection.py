"""One command at a time on the calling thread's own connection to Redis.

redis-py sends a command through several layers: it borrows a connection
from the pool (a lock, a poll of the socket for stray data, four counters of
its metrics), runs the command in its retry wrapper, records its duration,
looks up a reply callback, and gives the connection back (the lock, an event,
four counters again). For the store's hottest command (the append of one
move) that is most of the client's work, and none of it is needed when the
connection is the thread's alone: ``OwnConnection`` keeps one per thread and
sends the command on it straight (with redis-py's own packing, parser and
health check: only the layers around them are left out).

A connection that fails is closed by redis-py as it fails; the command then
goes through the client's ordinary path, with the client's retries, exactly as
it would have without this (a connection lost mid-command is retried there
too). An error reply (a script Redis does not know, a refused XADD) is raised
as the client raises it, and leaves the connection usable. After a fork the
child makes its own connections (the parent's socket is never shared).

Only for a plain ``redis.Redis`` on a plain pool of its own connections
without a client-side cache; any other client (a Cluster, a Sentinel pool,
one connection for the whole client) is sent every command through itself.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import redis

_generation = 0  # incremented in every forked child: a connection from before the fork is not used


def _forked() -> None:
    global _generation
    _generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)

#: pools whose connection class can be made from the pool's own settings, as the pool makes them
_PLAIN_POOLS = (redis.ConnectionPool, redis.BlockingConnectionPool)


class OwnConnection:
    """``own(*args)``: the reply to one command, as ``client.execute_command``
    returns it for a command without a reply callback (the store uses it for
    EVALSHA, whose reply redis-py passes through as it is)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        pool = getattr(client, "connection_pool", None)
        self.direct = (
            type(client) is redis.Redis
            and type(pool) in _PLAIN_POOLS
            and getattr(client, "connection", None) is None
            and getattr(pool, "cache", None) is None
        )
        self._local = threading.local()

    def __call__(self, *args: Any) -> Any:
        if not self.direct:
            return self.client.execute_command(*args)
        local = self._local
        conn = getattr(local, "conn", None)
        if conn is None or local.generation != _generation:
            conn = self._connect()
        try:
            conn.send_command(*args)
            return conn.read_response()
        except (redis.ConnectionError, redis.TimeoutError):
            # redis-py closed the connection as it failed (the next command
            # reconnects it): this one goes the client's way, with its retries.
            return self.client.execute_command(*args)

    def _connect(self) -> Any:
        pool = self.client.connection_pool
        conn = pool.connection_class(**pool.connection_kwargs)  # connected on its first command
        self._local.conn, self._local.generation = conn, _generation
        return conn

    def close(self) -> None:
        """Close the calling thread's connection (others close with their thread)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            conn.disconnect()
