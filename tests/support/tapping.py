"""Which taps on a drawing enter a given move: the place of a move
(``tests.test_web.scene_place``), and for a chance outcome the picker that
takes it and the values to tap in it, worked out from the scene's own
``Chance`` description, as the page's picker builds the event from its taps
(``static/scene.js``, ``openChance``)."""

from __future__ import annotations

from typing import Any


def picker_values(chance: dict[str, Any], data: dict[str, Any]) -> list[str] | None:
    """The values to tap in ``chance``'s picker so that it builds ``data``, or None when it cannot."""
    if any(data.get(k) != v for k, v in (chance.get("data") or {}).items()):
        return None
    field = chance["field"]
    if field in data:
        value = data[field]
    elif field == "cards" and "columns" in data:  # a patience's deal, tapped as it is laid out: row by row
        columns = data["columns"]
        value = [columns[i % len(columns)][i // len(columns)] for i in range(sum(len(c) for c in columns))]
    elif field == "cards" and "knights" in data:  # the knights' deal, seat by seat: a seat's knights, then ladies
        ladies = data.get("ladies") or [[] for _ in data["knights"]]
        value = [c for i, row in enumerate(data["knights"]) for c in row + ladies[i]]
    else:
        return None
    if chance.get("counts"):
        if not isinstance(value, dict):
            return None
        value = [v for v, n in value.items() for _ in range(n)]
    elif chance.get("scalar"):
        value = [value]
    elif chance.get("groups"):
        value = [v for group in value for v in group]
    if not isinstance(value, list):
        return None
    return [str(v) if chance.get("numeric") else v for v in value]


def built(chance: dict[str, Any], values: list[str]) -> dict[str, Any]:
    """The event the picker sends for these taps (what scene.js's Record button builds)."""
    as_ = (lambda v: int(v)) if chance.get("numeric") else (lambda v: v)
    if chance.get("scalar"):
        value: Any = as_(values[0])
    elif chance.get("counts"):
        value = {}
        for v in values:
            value[v] = value.get(v, 0) + 1
    elif chance.get("groups"):
        value, at = [], 0
        for n in chance["groups"]:
            value.append([as_(v) for v in values[at:at + n]])
            at += n
    else:
        value = [as_(v) for v in values]
    return {"type": chance["type"], "seat": chance.get("seat"), "data": {**(chance.get("data") or {}), chance["field"]: value}}


def chance_place(scene: dict[str, Any], move: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """The element whose picker enters the chance outcome ``move``, and the values to tap there."""
    for zone in scene["zones"]:
        for element in zone["elements"]:
            chance = element.get("chance")
            if not chance or chance["type"] != move["type"] or chance.get("seat") != move["seat"]:
                continue
            values = picker_values(chance, move["data"])
            if values is not None and len(values) <= chance["count"] and all(v in chance["values"] for v in values):
                return element, values
    return None
