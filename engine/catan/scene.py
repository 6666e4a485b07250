"""Catan's table as a scene (``engine.scene``, issue 19): the board as a hex
board the recorder taps, the dice, the bank and each player's area.

- The board (``hexboard``): every land hex (its terrain, number token and the
  robber, *struikrover*), the intersections (*kruispunten*) and paths that
  hold a piece or a harbour (*haven*), and, while a move is legal there, the
  intersection or path itself: a tap there builds the settlement (*dorp*),
  the city (*stad*) or the road (*straat*). On a 7 or a knight a tap on a hex
  moves the robber there; its picker names whom to rob.
- The dice (*dobbelstenen*): a tap rolls; then the dice pad enters the two
  faces rolled. "End turn" (*beurt beëindigen*) beside them.
- The bank: its five resource piles (a tap on one of one's own resources,
  then on the bank's pile wanted, is a maritime trade, *zeehandel*) and the
  development deck (a tap buys a card; its picker enters the card drawn).
- Each player's area: the hand (a tap there discards on a 7: *afleggen*;
  the stolen card is entered on the robbed hand), the resources as counts,
  the development cards the viewer knows (a tap plays one: *ridder*,
  *stratenbouw*, *uitvinding*, *monopolie*), victory points and titles.

Built only from the viewer's view and the moves they may see: a hand the
viewer does not see shows only what the viewer knows of it. The board zone
(``board_zone``) reads only the view's ``layout``, robber, buildings and
roads, so a scenario on the same board (Troje) can add its own elements.
"""

from __future__ import annotations

from typing import Any

from ..scene import Chance, Element, Part, Scene, Zone, counted, labelled, text
from .pieces import DEV, RES

SEAT_COLOURS = ("#d7263d", "#1f5fa8", "#f08a24", "#f4f4f4", "#6b3e26", "#7b3fa0")
#: terrain -> (fill, English, Dutch)
TERRAIN = {
    "forest": ("#2f7d32", "forest", "bos"), "hills": ("#c0602b", "hills", "heuvelland"),
    "pasture": ("#9ccc65", "pasture", "weiland"), "fields": ("#e9c046", "fields", "akkerland"),
    "mountains": ("#8f8f96", "mountains", "gebergte"), "desert": ("#e3d3a4", "desert", "woestijn"),
    "special": ("#d9c7a0", "special", "bijzonder"), "sea": ("#4a90c8", "sea", "zee"),
}
#: the resources as the Dutch rules text names them (Troje: "steenkaarten", "Steen is neutraal")
RES_NL = {"lumber": "hout", "brick": "steen", "wool": "wol", "grain": "graan", "ore": "erts"}
DEV_NAMES = {
    "knight": ("Knight", "Ridder"), "road_building": ("Road Building", "Stratenbouw"),
    "year_of_plenty": ("Year of Plenty", "Uitvinding"), "monopoly": ("Monopoly", "Monopolie"),
    "victory_point": ("Victory point", "Overwinningspunt"),
}
DICE_FACES = ["1", "2", "3", "4", "5", "6"]
UNKNOWN = "unknown"


def seat_text(seat: int) -> str:
    """A seat in a label: the renderer puts the player's name there."""
    return "{seat%d}" % seat


def res_text(r: str, n: int | None = None) -> dict[str, str]:
    if n is None:
        return text(r, RES_NL[r])
    return text(f"{n} {r}", f"{n} {RES_NL[r]}")


def cards_text(cards: dict[str, int]) -> dict[str, str]:
    parts = [res_text(r, n) for r in RES for n in [cards.get(r, 0)] if n]
    return text(", ".join(p["en"] for p in parts) or "nothing", ", ".join(p["nl"] for p in parts) or "niets")


def hex_id(i: int) -> str:
    return f"hex-{i}"


def vertex_id(i: int) -> str:
    return f"v-{i}"


def edge_id(i: int) -> str:
    return f"e-{i}"


def _by_type(moves: list[dict[str, Any]], *types: str) -> list[dict[str, Any]]:
    return [m for m in moves if m["type"] in types]


def board_zone(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    """The hex board: every land hex, the intersections and paths that hold
    a piece or a harbour or where a move is legal now, each with the hexes
    that meet there (axial ``[q, r]``: the renderer's geometry)."""
    layout = view["layout"]
    hexes = layout["hexes"]
    at_index = {tuple(h["at"]): i for i, h in enumerate(hexes)}

    def hex_name(c: list[int]) -> dict[str, str]:
        i = at_index.get(tuple(c))
        if i is None:
            return text("sea", "zee")
        h = hexes[i]
        _, en, nl = TERRAIN.get(h["terrain"], ("", h["terrain"], h["terrain"]))
        num = f" {h['number']}" if h.get("number") else ""
        return text(en + num, nl + num)

    def spot_name(cs: list[list[int]]) -> dict[str, str]:
        names = [hex_name(c) for c in cs]
        out = {}
        for k in ("en", "nl"):
            seen: list[str] = []
            for n in names:
                if n[k] not in seen:
                    seen.append(n[k])
            out[k] = " · ".join(seen)
        return out

    robber = tuple(view.get("robber") or ())
    robber_moves: dict[int, list[dict[str, Any]]] = {}
    for m in _by_type(moves, "move_robber"):
        victim = m["data"].get("victim")
        who = (text(f"rob {seat_text(victim)}", f"bestelen: {seat_text(victim)}") if victim is not None
               else text("rob nobody", "niemand bestelen"))
        robber_moves.setdefault(at_index[tuple(m["data"]["hex"])], []).append(labelled(m, who["en"], who["nl"]))
    elements: list[Element] = []
    for i, h in enumerate(hexes):
        fill, _, _ = TERRAIN.get(h["terrain"], ("#cccccc", "", ""))
        name = hex_name(h["at"])
        here = tuple(h["at"]) == robber
        label = text(f"{name['en']}{' (robber)' if here else ''}", f"{name['nl']}{' (struikrover)' if here else ''}")
        ms = robber_moves.get(i, [])
        elements.append(Element(
            hex_id(i), "hex", label, moves=ms, highlight=bool(ms),
            shows={"at": list(h["at"]), "fill": fill, **({"number": h["number"], "hot": h["number"] in (6, 8)}
                                                          if h.get("number") else {}),
                   **({"pawn": text("robber", "struikrover")} if here else {})}))

    built = {b["vertex"]: b for b in view.get("buildings") or []}
    harbours = {int(v): k for v, k in (layout.get("harbors") or {}).items()}
    vertex_moves: dict[int, list[dict[str, Any]]] = {}
    for m in _by_type(moves, "build_settlement", "build_city"):
        v = m["data"]["vertex"]
        what = text("build a settlement", "een dorp bouwen") if m["type"] == "build_settlement" \
            else text("build a city", "een stad bouwen")
        vertex_moves.setdefault(v, []).append(labelled(m, what["en"], what["nl"]))
    for v in sorted(set(built) | set(harbours) | set(vertex_moves)):
        cs = layout["vertices"][v]
        name = spot_name(cs)
        b = built.get(v)
        shows: dict[str, Any] = {"hexes": cs}
        label = text(f"Intersection {v}: {name['en']}", f"Kruispunt {v}: {name['nl']}")
        if b:
            shows |= {"piece": b["kind"], "colour": SEAT_COLOURS[b["owner"] % 6], "owner": b["owner"]}
            piece = text("settlement", "dorp") if b["kind"] == "settlement" else text("city", "stad")
            label = text(f"{label['en']}, {seat_text(b['owner'])}'s {piece['en']}",
                         f"{label['nl']}, {piece['nl']} van {seat_text(b['owner'])}")
        if v in harbours:
            kind = harbours[v]
            shows["harbour"] = "3:1" if kind == "3:1" else f"2:1 {kind}"
            shows["harbour_text"] = text(shows["harbour"], "3:1" if kind == "3:1" else f"2:1 {RES_NL.get(kind, kind)}")
            label = text(f"{label['en']}, harbour {shows['harbour']}",
                         f"{label['nl']}, haven {'3:1' if kind == '3:1' else '2:1 ' + RES_NL.get(kind, kind)}")
        ms = vertex_moves.get(v, [])
        elements.append(Element(vertex_id(v), "vertex", label, shows=shows, moves=ms, highlight=bool(ms)))

    roads = {r["edge"]: r["owner"] for r in view.get("roads") or []}
    edge_moves: dict[int, list[dict[str, Any]]] = {}
    for m in _by_type(moves, "build_road"):
        edge_moves.setdefault(m["data"]["edge"], []).append(labelled(m, "build a road", "een straat bouwen"))
    for e in sorted(set(roads) | set(edge_moves)):
        cs = layout["edges"][e]
        name = spot_name(cs)
        shows = {"hexes": cs}
        label = text(f"Path {e}: {name['en']}", f"Pad {e}: {name['nl']}")
        if e in roads:
            shows |= {"colour": SEAT_COLOURS[roads[e] % 6], "owner": roads[e]}
            label = text(f"{label['en']}, {seat_text(roads[e])}'s road", f"{label['nl']}, straat van {seat_text(roads[e])}")
        ms = edge_moves.get(e, [])
        elements.append(Element(edge_id(e), "edge", label, shows=shows, moves=ms, highlight=bool(ms)))
    title = text("The board", "Het speelbord")
    if (view.get("board") or {}).get("placeholder"):
        title = text(f"The board: {view['board'].get('label', 'PLACEHOLDER layout')}",
                     "Het speelbord: voorlopige indeling (niet het gedrukte bord)")
    return Zone("board", "hexboard", title, elements)


def _chance_due(view: dict[str, Any]) -> bool:
    return "chance" in (view.get("to_act") or [])


PHASE_TEXT = {
    "setup_settlement": ("set-up: a settlement", "opbouw: een dorp"),
    "setup_road": ("set-up: a road", "opbouw: een straat"),
    "roll": ("to roll", "dobbelen"), "dice": ("the dice rolled", "de worp"),
    "discard": ("discard half", "afleggen"), "robber": ("move the robber", "de struikrover verzetten"),
    "steal": ("the card stolen", "de gestolen kaart"), "main": ("trade and build", "handelen en bouwen"),
    "draw_dev": ("the development card drawn", "de getrokken ontwikkelingskaart"),
    "road_building": ("Road Building: free roads", "Stratenbouw: gratis straten"),
    "special_building": ("special building phase", "extra bouwfase"), "over": ("the game is over", "het spel is uit"),
}


def turn_zone(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    """The turn: whose it is and its phase, the dice (a tap rolls; the dice
    pad enters the faces) and ending the turn."""
    phase = view.get("phase", "")
    en, nl = PHASE_TEXT.get(phase, (phase, phase))
    actor = view.get("building", view.get("turn", 0))
    who = seat_text(actor)
    elements = [Element("turn", "label", text(f"Turn {view.get('turn_number', 0)}: {who}, {en}",
                                              f"Beurt {view.get('turn_number', 0)}: {who}, {nl}"),
                        shows={"seat": actor})]
    dice = view.get("dice") or []
    picker = None
    if phase == "dice" and _chance_due(view):
        picker = Chance(type="dice", field="dice", values=DICE_FACES, count=2, repeat=True, numeric=True,
                        label=text("The dice: tap the two faces rolled", "De dobbelstenen: tik de twee geworpen ogen aan"))
    roll = [labelled(m, "roll the dice", "dobbelen") for m in _by_type(moves, "roll")]
    shown = text(f"Dice {dice[0]} + {dice[1]} = {sum(dice)}", f"Dobbelstenen {dice[0]} + {dice[1]} = {sum(dice)}") \
        if len(dice) == 2 else text("Dice", "Dobbelstenen")
    if roll:
        shown = text(f"Roll the dice ({shown['en']})" if dice else "Roll the dice",
                     f"Dobbelen ({shown['nl']})" if dice else "Dobbelen")
    elements.append(Element("dice", "action" if roll or picker else "count", shown,
                            shows={"dice": list(dice)}, moves=roll, chance=picker, highlight=bool(roll or picker)))
    end = [labelled(m, "end the turn", "beurt beëindigen") for m in _by_type(moves, "end_turn")]
    if end:
        elements.append(Element("end-turn", "action", text("End the turn", "Beurt beëindigen"), moves=end, highlight=True))
    return Zone("turn", "row", text("The turn", "De beurt"), elements)


def bank_zone(view: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[Zone, dict[str, Element]]:
    """The bank's resource piles (where a maritime trade's card comes from)
    and the development deck (buy; its picker enters the card drawn)."""
    bank = view.get("bank") or {}
    piles = {r: Element(f"bank-{r}", "count", text(f"{r.capitalize()} {bank.get(r, 0)}",
                                                   f"{RES_NL[r].capitalize()} {bank.get(r, 0)}"),
                        shows={"count": bank.get(r, 0), "resource": r}) for r in RES}
    picker = None
    if view.get("phase") == "draw_dev" and _chance_due(view):
        picker = Chance(type="draw_dev", field="card", scalar=True, seat=view.get("drawing"),
                        values=[*view.get("development_deck_could_be", []), UNKNOWN],
                        label=text("The development card drawn (unknown: not seen)",
                                   "De getrokken ontwikkelingskaart (unknown: niet gezien)"))
    n = view.get("development_deck", 0)
    deck = Element("dev-deck", "pile", text(f"Development cards {n}", f"Ontwikkelingskaarten {n}"),
                   shows={"count": n}, face_down=True, chance=picker,
                   moves=[labelled(m, "buy a development card", "een ontwikkelingskaart kopen")
                          for m in _by_type(moves, "buy_dev")])
    deck.highlight = deck.tappable
    return Zone("bank", "row", text("The bank", "De bank"), [*piles.values(), deck]), piles


def seat_zone(view: dict[str, Any], p: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    s = p["seat"]
    who = seat_text(s)
    hand = p.get("hand") or {}
    known = hand.get("known") or {}
    unseen = hand.get("unseen", 0)
    elements = []
    discard = [labelled(m, *(lambda t: (f"discard {t['en']}", f"afleggen: {t['nl']}"))(cards_text(m["data"]["cards"])))
               for m in _by_type(moves, "discard") if m["seat"] == s]
    steal = None
    if view.get("phase") == "steal" and view.get("stealing_from") == s and _chance_due(view):
        could = set(known) | {r for c in hand.get("unseen_could_be") or [] for r in c}
        steal = Chance(type="steal", field="card", scalar=True, seat=view.get("turn"),
                       values=[*(r for r in RES if r in could), UNKNOWN],
                       label=text(f"The card stolen from {who} (unknown: not seen)",
                                  f"De kaart gestolen van {who} (unknown: niet gezien)"))
    due = (view.get("discards_due") or {}).get(str(s))
    hand_label = counted(p["cards"], ("Hand: {n} card", "Hand: {n} cards"), ("Hand: {n} kaart", "Hand: {n} kaarten"))
    if due:
        hand_label = text(f"{hand_label['en']}, discard {due}", f"{hand_label['nl']}, {due} afleggen")
    elements.append(Element(f"hand-{s}", "action" if discard or steal else "count", hand_label,
                            shows={"count": p["cards"]}, moves=discard, chance=steal, highlight=bool(discard or steal)))
    for r in RES:
        n = known.get(r, 0)
        elements.append(Element(f"res-{s}-{r}", "count", text(f"{r.capitalize()} {n}", f"{RES_NL[r].capitalize()} {n}"),
                                shows={"count": n, "resource": r}))
    if unseen:
        elements.append(Element(f"unseen-{s}", "count", text(f"Unseen {unseen}", f"Niet gezien {unseen}"),
                                shows={"count": unseen}))
    plays = {k: [] for k in DEV}
    names = {"play_knight": "knight", "play_road_building": "road_building", "play_year_of_plenty": "year_of_plenty",
             "play_monopoly": "monopoly"}
    for m in moves:
        if m["type"] in names and m["seat"] == s:
            k = names[m["type"]]
            if k == "year_of_plenty":
                t = cards_text({c: m["data"]["cards"].count(c) for c in m["data"]["cards"]})
                m = labelled(m, f"take {t['en']}", f"neem {t['nl']}")
            elif k == "monopoly":
                r = m["data"]["resource"]
                m = labelled(m, f"all {r}", f"alle {RES_NL[r]}")
            else:
                m = labelled(m, f"play the {DEV_NAMES[k][0]}", f"speel de {DEV_NAMES[k][1]}")
            plays[k].append(m)
    dev_known = p.get("development_known") or {}
    for k in DEV:
        n = dev_known.get(k, 0)
        if n or plays[k]:
            en, nl = DEV_NAMES[k]
            elements.append(Element(f"dev-{s}-{k}", "action" if plays[k] else "count",
                                    text(f"{en} {n}" if n else en, f"{nl} {n}" if n else nl),
                                    shows={"count": n, "card": None}, moves=plays[k], highlight=bool(plays[k])))
    hidden = p.get("development_cards", 0) - sum(dev_known.values())
    if hidden:
        elements.append(Element(f"dev-{s}-hidden", "count", text(f"Development cards {hidden}", f"Ontwikkelingskaarten {hidden}"),
                                shows={"count": hidden}, face_down=True))
    vp = p.get("vp", p.get("public_vp", 0))
    titles = []
    if view.get("longest_road") == s:
        titles.append(("longest road", "langste handelsroute"))
    if view.get("largest_army") == s:
        titles.append(("largest army", "grootste riddermacht"))
    extra_en = "".join(f" · {t[0]}" for t in titles)
    extra_nl = "".join(f" · {t[1]}" for t in titles)
    elements.append(Element(f"score-{s}", "label",
                            text(f"{vp} VP · knights {p.get('knights_played', 0)} · road {p.get('road_length', 0)}{extra_en}",
                                 f"{vp} OP · ridders {p.get('knights_played', 0)} · route {p.get('road_length', 0)}{extra_nl}"),
                            shows={"vp": vp, "colour": SEAT_COLOURS[s % 6]}))
    to_act = s in (view.get("to_act") or [])
    return Zone(f"seat-{s}", "seat", text(f"{who}{' (to act)' if to_act else ''}", f"{who}{' (aan de beurt)' if to_act else ''}"),
                elements, seat=s)


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    zones = [turn_zone(view, moves), board_zone(view, moves)]
    bank, piles = bank_zone(view, moves)
    zones.append(bank)
    seats = [seat_zone(view, p, moves) for p in view.get("players") or []]
    zones += seats
    maritime_trades(seats, piles, moves)
    domestic_trades(view, seats, moves)
    return Scene(zones)


def maritime_trades(seats: list[Zone], piles: dict[str, Element], moves: list[dict[str, Any]]) -> None:
    """A maritime trade: one's own resource, then the bank's pile wanted (either order)."""
    by_id = {e.id: e for z in seats for e in z.elements}
    for m in _by_type(moves, "trade_bank"):
        give, get, count = m["data"]["give"], m["data"]["get"], m["data"].get("count", 1)
        source = by_id[f"res-{m['seat']}-{give}"]
        t = text(f"trade {give} for {count} {get}", f"ruil {RES_NL[give]} voor {count} {RES_NL[get]}")
        source.targets.setdefault(piles[get].id, []).append(labelled(m, t["en"], t["nl"]))
        source.highlight = True


def domestic_trades(view: dict[str, Any], seats: list[Zone], moves: list[dict[str, Any]]) -> None:
    """A domestic trade (*handel* with another player): a tap on the other player's hand opens a picker of the
    cards the turn's player gives and those it gets, each tapped resource by resource. Only while the turn's
    player may trade (the trade and build phase, not Settler 2's part of a paired turn) and the viewer enters
    its moves; the engine judges whether the hands hold the cards."""
    turn = view.get("turn")
    if view.get("phase") != "main" or (view.get("paired_turn") or {}).get("acting") == 2:
        return
    if not any(m["type"] == "end_turn" and m.get("seat") == turn for m in moves):
        return
    players = {p["seat"]: p for p in view.get("players") or []}
    mine = (players.get(turn) or {}).get("cards", 0)
    if not mine:
        return
    names = {r: res_text(r) for r in RES}
    for zone in seats:
        other = zone.seat
        theirs = (players.get(other) or {}).get("cards", 0)
        if other == turn or not theirs:
            continue
        hand = next(e for e in zone.elements if e.id == f"hand-{other}")
        if hand.chance is not None or hand.moves:
            continue
        hand.chance = Chance(
            type="trade", field="give", values=list(RES), count=mine, least=1, seat=turn, repeat=True, counts=True,
            data={"with": other}, names=names,
            label=text(f"Trade: what {seat_text(turn)} gives {seat_text(other)}",
                       f"Handel: wat {seat_text(turn)} aan {seat_text(other)} geeft"),
            parts=[Part("get", list(RES), theirs, text(f"what {seat_text(turn)} gets back", f"wat {seat_text(turn)} terugkrijgt"))])
        hand.kind = "action"
        hand.label = text(f"{hand.label['en']} · trade", f"{hand.label['nl']} · handel")
