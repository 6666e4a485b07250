"""Accounts over HTTP: admins make users and tokens; anyone signed in may
see who they are and make or revoke their own tokens."""

from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from replays.hashing import utc_now

from .accounts import ANONYMOUS, NAME
from .api import _doc_errors, access
from .errors import Forbidden
from .gate import Blueprint
from .limits import MAX_USER_NAME
from .schemas import FullMatch, StrictBoolean

users = Blueprint("users", __name__, url_prefix="/api", description="Accounts, tokens and roles")


class UserIn(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_USER_NAME), FullMatch(NAME),
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
        """Revoke every token of the user (an admin's, or the user's own)"""
        _self_or_admin(name)
        return {"name": name, "revoked": access().accounts.revoke_tokens(name)}


@users.route("/me")
class Me(MethodView):
    @users.response(200)
    def get(self):
        """Who the token belongs to (anonymous without one), and the server's auth mode"""
        return {**access().user.to_dict(), "auth": access().mode}
