"""A game's table as the pages draw it: zones of elements, each tappable
element carrying the legal moves it stands for (issue 19).

The rules stay in the engine, the drawing in one generic renderer
(``service/web/static/scene.js``): a game declares *what* lies on the table
and which moves a tap there means; the renderer knows only the few zone kinds
below and never decides legality (as chessground's ``dests``: the server says
what may be picked, the board turns a tap into one of those moves).

A scene is a pure function of what the viewer may see::

    Game.scene(view, moves) -> Scene | None

``view`` is the match's view for that viewer (``MatchState.view(viewer)``:
``game.view`` plus ``seq``, ``status``, ``result`` and ``to_act``) and
``moves`` the legal moves that viewer may see (``Move.to_dict()`` dicts). A
scene built only from these cannot show a card the viewer may not see.

How a move is reached:

- ``Element.moves``: a tap on the element sends its move, or, with several,
  opens a small picker listing just those (each move may carry a ``label``
  ``{"en", "nl"}`` for that picker; it is not part of the move). Moves that
  also carry a ``group`` label (``labelled(..., group=...)``) are picked in
  two steps when there are two groups or more: first the group, then a move
  of it (a knight's 34 ways to train: first how many dice, then the fields).
- ``Element.targets``: ``{other element id: [moves]}``, for a move that names
  two places (a card and where it goes, the two cards of a pair). The table
  taps one and then the other, in either order; the move is declared once,
  on one of the two.
- ``Element.chance``: a chance picker, where the table would see the outcome
  (the draw pile): the event type, the field it fills, how many values and
  which (``values``; ``"unknown"`` among them where the game allows it), and
  ``data``, the fields it does not ask for (the village a turned-up card lies
  in). The same picker enters a seat's move that is a pick of several values
  (Troubadour's three nobles: 220 legal moves, one picker of twelve); such a
  move is reached there when the picker can build it (``builds``).
- ``Scene.fallback``: moves with no place on the table (the record page's
  text buttons enter them).

``coverage(scene, moves)`` finds the moves reachable from no place, or from
more than one: the scene tests check that it is empty for every position.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

#: the zone kinds the renderer lays out
ZONE_KINDS = frozenset({"row", "fan", "columns", "stack", "track", "seat", "hexboard"})
#: how a die of ``shows.dice`` is drawn: printed cover (red), a covered field, an open one, a die that hits, one
#: that a covered field blocks, one that misses
DIE_TONES = frozenset({"plain", "red", "covered", "open", "hit", "blocked", "miss"})
#: the element kinds the renderer draws (``hex``, ``vertex``, ``edge``: on a ``hexboard``)
ELEMENT_KINDS = frozenset({"card", "slot", "pile", "count", "action", "label", "trick", "token", "hex", "vertex", "edge"})


def text(en: str, nl: str | None = None) -> dict[str, str]:
    """A label in English and Dutch (the Dutch of the rules texts)."""
    return {"en": en, "nl": en if nl is None else nl}


def counted(n: int, en: tuple[str, str], nl: tuple[str, str]) -> dict[str, str]:
    """A label about a count ``n``: each language's singular for exactly one, its plural otherwise (never
    "card(s)", "kaart(en)"). ``en`` and ``nl`` are (singular, plural), ``{n}`` filled in."""
    i = 0 if n == 1 else 1
    return text(en[i].replace("{n}", str(n)), nl[i].replace("{n}", str(n)))  # ({seat0} stays for the renderer)


def move_key(move: dict[str, Any]) -> str:
    """A move's identity, its label left out: type, seat and data."""
    return json.dumps([move["type"], move.get("seat"), move.get("data", {})], sort_keys=True, separators=(",", ":"))


def labelled(move: dict[str, Any], en: str, nl: str | None = None,
             group: dict[str, str] | None = None) -> dict[str, Any]:
    """The move with a label for the picker that lists it, and the ``group``
    (a ``text``) it is listed under in a two-step picker."""
    out = {**move, "label": text(en, nl)}
    if group is not None:
        out["group"] = group
    return out


@dataclass
class Part:
    """One more field a picker fills beside its first, shown with it (a domestic trade: the cards given, then
    those got): ``count`` values at most, ``least`` at least, from ``values``, sent as counts
    ``{value: times picked}`` (``counts``) or as a list."""

    field: str
    values: list[str]
    count: int
    label: dict[str, str]
    least: int = 1
    counts: bool = True
    repeat: bool = True


@dataclass
class Chance:
    """A picker on the drawing: a chance outcome the table enters where it sees it, or a move made of values
    picked from what an element holds (a domestic trade from a hand, with its ``parts``; the name, and the
    scene's ``chance`` key, are from when it only entered chance outcomes). ``count`` values
    from ``values`` (distinct unless ``repeat``) fill ``data[field]`` of an
    event ``type`` for ``seat``; ``scalar``: one value, not a list;
    ``groups``: the values fill one list per group of these sizes, in turn
    (``[3, 3]``: each seat's cards of one draw, ``[[...], [...]]``);
    ``numeric``: the values are numbers written as text (a die's faces), sent
    as numbers; ``counts``: sent as ``{value: times picked}``."""

    type: str
    field: str
    values: list[str]
    count: int = 1
    seat: int | None = None
    scalar: bool = False
    repeat: bool = False
    label: dict[str, str] = field(default_factory=lambda: text("Enter the outcome", "Voer de uitkomst in"))
    groups: list[int] | None = None

    #: fewer values may be recorded, down to this many (None: exactly ``count``)
    least: int | None = None
    #: a value's name on its button (``{value: text(en, nl)}``), where the value alone says little
    names: dict[str, dict[str, str]] | None = None

    #: the event's other data, as it is (the village a turned-up card lies in)
    data: dict[str, Any] = field(default_factory=dict)
    numeric: bool = False
    #: the values go as counts, ``{value: times picked}`` (Troje's battle: the cards turned up by resource)
    counts: bool = False
    #: more fields picked in the same picker, each its own row (a trade: what is got, beside what is given)
    parts: list[Part] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.groups is not None and sum(self.groups) != self.count:
            raise ValueError(f"groups {self.groups} do not add up to count {self.count}")

    def builds(self, move: dict[str, Any]) -> bool:
        """Whether picking from this picker can enter ``move``: its type and
        seat, the fixed ``data``, and ``count`` of ``values`` in ``field``."""
        data = move.get("data", {})
        fields_ = {*self.data, self.field, *(p.field for p in self.parts)}
        if move["type"] != self.type or move.get("seat") != self.seat or set(data) != fields_:
            return False
        if any(data[k] != v for k, v in self.data.items()):
            return False
        if not all(picked(data[p.field], p.values, p.least, p.count, repeat=p.repeat, counts=p.counts)
                   for p in self.parts):
            return False
        value = data[self.field]
        if self.numeric:  # a number goes as one, its button says it as text
            value = [str(v) for v in value] if isinstance(value, list) else str(value)
        if self.scalar:
            return not self.counts and value in self.values
        if self.groups is not None:  # one list per group, in turn
            if not isinstance(value, list) or [len(v) if isinstance(v, list) else -1 for v in value] != self.groups:
                return False
            value = [v for group in value for v in group]
        least = self.least if self.least is not None else self.count
        return picked(value, self.values, least, self.count, repeat=self.repeat, counts=self.counts)


def picked(value: Any, values: list[str], least: int, most: int, *, repeat: bool, counts: bool) -> bool:
    """Whether ``value`` is what one row of a picker sends: ``least`` to ``most`` of ``values`` (distinct unless
    ``repeat``), as a list or, with ``counts``, as ``{value: times picked}``. One check for a picker's first
    row and for its parts (a trade's cards got), so the two cannot drift apart."""
    if counts:
        if not isinstance(value, dict) or not all(isinstance(k, int) and not isinstance(k, bool) and k > 0
                                                  for k in value.values()):
            return False
        value = [v for v, k in value.items() for _ in range(k)]
    if not isinstance(value, list) or not least <= len(value) <= most:
        return False
    if not repeat and len({json.dumps(v) for v in value}) != len(value):
        return False
    return all(v in values for v in value)


@dataclass
class Element:
    """One thing on the table: a card, a pile, an empty place, an action.

    ``shows``: what it shows (``{"card": "QH"}``, ``{"count": 23}``, a die's
    face...; a ``trick`` shows ``cards`` side by side, a trick or a round's
    pair, its label beside them); ``face_down``: its back only;
    ``highlight``: the table's eye goes here (something to tap now, or the top of a pile).

    A ``token`` (a game's own card or piece: a knight, a lady) shows its
    label and, for any kind, the renderer draws these parts of ``shows``:
    ``lines`` (short texts), ``dice`` (rows ``{"label", "faces", "spoken"}``: a face ``n`` or
    ``{"face", "tone"}``, tone one of ``DIE_TONES``; ``spoken``, what the row
    says to a screen reader) and
    ``marks`` (tracks ``{"label", "value", "max"}``: ``max`` marks, ``value``
    of them filled)."""

    id: str
    kind: str
    label: dict[str, str]
    shows: dict[str, Any] = field(default_factory=dict)
    moves: list[dict[str, Any]] = field(default_factory=list)
    targets: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    chance: Chance | None = None
    face_down: bool = False
    highlight: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ELEMENT_KINDS:
            raise ValueError(f"element kind {self.kind!r} is not one the renderer draws ({sorted(ELEMENT_KINDS)})")

    @property
    def tappable(self) -> bool:
        return bool(self.moves or self.targets or self.chance)


@dataclass
class Zone:
    """A part of the table laid out one way: ``row``/``fan`` (a hand, a
    row of piles), ``columns`` (patience columns: each element a column whose
    ``shows.cards`` lie overlapped, the last on top), ``stack`` (a pile with
    a count), ``track`` (marks along a line), ``seat`` (a player's area),
    ``hexboard`` (a board of hexes: ``hex`` elements at their axial
    ``shows.at`` ``[q, r]``, pointy-top, with a ``fill``, a ``number`` and a
    ``pawn``; ``vertex`` and ``edge`` elements where the ``shows.hexes`` they
    lie between meet, three or two, with a ``piece`` or a road in a
    ``colour``, a ``harbour`` text; only those with a piece, a mark or a move
    are sent, so a tap target is drawn only where a move is legal)."""

    id: str
    kind: str
    label: dict[str, str]
    elements: list[Element] = field(default_factory=list)
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ZONE_KINDS:
            raise ValueError(f"zone kind {self.kind!r} is not one the renderer lays out ({sorted(ZONE_KINDS)})")


@dataclass
class Scene:
    zones: list[Zone]
    #: moves with no place on the table
    fallback: list[dict[str, Any]] = field(default_factory=list)

    def elements(self) -> list[Element]:
        return [e for z in self.zones for e in z.elements]

    def to_dict(self) -> dict[str, Any]:
        """The scene as JSON data (``asdict``'s shape, an element without a
        picker has no ``chance``), built by hand: ``asdict`` deep-copies every
        value, and a board's scene (Catan: a few hundred elements, each with
        its hexes' coordinates) took it a tenth of a second per request."""
        def element(e: Element) -> dict[str, Any]:
            out = {name: getattr(e, name) for name in _ELEMENT_FIELDS}
            if e.chance is None:
                del out["chance"]
            else:
                out["chance"] = asdict(e.chance)
                if e.chance.groups is None:
                    del out["chance"]["groups"]
                if not e.chance.parts:
                    del out["chance"]["parts"]
            return out

        return {"zones": [{**{name: getattr(z, name) for name in _ZONE_FIELDS},
                           "elements": [element(e) for e in z.elements]} for z in self.zones],
                "fallback": list(self.fallback)}


_ELEMENT_FIELDS = tuple(f.name for f in fields(Element))
_ZONE_FIELDS = tuple(f.name for f in fields(Zone))


def placements(scene: Scene, moves: list[dict[str, Any]] = ()) -> dict[str, list[str]]:
    """Move key -> the places it is reached from (an element id, a pair of
    ids ``"a+b"``, an element's picker ``"id:picker"`` for those of ``moves``
    it can build, or ``"fallback"``)."""
    out: dict[str, list[str]] = {}
    pickers = [e for e in scene.elements() if e.chance is not None]
    for m in moves:
        for e in pickers:
            if e.chance.builds(m):
                out.setdefault(move_key(m), []).append(f"{e.id}:picker")
    ids = {e.id for e in scene.elements()}
    for e in scene.elements():
        for m in e.moves:
            out.setdefault(move_key(m), []).append(e.id)
        for other, moves in e.targets.items():
            if other not in ids:
                raise ValueError(f"element {e.id!r} targets {other!r}, which the scene does not hold")
            for m in moves:
                out.setdefault(move_key(m), []).append(f"{e.id}+{other}")
    for m in scene.fallback:
        out.setdefault(move_key(m), []).append("fallback")
    return out


def _offered(scene: Scene) -> list[dict[str, Any]]:
    out = [m for e in scene.elements() for m in e.moves]
    out += [m for e in scene.elements() for ms in e.targets.values() for m in ms]
    return out + list(scene.fallback)


def coverage(scene: Scene, moves: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The moves the scene gets wrong: ``unreachable`` (legal, no place),
    ``ambiguous`` (more than one place), ``illegal`` (offered, not legal).
    All three empty: every move is one tap (or one pair of taps, or one
    picker) away. (What a picker offers is not listed: the server checks it.)"""
    places = placements(scene, moves)
    offered = {move_key(m): {k: m[k] for k in ("type", "seat", "data") if k in m} for m in _offered(scene)}
    legal = {move_key(m): m for m in moves}
    return {
        "unreachable": [m for k, m in legal.items() if k not in places],
        "ambiguous": [m for k, m in legal.items() if len(places.get(k, ())) > 1],
        "illegal": [offered[k] for k in places if k not in legal],
    }
