"""The OpenAPI document states the bounds the answers enforce, so a request
valid by the document is not refused for a reason the document could have
said (issue 20). For each bound: the document states it, a value just
inside is not refused by the schema (it may still be refused for what only
the match can say: a seat beyond its players), and one just outside is
refused, naming the field.

The patterns the document shows are held to the checks they stand for,
over every character they could meet.
"""

from __future__ import annotations

import sys
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from engine import match as M
from engine.core import MalformedEvent
from service import limits
from service import schemas as S

#: the answers of a request the document refuses: its schema's, or the input gate's limits
SCHEMA_REFUSALS = {"malformed_request", "limit_exceeded", "invalid_value"}


@dataclass(frozen=True)
class Bound:
    """One bound: ``where`` finds the field's schema in the document (an
    operation, then ``query``/``header`` and a name, or ``body`` and a path
    of properties, ``[]`` for an array's items); ``states`` is what it must
    say; ``send(value)`` makes the request; ``inside`` and ``outside`` the
    values on either side; ``refusal`` the codes the outside value may get."""

    name: str
    where: tuple[str, str, tuple[str, ...]]
    states: dict[str, Any]
    send: Callable[[Any, Any], Any]
    inside: Any
    outside: Any
    field: str
    refusal: frozenset[str] = frozenset(SCHEMA_REFUSALS)
    status: int = 400


def _schema_of(spec: dict, where: tuple[str, str, tuple[str, ...]]) -> dict:
    method_path, location, names = where
    method, path = method_path.split(" ", 1)
    op = spec["paths"][path][method]

    def resolve(node: dict) -> dict:
        while "$ref" in node:
            node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
        if "allOf" in node and len(node["allOf"]) == 1:
            return resolve(node["allOf"][0])
        return node

    if location in ("query", "header"):
        (name,) = names
        return next(p for p in op["parameters"] if p["in"] == location and p["name"] == name)["schema"]
    node = resolve(op["requestBody"]["content"]["application/json"]["schema"])
    for name in names:
        node = resolve(node["items"] if name == "[]" else node["properties"][name])
    return node


def _states(schema: dict, states: dict[str, Any]) -> bool:
    """Whether the schema (or, for a oneOf, one of its branches) says all of ``states``."""
    branches = [schema, *schema.get("oneOf", [])]
    return any(all(branch.get(k) == v for k, v in states.items()) for branch in branches)


@pytest.fixture
def world(client, admin, monkeypatch):
    monkeypatch.setenv("KRONIEK_STREAM_SECONDS", "0")  # a stream answers at once, whatever its wait
    mid = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    league = client.post("/api/leagues", json={"name": "Cup", "game": "braverats", "format": "round_robin",
                                               "players": ["Ann", "Bob", "Cas", "Dee"]}).get_json()["id"]
    assert client.post(f"/api/leagues/{league}/rounds").status_code == 201
    return {"client": client, "admin": admin, "match": mid, "league": league}


def _get(path: str, param: str, extra: str = ""):
    return lambda w, v: w["client"].get(path.format(**w) + f"?{param}={v}{extra}")


def _post(path: str, body: Callable[[Any], dict], who: str = "client", headers: Callable[[Any], dict] | None = None):
    return lambda w, v: w[who].post(path.format(**w), json=body(v), headers=headers(v) if headers else {})


SEAT = S.MAX_SEAT
NAME = limits.MAX_PLAYER_NAME
M_ = "/api/matches/{match}"
BOUNDS = [
    *[Bound(f"{what} seat, at most", (f"get /api/matches/{{match_id}}/{what}", "query", ("seat",)),
            {"maximum": SEAT}, _get(f"{M_}/{what}", "seat"), SEAT, SEAT + 1, "seat")
      for what in ("state", "events", "review", "legal-moves", "notation", "stream", "scene")],
    Bound("state seat, at least", ("get /api/matches/{match_id}/state", "query", ("seat",)), {"minimum": 0},
          _get(f"{M_}/state", "seat"), 0, -1, "seat"),
    Bound("state seat, its words", ("get /api/matches/{match_id}/state", "query", ("seat",)),
          {"enum": ["referee", "public"]}, _get(f"{M_}/state", "seat"), "public", "everyone", "seat"),
    Bound("hint seat", ("get /api/matches/{match_id}/hint", "query", ("seat",)), {"maximum": SEAT},
          _get(f"{M_}/hint", "seat"), SEAT, SEAT + 1, "seat"),
    Bound("hint budget", ("get /api/matches/{match_id}/hint", "query", ("budget",)), {"maximum": 5_000_000},
          _get(f"{M_}/hint", "budget", "&seat=0"), 5_000_000, 5_000_001, "budget"),
    Bound("stream wait", ("get /api/matches/{match_id}/stream", "query", ("wait",)), {"maximum": 300},
          _get(f"{M_}/stream", "wait"), 300, 301, "wait"),
    Bound("Last-Event-ID", ("get /api/matches/{match_id}/stream", "header", ("Last-Event-ID",)),
          {"pattern": "^[0-9]{1,15}$"},
          lambda w, v: w["client"].get(f"/api/matches/{w['match']}/stream?wait=0", headers={"Last-Event-ID": v}),
          "9" * 15, "9" * 16, "Last-Event-ID"),
    Bound("matches limit", ("get /api/matches", "query", ("limit",)), {"maximum": limits.MAX_PAGE},
          _get("/api/matches", "limit"), limits.MAX_PAGE, limits.MAX_PAGE + 1, "limit"),
    Bound("matches offset", ("get /api/matches", "query", ("offset",)), {"minimum": 0},
          _get("/api/matches", "offset"), 0, -1, "offset"),
    Bound("players, how many", ("post /api/matches", "body", ("players",)), {"maxItems": limits.MAX_PLAYERS},
          _post("/api/matches", lambda n: {"game": "ridder_toernooi", "players": [f"P{i}" for i in range(n)]}),
          limits.MAX_PLAYERS, limits.MAX_PLAYERS + 1, "players"),
    Bound("a player's name, long", ("post /api/matches", "body", ("players", "[]")), {"maxLength": NAME},
          _post("/api/matches", lambda name: {"game": "braverats", "players": ["Ann", name]}),
          "B" * NAME, "B" * (NAME + 1), "players[1]"),
    Bound("a player's name, clean", ("post /api/matches", "body", ("players", "[]")),
          {"pattern": S.NAME_PATTERN}, _post("/api/matches", lambda name: {"game": "braverats", "players": ["Ann", name]}),
          "B ob", "B\nob", "players[1]"),
    Bound("a player's name, not blank", ("post /api/matches", "body", ("players", "[]")),
          {"minLength": 1, "pattern": S.NAME_PATTERN},
          _post("/api/matches", lambda name: {"game": "braverats", "players": ["Ann", name]}),
          "\u00a0B", "\u00a0 ", "players[1]"),
    Bound("a game", ("post /api/matches", "body", ("game",)), {"enum": S.GAME_IDS},
          _post("/api/matches", lambda game: {"game": game, "players": ["Ann", "Bob"]}),
          "braverats", "chess", "game", frozenset({"unknown_game"}), 404),
    Bound("mode", ("post /api/matches", "body", ("mode",)), {"enum": ["physical", "simulated"]},
          _post("/api/matches", lambda mode: {"game": "braverats", "players": ["Ann", "Bob"], "mode": mode, "seed": 1}),
          "simulated", "dreamt", "mode"),
    Bound("seed", ("post /api/matches", "body", ("seed",)), {"maximum": limits.MAX_SAFE_INTEGER},
          _post("/api/matches", lambda seed: {"game": "braverats", "players": ["Ann", "Bob"], "mode": "simulated",
                                              "seed": seed}),
          limits.MAX_SAFE_INTEGER, limits.MAX_SAFE_INTEGER + 1, "seed"),
    Bound("an event's seat", ("post /api/matches/{match_id}/events", "body", ("seat",)), {"maximum": SEAT},
          _post(f"{M_}/events", lambda seat: {"type": "play", "seat": seat, "data": {"card": "spy"}}),
          SEAT, SEAT + 1, "seat", frozenset({"malformed_event"})),
    Bound("Idempotency-Key", ("post /api/matches/{match_id}/events", "header", ("Idempotency-Key",)),
          {"maxLength": limits.MAX_IDEMPOTENCY_KEY},
          _post(f"{M_}/events", lambda key: {"type": "round", "data": {"cards": ["spy", "prince"]}},
                headers=lambda key: {"Idempotency-Key": key}),
          "k" * limits.MAX_IDEMPOTENCY_KEY, "k" * (limits.MAX_IDEMPOTENCY_KEY + 1), "Idempotency-Key"),
    Bound("an annotation's seq", ("post /api/matches/{match_id}/annotations", "body", ("seq",)), {"minimum": 1},
          _post(f"{M_}/annotations", lambda seq: {"seq": seq, "comment": "x"}), 1, 0, "seq"),
    Bound("an annotation's comment", ("post /api/matches/{match_id}/annotations", "body", ("comment",)),
          {"maxLength": limits.MAX_COMMENT},
          _post(f"{M_}/annotations", lambda comment: {"seq": 1, "comment": comment}),
          "c" * limits.MAX_COMMENT, "c" * (limits.MAX_COMMENT + 1), "comment"),
    Bound("an annotation's glyph", ("post /api/matches/{match_id}/annotations", "body", ("glyph",)),
          {"enum": [*S.GLYPHS, None]}, _post(f"{M_}/annotations", lambda glyph: {"seq": 1, "glyph": glyph}),
          "??", "???", "glyph"),
    Bound("a role's seat", ("post /api/matches/{match_id}/roles", "body", ("seat",)), {"maximum": SEAT},
          _post(f"{M_}/roles", lambda seat: {"user": "nobody", "role": "player", "seat": seat}),
          SEAT, SEAT + 1, "seat"),
    Bound("a role", ("post /api/matches/{match_id}/roles", "body", ("role",)),
          {"enum": ["recorder", "referee", "player"]},
          _post(f"{M_}/roles", lambda role: {"user": "nobody", "role": role}), "referee", "king", "role"),
    Bound("a role's user", ("post /api/matches/{match_id}/roles", "body", ("user",)),
          {"maxLength": limits.MAX_USER_NAME},
          _post(f"{M_}/roles", lambda user: {"user": user, "role": "referee"}),
          "u" * limits.MAX_USER_NAME, "u" * (limits.MAX_USER_NAME + 1), "user"),
    Bound("a user's name", ("post /api/users", "body", ("name",)), {"maxLength": limits.MAX_USER_NAME},
          _post("/api/users", lambda name: {"name": name}, who="admin"),
          "u" * limits.MAX_USER_NAME, "u" * (limits.MAX_USER_NAME + 1), "name"),
    Bound("admin", ("post /api/users", "body", ("admin",)), {"type": "boolean"},
          _post("/api/users", lambda admin: {"name": "cas", "admin": admin}, who="admin"), False, "yes", "admin"),
    Bound("a league's name", ("post /api/leagues", "body", ("name",)), {"maxLength": limits.MAX_LEAGUE_NAME},
          _post("/api/leagues", lambda name: {"name": name, "game": "braverats", "format": "round_robin"}),
          "L" * limits.MAX_LEAGUE_NAME, "L" * (limits.MAX_LEAGUE_NAME + 1), "name"),
    Bound("a league's name, clean", ("post /api/leagues", "body", ("name",)), {"pattern": S.NAME_PATTERN},
          _post("/api/leagues", lambda name: {"name": name, "game": "braverats", "format": "round_robin"}),
          "Club cup", "Club\ncup", "name"),
    Bound("a forfeit's round", ("post /api/leagues/{league_id}/forfeits", "body", ("round",)), {"minimum": 1},
          _post("/api/leagues/{league}/forfeits", lambda r: {"round": r, "board": 1, "forfeited": ["Ann"],
                                                           "reason": "late"}), 1, 0, "round"),
    Bound("a forfeit's player", ("post /api/leagues/{league_id}/forfeits", "body", ("forfeited", "[]")),
          {"pattern": S.NAME_PATTERN},
          _post("/api/leagues/{league}/forfeits", lambda p: {"round": 1, "board": 1, "forfeited": [p],
                                                           "reason": "late"}), "Ann", " ", "forfeited[0]"),
    Bound("log leaves limit", ("get /api/log/leaves", "query", ("limit",)), {"maximum": 1000},
          _get("/api/log/leaves", "limit"), 1000, 1001, "limit"),
]


@pytest.mark.parametrize("bound", BOUNDS, ids=lambda b: b.name)
def test_the_document_states_each_bound_the_answers_enforce(bound, world, anon):
    schema = _schema_of(anon.get("/api/openapi.json").get_json(), bound.where)
    assert _states(schema, bound.states), (bound.name, schema)

    inside = bound.send(world, bound.inside)
    error = (inside.get_json(silent=True) or {}).get("error", {}) if inside.status_code >= 400 else {}
    assert not (error.get("code") in SCHEMA_REFUSALS and error.get("field") == bound.field), (bound.name, error)
    assert inside.status_code < 500, (bound.name, inside.data[:300])

    outside = bound.send(world, bound.outside)
    assert outside.status_code == bound.status, (bound.name, outside.data[:300])
    error = outside.get_json()["error"]
    assert error["code"] in bound.refusal and error["field"] == bound.field, (bound.name, error)


def test_the_bounds_cover_every_seat_parameter(anon):
    """Every ``seat`` the document takes states its range (the list above
    checks them one by one; this finds a new one)."""
    spec = anon.get("/api/openapi.json").get_json()
    seats = [(path, method) for path, ops in spec["paths"].items() for method, op in ops.items()
             if isinstance(op, dict) for p in op.get("parameters", []) if p["name"] == "seat"]
    assert len(seats) >= 7
    for path, method in seats:
        schema = _schema_of(spec, (f"{method} {path}", "query", ("seat",)))
        assert _states(schema, {"minimum": 0, "maximum": SEAT}), (path, schema)
    checked = {b.where[0] for b in BOUNDS if b.where[2] == ("seat",) and b.where[1] == "query"}
    assert {f"{method} {path}" for path, method in seats} <= checked


def _characters_to_check() -> list[str]:
    """Every character a name check could treat apart (controls, format
    characters, separators, white space), found by a scan of every code
    point, and every 61st of the rest."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    special = {ch for ch in chars if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp")}
    return sorted(special) + chars[::61]


def test_the_name_pattern_is_the_engines_name_check_for_every_character():
    """NAME_PATTERN is what ``check_player_name`` takes: alone (a blank name
    is refused) and after a letter (a control character anywhere is)."""
    pattern = S.FullMatch(S.NAME_PATTERN).regex

    def engine_takes(name: str) -> bool:
        try:
            M.check_player_name(name, "name")
            return True
        except MalformedEvent:
            return False

    checked = _characters_to_check()
    differ = [hex(ord(ch)) for ch in checked
              if bool(pattern.fullmatch(ch)) != engine_takes(ch)
              or bool(pattern.fullmatch("a" + ch)) != engine_takes("a" + ch)]
    assert differ == []
    assert {"\n", "\x85", "\u2028", "\u3000", "\xa0", "\u200b", "\ufeff"} <= set(checked)


def test_the_idempotency_key_pattern_is_isprintable_over_what_a_header_carries():
    pattern = S.FullMatch(S.PRINTABLE_HEADER).regex
    assert [c for c in range(256) if bool(pattern.fullmatch(chr(c))) != chr(c).isprintable()] == []
