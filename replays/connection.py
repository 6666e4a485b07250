"""Commands on a connection to Redis lent to the caller alone, several in
one round trip.

redis-py sends a command through several layers: it borrows a connection
from the pool (a lock, a poll of the socket for stray data, four counters of
its metrics), runs the command in its retry wrapper, records its duration,
looks up a reply callback, and gives the connection back (the lock, an event,
four counters again); a pipeline adds its own command stack and packing in
Python. For the store's hottest write (a move and its owed mark) that was
most of the client's work, and none of it is needed when the connection is
the caller's alone: ``OwnConnection`` lends one for the call from a list of
its own (no lock: a pop and an append), writes the commands to it packed by
hiredis (as redis-py packs them), then reads the replies with redis-py's own
parser (and its health check). The list holds as many connections as calls
were ever in flight at once, ``OWN`` at most: a call that finds them all lent
goes through the client instead. Kept one per thread, every greenlet of a
gevent server (one per HTTP client) held a Redis connection for as long as
its client stayed connected.

A connection that fails is closed by redis-py as it fails; the commands then
go through the client's ordinary pipeline, with the client's retries, exactly
as they would have without this (commands lost mid-way are sent again there
too, as the client's retries would). A read that times out (Redis hangs) is
raised, as the client raises it: sent again, the commands would wait as long
again. An error reply (a refused XADD) is
given in its command's place, as a pipeline's ``execute(raise_on_error=False)``
gives it, and leaves the connection usable. After a fork the child makes its
own connections (the parent's socket is never shared).

One list per client (``shared``): the store's moves and the accounts' reads
of a request's token take their connections from the same ``OWN``.

Only for a plain ``redis.Redis`` on a plain pool of its own connections
without a client-side cache; any other client (a Cluster, a Sentinel pool,
one connection for the whole client) gets the commands as a pipeline of its
own.
"""

from __future__ import annotations

import os
from typing import Any

import redis

try:
    from hiredis import pack_command as _pack_command
except ImportError:  # redis-py's own packing, slower
    _pack_command = None

_generation = 0  # incremented in every forked child: a connection from before the fork is not used


def _forked() -> None:
    global _generation
    _generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)

#: pools whose connection class can be made from the pool's own settings, as the pool makes them
_PLAIN_POOLS = (redis.ConnectionPool, redis.BlockingConnectionPool)
#: the most own connections at once; a call that finds them all in use goes
#: through the client (whose pool holds a bounded number, workers.connection)
OWN = 8


class OwnConnection:
    """``own(*commands)``: the replies to ``commands`` (tuples of a one-word
    command name and str, bytes, int or float arguments), sent in one round
    trip, each as the client returns a command without a reply callback
    (XADD, ZADD), an error reply as its exception."""

    def __init__(self, client: Any) -> None:
        self.client = client
        pool = getattr(client, "connection_pool", None)
        self.direct = (
            type(client) is redis.Redis
            and type(pool) in _PLAIN_POOLS
            and getattr(client, "connection", None) is None
            and getattr(pool, "cache", None) is None
        )
        self._idle: list[Any] = []
        self._lent = 0  # connections of the list in use now
        self._generation = _generation

    def __call__(self, *commands: tuple[Any, ...]) -> list[Any]:
        if not self.direct:
            return self._through_client(commands)
        if self._generation != _generation:  # forked: the parent's sockets are not ours
            self._idle, self._lent, self._generation = [], 0, _generation
        try:
            conn = self._idle.pop()
        except IndexError:
            if self._lent >= OWN:  # as many in flight as may be: the client's pool waits for one of its own
                return self._through_client(commands)
            conn = None
        self._lent += 1
        try:
            if conn is None:
                conn = self._connect()
            if _pack_command is not None:
                conn.send_packed_command([b"".join([_pack_command(command) for command in commands])])
            else:
                conn.send_packed_command(conn.pack_commands(commands))
            replies = []
            for _ in commands:
                try:
                    replies.append(conn.read_response())
                except redis.ResponseError as exc:  # the reply was read whole: the connection is in step
                    replies.append(exc)
        except redis.TimeoutError:
            # Redis did not answer in time (it hangs): sent again through the
            # client, they would wait as long again, and Redis may still run
            # these. The caller answers 503; an append is retried with its key.
            self._lent -= 1
            if conn is not None:
                conn.disconnect()
            raise
        except redis.ConnectionError:
            # redis-py closed the connection as it failed (the next call
            # reconnects it): these go the client's way, with its retries.
            self._lent -= 1
            return self._through_client(commands)
        except BaseException:  # interrupted mid-way (a timeout, a greenlet killed): replies may be unread
            self._lent -= 1
            if conn is not None:
                conn.disconnect()
            raise
        self._lent -= 1
        if self._generation == _generation:
            self._idle.append(conn)
        else:
            conn.disconnect()
        return replies

    def _through_client(self, commands: tuple[tuple[Any, ...], ...]) -> list[Any]:
        with self.client.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            return pipe.execute(raise_on_error=False)

    def _connect(self) -> Any:
        pool = self.client.connection_pool
        return pool.connection_class(**pool.connection_kwargs)  # connected on its first command

    def close(self) -> None:
        """Close the connections kept between calls."""
        idle, self._idle = self._idle, []
        for conn in idle:
            conn.disconnect()


def shared(client: Any) -> OwnConnection:
    """The client's ``OwnConnection``: one per client, whoever asks for it."""
    own = getattr(client, "_kroniek_own", None)
    if own is None:
        own = OwnConnection(client)
        try:
            client._kroniek_own = own
        except AttributeError:  # a client that takes no attribute: this caller's own list
            pass
    return own
