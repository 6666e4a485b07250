"""Storage of game data documents (see ``engine.game_data``): content-addressed
and immutable. A document is stored once under the SHA-256 of its canonical
JSON; storing it again changes nothing and answers the same hash."""

from __future__ import annotations

import json
import time
from typing import Any

from engine import get
from engine.core import MalformedEvent
from engine.game_data import DataKind, canonical_json, data_kinds, digest

from .errors import NotFound

MAX_LIST = 500


class GameDataStore:
    def __init__(self, r: Any, prefix: str) -> None:
        self.r = r
        self.prefix = prefix

    def _key(self, game: str, kind: str, h: str | None = None) -> str:
        base = f"{self.prefix}:gd:{game}:{kind}"
        return base if h is None else f"{base}:{h}"

    @staticmethod
    def kind(game_id: str, kind: str) -> tuple[Any, DataKind]:
        game = get(game_id)
        kinds = data_kinds(game)
        if kind not in kinds:
            raise NotFound(f"{game.name} has no data kind {kind!r}"
                           + (f"; it has: {', '.join(kinds)}" if kinds else ""), game=game_id)
        return game, kinds[kind]

    def check(self, game_id: str, kind: str, doc: Any) -> tuple[dict[str, Any], Any]:
        """Validate without storing: (summary with hash and ``builtin``, canonical document)."""
        _, dk = self.kind(game_id, kind)
        canon = dk.validate(doc)
        if len(canonical_json(canon).encode("utf-8")) > dk.max_bytes:
            raise MalformedEvent(f"the document is larger than {dk.max_bytes} bytes", field="document")
        h = digest(canon)
        return {**dk.summary(canon), "hash": h, "builtin": h in dk.builtin()}, canon

    def put(self, game_id: str, kind: str, doc: Any, by: str) -> tuple[dict[str, Any], bool]:
        """Validate and store; returns (summary, created)."""
        game, _ = self.kind(game_id, kind)
        summary, canon = self.check(game_id, kind, doc)
        text = canonical_json(canon)
        h = summary["hash"]
        if summary["builtin"]:
            return summary, False
        record = json.dumps({"document": text, "by": by, "at": time.time()})
        created = bool(self.r.set(self._key(game.id, kind, h), record, nx=True))
        if created:
            self.r.zadd(self._key(game.id, kind), {h: time.time()})
        return summary, created

    def get(self, game_id: str, kind: str, h: str) -> tuple[Any, dict[str, Any]]:
        """(document, meta) of a shipped or stored document."""
        game, dk = self.kind(game_id, kind)
        builtin = dk.builtin()
        if h in builtin:
            return builtin[h], {"builtin": True}
        raw = self.r.get(self._key(game.id, kind, h)) if isinstance(h, str) and len(h) == 64 else None
        if raw is None:
            raise NotFound(f"no {kind} document {h!r} for {game.name}", game=game_id)
        record = json.loads(raw)
        return json.loads(record["document"]), {"builtin": False, "by": record["by"], "at": record["at"]}

    def list(self, game_id: str, kind: str) -> list[dict[str, Any]]:
        game, dk = self.kind(game_id, kind)
        out = [{**dk.summary(doc), "hash": h, "builtin": True} for h, doc in dk.builtin().items()]
        for h in self.r.zrange(self._key(game.id, kind), 0, MAX_LIST - 1):
            h = h.decode() if isinstance(h, bytes) else h
            doc, meta = self.get(game.id, kind, h)
            out.append({**dk.summary(doc), "hash": h, **meta})
        return out

    def embed(self, game_id: str, options: dict[str, Any] | None, players: int | None = None) -> dict[str, Any] | None:
        """A new match's options with every named document embedded (the
        shipped default too, or the one the game picks for ``players``), so
        the setup event alone replays."""
        try:
            game = get(game_id)
        except Exception:  # noqa: BLE001 - make_setup reports the unknown game
            return options
        kinds = data_kinds(game)
        if not kinds or not isinstance(options, dict) and options is not None:
            return options
        options = dict(options or {})
        for dk in kinds.values():
            if not dk.option or not dk.embed or dk.embed in options:
                continue
            h = options.get(dk.option)
            if h is None:
                default = game.options_schema.get("properties", {}).get(dk.option, {}).get("default")
                if default is None and dk.default_for is not None and players is not None:
                    default = dk.default_for(options, players)
                if default is None:
                    continue
                h = options[dk.option] = default
            if not isinstance(h, str):
                continue  # the schema check of make_setup says what is wrong
            doc, _ = self.get(game.id, dk.name, h)
            options[dk.embed] = doc
        return options
