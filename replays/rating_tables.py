"""Ratings tables per game in Redis: the worker (``workers.jobs.recompute_ratings``)
rates every league result of a game from scratch and saves the table here;
the API (``service.ratings``) only reads it.

Key layout (``P`` is the prefix; the hash tag ``{ratings}`` keeps every
ratings key in one Cluster slot): ``P:{ratings}:GAME`` is one hash with

- ``meta``      canonical JSON: ``game``, ``system``, ``results`` (how many
                results were rated), ``digest`` (SHA-256 of the rated inputs),
                ``inputs`` (league id → seq of the league's last result,
                forfeit or correction event read), ``skipped`` (leagues whose
                log did not audit or replay, with the reason)
- ``ratings``   canonical JSON list of current ratings, by conservative rating
- ``h:PLAYER``  canonical JSON list of the player's history points
- ``computed_at`` when the job that wrote the table ran (bookkeeping: the only
                field that is not a function of the leagues' logs)

A save goes through a script that refuses a table computed from fewer
results than the stored one (see ``SAVE``), so jobs finishing in any order
leave the table of the most complete input.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from .hashing import canonical
from .lua import HSET_PAIRS

# KEYS: the game's ratings hash
# ARGV: inputs JSON ({league: seq}), digest, then field, value pairs (meta first)
# Returns 'stored' | 'unchanged' | 'stale'.
# A table is saved only if its inputs cover the stored table's: every league's
# last result seq at least the stored one (a league missing counts as 0).
# Result seqs only grow (streams are append-only), and a job started after the
# last result was appended reads every result, so the last save is always of
# the complete input, whatever order the jobs ran or finished in.
SAVE = """
local cur = redis.call('HGET', KEYS[1], 'meta')
local new = cjson.decode(ARGV[1])
if cur then
  local meta = cjson.decode(cur)
  local same = meta['digest'] == ARGV[2]
  for league, seq in pairs(meta['inputs']) do
    local n = new[league] or 0
    if n < seq then return 'stale' end
    if n ~= seq then same = false end
  end
  for league, seq in pairs(new) do
    if meta['inputs'][league] == nil and seq ~= 0 then same = false end
  end
  if same then return 'unchanged' end
end
redis.call('DEL', KEYS[1])
""" + HSET_PAIRS.format(key="KEYS[1]", first=3) + """
return 'stored'
"""


class RatingsStore:
    def __init__(self, client: redis.Redis, prefix: str = "kroniek") -> None:
        self.r = client
        self.prefix = prefix
        self._save = client.register_script(SAVE)

    def key(self, game: str) -> str:
        return f"{self.prefix}:{{ratings}}:{game}"

    def save(self, table: dict[str, Any], computed_at: str) -> str:
        """Save a table as ``workers.jobs.compute_ratings`` builds it; returns
        'stored', 'unchanged' (same inputs as the stored table) or 'stale'
        (the stored table covers more results)."""
        meta = {k: table[k] for k in ("game", "system", "results", "digest", "inputs", "skipped")}
        fields: list[str] = ["meta", canonical(meta), "ratings", canonical(table["ratings"]),
                             "computed_at", computed_at]
        for player in sorted(table["history"]):
            fields += [f"h:{player}", canonical(table["history"][player])]
        return self._save(keys=[self.key(table["game"])], args=[canonical(table["inputs"]), table["digest"], *fields])

    def meta(self, game: str) -> dict[str, Any] | None:
        raw = self.r.hget(self.key(game), "meta")
        return json.loads(raw) if raw else None

    def load(self, game: str, player: str | None = None) -> dict[str, Any] | None:
        """The stored table: meta, ``computed_at`` and ``ratings``, and with
        ``player`` that player's ``history`` (None if unrated), in one read."""
        fields = ["meta", "ratings", "computed_at"] + ([f"h:{player}"] if player is not None else [])
        meta, ratings, computed_at, *history = self.r.hmget(self.key(game), fields)
        if meta is None:
            return None
        out = {**json.loads(meta), "computed_at": computed_at, "ratings": json.loads(ratings or "[]")}
        if player is not None:
            out["history"] = json.loads(history[0]) if history[0] is not None else None
        return out

    def history(self, game: str, player: str) -> list[dict[str, Any]] | None:
        raw = self.r.hget(self.key(game), f"h:{player}")
        return json.loads(raw) if raw is not None else None

    def dump(self, game: str) -> dict[str, str]:
        """Every stored field as text (for comparing two tables)."""
        return self.r.hgetall(self.key(game))
