"""Stapelen on the table: the deck (its picker enters the deal), the 13
columns, and each player's three foundations (fundamenten). A take is a tap
on a column's top card and a tap on one of the mover's foundations, in
either order."""

from __future__ import annotations

from typing import Any

from ..jogledor.scene import card_text, column_id, deck_zone, moves_by_type, seat_text, tableau_zone
from ..scene import Element, Scene, Zone, text


def foundation_id(seat: int, f: int) -> str:
    """The element id of foundation ``f`` (1–3) of ``seat``."""
    return f"foundation-{seat}-{f}"


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    zones = [deck_zone(view)] if view.get("phase") == "deal" else [tableau_zone(view)]
    takes = moves_by_type(moves, "take")
    foundations = view.get("foundations") or [[{"cards": [], "top": None, "count": 0}] * 3] * 2
    seat_zones = []
    for s in (0, 1):
        elements = []
        for f, pile in enumerate(foundations[s], start=1):
            top = pile.get("top")
            label = text(f"Foundation {f}: empty", f"Fundament {f}: leeg")
            if top:
                name = card_text(top)
                label = text(f"Foundation {f}: {name['en']} ({pile['count']})", f"Fundament {f}: {name['nl']} ({pile['count']})")
            elements.append(Element(foundation_id(s, f), "pile" if top else "slot", label,
                                    shows={"card": top, "count": pile.get("count", 0), "cards": list(pile.get("cards", []))}))
        seat_zones.append(Zone(f"seat-{s}", "seat", text(seat_text(s)), elements, seat=s))
    if zones[0].id == "tableau":
        by_id = {e.id: e for z in [zones[0], *seat_zones] for e in z.elements}
        for m in takes:
            d = m["data"]
            by_id[column_id(d["column"])].targets.setdefault(foundation_id(m["seat"], d["foundation"]), []).append(m)
        involved = {i for e in by_id.values() if e.targets for i in (e.id, *e.targets)}
        for e in by_id.values():
            e.highlight = e.id in involved
    for z in seat_zones:
        if z.seat == view.get("to_move"):
            z.label = text(f"{seat_text(z.seat)} to move", f"{seat_text(z.seat)} is aan de beurt")
    return Scene(zones + seat_zones)
