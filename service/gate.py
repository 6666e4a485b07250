"""The input gate: one check of every JSON body, query value and path value
against ``service.limits``, run before any endpoint (a ``before_request``
hook), so a value past a limit never reaches a schema, the service layer or
the store, and a refusal writes nothing.

The body is parsed here strictly, with the standard library's parser and
hooks that keep what it would otherwise turn into something else: a number
with a fraction or an exponent, NaN and Infinity, an integer literal too long
for the range, a member named twice. The endpoints' schemas (webargs) read
the value parsed here (``Parser``), not the bytes again, so a body is parsed
once; the blueprints of the API (``Blueprint``) use that parser.

``check_value`` is the same walk for values already in Python: the service
layer runs it over what it is about to seal into a stream, so a caller that
does not come through HTTP (the CLI, a worker, a test) meets the same limits.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import flask_smorest
from flask import request
from marshmallow import RAISE, Schema, fields
from webargs.core import is_json, missing
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from .errors import InvalidValue, LimitExceeded, MalformedJson, NoSuchPath, PayloadTooLarge, UnsupportedMediaType
from .limits import (
    MAX_BODY_BYTES,
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_KEY,
    MAX_MEMBERS,
    MAX_NOTATION,
    MAX_QUERY_PARAMS,
    MAX_QUERY_VALUE,
    MAX_SAFE_INTEGER,
    MAX_TRF_CHARS,
    MAX_STRING,
)

ROOT = "$"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
INTEGERS = f"an integer from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}"
UNICODE = "valid Unicode (no lone surrogates)"

_SURROGATE = re.compile("[\ud800-\udfff]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SHOWN = 40  # characters of a refused literal or member name an error shows


class _Literal(str):
    """A number literal the parser met that the API does not take, kept as
    its text so the walk can say where it was."""


class _NotInteger(_Literal):
    """A number with a fraction or an exponent, NaN, Infinity."""


class _LongInteger(_Literal):
    """An integer literal with more digits than the range allows."""


class _Members(dict):
    """An object as parsed; ``twice`` is a member name that appeared twice."""

    twice: str | None = None


def _parse_int(text: str) -> int | _LongInteger:
    return int(text) if len(text.lstrip("-")) <= 16 else _LongInteger(text)


def _members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):  # refused by the walk, which names the member
        obj = _Members(pairs)
        seen: set[str] = set()
        obj.twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
    return obj


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


def _member_path(path: str, key: str) -> str:
    if _IDENT.match(key) and len(key) <= _SHOWN:
        return key if path == ROOT else f"{path}.{key}"
    quoted = json.dumps(key[:_SHOWN])  # escapes what a path cannot show (a lone surrogate)
    if len(key) > _SHOWN:
        quoted = quoted[:-1] + '…"'
    return f"{path}[{quoted}]"


def _where(path: str) -> str:
    return "the body" if path == ROOT else path


def _check_text(text: str, path: str, location: str, limit: int, what: str = "a string") -> None:
    if len(text) > limit:
        raise LimitExceeded(
            f"{_where(path)}: {what} has at most {limit:,} characters, not {len(text):,}", path, limit, location
        )
    found = _SURROGATE.search(text)
    if found:
        raise InvalidValue(
            f"{_where(path)}: {what} must be valid Unicode; it holds a lone surrogate "
            f"(\\u{ord(found.group()):04x} at character {found.start()})",
            path,
            UNICODE,
            location,
        )


def _fine(value: Any, depth: int, items: int | None = None) -> bool:
    """True when every part of ``value`` is within the limits: the quick pass
    (no paths built), run first; ``_check`` then finds and names a problem.
    A string or an integer inside an object or array is checked in the loop
    itself, not by a call of its own (most of a body's values are such).
    ``items``: as ``check_value`` takes it."""
    if items is None:
        items = MAX_ITEMS
    t = type(value)
    if t is str:  # an ASCII string (CPython knows it without a scan) holds no surrogate
        return len(value) <= MAX_STRING and (value.isascii() or not _SURROGATE.search(value))
    if t is int:
        return -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
    if value is None or t is bool:
        return True
    if t is dict or t is _Members:
        if depth > MAX_DEPTH or len(value) > MAX_MEMBERS or getattr(value, "twice", None) is not None:
            return False
        for key, item in value.items():
            if type(key) is not str or len(key) > MAX_KEY or (not key.isascii() and _SURROGATE.search(key)):
                return False
            t = type(item)
            if t is str:
                if len(item) > MAX_STRING or (not item.isascii() and _SURROGATE.search(item)):
                    return False
            elif t is int:
                if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                    return False
            elif not _fine(item, depth + 1, items):
                return False
        return True
    if t is list:
        if depth > MAX_DEPTH or len(value) > items:
            return False
        for item in value:
            t = type(item)
            if t is str:
                if len(item) > MAX_STRING or (not item.isascii() and _SURROGATE.search(item)):
                    return False
            elif t is int:
                if not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
                    return False
            elif not _fine(item, depth + 1, items):
                return False
        return True
    return False  # floats, refused literals, anything else: _check says what


def check_value(value: Any, field: str = ROOT, location: str = "body", depth: int = 1,
                items: int | None = None) -> None:
    """Refuse (LimitExceeded or InvalidValue, naming ``field``'s path) any
    part of a JSON value past the API's limits. ``items``: the most items
    an array may hold, for a value the server made itself (a round's
    pairing of a league larger than the API's array limit); else that limit."""
    if not _fine(value, depth, items):
        _check(value, field, location, depth, items)


def _check(value: Any, field: str, location: str, depth: int, items: int | None = None) -> None:
    if items is None:
        items = MAX_ITEMS
    if isinstance(value, _Literal):
        if isinstance(value, _LongInteger):
            raise LimitExceeded(
                f"{_where(field)}: {_short(value)} is outside the integers the API keeps exactly ({INTEGERS})",
                field, MAX_SAFE_INTEGER, location,
            )
        raise InvalidValue(
            f"{_where(field)}: {_short(value)} is not an integer; no endpoint takes fractions, exponents, NaN or "
            f"Infinity ({INTEGERS})",
            field, "integer", location,
        )
    if isinstance(value, str):
        _check_text(value, field, location, MAX_STRING)
    elif value is None or isinstance(value, bool):
        return
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise LimitExceeded(
                f"{_where(field)}: {_short(str(value))} is outside the integers the API keeps exactly ({INTEGERS})",
                field, MAX_SAFE_INTEGER, location,
            )
    elif isinstance(value, float):
        raise InvalidValue(
            f"{_where(field)}: {_short(repr(value))} is not an integer; no endpoint takes fractions ({INTEGERS})",
            field, "integer", location,
        )
    elif isinstance(value, (dict, list, tuple)):
        if depth > MAX_DEPTH:
            raise LimitExceeded(
                f"{_where(field)}: arrays and objects nest at most {MAX_DEPTH} levels deep", field, MAX_DEPTH, location
            )
        if isinstance(value, dict):
            if len(value) > MAX_MEMBERS:
                raise LimitExceeded(
                    f"{_where(field)}: an object has at most {MAX_MEMBERS} members, not {len(value):,}",
                    field, MAX_MEMBERS, location,
                )
            twice = getattr(value, "twice", None)
            if twice is not None:
                raise MalformedJson(
                    f"{_where(field)}: the member {json.dumps(_short(twice))} appears twice", field,
                    "each member once", location,
                )
            for key, item in value.items():
                if not isinstance(key, str):
                    raise InvalidValue(f"{_where(field)}: member names are strings", field, "string", location)
                path = _member_path(field, key)
                _check_text(key, path, location, MAX_KEY, "a member name")
                _check(item, path, location, depth + 1, items)
        else:
            if len(value) > items:
                raise LimitExceeded(
                    f"{_where(field)}: an array has at most {items:,} items, not {len(value):,}",
                    field, items, location,
                )
            for i, item in enumerate(value):
                _check(item, f"{field}[{i}]" if field != ROOT else f"[{i}]", location, depth + 1, items)
    else:
        raise InvalidValue(f"{_where(field)}: {type(value).__name__} is not a JSON value", field, "a JSON value", location)


#: The strict parser, made once (``json.loads`` with hooks makes a new one per
#: call); shared by every thread as ``json.loads`` shares its default one.
_DECODER = json.JSONDecoder(
    parse_int=_parse_int,
    parse_float=_NotInteger,
    parse_constant=_NotInteger,
    object_pairs_hook=_members,
)


def parse_body(raw: bytes, long_member: tuple[str, int] | None = None) -> Any:
    """The body's JSON value, parsed strictly, then checked against the limits.
    ``long_member``: (name, characters) of a top-level text member allowed
    to be longer than a string (a text body sent as JSON)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedJson(f"the body is not UTF-8 text (byte {exc.start})", ROOT, "JSON text in UTF-8") from None
    try:
        if text.startswith("\ufeff"):  # as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except RecursionError:
        raise LimitExceeded(
            f"the body: arrays and objects nest at most {MAX_DEPTH} levels deep", ROOT, MAX_DEPTH
        ) from None
    except ValueError as exc:
        detail = f"{exc.msg} at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise MalformedJson(f"the body is not valid JSON: {detail}", ROOT, "JSON text in UTF-8") from None
    if long_member is not None and isinstance(value, dict) and isinstance(value.get(long_member[0]), str):
        name, limit = long_member
        _check_text(value[name], name, "body", limit)
        rest = _Members((k, v) for k, v in value.items() if k != name)
        rest.twice = getattr(value, "twice", None)
        check_value(rest)
        return value
    check_value(value)
    return value


def check_body(req: Any) -> None:
    if req.method not in BODY_METHODS:
        return
    length = req.content_length
    if length is not None and length > MAX_BODY_BYTES:
        raise PayloadTooLarge(
            f"the body has {length:,} bytes; at most {MAX_BODY_BYTES:,} are taken", ROOT, MAX_BODY_BYTES
        )
    try:
        raw = _read_body(req, length)
    except RequestEntityTooLarge:
        raise PayloadTooLarge(f"the body is longer than {MAX_BODY_BYTES:,} bytes", ROOT, MAX_BODY_BYTES) from None
    if length is None and len(raw) >= MAX_BODY_BYTES:
        # A body without a length (chunked) is read up to the limit and no
        # further: reaching it means there was more.
        raise PayloadTooLarge(f"the body is longer than {MAX_BODY_BYTES - 1:,} bytes", ROOT, MAX_BODY_BYTES)
    if not raw:
        return
    if req.blueprint == "web":
        return  # a page's own form (the language switch): a short form its endpoint checks, never read as JSON
    text_body = TEXT_BODIES.get(req.endpoint or "")
    if text_body is not None:
        _check_text_body(req, raw, *text_body)
        return
    if not _json_content(req):
        sent = f"it was sent as {req.mimetype!r}" if req.mimetype else "the request has no Content-Type header"
        raise UnsupportedMediaType(
            f"a request body must be JSON, sent with the header 'Content-Type: application/json'; {sent}",
            "Content-Type", "application/json", "header",
        )
    req.kroniek_body = parse_body(raw)


def _read_body(req: Any, length: int | None) -> bytes:
    """The body's bytes, as ``req.get_data(cache=True)`` returns them and
    kept where it finds them (so every later reader gets the same bytes).
    A body with a Content-Length is read from the WSGI input at once, with
    the length's own check (werkzeug's ``LimitedStream``: a body that ends
    early is a 400 unless the server ends the input itself, then it is what
    arrived) but not through the stream werkzeug builds around it, which
    cost more than all the gate's own checks; any other is werkzeug's."""
    if length is None or "stream" in req.__dict__ or getattr(req, "_cached_data", None) is not None:
        return req.get_data(cache=True)
    environ = req.environ
    raw = environ["wsgi.input"].read(length) if length else b""
    if len(raw) < length and "wsgi.input_terminated" not in environ:
        raise ClientDisconnected()
    req._cached_data = raw  # where werkzeug's get_data (and its form parser) look first
    return raw


#: Content-Type header -> whether it says JSON, for the few a process sees
#: (werkzeug parses the header anew for every request); bounded: when full,
#: it starts again empty
_JSON_CONTENT: dict[str, bool] = {}
_JSON_CONTENT_LIMIT = 64


def _json_content(req: Any) -> bool:
    """Whether the request's Content-Type is JSON (``is_json`` of its mimetype)."""
    header = req.environ.get("CONTENT_TYPE", "")  # what req.mimetype is parsed from
    known = _JSON_CONTENT.get(header)
    if known is None:
        known = is_json(req.mimetype)
        if len(_JSON_CONTENT) >= _JSON_CONTENT_LIMIT:
            _JSON_CONTENT.clear()
        _JSON_CONTENT[header] = known
    return known


#: Endpoints whose body is text: endpoint -> (JSON member, characters). The
#: body is either that text itself (``text/plain``, UTF-8) or a JSON object
#: whose member holds it; the text may be longer than other strings (up to
#: its own limit), every other value meets the usual limits.
TEXT_BODIES: dict[str, tuple[str, int]] = {"notation.ImportNotation": ("notation", MAX_NOTATION),
                                           "leagues.Import": ("trf", MAX_TRF_CHARS)}
TEXT = "text/plain"


def _check_text_body(req: Any, raw: bytes, member: str, limit: int) -> None:
    if req.mimetype == TEXT:
        charset = (req.mimetype_params.get("charset") or "utf-8").lower()
        if charset not in ("utf-8", "utf8"):
            raise UnsupportedMediaType(
                f"a text body is UTF-8 ('Content-Type: text/plain; charset=utf-8'), not {charset!r}",
                "Content-Type", "text/plain; charset=utf-8", "header",
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidValue(f"the body is not UTF-8 text (byte {exc.start})", ROOT, "UTF-8 text") from None
        _check_text(text, ROOT, "body", limit, "the text")
        return
    if not is_json(req.mimetype):
        sent = f"it was sent as {req.mimetype!r}" if req.mimetype else "the request has no Content-Type header"
        raise UnsupportedMediaType(
            f"this body is text ('Content-Type: text/plain; charset=utf-8') or JSON ('Content-Type: "
            f"application/json'); {sent}", "Content-Type", "text/plain or application/json", "header",
        )
    req.kroniek_body = parse_body(raw, long_member=(member, limit))


def plain_loader(schema: Schema) -> Callable[[Any], dict[str, Any] | None] | None:
    """For a schema of plain members only (strings, integers, objects of
    anything; each required or with a default, none with validators or
    hooks; an unknown member refused), a function that returns what
    ``schema.load`` returns for a JSON body it accepts at a glance (an
    object whose members are each None where allowed, or of the field's own
    type), and None for any other body, which the schema then reads (and
    words the refusal of); None for any other schema. It costs a tenth of
    marshmallow's load on the append, the hot path (a property test holds
    it to ``schema.load``)."""
    if schema.many or schema.unknown != RAISE or schema.dict_class is not dict or any(schema._hooks.values()):
        return None
    specs = []
    for name, field in schema.load_fields.items():
        kind = _PLAIN_FIELDS.get(type(field))
        attribute = field.attribute or name
        if (kind is None or field.validators or field.pre_load or field.post_load or "." in attribute
                or (kind is int and field.as_string) or (kind is dict and (field.key_field or field.value_field))):
            return None
        specs.append((field.data_key if field.data_key is not None else name, attribute, kind, field.allow_none,
                      field.required, field.load_default))
    known = frozenset(spec[0] for spec in specs)

    def load(body: Any) -> dict[str, Any] | None:
        if type(body) is not dict or not known.issuperset(body):
            return None
        out: dict[str, Any] = {}
        for key, attribute, kind, allow_none, required, default in specs:
            value = body.get(key, missing)
            if value is missing:
                if required:
                    return None
                if default is not missing:
                    out[attribute] = default() if callable(default) else default
            elif value is None:
                if not allow_none:
                    return None
                out[attribute] = None
            elif type(value) is not kind:  # bool is no int, as marshmallow's Integer says
                return None
            else:
                out[attribute] = dict(value) if kind is dict else value  # marshmallow's Dict copies
        return out

    return load


#: marshmallow field classes -> the one Python type of a value ``plain_loader`` takes for them
_PLAIN_FIELDS: dict[type, type] = {fields.String: str, fields.Integer: int, fields.Dict: dict}


class Parser(FlaskParser):
    """webargs' Flask parser, reading the body the gate parsed and checked
    (``check_body`` keeps it on the request) instead of parsing its bytes again, and keeping one
    instance of each schema class instead of making one per req. A body
    for a schema of plain members is read by ``plain_loader`` when it
    certainly fits; anything else goes through webargs and the schema."""

    _schemas: dict[type, Schema] = {}
    _loaders: dict[type, Callable[[Any], dict[str, Any] | None] | None] = {}

    def parse(self, argmap: Any, req: Any = None, *, location: str | None = None, **kwargs: Any) -> Any:
        if location == "json" and isinstance(argmap, type) and kwargs.keys() <= _PLAIN_PARSE_OPTIONS:
            loader = self._loaders.get(argmap, missing)
            if loader is missing:
                loader = self._loaders.setdefault(argmap, plain_loader(self._get_schema(argmap, req)))
            if loader is not None:
                body = getattr(req if req is not None else request._get_current_object(), "kroniek_body", missing)
                value = loader(body)
                if value is not None:
                    return value
        return super().parse(argmap, req, location=location, **kwargs)

    def _raw_load_json(self, req: Any) -> Any:
        body = getattr(req, "kroniek_body", missing)
        return super()._raw_load_json(req) if body is missing else body

    def _get_schema(self, argmap: Any, req: Any) -> Schema:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)


#: options of ``Parser.parse`` that change nothing for a body ``plain_loader`` reads
_PLAIN_PARSE_OPTIONS = frozenset({"error_status_code", "error_headers"})


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the gate's ``Parser``."""

    ARGUMENTS_PARSER = Parser()


def check_query(req: Any) -> None:
    for key, value in (req.view_args or {}).items():
        if type(value) is str and len(value) <= MAX_QUERY_VALUE and value.isascii():
            continue  # the usual path value (an id): within the limits at a glance, no surrogate in ASCII
        _check_parameter(key, value, "path")
    if not req.query_string:
        return
    args = req.args
    count = sum(len(values) for values in args.listvalues())
    if count > MAX_QUERY_PARAMS:
        raise LimitExceeded(
            f"a request has at most {MAX_QUERY_PARAMS} query parameters, not {count}", "query", MAX_QUERY_PARAMS, "query"
        )
    for key, value in args.items(multi=True):
        _check_text(key, _short(key), "query", MAX_QUERY_VALUE, "a query parameter's name")
        _check_parameter(key, value, "query")


def _check_parameter(name: str, value: Any, location: str) -> None:
    try:
        _check_value_of(name, value, location)
    except LimitExceeded as exc:
        if location != "path":
            raise
        raise NoSuchPath(f"no such resource: {exc.message}", **exc.details) from None


def _check_value_of(name: str, value: Any, location: str) -> None:
    field = _short(name)
    if isinstance(value, str):
        _check_text(value, field, location, MAX_QUERY_VALUE, f"a {location} value")
        if location == "path":
            # A string path value is an opaque id (a match id may be all
            # digits); an integer path value comes as an int from its converter.
            return
        try:
            number = int(value)  # as the schemas read an integer parameter
        except ValueError:
            return
    else:
        number = value
    if isinstance(number, int) and abs(number) > MAX_SAFE_INTEGER:
        raise LimitExceeded(
            f"{field}: {_short(str(number))} is outside the integers the API takes ({INTEGERS})",
            field, MAX_SAFE_INTEGER, location,
        )


def check_request() -> None:
    """The ``before_request`` hook: query and path values, then the body."""
    req = request._get_current_object()  # one proxy lookup, not one per attribute
    check_query(req)
    check_body(req)
