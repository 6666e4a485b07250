"""Twaalven en veertienen on the table: the deck (its picker enters the
deal), the 13 columns (tap one top card, then the other, to take a pair),
and each player's area (who collects twelves or fourteens, the pairs
taken; before the first turn, a tap there settles the roles)."""

from __future__ import annotations

from typing import Any

from ..jogledor.scene import column_id, counted, deck_zone, moves_by_type, seat_text, tableau_zone
from ..scene import Element, Scene, Zone, labelled, text


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    zones = [deck_zone(view)] if view.get("phase") == "deal" else [tableau_zone(view)]
    if zones[0].id == "tableau":
        by_id = {e.id: e for e in zones[0].elements}
        for m in moves_by_type(moves, "take"):
            a, b = m["data"]["columns"]
            by_id[column_id(a)].targets.setdefault(column_id(b), []).append(m)
        involved = {i for e in zones[0].elements for i in ([e.id] if e.targets else []) + list(e.targets)}
        for e in zones[0].elements:
            e.highlight = e.id in involved
    roles = moves_by_type(moves, "roles")
    for s in (0, 1):
        who = seat_text(s)
        elements = []
        if view.get("twelves") is None:
            picks = [labelled(m, f"{seat_text(m['data']['first'])} starts", f"{seat_text(m['data']['first'])} begint")
                     for m in roles if m["data"]["twelves"] == s]
            elements.append(Element(f"role-{s}", "action",
                                    text(f"{who} collects the twelves", f"{who} verzamelt de twaalven"),
                                    moves=picks, highlight=bool(picks)))
        else:
            kind = 12 if view["twelves"] == s else 14
            word = text("twelves", "twaalven") if kind == 12 else text("fourteens", "veertienen")
            elements.append(Element(f"role-{s}", "label", text(f"Collects {word['en']}", f"Verzamelt {word['nl']}"),
                                    shows={"sum": kind}, highlight=view.get("to_move") == s))
        taken = (view.get("taken") or [[], []])[s]
        elements.append(Element(f"taken-{s}", "pile", counted(text("Pairs taken", "Gepakte paren"), len(taken)),
                                shows={"count": len(taken), "card": taken[-1][-1] if taken else None,
                                       "cards": [c for pair in taken for c in pair]}))
        zones.append(Zone(f"seat-{s}", "seat", text(who), elements, seat=s))
    return Scene(zones)
