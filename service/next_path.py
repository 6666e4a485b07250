"""Where the app sends a browser next: the language switch's ``next``, a
sign-in link's ``next`` (from the API, the pages, ``kroniek user link
--next``), the redirect a sign-in tap answers with. One rule for all of
them: a path of this app, as the browser will read it.

A browser does not read a ``Location`` header as it was written: the URL
parser strips C0 controls and spaces at either end, removes every tab and
line break inside, and reads a backslash as a slash; Werkzeug drops a tab
too when it writes the header. So ``/\\t/evil.example`` arrives as
``//evil.example``, another site. And a line break is no header value at
all (Werkzeug refuses it: a 500). The rule therefore refuses any control
character (C0, DEL, C1) and any backslash outright, and then what is left
must start with exactly one ``/``: no ``//`` (another host), no scheme
(``https:``, ``javascript:``), nothing relative.

``check`` refuses a bad one (400, ``field: next``): where a person typed it
and can be told. ``or_home`` puts home (``/``) in its place: where the app
only follows a ``next`` it was given (a form field anyone can post, a link
stored before this rule), and must neither fail nor leave the site.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import BadRequest

#: the longest next kept (a link's record holds it for a day)
MAX_CHARS = 200
#: the rule as a regular expression, for the OpenAPI document (the API's request schema uses it; ``check`` is
#: the same rule spelled out): one ``/``, then no second ``/``, and no backslash or control character anywhere
PATTERN = r"^/(?!/)[^\\\x00-\x1f\x7f-\x9f]*$"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: what the URL parser strips at either end of a URL (C0 controls and the space)
_ENDS = "".join(map(chr, range(0x21)))
RULE = ("next is a path of this app: it starts with one /, not //, and holds no backslash or control character "
        "(a tab or a line break)")


def as_browser_reads(value: str) -> str:
    """``value`` as a browser's URL parser sees it before it looks for a scheme or a host."""
    text = value.strip(_ENDS)
    for c in "\t\n\r":
        text = text.replace(c, "")
    return text.replace("\\", "/")


def problem(value: Any) -> str | None:
    """Why ``value`` is not a path of this app to send a browser to (None: it is one)."""
    if not isinstance(value, str):
        return "next is a path of this app, as text"
    if len(value) > MAX_CHARS:
        return f"next is a path of this app of at most {MAX_CHARS} characters"
    if _CONTROL.search(value) or "\\" in value or not value.startswith("/") or value.startswith("//"):
        return RULE
    seen = as_browser_reads(value)  # what is left to read differently (a space at the end): never another site
    if not seen.startswith("/") or seen.startswith("//"):
        return RULE
    return None


def check(value: Any) -> str:
    """``value`` if it is a path of this app, else a 400 that says why (``field: next``)."""
    why = problem(value)
    if why is not None:
        raise BadRequest(why, field="next", **({"limit": MAX_CHARS} if isinstance(value, str)
                                                and len(value) > MAX_CHARS else {}))
    return value


def or_home(value: Any) -> str:
    """``value`` if it is a path of this app, else home (``/``)."""
    return "/" if problem(value) is not None else value
