"""Accounts over HTTP: admins make users and tokens; anyone signed in may
see who they are, make or revoke their own tokens, make a sign-in link for a
new device, and see and end their signed-in devices (an admin anyone's).
Whoever added a person (``POST /api/matches/<id>/people``) may make that
person's sign-in links."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from replays.hashing import utc_now

from flask import request

from . import next_path, signin
from .accounts import ANONYMOUS, NAME
from .api import _doc_errors, access
from .errors import Forbidden, NotFound
from .gate import Blueprint
from .limits import MAX_USER_NAME
from .schemas import USER_NAME_RULE, FullMatch, StrictBoolean

users = Blueprint("users", __name__, url_prefix="/api", description="Accounts, tokens and roles")


class UserIn(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_USER_NAME),
                                                  FullMatch(NAME, error=USER_NAME_RULE),
                                                  validate.NoneOf([ANONYMOUS.name])],
                         metadata={"example": "ann"})
    admin = StrictBoolean(load_default=False, metadata={"description": "true or false (nothing else)"})


def _self_or_admin(name: str) -> None:
    user = access().require_user()
    if not user.admin and user.name != name:
        raise Forbidden("only an admin or the user themself may do this", user=user.name)


@users.route("/users")
class Users(MethodView):
    @users.arguments(UserIn, error_status_code=400)
    @users.response(201)
    @_doc_errors(users, 400, 401, 403)
    def post(self, body):
        """Create a user (an admin's); the answer holds their token, shown this once"""
        access().require_admin()
        user, token = access().accounts.add_user(body["name"], body["admin"], utc_now())
        return {**user.to_dict(), "token": token}

    @users.response(200)
    @_doc_errors(users, 401, 403)
    def get(self):
        """List the users (an admin's)"""
        access().require_admin()
        return {"users": access().accounts.users()}


@users.route("/users/<name>/tokens")
class Tokens(MethodView):
    @users.response(201)
    @_doc_errors(users, 401, 403, 404)
    def post(self, name):
        """A new token for the user (an admin's, or the user's own); shown this once"""
        _self_or_admin(name)
        return {"name": name, "token": access().accounts.issue_token(name, utc_now())}

    @users.response(200)
    @_doc_errors(users, 401, 403, 404)
    def delete(self, name):
        """Revoke the user's tokens, signed-in devices and unused sign-in links (an admin's, or the user's own)

        `revoked` counts the tokens revoked, `ended` the signed-in devices
        signed out (as `DELETE /api/users/<name>/sessions` would); the
        sign-in links made for them before now no longer sign anyone in. A
        link made afterwards does."""
        _self_or_admin(name)
        return {"name": name, **access().accounts.revoke_user(name)}


@users.route("/me")
class Me(MethodView):
    @users.response(200)
    def get(self):
        """Who the token or the session cookie belongs to (anonymous without one), and the server's auth mode

        `session` is the id of the signed-in device this request came from
        (null with a token)."""
        session = getattr(request._get_current_object(), "kroniek_session", None)
        return {**access().user.to_dict(), "auth": access().mode, "session": session.id if session else None}


class LinkIn(Schema):
    next = fields.String(load_default="/", validate=[validate.Length(max=next_path.MAX_CHARS),
                                                     FullMatch(next_path.PATTERN, error=next_path.RULE)],
                         metadata={"description": "the page the link opens once signed in (a path of this app)",
                                   "example": "/matches/1b88dec3265a4cd4"})


@users.route("/users/<name>/sign-in-links")
class SignInLinks(MethodView):
    @users.arguments(LinkIn, error_status_code=400, required=False)
    @users.response(201)
    @_doc_errors(users, 400, 401, 403, 404)
    def post(self, body, name):
        """A one-time sign-in link for the user, with its QR code: opened on a phone, one tap signs that phone in

        It is good for 24 hours and signs in one device, once. An admin may
        make anyone's; a user their own (for a new device); whoever added a
        user who is not an admin, theirs until that user first signs in. The
        secret is stored only as its SHA-256."""
        return signin.sign_in_link(name, body["next"])


@users.route("/users/<name>/sessions")
class Sessions(MethodView):
    @users.response(200)
    @_doc_errors(users, 401, 403, 404)
    def get(self, name):
        """The user's signed-in devices (an admin's, or the user's own)"""
        _self_or_admin(name)
        return {"name": name, "sessions": _marked(access().accounts.sessions(name))}

    @users.response(200)
    @_doc_errors(users, 401, 403, 404)
    def delete(self, name):
        """Sign the user out on every device (an admin's, or the user's own)"""
        _self_or_admin(name)
        return {"name": name, "ended": access().accounts.end_sessions(name)}


@users.route("/users/<name>/sessions/<session_id>")
class OneSession(MethodView):
    @users.response(200)
    @_doc_errors(users, 401, 403, 404)
    def delete(self, name, session_id):
        """Sign one device out: it is signed out at its next request (an admin's, or the user's own)"""
        _self_or_admin(name)
        if not access().accounts.end_session(name, session_id):
            raise NotFound(f"{name} has no signed-in device {session_id!r}")
        return {"name": name, "ended": session_id}


def _marked(sessions: list[dict]) -> list[dict]:
    """The devices, the one this request comes from marked ``current``, each with the browser and system its
    user agent names (``device``)."""
    here = getattr(request._get_current_object(), "kroniek_session", None)
    return [{**s, "current": here is not None and s["id"] == here.id, "device": device_of(s.get("agent") or "")}
            for s in sessions]


def device_of(agent: str) -> dict[str, str | None]:
    """The browser and the operating system a user agent names, as ua-parser reads it ({"browser": "Chrome
    Mobile", "os": "Android"}); None where it names none (a script's agent has no system)."""
    from ua_parser import parse

    found = parse(agent) if agent else None
    browser = found.user_agent.family if found and found.user_agent else None
    system = found.os.family if found and found.os else None
    return {"browser": None if browser in (None, "Other") else browser, "os": None if system in (None, "Other") else system}
