"""Sign-in links as people receive them: the URL a phone opens, and its QR
code (segno) as an SVG picture for the pages and as text for a terminal.

A link is ``<base>/signin#<secret>``: the secret is 256 random bits, stored
only as its SHA-256 (``Accounts.issue_link``), good for ``LINK_SECONDS`` and
spent on first use. It rides in the URL's fragment, which a browser never
sends: no access log (the server's, a proxy's in front of it) records it. The
page reads it and asks, in a POST, whom it signs in; one tap signs that
device in (a session cookie, the secret posted in the form); the tap, not the
opening, spends it, so a chat app that fetches a link to preview it does not
use it up. Links made before (``/signin/<secret>``) still open.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import segno

PATH = "/signin#"


def base_url(req: Any) -> str:
    """The app's address as the browser sees it: behind a proxy that ends TLS
    (``X-Forwarded-Proto: https``) the scheme is https."""
    scheme = "https" if req.is_secure or req.headers.get("X-Forwarded-Proto") == "https" else req.scheme
    return f"{scheme}://{req.host}"


def link_base(req: Any) -> str:
    """The address a link starts with: the public one the app was given
    (``KRONIEK_PUBLIC_URL``, which ``kroniek run --lan`` sets to this machine's
    LAN address), else the one this request came in on. A link made on the
    laptop at 127.0.0.1 must open on a phone."""
    from flask import current_app

    return current_app.config.get("KRONIEK_PUBLIC_URL") or base_url(req)


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as a ``data:`` URL of an SVG picture (the pages'
    CSP allows data: images, nothing inline)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, scale=4, border=2, dark="#000", light="#fff")
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode()


#: SGR codes of a dark and a light module, as a foreground (the upper half block) and as a background
_FG = {True: "30", False: "97"}
_BG = {True: "40", False: "107"}


def qr_text(url: str, color: bool = True) -> str:
    """The QR code of ``url`` in text, for a terminal: each character two
    modules, an upper half block in the upper one's colour on the lower
    one's. ``color``: every module black or white in the terminal's own
    colour codes, so the code reads the same in a light terminal and a dark
    one; without (a terminal that takes no colour), the terminal's own
    colours draw it, which a scanner reads only where the text is light on
    dark."""
    qr = segno.make(url, error="m")
    if not color:
        out = io.StringIO()
        qr.terminal(out=out, compact=True)
        return out.getvalue()
    rows = [[bool(m) for m in row] for row in qr.matrix_iter(scale=1, border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        line, last = [], None
        for pair in zip(top, bottom):
            if pair != last:
                line.append(f"\x1b[{_FG[pair[0]]};{_BG[pair[1]]}m")
                last = pair
            line.append("\u2580")
        lines.append("".join(line) + "\x1b[0m")
    return "\n".join(lines) + "\n"


def terminal_takes_color() -> bool:
    """Whether standard output is a terminal that shows colours (rich's judgement: NO_COLOR and
    FORCE_COLOR are honoured, a pipe or a dumb terminal takes none)."""
    from rich.console import Console

    return Console().color_system is not None


def link_answer(req: Any, name: str, secret: str, expires_at: str) -> dict[str, Any]:
    url = link_base(req) + PATH + secret
    return {"name": name, "path": PATH + secret, "url": url, "expires_at": expires_at, "qr": qr_svg(url)}


def sign_in_link(name: str, next_path: str = "/") -> dict[str, Any]:
    """A new one-time sign-in link for ``name``, if the request's user may make it
    (``Accounts.may_issue_link``): an admin anyone's, a user their own, whoever added a user theirs until that
    user first signs in."""
    from flask import current_app, request

    from replays.hashing import utc_now

    from .errors import Forbidden
    from .next_path import check as check_next

    check_next(next_path)  # before anything else: a 400, nothing made
    access = current_app.extensions["kroniek.access"]
    caller = access.require_user()
    access.accounts.user(name)  # 404 for an unknown user
    if not access.accounts.may_issue_link(caller, name):
        raise Forbidden(f"only an admin or {name} themself may make their sign-in link (whoever added {name} "
                        "may too, until they first sign in)", user=caller.name)
    secret, expires = access.accounts.issue_link(name, caller.name, utc_now(), next_path)
    return link_answer(request, name, secret, expires)
