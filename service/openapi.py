"""What the OpenAPI document says about every operation that the blueprints
do not say one by one: who needs a token (so Swagger UI shows the lock only
where one is needed or used), and the 503 answer while the store is away.

An apispec plugin: its ``operation_helper`` sees each operation as flask-smorest
documents it.
"""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

from .access import WRITES
from .outage import RETRY_AFTER

#: a token is required (401 without one)
TOKEN: list[dict[str, list]] = [{"bearer": []}]
#: a token is optional: without one the answer is the public view
TOKEN_OPTIONAL: list[dict[str, list]] = [{"bearer": []}, {}]
#: nothing: a public read
PUBLIC: list[dict[str, list]] = []

#: reads that need a token
TOKEN_READS = {"/api/users"}
#: reads where a token shows more than the public view (a seat's or the referee's; who you are)
TOKEN_OPTIONAL_READS = {
    "/api/matches/{match_id}/events",
    "/api/matches/{match_id}/stream",
    "/api/matches/{match_id}/state",
    "/api/matches/{match_id}/legal-moves",
    "/api/matches/{match_id}/hint",
    "/api/matches/{match_id}/review",
    "/api/me",
}
#: writes that ``KRONIEK_AUTH=open`` lets a request without a token make (anonymous matches)
OPEN_MODE_WRITES = ("/api/matches",)

METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def security_for(method: str, path: str, mode: str) -> list[dict[str, list]]:
    if method.upper() in WRITES:
        if mode == "open" and path.startswith(OPEN_MODE_WRITES) and not path.endswith("/roles"):
            return TOKEN_OPTIONAL
        return TOKEN
    if path in TOKEN_READS:
        return TOKEN
    if path in TOKEN_OPTIONAL_READS:
        return TOKEN_OPTIONAL
    return PUBLIC


UNAVAILABLE = {
    "description": "the store (Redis) is unavailable; try again after Retry-After seconds",
    "headers": {
        "Retry-After": {
            "description": "seconds to wait before trying again",
            "schema": {"type": "integer", "example": RETRY_AFTER},
        }
    },
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/KroniekErrorResponse"}}},
}


class KroniekSpecPlugin(BasePlugin):
    def __init__(self, auth_mode: str) -> None:
        self.auth_mode = auth_mode

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            if method not in METHODS or path is None:
                continue
            operation["security"] = security_for(method, path, self.auth_mode)
            operation.setdefault("responses", {}).setdefault(503, UNAVAILABLE)
