"""Accounts, API tokens and the roles a user holds on a match or a league.

A token is shown once, when it is made, and only its SHA-256 is stored: the
tokens are 256 random bits, so a fast hash is as safe as a slow one and keeps
a lookup to one HGET per request (the reasoning GitHub and others use for
their API tokens).

A request's token and the roles on the match or league it names are read in
one round trip. The token is read every time, so a token revoked anywhere
(another server process, ``kroniek user revoke``) is refused at the next
request (issue 36: a second's trust let a revoked token in after the command
had returned). The role table a process read it keeps for ``TRUST_SECONDS``
(one second), which saves no round trip of its own (the token's read is made
anyway) but the table's read and decoding: what it keeps only ever lets a
request in, a refusal is decided on a fresh read, so a role just given counts
at once everywhere; a role taken away in this process counts at once, one
taken away elsewhere within that second.

Key layout (``P`` is the prefix; ``{auth}`` keeps the account keys in one
Cluster slot so a user and their first token are written together):

- ``P:{auth}:users``   hash name -> JSON ``{"name", "admin", "created_at"}``
- ``P:{auth}:tokens``  hash sha256(token) -> JSON ``{"user", "id", "created_at"}``
- ``P:{auth}:link:D``   a sign-in link's record (``D`` the SHA-256 of its
  secret): JSON ``{"user", "by", "next", "created_at", "expires_at", "revocation"}``,
  expiring with the link; ``used`` once spent, until it would have expired
- ``P:{auth}:signed-in``  set of the users who ever signed in with a link
  (whoever added them may no longer make their links)
- ``P:{auth}:revocations``  hash name -> how often the user was revoked
  (``revoke_user``); a link records it when it is made (``"revocation"``) and
  signs in only while it is unchanged
- ``P:{auth}:session:D``  a signed-in device's session (``D`` the SHA-256 of
  its cookie): JSON ``{"user", "admin", "id", "created_at", "agent"}``,
  expiring after ``SESSION_SECONDS``; ``P:{auth}:sessions:U`` hash id ->
  that JSON with ``"digest"``, the sessions of user ``U`` (to list and end)
- ``P:{m:ID}:acl`` / ``P:{l:ID}:acl``  hash user -> JSON list of roles on
  that match or league; ``*`` stands for everyone (an open match), and the
  field ``@league`` of a match names the league it was started for.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from engine.core import KroniekError
from replays.connection import shared as shared_connections

from .errors import BadRequest, Busy, NotFound
from .next_path import check as check_next

TOKEN_PREFIX = "kr_"
LINK_PREFIX = "kl_"
#: how long a sign-in link stays good (unless spent first): a day covers "tonight's club evening"
LINK_SECONDS = 24 * 3600
#: how long a device stays signed in by its session cookie
SESSION_SECONDS = 30 * 24 * 3600
#: the longest user agent kept with a session (what a device list shows)
AGENT_CHARS = 200
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")
EVERYONE = "*"
#: tries of a user's creation while other writers change the users (bounded:
#: a write that retries must stop some time)
WRITE_ATTEMPTS = 16
LEAGUE_FIELD = "@league"
#: how long a process trusts a role table it read (see the module docstring); never a token
TRUST_SECONDS = 1.0

#: roles per kind of object; a player's role names its seat (``player:0``)
MATCH_ROLES = ("recorder", "referee", "player")
LEAGUE_ROLES = ("organiser", "referee")


def acl_fields(entries: dict[str, list[str]], league: str | None = None) -> dict[str, str]:
    """The stored form of a role table, as ``EventStore.create`` writes it."""
    fields = {user: orjson.dumps(sorted(roles)).decode() for user, roles in entries.items()}
    if league is not None:
        fields[LEAGUE_FIELD] = league
    return fields


class UserExists(KroniekError):
    code = "user_exists"
    status = 409


class LinkSpent(KroniekError):
    """A sign-in link that was used, has expired, or never existed."""

    code = "link_not_valid"
    status = 410


@dataclass(frozen=True)
class Session:
    """A device signed in by a session cookie: its user and its id (what a device list shows)."""

    user: "User"
    id: str


@dataclass(frozen=True)
class User:
    name: str
    admin: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "admin": self.admin}


#: who a request without a token acts as (and what ``recorded_by`` says then)
ANONYMOUS = User("anonymous")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_link_secret() -> str:
    return LINK_PREFIX + secrets.token_urlsafe(32)


def looks_like_link_secret(secret: str) -> bool:
    return secret.startswith(LINK_PREFIX) and 20 < len(secret) < 100 and secret[3:].replace("-", "").replace(
        "_", "").isalnum()


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name) or name == ANONYMOUS.name:
        raise BadRequest(
            "a user name is 1–64 letters, digits or _ . @ + -, starts with a letter or digit, and is not 'anonymous'",
            field="name", location="body",
        )
    return name


def check_role(kind: str, role: Any, seat: Any = None, seats: int | None = None) -> str:
    """The role as stored (a player's names its seat: ``player:0``). ``seats``:
    the match's players, which a player's seat must be below."""
    allowed = MATCH_ROLES if kind == "m" else LEAGUE_ROLES
    if role not in allowed:
        raise BadRequest(f"role must be one of {', '.join(allowed)}", field="role", location="body")
    if role == "player":
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise BadRequest("a player's role names their seat (an integer ≥ 0)", field="seat", location="body")
        if seats is not None and seat >= seats:
            raise BadRequest(f"seat must be 0–{seats - 1}: the match has {seats} players", field="seat",
                             location="body", limit=seats - 1)
        return f"player:{seat}"
    if seat is not None:
        raise BadRequest(f"only a player's role names a seat, not {role}'s", field="seat", location="body")
    return role


class Recent:
    """What a process read of role tables in the last ``TRUST_SECONDS``,
    shared by every ``Accounts`` of the process (so a role taken away through
    any of them is seen by all). Bounded: when full, it starts again empty."""

    LIMIT = 10_000

    def __init__(self, seconds: float = TRUST_SECONDS) -> None:
        self.seconds = seconds
        self.clock = time.monotonic
        self._items: dict[tuple[str, ...], tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> Any:
        item = self._items.get(key)
        if item is None or item[0] <= self.clock():
            return None
        return item[1]

    def put(self, key: tuple[str, ...], value: Any) -> None:
        with self._lock:
            if len(self._items) >= self.LIMIT:
                self._items.clear()
            self._items[key] = (self.clock() + self.seconds, value)

    def forget(self, key: tuple[str, ...] | None = None) -> None:
        """Forget one key, or everything."""
        with self._lock:
            if key is None:
                self._items.clear()
            else:
                self._items.pop(key, None)


RECENT = Recent()


class Accounts:
    def __init__(self, client: redis.Redis, prefix: str = "kroniek") -> None:
        self.r = client
        self.prefix = prefix
        self._send = shared_connections(client)

    @property
    def _users(self) -> str:
        return f"{self.prefix}:{{auth}}:users"

    @property
    def _tokens(self) -> str:
        return f"{self.prefix}:{{auth}}:tokens"

    def acl_key(self, kind: str, object_id: str) -> str:
        return f"{self.prefix}:{{{kind}:{object_id}}}:acl"

    # -- users and tokens --------------------------------------------------------
    def add_user(self, name: str, admin: bool = False, now: str = "", by: str | None = None) -> tuple[User, str]:
        """Create a user with a first token; the token is returned, never stored.
        ``by``: who added them (an organiser or recorder), who may then make
        their sign-in links (``may_issue_link``)."""
        check_name(name)
        user = User(name, bool(admin))
        record = orjson.dumps({**user.to_dict(), "created_at": now, **({"by": by} if by else {})})
        token = new_token()
        # One transaction: a user never exists without a way in, nor a token without its user.
        with self.r.pipeline(transaction=True) as pipe:
            for _ in range(WRITE_ATTEMPTS):
                try:
                    pipe.watch(self._users)
                    if pipe.hexists(self._users, name):
                        raise UserExists(f"user {name!r} exists; make a new token for them instead", user=name)
                    pipe.multi()
                    pipe.hset(self._users, name, record)
                    pipe.hset(self._tokens, token_digest(token), self._token_record(user, token, now))
                    pipe.execute()
                    return user, token
                except redis.WatchError:
                    continue
        raise Busy("too many accounts were changed at once; try again", user=name)

    def _token_record(self, user: User, token: str, now: str) -> bytes:
        # The user's admin flag rides along, so a request costs one lookup.
        return orjson.dumps({"user": user.name, "admin": user.admin, "id": token_digest(token)[:12], "created_at": now})

    def issue_token(self, name: str, now: str = "") -> str:
        user = self.user(name)
        token = new_token()
        self.r.hset(self._tokens, token_digest(token), self._token_record(user, token, now))
        return token

    def revoke_user(self, name: str) -> dict[str, int]:
        """Take every way in from ``name``, as "revoke" means to whoever asks for
        it: their tokens, their signed-in devices (``end_sessions``) and the
        sign-in links made for them that no one has tapped yet (a link carries
        the user's revocation count when it was made, ``sign_in`` wants it
        unchanged). A link made afterwards is a new way in. ``{"revoked": the
        tokens revoked, "ended": the sessions ended}``."""
        self.user(name)
        # First the count: a tap racing this either started its session before it (ended below) or finds the
        # count changed (``sign_in`` watches it) and signs no one in.
        self.r.hincrby(self._revocations, name, 1)
        gone = [digest for digest, raw in self.r.hscan_iter(self._tokens) if orjson.loads(raw)["user"] == name]
        removed = self.r.hdel(self._tokens, *gone) if gone else 0  # the next request with one of them is refused
        return {"revoked": removed, "ended": self.end_sessions(name)}

    def user(self, name: str) -> User:
        raw = self.r.hget(self._users, name)
        if raw is None:
            raise NotFound(f"no user {name!r}")
        record = orjson.loads(raw)
        return User(record["name"], record["admin"])

    def users(self) -> list[dict[str, Any]]:
        records = [orjson.loads(raw) for raw in self.r.hvals(self._users)]
        return sorted(records, key=lambda u: u["name"])

    def has_admin(self) -> bool:
        return any(u["admin"] for u in self.users())

    def _read_with_acl(self, read: tuple[str, ...], acl_of: tuple[str, str] | None) -> Any:
        """The reply to ``read`` (the command reading a token's or a session's record); with ``acl_of``
        (kind, id) the role table too, in the same round trip, kept for ``roles`` (unless kept already).

        Read on a connection lent to this call (``replays.connection``), past redis-py's pool, retry and
        reply layers: read at every request, through the client this read cost a quarter of an
        append's CPU, as much as the append's own round trip."""
        if acl_of is None or RECENT.get(self._acl_cache_key(*acl_of)) is not None:
            (raw,) = _replies(self._send(read))
            return raw
        raw, acl = _replies(self._send(read, ("HGETALL", self.acl_key(*acl_of))))
        if isinstance(acl, list):  # RESP2's flat field, value, field, value …
            acl = dict(zip(acl[::2], acl[1::2]))
        RECENT.put(self._acl_cache_key(*acl_of), _decode_acl(acl))
        return raw

    def user_for_token(self, token: str, acl_of: tuple[str, str] | None = None) -> User | None:
        """The token's user (None: no such token), read fresh every time, so a
        token revoked anywhere is refused at once. ``acl_of`` (kind, id): a
        role table to read in the same round trip, kept for ``roles``."""
        digest = token_digest(token)
        raw = self._read_with_acl(("HGET", self._tokens, digest), acl_of)
        if raw is None:
            return None
        record = orjson.loads(raw)
        if "admin" in record:
            return User(record["user"], record["admin"])
        try:
            return self.user(record["user"])
        except NotFound:
            return None

    # -- sign-in links and sessions --------------------------------------------------
    def _link_key(self, digest: str) -> str:
        return f"{self.prefix}:{{auth}}:link:{digest}"

    def _session_key(self, digest: str) -> str:
        return f"{self.prefix}:{{auth}}:session:{digest}"

    def _sessions_key(self, name: str) -> str:
        return f"{self.prefix}:{{auth}}:sessions:{name}"

    @property
    def _signed_in(self) -> str:
        return f"{self.prefix}:{{auth}}:signed-in"

    @property
    def _revocations(self) -> str:
        return f"{self.prefix}:{{auth}}:revocations"

    def may_issue_link(self, caller: User, name: str) -> bool:
        """An admin may make anyone's sign-in link; a user their own (a new
        device); whoever added a user who is not an admin, theirs until that
        user first signs in. After that the account is the person's: a link
        made by whoever added them would let that one act as them."""
        if caller.admin or caller.name == name:
            return True
        with self.r.pipeline(transaction=False) as pipe:
            pipe.hget(self._users, name)
            pipe.sismember(self._signed_in, name)
            raw, signed_in = pipe.execute()
        if raw is None or signed_in:
            return False
        record = orjson.loads(raw)
        return not record.get("admin") and record.get("by") == caller.name

    def issue_link(self, name: str, by: str, now: str = "", next_path: str = "/",
                   seconds: int = LINK_SECONDS) -> tuple[str, str]:
        """A one-time sign-in link's secret for ``name`` and when it expires;
        only its SHA-256 is stored, and it is spent on first use (``sign_in``).
        ``next_path``: the page the tap opens, a path of this app (``next_path.check``)."""
        check_next(next_path)
        with self.r.pipeline(transaction=False) as pipe:
            pipe.hexists(self._users, name)
            pipe.hget(self._revocations, name)
            exists, revoked = pipe.execute()
        if not exists:
            raise NotFound(f"no user {name!r}")
        secret = new_link_secret()
        expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + seconds))
        record = {"user": name, "by": by, "next": next_path, "created_at": now, "expires_at": expires,
                  "revocation": int(revoked or 0)}
        self.r.set(self._link_key(token_digest(secret)), orjson.dumps(record), ex=seconds)
        return secret, expires

    def peek_link(self, secret: str) -> dict[str, Any]:
        """The link's record, not spent (the page that asks "sign in as …?")."""
        raw = self.r.get(self._link_key(token_digest(secret))) if looks_like_link_secret(secret) else None
        link = self._live_link(raw)
        self._not_revoked(link, self.r.hget(self._revocations, link["user"]))
        return link

    def sign_in(self, secret: str, now: str = "", agent: str = "") -> tuple[dict[str, Any], str]:
        """The tap on a sign-in link: the link's record and a new session's
        cookie secret (only its SHA-256 is stored). The link is spent and the
        session started in one transaction, so either both happen or neither:
        never a spent link without its session, nor a session no device holds.
        A second use, even at the same moment, finds the link used."""
        if not looks_like_link_secret(secret):
            self._live_link(None)
        key = self._link_key(token_digest(secret))
        cookie = secrets.token_urlsafe(32)
        digest = token_digest(cookie)
        with self.r.pipeline(transaction=True) as pipe:
            for _ in range(WRITE_ATTEMPTS):
                try:
                    pipe.watch(key, self._users, self._revocations)
                    link = self._live_link(pipe.get(key))
                    self._not_revoked(link, pipe.hget(self._revocations, link["user"]))
                    raw = pipe.hget(self._users, link["user"])
                    if raw is None:  # the account is gone: the link can sign no one in
                        raise LinkSpent("this sign-in link's account is gone", why="expired")
                    user = orjson.loads(raw)
                    record = {"user": user["name"], "admin": user["admin"], "id": digest[:12], "created_at": now,
                              "agent": "".join(c for c in agent[:AGENT_CHARS] if c.isprintable())}
                    pipe.multi()
                    pipe.set(key, "used", keepttl=True, xx=True)
                    pipe.sadd(self._signed_in, user["name"])  # from now on only they (or an admin) make their links
                    pipe.set(self._session_key(digest), orjson.dumps(record), ex=SESSION_SECONDS)
                    pipe.hset(self._sessions_key(user["name"]), record["id"],
                              orjson.dumps({**record, "digest": digest}))
                    pipe.expire(self._sessions_key(user["name"]), SESSION_SECONDS)
                    pipe.execute()
                    return link, cookie
                except redis.WatchError:
                    continue
        raise Busy("too many accounts were changed at once; tap the link again")

    @staticmethod
    def _not_revoked(link: dict[str, Any], revoked: Any) -> None:
        """Refuse a link made before its user was last revoked (``revoke_user``); a link made before
        revocations were counted counts as made at none."""
        if link.get("revocation", 0) != int(revoked or 0):
            raise LinkSpent("this sign-in link was made before its account's access was revoked", why="revoked")

    @staticmethod
    def _live_link(raw: Any) -> dict[str, Any]:
        if raw is None:
            raise LinkSpent("this sign-in link has expired or is not valid", why="expired")
        if raw in ("used", b"used"):
            raise LinkSpent("this sign-in link was used already: a link signs in one device, once", why="used")
        return orjson.loads(raw)

    def session(self, secret: str, acl_of: tuple[str, str] | None = None) -> Session | None:
        """The device's session (None: ended, expired or never), read fresh
        every time, so a device ended anywhere is signed out at its next
        request; ``acl_of`` as ``user_for_token``'s."""
        key = self._session_key(token_digest(secret))
        raw = self._read_with_acl(("GET", key), acl_of)
        if raw is None:
            return None
        record = orjson.loads(raw)
        return Session(User(record["user"], record["admin"]), record["id"])

    def sessions(self, name: str) -> list[dict[str, Any]]:
        """The user's signed-in devices, oldest first (those expired meanwhile are forgotten here)."""
        self.user(name)
        listed = {sid: orjson.loads(raw) for sid, raw in self.r.hgetall(self._sessions_key(name)).items()}
        if not listed:
            return []
        with self.r.pipeline(transaction=False) as pipe:
            for record in listed.values():
                pipe.exists(self._session_key(record["digest"]))
            alive = pipe.execute()
        gone = [sid for sid, live in zip(listed, alive) if not live]
        if gone:
            self.r.hdel(self._sessions_key(name), *gone)
        out = [{k: v for k, v in record.items() if k != "digest"}
               for (sid, record), live in zip(listed.items(), alive) if live]
        return sorted(out, key=lambda r: (r["created_at"], r["id"]))

    def end_session(self, name: str, session_id: str) -> bool:
        """End one of the user's sessions: that device is signed out at its next request."""
        raw = self.r.hget(self._sessions_key(name), session_id)
        if raw is None:
            return False
        digest = orjson.loads(raw)["digest"]
        with self.r.pipeline(transaction=True) as pipe:
            pipe.delete(self._session_key(digest))
            pipe.hdel(self._sessions_key(name), session_id)
            ended, _ = pipe.execute()
        return bool(ended)

    def end_sessions(self, name: str) -> int:
        return sum(self.end_session(name, sid) for sid in list(self.r.hkeys(self._sessions_key(name))))

    # -- roles on a match or a league ------------------------------------------------
    def grant(self, kind: str, object_id: str, user: str, role: str) -> list[str]:
        key = self.acl_key(kind, object_id)
        roles = self._roles_at(key, user)
        if role not in roles:
            roles = sorted({*roles, role})
            self.r.hset(key, user, orjson.dumps(roles))
            RECENT.forget(self._acl_cache_key(kind, object_id))
        return roles

    def revoke(self, kind: str, object_id: str, user: str, role: str) -> list[str]:
        key = self.acl_key(kind, object_id)
        roles = [r for r in self._roles_at(key, user) if r != role]
        if roles:
            self.r.hset(key, user, orjson.dumps(roles))
        else:
            self.r.hdel(key, user)
        RECENT.forget(self._acl_cache_key(kind, object_id))
        return roles

    def _roles_at(self, key: str, user: str) -> list[str]:
        raw = self.r.hget(key, user)
        return list(orjson.loads(raw)) if raw else []

    def acl(self, kind: str, object_id: str) -> dict[str, Any]:
        """The role table as stored now (and kept for ``roles``)."""
        acl = _decode_acl(self.r.hgetall(self.acl_key(kind, object_id)))
        RECENT.put(self._acl_cache_key(kind, object_id), acl)
        return acl

    def _acl_cache_key(self, kind: str, object_id: str) -> tuple[str, ...]:
        return (self.prefix, "acl", kind, object_id)

    def roles(self, kind: str, object_id: str, user: User, fresh: bool = True) -> set[str]:
        """The user's roles on the object: their own and everyone's (``*``);
        on a league's match, a league organiser or referee is its referee.
        ``fresh=False``: what the process read in the last ``TRUST_SECONDS``
        will do (only to let a request in: see the module docstring)."""
        acl = None if fresh else RECENT.get(self._acl_cache_key(kind, object_id))
        if acl is None:
            acl = self.acl(kind, object_id)
        roles = set(acl.get(EVERYONE, ()))
        if user is not ANONYMOUS:
            roles.update(acl.get(user.name, ()))
            league = acl.get(LEAGUE_FIELD)
            if kind == "m" and league and self.roles("l", league, user, fresh) & {"organiser", "referee"}:
                roles.add("referee")
        return roles


def _replies(replies: list[Any]) -> list[Any]:
    """An error reply raised, as the client raises it."""
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


def _decode_acl(raw: dict[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, value in raw.items():
        field = field.decode() if isinstance(field, bytes) else field
        value = value.decode() if isinstance(value, bytes) else value
        out[field] = value if field == LEAGUE_FIELD else orjson.loads(value)
    return out
