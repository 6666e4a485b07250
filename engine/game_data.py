"""Named kinds of game data (a game's card sets, later boards): documents a
user stores once and a match names by the SHA-256 of their canonical JSON.

A game declares ``data_kinds = {"card-sets": DataKind(...)}``; the service
stores, lists and serves them generically under ``/api/games/<game>/<kind>``
and, when a new match's options name a document (``kind.option``), embeds
the document itself (``kind.embed``) so that the match's log alone replays.
The game refuses an embedded document that does not hash to the named hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable

from .core import InvalidOptions, KroniekError
from .text import Text


def canonical_json(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(doc: Any) -> str:
    """SHA-256 (hex) of a document's canonical JSON (sorted keys, no spaces, UTF-8)."""
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class DataKind:
    #: the URL segment, e.g. "card-sets"
    name: str
    description: str
    #: document -> canonical document; raises a KroniekError (4xx) naming what is wrong
    validate: Callable[[Any], Any]
    #: canonical document -> what a list shows of it (must say if it is a placeholder)
    summary: Callable[[Any], dict[str, Any]]
    #: the documents shipped with the engine: hash -> canonical document
    builtin: Callable[[], dict[str, Any]]
    #: the match option that names a document by hash, and the one it is embedded in
    option: str | None = None
    embed: str | None = None
    #: the largest document accepted, in bytes of canonical JSON
    max_bytes: int = 200_000
    #: the hash a match uses when its options name none and the option's
    #: schema default is null: ``default_for(options, players)`` (a board
    #: depends on the player count); None: nothing to embed
    default_for: Callable[[dict[str, Any], int], str | None] | None = None
    #: what one document is, in a page's words (marked N_: said in the reader's language, Dutch as the table says it)
    title: str = "document"


def data_kinds(game: Any) -> dict[str, DataKind]:
    return getattr(game, "data_kinds", {}) or {}


def kind_info(game: Any, name: str, default: Any) -> dict[str, Any]:
    """What ``GET /api/games/<id>`` says of one data kind: where its documents
    are, the option that names one, what it is, and what a match takes when
    it names none (``default``)."""
    dk = data_kinds(game)[name]
    # the description is marked N_ by its game: said in the reader's language at the edge
    return {"url": f"/api/games/{game.id}/{name}", "option": dk.option, "description": Text(dk.description),
            "default": default, "title": Text(dk.title)}


def check_embedded(doc: Any, recorded: str | None, *, validate: Callable[[Any], Any], hash_of: Callable[[Any], str],
                   errors: type[KroniekError], what: str, kind: str, doc_option: str, hash_option: str,
                   rule: str) -> tuple[Any, str]:
    """An embedded document as a match's options carry it: valid, already in
    canonical form, and hashing to the ``recorded`` hash when there is one.
    Returns (canonical document, its hash); refuses with InvalidOptions."""
    try:
        canon = validate(doc)
    except errors as exc:
        raise InvalidOptions(f"options.{doc_option}: {exc.message}", field=f"options.{doc_option}", rule=rule) from None
    actual = hash_of(canon)
    if canon != doc:
        raise InvalidOptions(f"options.{doc_option} is not in canonical form (store it via the {kind} endpoint)",
                             field=f"options.{doc_option}", rule=rule)
    if recorded is not None and recorded != actual:
        raise InvalidOptions(f"the embedded {what} hashes to {actual}, not to the recorded {recorded} "
                             f"(name it with options.{hash_option} = {actual})", field=f"options.{hash_option}",
                             rule=rule)
    return canon, actual
