"""Troje's table as a scene (``engine.scene``, issue 19): Catan's board with
the scenario's sea, and the scenario's own pieces beside it.

- The board: Catan's land hexes, intersections and paths (Troy, *Troje*, and
  Mycenae, *Mykene*, named on their hexes), and every sea tile (*zeetegel*)
  in play, numbered as the API names them, with its ship symbol
  (*scheepssymbool*), a ship (*schip*) in its owner's colour and the sea
  people (*zeevolk*). A tap on a sea tile builds a ship there, moves the sea
  people there (its picker names whom to draw from) or uses one's ship's
  advantage (*voordeel*) on the support stack.
- The support stack (*ondersteuningsstapel*): a tap donates (*afdragen*) the
  cards the table saw, 1, 2 or 3; "Donated unseen" enters a donation whose
  cards lay face down; the blind draw of a ship's advantage and the battle's
  turned-up cards (*strijd*) are entered on it.
- The saga track (*saga-lijst*): both sides' victory-point cards; the
  decision cards turned up at the end are entered on it.
- The trade chips (*handelskaartjes*) a trade-chip ship lets its builder take.
- Each player's area: Catan's hand and resources (a tap on the hand lays a
  card back after a swap), then the decision card (*beslissingskaart*: the
  deal is entered on it), the ship tiles left (*scheepsfiches*: the tile
  turned up is entered on them), trade points (*handelspunten*), chips.

Built only from the viewer's view and moves: the support stack shows what
the viewer knows of it, a decision card its side only where the viewer may
know it.
"""

from __future__ import annotations

from typing import Any

from ..catan.scene import (RES_NL, SEAT_COLOURS, _by_type, bank_zone, board_zone, cards_text, domestic_trades,
                           maritime_trades, seat_text, seat_zone, turn_zone)
from ..catan.pieces import RES
from ..scene import Chance, Element, Scene, Zone, labelled, text
from .board import ADVANTAGES

SEA = "#4a90c8"
SIDES = {"troy": text("Troy", "Troje"), "mycenae": text("Mycenae", "Mykene")}
ADVANTAGE_TEXT = {
    "harbour_3to1": text("3:1 harbour", "3:1-haven"), "victory_point": text("victory point", "overwinningspunt"),
    "swap": text("swap a stack card", "stapelkaart ruilen"), "trade_chip": text("2:1 trade chip", "2:1-handelskaartje"),
    "draw": text("draw a stack card", "stapelkaart trekken"),
}
#: a ship's advantage as a word under its hull
ADVANTAGE_SHORT = {"harbour_3to1": "3:1", "victory_point": "VP", "swap": "⇄", "trade_chip": "2:1", "draw": "+1"}
PHASE_TEXT = {
    "deal": ("the decision cards dealt", "de beslissingskaarten gedeeld"),
    "setup_settlement": ("set-up: a settlement", "opbouw: een dorp"),
    "setup_road": ("set-up: a road", "opbouw: een straat"),
    "roll": ("to roll", "dobbelen"), "dice": ("the dice rolled", "de worp"), "discard": ("discard half", "afleggen"),
    "sea_people": ("move the sea people", "het zeevolk verplaatsen"), "steal": ("the card drawn", "de getrokken kaart"),
    "main": ("trade and build", "handelen en bouwen"),
    "special_building": ("special building phase", "extra bouwfase"),
    "ship_tile": ("the ship tile turned up", "het omgedraaide scheepsfiche"),
    "take_chip": ("take a trade chip", "een handelskaartje pakken"),
    "stack_card": ("the card drawn from the support stack", "de kaart uit de ondersteuningsstapel"),
    "return_card": ("lay a card back on the support stack", "een kaart terugleggen op de ondersteuningsstapel"),
    "battle": ("the battle's cards turned up", "de open gelegde kaarten van de strijd"),
    "reveal": ("the decision cards turned up", "de beslissingskaarten omgedraaid"),
    "over": ("the game is over", "het spel is uit"),
}
UNKNOWN = "unknown"
UNKNOWN_TEXT = text("unknown (not seen)", "onbekend (niet gezien)")


def _due(view: dict[str, Any], event: str) -> dict[str, Any] | None:
    due = (view.get("troje") or {}).get("due")
    return due if due and due["event"] == event else None


def _res_names() -> dict[str, dict[str, str]]:
    return {r: text(r, RES_NL[r]) for r in RES} | {UNKNOWN: UNKNOWN_TEXT}


def sea_elements(view: dict[str, Any], moves: list[dict[str, Any]]) -> list[Element]:
    """Every sea tile in play: its number, ship symbol, ship and the sea
    people, and the moves a tap there means."""
    T = view["troje"]
    here: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for m in moves:
        if m["type"] == "build_ship":
            here.setdefault(tuple(m["data"]["tile"]), []).append(labelled(m, "build a ship here", "hier een schip bouwen"))
        elif m["type"] == "move_sea_people":
            v = m["data"]["victim"]
            t = text(f"the sea people here, draw from {seat_text(v)}", f"het zeevolk hierheen, trekken bij {seat_text(v)}") \
                if v is not None else text("the sea people here, draw from nobody", "het zeevolk hierheen, bij niemand trekken")
            here.setdefault(tuple(m["data"]["tile"]), []).append(labelled(m, t["en"], t["nl"]))
        elif m["type"] == "use_advantage":
            here.setdefault(tuple(m["data"]["ship"]), []).append(
                labelled(m, "use the ship's advantage: a card from the support stack",
                         "het voordeel van het schip: een kaart uit de ondersteuningsstapel"))
    people = tuple(T.get("sea_people") or ())
    out = []
    for i, tile in enumerate(T.get("sea_tiles") or []):
        at = tuple(tile["at"])
        en, nl = f"Sea tile #{i}", f"Zeetegel #{i}"
        shows: dict[str, Any] = {"at": list(at), "fill": SEA, "tag": f"#{i}"}
        if tile.get("ship_symbol"):
            shows["symbol"] = True
            en, nl = en + " (ship symbol)", nl + " (scheepssymbool)"
        ship = tile.get("ship")
        if ship:
            adv = ADVANTAGE_TEXT.get(ship["advantage"], text(ship["advantage"]))
            shows["ship"] = {"colour": SEAT_COLOURS[ship["owner"] % 6], "owner": ship["owner"],
                             "mark": ADVANTAGE_SHORT.get(ship["advantage"], "?"), "blocked": bool(ship.get("blocked"))}
            en += f", {seat_text(ship['owner'])}'s ship: {adv['en']}"
            nl += f", schip van {seat_text(ship['owner'])}: {adv['nl']}"
            if ship.get("blocked"):
                en, nl = en + " (blocked by the sea people)", nl + " (geblokkeerd door het zeevolk)"
        if at == people:
            shows["people"] = True
            en, nl = en + ", the sea people", nl + ", het zeevolk"
        ms = here.get(at, [])
        out.append(Element(f"sea-{i}", "hex", text(en, nl), shows=shows, moves=ms, highlight=bool(ms)))
    return out


def board(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    zone = board_zone(view, moves)
    cities = {tuple(at): city for city, at in (view["troje"].get("cities") or {}).items()}
    for e in zone.elements:
        city = cities.get(tuple(e.shows.get("at") or ()))
        if e.kind == "hex" and city:
            e.label = SIDES.get(city, text(city))
            e.shows["name"] = e.label
    zone.elements = sea_elements(view, moves) + zone.elements  # the sea under the land's pieces
    return zone


def troje_zone(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    """The support stack, the saga track, the battles and the trade chips."""
    T = view["troje"]
    st = T["support_stack"]
    n, at = st["cards"], st["battle_at"]
    known = (st.get("as_known") or {}).get("known") or {}
    elements = []
    donations = _by_type(moves, "donate")
    stack_moves = []
    for m in donations:
        cards = m["data"]["cards"]
        if cards is None:
            continue  # the face-down count: "Donated unseen"
        k = m["data"]["count"]
        t = cards_text(cards)
        stack_moves.append(labelled(m, f"donate {t['en']}", f"afdragen: {t['nl']}",
                                    group=text(f"{k} card" + ("s" if k > 1 else ""), f"{k} kaart" + ("en" if k > 1 else ""))))
    picker = None
    if _due(view, "stack_card"):
        could = [r for r in RES if known.get(r)] if not (st.get("as_known") or {}).get("unseen") else list(RES)
        picker = Chance(type="stack_card", field="card", scalar=True, seat=_due(view, "stack_card")["seat"],
                        values=[*could, UNKNOWN], names=_res_names(),
                        label=text("The card drawn blind from the support stack (unknown: not seen)",
                                   "De blind getrokken kaart uit de ondersteuningsstapel (onbekend: niet gezien)"))
    elif _due(view, "battle"):
        k = st["turned_up_in_battle"]
        picker = Chance(type="battle", field="revealed", values=list(RES), count=k, repeat=True, counts=True,
                        names=_res_names(),
                        label=text(f"The battle: tap the {k} cards turned up (ore and wool for Troy, lumber and grain "
                                   "for Mycenae)",
                                   f"De strijd: tik de {k} open gelegde kaarten aan (erts en wol voor Troje, hout en "
                                   "graan voor Mykene)"))
    shown = ", ".join(f"{k} {r}" for r, k in known.items() if k)
    shown_nl = ", ".join(f"{k} {RES_NL[r]}" for r, k in known.items() if k)
    elements.append(Element(
        "support-stack", "pile",
        text(f"Support stack {n}/{at}" + (f" ({shown})" if shown else ""),
             f"Ondersteuningsstapel {n}/{at}" + (f" ({shown_nl})" if shown_nl else "")),
        shows={"count": n}, face_down=True, moves=stack_moves, chance=picker, highlight=bool(stack_moves or picker)))
    unseen = next((m for m in donations), None)
    if unseen is not None:
        donor = unseen["seat"]
        most = max(m["data"]["count"] for m in donations)
        elements.append(Element(
            "donate-unseen", "action", text(f"{seat_text(donor)} donates, cards not seen",
                                            f"{seat_text(donor)} draagt af, kaarten niet gezien"),
            chance=Chance(type="donate", field="count", scalar=True, numeric=True, seat=donor,
                          values=[str(k) for k in range(1, most + 1)], data={"cards": None},
                          label=text("How many cards were laid face down on the support stack",
                                     "Hoeveel kaarten afgedekt op de ondersteuningsstapel zijn gelegd")),
            highlight=True))
    saga = T["saga"]
    track = saga["track"]
    reveal = None
    if _due(view, "reveal_allegiances"):
        players = len(view.get("players") or [])
        reveal = Chance(type="reveal_allegiances", field="sides", values=list(SIDES), count=players, repeat=True,
                        names=dict(SIDES),
                        label=text("The decision cards turned up, seat by seat",
                                   "De omgedraaide beslissingskaarten, speler voor speler"))
    elements.append(Element(
        "saga", "action" if reveal else "label",
        text(f"Saga track: Troy {saga['vp']['troy']} VP · Mycenae {saga['vp']['mycenae']} VP",
             f"Saga-lijst: Troje {saga['vp']['troy']} OP · Mykene {saga['vp']['mycenae']} OP"),
        shows={"marks": [{"label": SIDES[side], "value": saga[side], "max": len(track)} for side in SIDES]},
        chance=reveal, highlight=bool(reveal)))
    battles = T.get("battles") or []
    if battles:
        last = battles[-1]
        score = f"{last['troy_points']}–{last['mycenae_points']}"
        won = SIDES.get(last["won_by"]) if last["won_by"] else None
        elements.append(Element("battles", "label", text(
            f"Battles {len(battles)}: the last {score}, " + (f"{won['en']} won" if won else "a tie"),
            f"Gevechten {len(battles)}: het laatste {score}, " + (f"{won['nl']} won" if won else "gelijkspel"))))
    if T.get("war_won_by"):
        won = SIDES[T["war_won_by"]]
        elements.append(Element("war", "label", text(f"The war is over: {won['en']} won it",
                                                      f"De oorlog is voorbij: {won['nl']} heeft gewonnen")))
    chips = T.get("trade_chips_left") or {}
    takes = {m["data"]["resource"]: m for m in _by_type(moves, "take_chip")}
    for r in RES:
        if chips.get(r) or r in takes:
            ms = [labelled(takes[r], f"take the 2:1 {r} chip", f"het 2:1-kaartje {RES_NL[r]} pakken")] if r in takes else []
            elements.append(Element(f"chip-{r}", "action" if ms else "count",
                                    text(f"2:1 {r} chips {chips.get(r, 0)}", f"2:1-kaartjes {RES_NL[r]} {chips.get(r, 0)}"),
                                    shows={"count": chips.get(r, 0), "resource": r}, moves=ms, highlight=bool(ms)))
    decline = [labelled(m, "take no trade chip", "geen handelskaartje pakken") for m in _by_type(moves, "decline_chip")]
    if decline:
        elements.append(Element("no-chip", "action", text("No trade chip", "Geen handelskaartje"), moves=decline,
                                highlight=True))
    tiles = T.get("ship_tiles") or {}
    if tiles.get("placeholder"):
        elements.append(Element("ship-tiles-placeholder", "label", text(tiles["label"],
                                                                        "voorlopige verdeling (niet de gedrukte fiches)")))
    return Zone("troje", "row", text("Troy and Mycenae", "Troje en Mykene"), elements)


def turn(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    zone = turn_zone(view, moves)
    phase = view.get("phase", "")
    en, nl = PHASE_TEXT.get(phase, (phase.replace("_", " "), phase.replace("_", " ")))
    actor = view.get("building", view.get("turn", 0))
    head = zone.elements[0]
    if phase in ("deal", "reveal"):
        head.label = text(f"Troje: {en}", f"Troje: {nl}")
    else:
        who = seat_text(actor)
        head.label = text(f"Turn {view.get('turn_number', 0)}: {who}, {en}",
                          f"Beurt {view.get('turn_number', 0)}: {who}, {nl}")
    claims = [labelled(m, "claim the win: 15 victory points", "de overwinning opeisen: 15 overwinningspunten")
              for m in _by_type(moves, "claim_win")]
    if claims:
        zone.elements.append(Element("claim-win", "action", text("Claim the win", "Overwinning opeisen"),
                                     moves=claims, highlight=True))
    return zone


def seat(view: dict[str, Any], p: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    zone = seat_zone(view, p, moves)
    s = p["seat"]
    hand = next(e for e in zone.elements if e.id == f"hand-{s}")
    back = [labelled(m, *((f"lay back {m['data']['card']}", f"terugleggen: {RES_NL[m['data']['card']]}")
                          if m["data"]["card"] else ("lay back a card not seen", "een niet geziene kaart terugleggen")))
            for m in _by_type(moves, "return_card") if m["seat"] == s]
    if back:
        hand.moves += back
        hand.kind, hand.highlight = "action", True
    steal = _due(view, "steal")
    if hand.chance is not None and steal:
        hand.chance.seat = steal["seat"]  # in the Special Building Phase the builder draws
        hand.chance.names = _res_names()
    zone.elements = [e for e in zone.elements if not e.id.startswith(("score-", "dev-"))]
    side = p.get("side")
    deal = _due(view, "decision_card")
    picker = None
    if deal and deal["seat"] == s:
        picker = Chance(type="decision_card", field="side", scalar=True, seat=s, values=[*SIDES, UNKNOWN],
                        names={**SIDES, UNKNOWN: UNKNOWN_TEXT},
                        label=text(f"{seat_text(s)}'s decision card (unknown: the table did not see it)",
                                   f"De beslissingskaart van {seat_text(s)} (onbekend: de tafel zag hem niet)"))
    shown = SIDES[side] if side in SIDES else text("secret", "geheim")
    zone.elements.append(Element(f"side-{s}", "action" if picker else "label",
                                 text(f"Decision card: {shown['en']}", f"Beslissingskaart: {shown['nl']}"),
                                 shows={"side": side}, chance=picker, highlight=bool(picker)))
    left = p.get("ship_tiles_left") or {}
    tile = _due(view, "ship_tile")
    picker = None
    if tile and tile["seat"] == s:
        picker = Chance(type="ship_tile", field="advantage", scalar=True, seat=s,
                        values=[a for a in ADVANTAGES if left.get(a)], names=dict(ADVANTAGE_TEXT),
                        label=text(f"The ship tile {seat_text(s)} turned up", f"Het scheepsfiche dat {seat_text(s)} omdraaide"))
    k = sum(left.values())
    zone.elements.append(Element(f"ship-tiles-{s}", "action" if picker else "count",
                                 text(f"Ship tiles {k}", f"Scheepsfiches {k}"), shows={"count": k}, face_down=True,
                                 chance=picker, highlight=bool(picker)))
    chips = ", ".join(f"2:1 {c['resource']}" for c in p.get("trade_chips") or [])
    chips_nl = ", ".join(f"2:1 {RES_NL[c['resource']]}" for c in p.get("trade_chips") or [])
    saga = "?" if p.get("saga_vp") is None else p["saga_vp"]
    vp = p.get("vp", p.get("public_vp", 0))
    zone.elements.append(Element(
        f"score-{s}", "label",
        text(f"{vp} VP · trade points {p.get('trade_points', 0)} · saga {saga} · ships {p.get('ship_vp', 0)} VP · "
             f"road {p.get('road_length', 0)}" + (f" · {chips}" if chips else "") +
             (" · longest road" if view.get("longest_road") == s else ""),
             f"{vp} OP · handelspunten {p.get('trade_points', 0)} · saga {saga} · schepen {p.get('ship_vp', 0)} OP · "
             f"route {p.get('road_length', 0)}" + (f" · {chips_nl}" if chips_nl else "") +
             (" · langste handelsroute" if view.get("longest_road") == s else "")),
        shows={"vp": vp, "colour": SEAT_COLOURS[s % 6]}))
    return zone


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    zones = [turn(view, moves), board(view, moves), troje_zone(view, moves)]
    bank, piles = bank_zone(view, moves)
    bank.elements = [e for e in bank.elements if e.id != "dev-deck"]  # no development cards in Troje
    zones.append(bank)
    seats = [seat(view, p, moves) for p in view.get("players") or []]
    zones += seats
    maritime_trades(seats, piles, moves)
    domestic_trades(view, seats, moves)
    return Scene(zones)
