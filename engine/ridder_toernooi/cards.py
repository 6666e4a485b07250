"""Card sets: the knight and lady cards a tournament is played with, as data.

The printed values of the box are not published, so a table enters its own
box's cards once as a card set (JSON, format ``kroniek.ridder-toernooi.cardset/1``)
and reuses it. A set is identified by the SHA-256 of its canonical JSON (sorted
keys, no whitespace, UTF-8), so a match's setup names exactly the cards it was
played with. The set shipped with the engine, ``cardsets/placeholder.json``, is
a *placeholder*: invented values around the few printed facts of the rules text.

``validate_card_set`` checks a document and returns its canonical form; every
error names the card (``K03``) and the field (``/red/mounted/2``).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..core import MalformedEvent
from ..game_data import canonical_json, digest
from ..text import localized, say

FORMAT = "kroniek.ridder-toernooi.cardset/1"
PROVENANCES = ("printed", "printed-partial", "user", "placeholder")
MOUNTED_FACES = ("1", "2", "3")
FOOT_FACES = ("4", "5", "6")
MAX_CARDS = 40
MAX_TEXT = 200
MAX_VALUES = 20
_DIR = Path(__file__).parent / "cardsets"
#: the wound track the rules fix (R13, R21); a set may state it, not change it
WOUND_TRACK = {"fields": 10, "eliminatedAt": 10, "trainingBands": [{"from": 0, "to": 0, "points": 2},
                                                                    {"from": 1, "to": 3, "points": 1},
                                                                    {"from": 4, "to": 9, "points": 0}]}


class CardSetError(MalformedEvent):
    """A card set that does not validate: ``card`` and ``field`` say where."""

    code = "invalid_card_set"


class KnightCard(NamedTuple):
    id: str
    name: str
    dice: int
    #: red (printed) covered fields per face 1–6 (index 0 = face 1)
    red: tuple[int, ...]
    #: ranked preferences, best first: (attribute, value)
    prefs: tuple[tuple[str, str], ...]
    provenance: str


class LadyCard(NamedTuple):
    id: str
    name: str
    attrs: tuple[tuple[str, str], ...]
    provenance: str


class Cards(NamedTuple):
    """A validated card set, ready for the engine."""

    hash: str
    name: str
    provenance: str
    knights: tuple[KnightCard, ...]
    ladies: tuple[LadyCard, ...]
    dice_max: int
    dice_min: int
    fields_per_face: int
    placeholder: bool

    def knight_index(self, ident: str) -> int | None:
        return _index(self.knights, ident)

    def lady_index(self, ident: str) -> int | None:
        return _index(self.ladies, ident)


@lru_cache(maxsize=256)
def _ids(cards: tuple) -> dict[str, int]:
    return {c.id: i for i, c in enumerate(cards)}


def _index(cards: tuple, ident: str) -> int | None:
    hit = _ids(cards).get(ident)
    if hit is not None:
        return hit
    key = ident.strip().casefold()
    for i, c in enumerate(cards):
        if c.id.casefold() == key or c.name.casefold() == key:
            return i
    # a unique prefix of the name ("Apollonius", "Ilsa")
    hits = [i for i, c in enumerate(cards) if c.name.casefold().startswith(key) and key]
    return hits[0] if len(hits) == 1 else None


def no_such_card(cards: tuple, ident: str, what: str):
    """Why ``ident`` names no single card: none fits, or several names start
    with it (then they are listed, so the recorder can pick one)."""
    key = ident.strip().casefold() if isinstance(ident, str) else ""
    hits = [c for c in cards if key and c.name.casefold().startswith(key)]
    if len(hits) > 1:
        names = [c.name for c in hits]
        if what == "knight":
            return say("knight {ident} is ambiguous: {names} all start with it; give more of the name",
                       ident=repr(ident), names=names)
        return say("lady {ident} is ambiguous: {names} all start with it; give more of the name", ident=repr(ident),
                   names=names)
    if what == "knight":
        return say("no knight {ident} in the card set", ident=repr(ident))
    return say("no lady {ident} in the card set", ident=repr(ident))


#: SHA-256 (hex) of a card set's canonical JSON: the game-data hash every stored document gets.
card_set_hash = digest


def _err(message: str, field: str, card: str | None = None) -> CardSetError:
    if card is not None:
        return CardSetError(f"card {card}, {field}: {message}", field=field, card=card)
    return CardSetError(f"{field}: {message}", field=field)


def _text(value: Any, field: str, card: str | None = None, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise _err(f"must be a non-empty string of at most {MAX_TEXT} characters", field, card)
    return value


def _int(value: Any, field: str, lo: int, hi: int, card: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _err(f"must be an integer {lo}–{hi}, not {value!r}", field, card)
    return value


def _obj(value: Any, field: str, card: str | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _err("must be an object", field, card)
    return value


def _only(value: dict[str, Any], allowed: set[str], field: str, card: str | None = None) -> None:
    extra = sorted(set(value) - allowed)
    if extra:
        raise _err(f"unknown field(s) {', '.join(extra)}", field or "/", card)


def validate_card_set(doc: Any) -> dict[str, Any]:
    """Check a card-set document; return it canonical (the same document, with
    the optional fields filled in). Raises CardSetError naming card and field."""
    doc = _obj(doc, "/")
    _only(doc, {"format", "name", "game", "provenance", "note", "vocabulary", "tracks", "fieldsPerFace",
                "knights", "ladies"}, "")
    if doc.get("format") != FORMAT:
        raise _err(f"must be {FORMAT!r}", "/format")
    out: dict[str, Any] = {"format": FORMAT, "name": _text(doc.get("name"), "/name")}
    for key in ("game", "note"):
        if key in doc:
            out[key] = _text(doc[key], f"/{key}") if key == "game" else _note(doc[key])
    if doc.get("provenance") not in PROVENANCES:
        raise _err(f"must be one of {', '.join(PROVENANCES)}", "/provenance")
    out["provenance"] = doc["provenance"]
    vocab = _obj(doc.get("vocabulary"), "/vocabulary")
    if not vocab or len(vocab) > MAX_VALUES:
        raise _err(f"needs 1–{MAX_VALUES} attributes", "/vocabulary")
    out_vocab: dict[str, list[str]] = {}
    for attr, values in vocab.items():
        _text(attr, "/vocabulary")
        if not isinstance(values, list) or not values or len(values) > MAX_VALUES:
            raise _err(f"must be a list of 1–{MAX_VALUES} values", f"/vocabulary/{attr}")
        for i, v in enumerate(values):
            _text(v, f"/vocabulary/{attr}/{i}")
        if len(set(values)) != len(values):
            raise _err("has a value twice", f"/vocabulary/{attr}")
        out_vocab[attr] = list(values)
    out["vocabulary"] = out_vocab
    tracks = _obj(doc.get("tracks", {}), "/tracks")
    _only(tracks, {"attackDice", "wounds", "premiums"}, "/tracks")
    dice = _obj(tracks.get("attackDice", {"min": 1, "max": 11}), "/tracks/attackDice")
    _only(dice, {"min", "max"}, "/tracks/attackDice")
    dmin = _int(dice.get("min", 1), "/tracks/attackDice/min", 1, 30)
    dmax = _int(dice.get("max", 11), "/tracks/attackDice/max", dmin, 30)
    out_tracks: dict[str, Any] = {"attackDice": {"min": dmin, "max": dmax}}
    if "wounds" in tracks:
        if tracks["wounds"] != WOUND_TRACK:
            raise _err("the rules fix the wound track: 10 fields, out at 10 (R13), training bands 0 / 1–3 / 4–9 "
                       f"(R21); give it as {canonical_json(WOUND_TRACK)} or leave it out", "/tracks/wounds")
        out_tracks["wounds"] = WOUND_TRACK
    if "premiums" in tracks:
        if tracks["premiums"] != {"max": None}:
            raise _err('the premium track has no maximum: give {"max": null} or leave it out', "/tracks/premiums")
        out_tracks["premiums"] = {"max": None}
    out["tracks"] = out_tracks
    fpf = _int(doc.get("fieldsPerFace", 2), "/fieldsPerFace", 2, 2)
    out["fieldsPerFace"] = fpf
    knights, ladies = doc.get("knights"), doc.get("ladies")
    if not isinstance(knights, list) or not 2 <= len(knights) <= MAX_CARDS:
        raise _err(f"must be a list of 2–{MAX_CARDS} knight cards", "/knights")
    if not isinstance(ladies, list) or len(ladies) > MAX_CARDS:
        raise _err(f"must be a list of at most {MAX_CARDS} lady cards", "/ladies")
    ids: set[str] = set()
    out["knights"] = [_knight(k, i, out_vocab, dmin, dmax, fpf, ids) for i, k in enumerate(knights)]
    out["ladies"] = [_lady(lady, i, out_vocab, ids) for i, lady in enumerate(ladies)]
    return out


def _note(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 2000:
        raise _err("must be a string of at most 2000 characters", "/note")
    return value


def _card_id(card: dict[str, Any], where: str, ids: set[str]) -> str:
    ident = card.get("id")
    if not isinstance(ident, str) or not ident.strip() or len(ident) > 20 or not ident.replace("-", "").replace("_", "").isalnum():
        raise _err("must be a short id of letters, digits, - and _", f"{where}/id")
    if ident.casefold() in ids:
        raise _err(f"id {ident!r} is used twice", f"{where}/id", ident)
    ids.add(ident.casefold())
    return ident


def _pair(value: Any, field: str, card: str, vocab: dict[str, list[str]]) -> tuple[str, str]:
    value = _obj(value, field, card)
    _only(value, {"attr", "value"}, field, card)
    attr, v = value.get("attr"), value.get("value")
    if attr not in vocab:
        raise _err(f"attribute {attr!r} is not in the vocabulary ({', '.join(vocab)})", f"{field}/attr", card)
    if v not in vocab[attr]:
        raise _err(f"value {v!r} is not a {attr} of the vocabulary ({', '.join(vocab[attr])})", f"{field}/value", card)
    return attr, v


def _knight(k: Any, i: int, vocab, dmin: int, dmax: int, fpf: int, ids: set[str]) -> dict[str, Any]:
    where = f"/knights/{i}"
    k = _obj(k, where)
    ident = _card_id(k, where, ids)
    _only(k, {"id", "name", "provenance", "attackDice", "red", "preferences", "confirmed"}, where, ident)
    out: dict[str, Any] = {"id": ident, "name": _text(k.get("name"), "/name", ident)}
    prov = k.get("provenance", "user")
    if prov not in PROVENANCES:
        raise _err(f"must be one of {', '.join(PROVENANCES)}", "/provenance", ident)
    out["provenance"] = prov
    out["attackDice"] = _int(k.get("attackDice"), "/attackDice", dmin, dmax, ident)
    red = _obj(k.get("red"), "/red", ident)
    _only(red, {"mounted", "foot"}, "/red", ident)
    out_red: dict[str, dict[str, int]] = {}
    for part, faces in (("mounted", MOUNTED_FACES), ("foot", FOOT_FACES)):
        counts = _obj(red.get(part, {}), f"/red/{part}", ident)
        _only(counts, set(faces), f"/red/{part}", ident)
        out_red[part] = {f: _int(counts.get(f, 0), f"/red/{part}/{f}", 0, fpf, ident) for f in faces}
    out["red"] = out_red
    prefs = k.get("preferences")
    if not isinstance(prefs, list) or len(prefs) > MAX_VALUES:
        raise _err(f"must be a ranked list of at most {MAX_VALUES} preferences", "/preferences", ident)
    pairs = [_pair(p, f"/preferences/{j}", ident, vocab) for j, p in enumerate(prefs)]
    if len(set(pairs)) != len(pairs):
        raise _err("lists the same preference twice", "/preferences", ident)
    out["preferences"] = [{"attr": a, "value": v} for a, v in pairs]
    if "confirmed" in k:
        out["confirmed"] = _strings(k["confirmed"], "/confirmed", ident)
    return out


def _lady(lady: Any, i: int, vocab, ids: set[str]) -> dict[str, Any]:
    where = f"/ladies/{i}"
    lady = _obj(lady, where)
    ident = _card_id(lady, where, ids)
    _only(lady, {"id", "name", "provenance", "attributes", "confirmed"}, where, ident)
    out: dict[str, Any] = {"id": ident, "name": _text(lady.get("name"), "/name", ident)}
    prov = lady.get("provenance", "user")
    if prov not in PROVENANCES:
        raise _err(f"must be one of {', '.join(PROVENANCES)}", "/provenance", ident)
    out["provenance"] = prov
    attrs = _obj(lady.get("attributes"), "/attributes", ident)
    for attr, v in attrs.items():
        if attr not in vocab:
            raise _err(f"attribute {attr!r} is not in the vocabulary ({', '.join(vocab)})", f"/attributes/{attr}", ident)
        if v not in vocab[attr]:
            raise _err(f"value {v!r} is not a {attr} of the vocabulary", f"/attributes/{attr}", ident)
    out["attributes"] = dict(attrs)
    if "confirmed" in lady:
        out["confirmed"] = _strings(lady["confirmed"], "/confirmed", ident)
    return out


def _strings(value: Any, field: str, card: str) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_VALUES:
        raise _err(f"must be a list of at most {MAX_VALUES} strings", field, card)
    for j, s in enumerate(value):
        _text(s, f"{field}/{j}", card)
    return list(value)


def parse(doc: dict[str, Any], digest: str | None = None) -> Cards:
    """A canonical, validated document as the engine's ``Cards``."""
    faces = MOUNTED_FACES + FOOT_FACES
    knights = tuple(
        KnightCard(
            k["id"], k["name"], k["attackDice"],
            tuple(k["red"]["mounted" if f in MOUNTED_FACES else "foot"][f] for f in faces),
            tuple((p["attr"], p["value"]) for p in k["preferences"]),
            k["provenance"],
        )
        for k in doc["knights"]
    )
    ladies = tuple(
        LadyCard(lady["id"], lady["name"], tuple(sorted(lady["attributes"].items())), lady["provenance"])
        for lady in doc["ladies"]
    )
    provs = {doc["provenance"], *(c.provenance for c in knights), *(c.provenance for c in ladies)}
    return Cards(
        digest or card_set_hash(doc), doc["name"], doc["provenance"], knights, ladies,
        doc["tracks"]["attackDice"]["max"], doc["tracks"]["attackDice"]["min"], doc["fieldsPerFace"],
        "placeholder" in provs,
    )


@lru_cache(maxsize=64)
def _parsed(text: str) -> Cards:
    doc = json.loads(text)
    return parse(validate_card_set(doc), hashlib.sha256(text.encode("utf-8")).hexdigest())


def cards_from_doc(doc: dict[str, Any]) -> Cards:
    """Validate and parse (cached by content)."""
    canon = validate_card_set(doc)
    return _parsed(canonical_json(canon))


@lru_cache(maxsize=1)
def placeholder_doc() -> dict[str, Any]:
    return validate_card_set(json.loads((_DIR / "placeholder.json").read_text("utf-8")))


@lru_cache(maxsize=1)
def placeholder_hash() -> str:
    return card_set_hash(placeholder_doc())


#: sets shipped before, kept so that a log recorded with one (by its hash alone) replays as it was recorded:
#: placeholder-1.json, the placeholder set with its German attribute values and "Ritter 3 (placeholder)" names
RETIRED = ("placeholder-1.json",)


@lru_cache(maxsize=1)
def builtin_sets() -> dict[str, dict[str, Any]]:
    """Hash -> document of the sets shipped with the engine (the current placeholder first, then retired ones)."""
    doc = placeholder_doc()
    out = {card_set_hash(doc): doc}
    for name in RETIRED:
        old = validate_card_set(json.loads((_DIR / name).read_text("utf-8")))
        out[card_set_hash(old)] = old
    return out


def shipped_placeholder(digest: str) -> bool:
    """Whether ``digest`` is a placeholder set the engine ships (today's, or one a log recorded before)."""
    return digest in builtin_sets()


@lru_cache(maxsize=4)
def builtin_cards(digest: str) -> Cards:
    return parse(builtin_sets()[digest], digest)


def summary(doc: dict[str, Any]) -> dict[str, Any]:
    """What a list of card sets shows for one set (placeholder labelled)."""
    provs = {doc["provenance"], *(c.get("provenance", "user") for c in doc["knights"] + doc["ladies"])}
    placeholder = "placeholder" in provs
    digest = card_set_hash(doc)
    if shipped_placeholder(digest):
        label = say("PLACEHOLDER card values (not the printed cards)")
    elif placeholder:  # a club's own set, some of its values still the placeholder's: it keeps its own name
        label = say("own cards, some values still the placeholder's (not the printed cards)")
    else:
        label = say("printed cards") if provs == {"printed"} else \
            say("user-entered cards (not checked against a printed box)")
    return {
        "hash": digest,
        "name": doc["name"],
        "provenance": doc["provenance"],
        "placeholder": placeholder,
        "label": label,
        "knights": len(doc["knights"]),
        "ladies": len(doc["ladies"]),
    }
