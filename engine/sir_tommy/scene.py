"""Sir Tommy voor twee on the table: the face-down stock (raapstapel; its
picker enters the three cards drawn), the cards drawn this turn, the four
rows of the tableau, and each player's four foundations with a "done"
button. A build is a tap on a drawn card or a row's top card and a tap on
a foundation; a leftover goes on a row by a tap on it and on the row."""

from __future__ import annotations

from typing import Any

from ..jogledor.scene import ALL_CARDS, card_text, chance_due, moves_by_type, seat_text, seen_cards
from ..scene import Chance, Element, Scene, Zone, counted, text


def foundation_id(seat: int, f: int) -> str:
    return f"foundation-{seat}-{f}"


def row_id(r: int) -> str:
    return f"row-{r}"


def drawn_id(card: str) -> str:
    return f"drawn-{card}"


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    rows = view.get("rows") or [[], [], [], []]
    foundations = view.get("foundations") or [[{"cards": [], "top": None}] * 4] * 2
    drawn = view.get("drawn") or []
    stock = view.get("stock", 52)
    to_move = view.get("to_move")
    # the cards nobody has seen yet: those a draw may turn up
    seen = seen_cards([drawn, *rows, *(p["cards"] for s in foundations for p in s)])
    picker = None
    if chance_due(view) and stock:
        n = min(3, stock)
        picker = Chance(type="draw", field="cards", count=n, seat=to_move, values=[c for c in ALL_CARDS if c not in seen],
                        label=counted(n, ("Draw: tap the {n} card turned from the stock",
                                          "Draw: tap the {n} cards turned from the stock"),
                                      ("Trekken: tik de {n} kaart aan die van de raapstapel komt",
                                       "Trekken: tik de {n} kaarten aan die van de raapstapel komen")))
    stock_el = Element("stock", "pile", counted(stock, ("Stock: {n} card", "Stock: {n} cards"), ("Raapstapel: {n} kaart", "Raapstapel: {n} kaarten")),
                       shows={"count": stock}, face_down=True, chance=picker, highlight=picker is not None)
    drawn_els = [Element(drawn_id(c), "card", card_text(c), shows={"card": c}) for c in drawn]
    row_els = []
    for r, row in enumerate(rows, start=1):
        top = row[-1] if row else None
        label = text(f"Row {r}: empty", f"Rij {r}: leeg")
        if top:
            name = card_text(top)
            label = text(f"Row {r}: {name['en']}", f"Rij {r}: {name['nl']}")
        row_els.append(Element(row_id(r), "card" if top else "slot", label, shows={"cards": list(row), "card": top, "row": r}))
    seat_zones = []
    for s in (0, 1):
        up = view.get("up_seat", 0) == s
        elements = []
        for f, pile in enumerate(foundations[s], start=1):
            top = pile.get("top")
            nxt = pile.get("next")
            label = text(f"Foundation {f}: " + (card_text(top)["en"] if top else "empty"),
                         f"Fundament {f}: " + (card_text(top)["nl"] if top else "leeg"))
            elements.append(Element(foundation_id(s, f), "pile" if top else "slot", label,
                                    shows={"card": top, "count": len(pile.get("cards", [])), "next": nxt,
                                           "cards": list(pile.get("cards", []))}))
        ends = [m for m in moves_by_type(moves, "end_turn") if m["seat"] == s]
        if ends:
            elements.append(Element(f"done-{s}", "action", text("Done: end the turn", "Klaar: beurt voorbij"),
                                    moves=ends, highlight=True))
        way = text("builds up from the Aces", "bouwt op vanaf de azen") if up else text(
            "builds down from the Kings", "bouwt af vanaf de heren")
        seat_zones.append(Zone(f"seat-{s}", "seat", text(f"{seat_text(s)} {way['en']}", f"{seat_text(s)} {way['nl']}"),
                               elements, seat=s))
    by_id = {e.id: e for e in [*drawn_els, *row_els, *(e for z in seat_zones for e in z.elements)]}
    for m in moves:
        d = m["data"]
        if m["type"] == "build":
            src = drawn_id(d["card"]) if d["from"] == "drawn" else row_id(d["row"])
            by_id[src].targets.setdefault(foundation_id(m["seat"], d["foundation"]), []).append(m)
        elif m["type"] == "place":
            by_id[drawn_id(d["card"])].targets.setdefault(row_id(d["row"]), []).append(m)
    involved = {i for e in by_id.values() if e.targets for i in (e.id, *e.targets)}
    for e in by_id.values():
        e.highlight = e.highlight or e.id in involved
    zones = [
        Zone("stock", "stack", text("Stock", "Raapstapel"), [stock_el]),
        Zone("drawn", "row", text("Drawn this turn", "Getrokken deze beurt"), drawn_els),
        Zone("rows", "columns", text("Tableau: four rows", "Tableau: vier rijen"), row_els),
        *seat_zones,
    ]
    return Scene(zones)
