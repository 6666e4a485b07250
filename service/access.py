"""Who may do what: the request's user, from its bearer token or its session
cookie, and the roles each action needs. The endpoints call ``require``
before they touch anything, so a refused request writes nothing.

The pages sign in with a session cookie (``SESSION_COOKIE``: HttpOnly,
SameSite=Lax, Secure over HTTPS), made by a one-time sign-in link; the API
and the CLI keep their bearer tokens, and a request with an
``Authorization`` header is judged by it alone. A write carried by the
cookie must come from the app's own pages: its ``Origin`` (or, without one,
``Sec-Fetch-Site``) must say the same site, else it is refused (403
``cross_site``), whatever the cookie holds.

``KRONIEK_AUTH=required`` (the default) wants a token for every write and for
every private view. ``KRONIEK_AUTH=open`` also lets a request without a token
create a match anyone may record (issue 2's anonymous contract); leagues,
accounts and matches created with a token still need the right token.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from flask import request

from engine.core import CHANCE

from .accounts import ANONYMOUS, EVERYONE, Accounts, User
from .errors import CrossSite, Forbidden, Unauthorized

MODES = ("required", "open")
#: the session cookie of the pages (service.web's sign-in page sets it)
SESSION_COOKIE = "kroniek_session"

#: the roles an action needs on its match ("m") or league ("l"); admins may do everything
POLICY: dict[str, tuple[str, frozenset[str]]] = {
    "match.append": ("m", frozenset({"recorder", "referee"})),
    "match.annotate": ("m", frozenset({"recorder", "referee", "player"})),
    "match.grant": ("m", frozenset({"recorder", "referee"})),
    "match.referee_view": ("m", frozenset({"recorder", "referee"})),
    "league.manage": ("l", frozenset({"organiser"})),
    "league.result": ("l", frozenset({"organiser", "referee"})),
    "league.forfeit": ("l", frozenset({"organiser", "referee"})),
    "league.grant": ("l", frozenset({"organiser"})),
}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def auth_mode(mode: str | None = None) -> str:
    mode = mode or os.environ.get("KRONIEK_AUTH", "required")
    if mode not in MODES:
        raise ValueError(f"KRONIEK_AUTH must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


class Access:
    def __init__(self, accounts: Accounts, mode: str | None = None) -> None:
        self.accounts = accounts
        self.mode = auth_mode(mode)

    # -- who is asking ---------------------------------------------------------------
    def authenticate(self) -> None:
        """Run before every request: a bad token is refused at once, whatever
        the endpoint, and so is a write without one when tokens are required."""
        req = request._get_current_object()  # one proxy lookup, not one per attribute
        # Until a token says otherwise the user is ANONYMOUS (``user``'s default).
        if req.routing_exception is not None:
            return  # no such endpoint or method: that 404 or 405 says more than a 401 would
        header = req.environ.get("HTTP_AUTHORIZATION")  # what req.headers.get("Authorization") reads
        if header is None:
            if SESSION_COOKIE in req.environ.get("HTTP_COOKIE", ""):
                if self._from_session(req):
                    return
            # a page's own form (the language switch) writes nothing to the store: no token needed
            if self.mode == "required" and req.method in WRITES and req.blueprint != "web":
                raise Unauthorized("this write needs a token: send 'Authorization: Bearer <token>', "
                                   "or sign in on the pages with a sign-in link")
            return
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        user = self.accounts.user_for_token(token.strip(), acl_of=_object_of(req.view_args or {}))
        if user is None:
            raise Unauthorized("this token is not valid (wrong, revoked, or its user is gone)")
        req.kroniek_user = user  # on the request itself: flask.g costs a proxy's detours at every read

    def _from_session(self, req: Any) -> bool:
        """The session cookie's user on the request (True), or nothing (a cookie
        ended or expired: the request goes on as nobody's)."""
        secret = req.cookies.get(SESSION_COOKIE)
        if not secret or len(secret) > 100:
            return False
        session = self.accounts.session(secret, acl_of=_object_of(req.view_args or {}))
        if session is None:
            return False
        if req.method in WRITES:
            same_site(req)
        req.kroniek_user = session.user
        req.kroniek_session = session
        return True

    @property
    def user(self) -> User:
        return user_of(request._get_current_object())

    def require_user(self, anonymous_ok: bool = False) -> User:
        """Any signed-in user; in open mode also nobody, where ``anonymous_ok``."""
        user = self.user
        if user is ANONYMOUS and not (anonymous_ok and self.mode == "open"):
            raise Unauthorized("this needs a token: send 'Authorization: Bearer <token>'")
        return user

    def require_admin(self) -> User:
        user = self.require_user()
        if not user.admin:
            raise Forbidden("only an admin may do this", user=user.name)
        return user

    # -- what they may do ----------------------------------------------------------------
    def roles(self, kind: str, object_id: str, fresh: bool = True) -> set[str]:
        return self.accounts.roles(kind, object_id, self.user, fresh)

    def require(self, action: str, object_id: str, user: User | None = None) -> User:
        """The user (``user``, else the request's) if they may do ``action``."""
        kind, needed = POLICY[action]
        if user is None:
            user = self.user
        if user.admin:
            return user
        if {r.split(":")[0] for r in self.accounts.roles(kind, object_id, user, fresh=False)} & needed:
            return user  # roles read within the last second let a request in
        held = {r.split(":")[0] for r in self.accounts.roles(kind, object_id, user)}  # a refusal: on a fresh read
        if held & needed:
            return user
        if user is ANONYMOUS:
            raise Unauthorized(f"{action} needs a token: send 'Authorization: Bearer <token>'")
        raise Forbidden(
            f"{action} needs the role {' or '.join(sorted(needed))} on this "
            f"{'match' if kind == 'm' else 'league'}; {user.name} has {', '.join(sorted(held)) or 'none'}",
            user=user.name,
            needs=sorted(needed),
        )

    def require_append(self, match_id: str, seat: Any, event_type: str, user: User,
                       actor_of: Callable[[str], str | None] | None = None) -> User:
        """``match.append``, or a player's own move: a player (``player:N``)
        may enter the moves of seat N, and nothing else (not the table's,
        not a chance outcome, not an undo). ``actor_of(event_type)``: who
        enters that kind of event in the match's game (``"seat"``,
        ``"table"``, ``"chance"``; None: no such kind, which the rules
        refuse); a chance outcome names the seat that receives it, so the
        seat alone does not make it the player's (issue 36)."""
        try:
            return self.require("match.append", match_id, user)
        except Forbidden:
            if isinstance(seat, int) and not isinstance(seat, bool) and event_type != "undo":
                for fresh in (False, True):
                    if f"player:{seat}" in self.accounts.roles("m", match_id, user, fresh):
                        actor = "seat" if actor_of is None else actor_of(event_type)
                        if actor in ("seat", None):
                            return user
                        what = (f"a chance outcome ({event_type}: what is dealt, drawn or rolled)"
                                if actor == CHANCE else f"the table's move ({event_type})")
                        raise Forbidden(f"match.append: a player enters only their own seat's moves, not {what}, "
                                        f"even for seat {seat}; a recorder or referee enters it",
                                        user=user.name, needs=["recorder", "referee"]) from None
            players = sorted(r for r in self.accounts.roles("m", match_id, user) if r.startswith("player:"))
            if not players:
                raise
            mine = ", ".join(p.split(":")[1] for p in players)
            what = "an undo" if event_type == "undo" else "the table's move" if seat is None else f"seat {seat}'s move"
            raise Forbidden(f"match.append: a player enters only their own seat's moves (seat {mine}), not "
                            f"{what}; a recorder or referee enters the rest", user=user.name,
                            needs=["recorder", "referee"]) from None

    def require_view(self, match_id: str, viewer: Any) -> None:
        """A seat's view is that seat's player's, the whole log the referee's;
        recorders and referees see both. The public view is everyone's."""
        if viewer is None or self.user.admin:
            return
        for fresh in (False, True):  # a refusal is decided on a fresh read
            roles = self.roles("m", match_id, fresh)
            if roles & {"recorder", "referee"}:
                return
            if isinstance(viewer, int) and f"player:{viewer}" in roles:
                return
        what = "the referee's view" if viewer == "referee" else f"seat {viewer}'s view"
        if self.user is ANONYMOUS:
            raise Unauthorized(f"{what} needs a token (that seat's player, a recorder or a referee)")
        raise Forbidden(f"{what} is only for {'a recorder or referee' if viewer == 'referee' else 'that seat, a recorder or a referee'}",
                        user=self.user.name)

    # -- who gets which role on what they create ---------------------------------------------
    def creator_acl(self, role: str) -> dict[str, list[str]]:
        user = self.user
        return {EVERYONE if user is ANONYMOUS else user.name: [role]}


def same_site(req: Any) -> None:
    """Refuse a write that another site's page made the browser send (it
    would carry the cookie): the app's own pages send their ``Origin``."""
    origin = req.headers.get("Origin")
    if origin is not None:
        # the host, not the scheme: behind a proxy that ends TLS the app sees http where the page said https
        if origin.partition("://")[2] == req.host:
            return
        raise CrossSite(f"a write from another site ({origin[:100]}) is refused: the session cookie only "
                        "works for the app's own pages")
    if req.headers.get("Sec-Fetch-Site") in ("same-origin", "none"):
        return
    raise CrossSite("a write signed in by the session cookie must come from the app's own pages "
                    "(its Origin header is missing)")


def user_of(req: Any) -> User:
    """Who made the request (``Access.authenticate`` said so), else ANONYMOUS."""
    return getattr(req, "kroniek_user", ANONYMOUS)


def _object_of(view_args: dict[str, Any]) -> tuple[str, str] | None:
    """The match or league a request's path names, whose roles its token's
    lookup reads in the same round trip."""
    if isinstance(view_args.get("match_id"), str):
        return ("m", view_args["match_id"])
    if isinstance(view_args.get("league_id"), str):
        return ("l", view_args["league_id"])
    return None
