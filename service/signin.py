"""Sign-in links as people receive them: the URL a phone opens, and its QR
code (segno) as an SVG picture for the pages and as text for a terminal.

A link is ``<base>/signin/<secret>``: the secret is 256 random bits, stored
only as its SHA-256 (``Accounts.issue_link``), good for ``LINK_SECONDS`` and
spent on first use. Opening it shows whom it signs in, and one tap signs that
device in (a session cookie); the tap, not the opening, spends it, so a chat
app that fetches a link to preview it does not use it up.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import segno

PATH = "/signin/"


def base_url(req: Any) -> str:
    """The app's address as the browser sees it: behind a proxy that ends TLS
    (``X-Forwarded-Proto: https``) the scheme is https."""
    scheme = "https" if req.is_secure or req.headers.get("X-Forwarded-Proto") == "https" else req.scheme
    return f"{scheme}://{req.host}"


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as a ``data:`` URL of an SVG picture (the pages'
    CSP allows data: images, nothing inline)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, scale=4, border=2, dark="#000", light="#fff")
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode()


def qr_text(url: str) -> str:
    """The QR code of ``url`` in text (half blocks), for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def link_answer(req: Any, name: str, secret: str, expires_at: str) -> dict[str, Any]:
    url = base_url(req) + PATH + secret
    return {"name": name, "path": PATH + secret, "url": url, "expires_at": expires_at, "qr": qr_svg(url)}


def sign_in_link(name: str, next_path: str = "/") -> dict[str, Any]:
    """A new one-time sign-in link for ``name``, if the request's user may make it
    (``Accounts.may_issue_link``): an admin anyone's, a user their own, whoever added a user theirs until that
    user first signs in."""
    from flask import current_app, request

    from replays.hashing import utc_now

    from .errors import Forbidden

    access = current_app.extensions["kroniek.access"]
    caller = access.require_user()
    access.accounts.user(name)  # 404 for an unknown user
    if not access.accounts.may_issue_link(caller, name):
        raise Forbidden(f"only an admin or {name} themself may make their sign-in link (whoever added {name} "
                        "may too, until they first sign in)", user=caller.name)
    secret, expires = access.accounts.issue_link(name, caller.name, utc_now(), next_path)
    return link_answer(request, name, secret, expires)
