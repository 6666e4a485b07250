"""What the engines say, as message ids with values: rendered in the reader's language at the edge.

An engine never builds a sentence in English to be patched into Dutch later. It says
``say("{who} plays a card face down", who=name)``: the message id is the English text, with
``{name}`` placeholders as the pages' ``K.t`` has them, and the values stay values until
someone reads them. The API renders them with the pages' own catalogue
(service/web/translations, Flask-Babel), the match page renders what the page's engine
says with ``K.say`` over the same catalogue, and ``str()`` is the English: a place not yet
taught to render keeps saying what it said before.

A value is a proper name (a ``str``, never translated), a number (written as the reader's
language writes it: 0,5 in Dutch), another ``Text`` (a card's name, a colour), or a list of
these (joined with ", "). ``say_n`` chooses singular or plural by a count, as ``K.tn`` does.
``N_`` marks a plain string for the catalogue where a ``Text`` cannot stand (a JSON
schema's ``description``): it is looked up by its English text when rendered. A name that a
game's data gives in each language (an event type's Dutch title, a card's face ♥Q / ♥V) is a
``Words``, not a message.

Pure: no I/O, the standard library only (it runs in the page's Pyodide too).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Catalog(Protocol):
    """A language: its code ("en", "nl"), its translations and how it writes numbers."""

    code: str

    def gettext(self, message: str) -> str: ...

    def ngettext(self, one: str, many: str, n: int) -> str: ...

    def number(self, value: int | float) -> str: ...


class English:
    """The messages' own language: each message is its translation."""

    code = "en"

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, one: str, many: str, n: int) -> str:
        return one if n == 1 else many

    def number(self, value: int | float) -> str:
        return str(value)  # as the engines wrote them before they spoke through messages


ENGLISH = English()


class Text:
    """A sentence an engine says: a message id (its English text) and the values it fills in."""

    __slots__ = ("msg", "params", "plural", "n")

    def __init__(self, msg: str, params: dict[str, Any] | None = None, plural: str | None = None,
                 n: int | None = None) -> None:
        self.msg = msg
        self.params = params or {}
        self.plural = plural
        self.n = n

    def render(self, catalog: Catalog = ENGLISH) -> str:
        if self.plural is not None:
            template = catalog.ngettext(self.msg, self.plural, self.n if self.n is not None else 0)
            values = {"n": self.n, **self.params}
        else:
            template = catalog.gettext(self.msg)
            values = self.params
        return _PLACEHOLDER.sub(lambda m: render(values[m[1]], catalog) if m[1] in values else m[0], template)

    def __str__(self) -> str:
        return self.render(ENGLISH)

    def __repr__(self) -> str:
        return f"Text({self.msg!r}, {self.params!r})" if self.plural is None else \
            f"Text({self.msg!r}, {self.params!r}, plural={self.plural!r}, n={self.n!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Text) and (self.msg, self.params, self.plural, self.n) == \
            (other.msg, other.params, other.plural, other.n)

    def __hash__(self) -> int:
        return hash((self.msg, self.plural, self.n))

    def replaced(self, old: Any, new: Any) -> Text:
        """The same sentence with ``new`` wherever it (or a sentence inside it) says ``old``: a colour the
        outcome of a round names, told by the player's name."""
        def swap(value: Any) -> Any:
            if value == old:
                return new
            if isinstance(value, Text):
                return value.replaced(old, new)
            if isinstance(value, (list, tuple)):
                return [swap(v) for v in value]
            return value
        return Text(self.msg, {k: swap(v) for k, v in self.params.items()}, self.plural, self.n)

    def to_json(self) -> dict[str, Any]:
        """The message as JSON, for a reader that renders it itself (the match page's ``K.say``)."""
        out: dict[str, Any] = {"msg": self.msg, "params": {k: to_json(v) for k, v in self.params.items()}}
        if self.plural is not None:
            out["plural"], out["n"] = self.plural, self.n
        return out


class Words:
    """A name that a game's data gives in each language (an event type's Dutch title, a club's card set),
    not a message of the catalogue: said in the reader's language, else in English."""

    __slots__ = ("by_lang",)

    def __init__(self, **by_lang: str) -> None:
        self.by_lang = by_lang

    def render(self, catalog: Catalog = ENGLISH) -> str:
        return self.by_lang.get(catalog.code) or self.by_lang.get("en") or next(iter(self.by_lang.values()), "")

    def __str__(self) -> str:
        return self.render(ENGLISH)

    def __repr__(self) -> str:
        return f"Words({self.by_lang!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and self.by_lang == other.by_lang

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.by_lang.items())))

    def to_json(self) -> dict[str, Any]:
        return {"words": dict(self.by_lang)}


#: what an engine says that is rendered for a reader
SAID = (Text, Words)


def say(msg: str, /, **params: Any) -> Text:
    """A message: ``say("{who} wins the game", who=name)``. ``msg`` is a literal, so the catalogue finds it."""
    return Text(msg, params)


def say_n(n: int, one: str, many: str, /, **params: Any) -> Text:
    """A message about a count ``n`` ({n} in it): the singular for exactly one, else the plural."""
    return Text(one, params, many, n)


def N_(msg: str) -> str:
    """Marks ``msg`` for the catalogue where it must stay a plain string; rendered by ``translated``."""
    return msg


def render(value: Any, catalog: Catalog = ENGLISH) -> str:
    """One value as the reader reads it: a Text in their language, a number in their way, a list joined."""
    if isinstance(value, (Text, Words)):
        return value.render(catalog)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return catalog.number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(render(v, catalog) for v in value)
    return "" if value is None else str(value)


def to_json(value: Any) -> Any:
    """A value with every Text in it as its JSON form (``Text.to_json``)."""
    if isinstance(value, (Text, Words)):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(value: Any) -> Any:
    """The inverse of ``to_json`` for one message (a dict with ``msg``); anything else as it is."""
    if isinstance(value, dict) and isinstance(value.get("msg"), str) and isinstance(value.get("params"), dict):
        params = {k: from_json(v) for k, v in value["params"].items()}
        return Text(value["msg"], params, value.get("plural"), value.get("n"))
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("words"), dict):
        return Words(**value["words"])
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def localized(value: Any, catalog: Catalog = ENGLISH) -> Any:
    """``value`` (dicts, lists) with every Text in it rendered: what an answer in one language holds."""
    if isinstance(value, (Text, Words)):
        return value.render(catalog)
    if isinstance(value, dict):
        return {k: localized(v, catalog) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [localized(v, catalog) for v in value]
    return value


def translated(schema: Any, catalog: Catalog = ENGLISH) -> Any:
    """A JSON schema with its ``title``s, ``description``s and values' words (``enum_titles``: engine/core.py's
    ``worded``), all marked ``N_``, in the reader's language."""
    if isinstance(schema, dict):
        return {k: (catalog.gettext(v) if k in ("title", "description") and isinstance(v, str) else
                    {value: catalog.gettext(w) for value, w in v.items()} if k == "enum_titles" and isinstance(v, dict)
                    else translated(v, catalog)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [translated(v, catalog) for v in schema]
    return schema
