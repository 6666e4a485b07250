"""One-line descriptions of events and the worker's automatic annotations.

Both are shown to every viewer of an event that is not redacted for them, so
they read only what the table can see: the public's knowledge of each hand
(``hands[seat][public]``), the board, the bank, counts. A hidden card (a
stolen card, a drawn development card) is named only in ``describe`` of the
event that holds it, which a viewer who may not see it never gets.
"""

from __future__ import annotations

import math
from typing import Any

from . import knowledge as K
from .scene import DEV_NAMES, RES_NL, TERRAIN
from .pieces import CITY_COST, DEV_COST, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, OVER, RES, ROAD_COST, SETTLEMENT_COST

#: ways to roll each sum 2..12 with two dice, out of 36
WAYS = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
BUILDS = (("road", ROAD_COST), ("settlement", SETTLEMENT_COST), ("city", CITY_COST), ("development card", DEV_COST))


#: the Dutch of the base game's box, as the table's drawing names them: resources, terrains, development cards
TERRAIN_NL = {terrain: nl for terrain, (_, _, nl) in TERRAIN.items()}
DEV_NL = {card: nl.lower() for card, (_, nl) in DEV_NAMES.items()}


def _n(s: Any, seat: int | None, nl: bool = False) -> str:
    if seat is None:
        return "de tafel" if nl else "the table"
    return s.names[seat] if 0 <= seat < len(s.names) else (f"plaats {seat}" if nl else f"seat {seat}")


def _cards(d: dict[str, int], nl: bool = False) -> str:
    return ", ".join(f"{k} {RES_NL.get(name, name) if nl else name}" for name, k in d.items()) or ("niets" if nl else "nothing")


def _terrain(s: Any, h: int, nl: bool = False) -> str:
    topo = s.topo
    num = topo.number[h]
    terrain = TERRAIN_NL.get(topo.terrain[h], topo.terrain[h]) if nl else topo.terrain[h]
    return f"{terrain}{' ' + str(num) if num else ''}"


def _vertex(s: Any, v: int, nl: bool = False) -> str:
    topo = s.topo
    parts = []
    for c in topo.vertices[v]:
        h = topo.hex_index.get(c)
        parts.append(("zee" if nl else "sea") if h is None else _terrain(s, h, nl))
    return f"{'kruispunt' if nl else 'intersection'} {v} ({' / '.join(parts)})"


def _hex(s: Any, at, nl: bool = False) -> str:
    h = s.topo.hex_index.get(tuple(at))
    return ("zee" if nl else "sea") if h is None else _terrain(s, h, nl)


def _path(s: Any, e: int, nl: bool = False) -> str:
    return f"{'pad' if nl else 'path'} {e} ({' | '.join(_hex(s, c, nl) for c in s.topo.edges[e])})"


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def describe(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any, nl: bool = False) -> str:
    """One line per event, in English or (``nl``) Dutch with the box's words (dorp, straat, stad,
    struikrover, ontwikkelingskaart): one structure, so the two say the same."""
    def t(en: str, dutch: str) -> str:
        return dutch if nl else en

    def n(p: Any, s_: Any = None) -> str:
        return _n(b if s_ is None else s_, p, nl)

    def cards(d: dict[str, int]) -> str:
        return _cards(d, nl)

    who = n(seat)
    if type == "build_settlement":
        free = t(" (set-up)", " (opbouw)") if b.phase == 0 else ""
        text = t(f"{who} builds a settlement{free} on {_vertex(b, data['vertex'])}",
                 f"{who} bouwt een dorp{free} op {_vertex(b, data['vertex'], True)}")
        got = {RES[r]: a.hands[seat][-1].known[r] - b.hands[seat][-1].known[r] for r in range(5)}
        got = {k: v for k, v in got.items() if v > 0}
        if b.phase == 0 and got:
            text += t(f" and takes {cards(got)}", f" en neemt {cards(got)}")
    elif type == "build_road":
        text = t(f"{who} builds a road on {_path(b, data['edge'])}", f"{who} bouwt een straat op {_path(b, data['edge'], True)}")
    elif type == "build_city":
        text = t(f"{who} upgrades {_vertex(b, data['vertex'])} to a city",
                 f"{who} maakt van {_vertex(b, data['vertex'], True)} een stad")
    elif type == "roll":
        text = t(f"{who} rolls", f"{who} dobbelt")
    elif type == "dice":
        total = sum(data["dice"])
        text = t(f"Dice {data['dice'][0]}+{data['dice'][1]} = {total}", f"Worp {data['dice'][0]}+{data['dice'][1]} = {total}")
        if total == 7:
            text += t(": the robber; ", ": de struikrover; ") + (
                ", ".join(t(f"{n(p, a)} discards {k}", f"{n(p, a)} legt {k} af") for p, k in enumerate(a.pending) if k)
                or t("nobody discards", "niemand legt af"))
        else:
            gains = []
            for p in range(b.cfg.n):
                g = {RES[r]: a.produced[p][r] - b.produced[p][r] for r in range(5)}
                g = {k: v for k, v in g.items() if v}
                if g:
                    gains.append(f"{n(p, a)} {cards(g)}")
            text += ": " + ("; ".join(gains) if gains else t("nobody produces", "niemand krijgt iets"))
    elif type == "discard":
        text = t(f"{who} discards {cards(data['cards'])}", f"{who} legt af: {cards(data['cards'])}")
    elif type == "move_robber":
        text = t(f"{who} moves the robber to {_hex(b, data['hex'])} {data['hex']}",
                 f"{who} zet de struikrover op {_hex(b, data['hex'], True)} {data['hex']}")
        if data.get("victim") is not None:
            text += t(f" and steals from {n(data['victim'])}", f" en steelt van {n(data['victim'])}")
    elif type == "steal":
        card = data.get("card")
        text = t(f"{who} steals {_a(card) if card else 'a card'} from {n(data['from'])}",
                 f"{who} steelt {RES_NL.get(card, card) if card else 'een kaart'} van {n(data['from'])}")
    elif type == "buy_dev":
        text = t(f"{who} buys a development card", f"{who} koopt een ontwikkelingskaart")
    elif type == "draw_dev":
        card = data.get("card")
        text = t(f"{who} draws {_a(card.replace('_', ' ')) if card else 'a card (not seen)'}",
                 f"{who} trekt {'een ' + DEV_NL.get(card, card) if card else 'een kaart (niet gezien)'}")
    elif type == "play_knight":
        text = t(f"{who} plays a knight ({a.knights[seat]} played)",
                 f"{who} speelt een ridder ({a.knights[seat]} gespeeld)")
    elif type == "play_road_building":
        text = t(f"{who} plays Road Building", f"{who} speelt Stratenbouw")
    elif type == "play_year_of_plenty":
        text = t(f"{who} plays Year of Plenty: {', '.join(data['cards'])}",
                 f"{who} speelt Uitvinding: {', '.join(RES_NL.get(c, c) for c in data['cards'])}")
    elif type == "play_monopoly":
        r = RES.index(data["resource"])
        took = a.hands[seat][-1].known[r] - b.hands[seat][-1].known[r]
        text = t(f"{who} plays Monopoly on {data['resource']} and takes {took}",
                 f"{who} speelt Monopolie op {RES_NL[data['resource']]} en neemt er {took}")
    elif type == "reveal_vp":
        text = t(f"{who} reveals {data['count']} victory point card(s)",
                 f"{who} toont {data['count']} overwinningspuntkaart(en)")
    elif type == "trade":
        text = t(f"{who} trades {cards(data['give'])} to {n(data['with'])} for {cards(data['get'])}",
                 f"{who} ruilt {cards(data['give'])} met {n(data['with'])} voor {cards(data['get'])}")
    elif type == "trade_bank":
        k = game.ratio(b, seat, RES.index(data["give"])) * data["count"]
        text = t(f"{who} trades {k} {data['give']} with the bank for {data['count']} {data['get']}",
                 f"{who} ruilt {k} {RES_NL[data['give']]} met de bank voor {data['count']} {RES_NL[data['get']]}")
    elif type == "end_turn":
        text = t(f"{who} ends the turn", f"{who} beëindigt de beurt") if b.phase != 10 else \
            t(f"{who} ends the special building phase", f"{who} beëindigt de extra bouwfase")
        if b.cfg.paired and b.phase != 10:
            text = (t(f"{who} ends Settler 2's part of the paired turn", f"{who} beëindigt het deel van kolonist 2 van "
                      "de gedeelde beurt") if b.step else
                    t(f"{who} ends the turn; {b.names[a.turn]} takes Settler 2's part",
                      f"{who} beëindigt de beurt; {b.names[a.turn]} neemt het deel van kolonist 2"))
    else:
        text = type
    if a.longest != b.longest:
        text += t(f"; Longest Road: {n(a.longest, a) if a.longest >= 0 else 'set aside'}",
                  f"; Langste handelsroute: {n(a.longest, a) if a.longest >= 0 else 'opzij gelegd'}")
    if a.army != b.army:
        text += t(f"; Largest Army: {n(a.army, a)}", f"; Grootste riddermacht: {n(a.army, a)}")
    if a.phase == OVER and b.phase != OVER:
        text += t(f" — {n(a.winner, a)} wins", f" — {n(a.winner, a)} wint")
    return text


# -- annotations ----------------------------------------------------------------------------

def chi_square_p(observed: tuple[int, ...]) -> tuple[float, float]:
    """Pearson's chi-square of two-dice sums against 1:2:…:6:…:1 and its p-value
    (10 degrees of freedom: the survival function is e^-x/2 · Σ_{i<5} (x/2)^i / i!)."""
    n = sum(observed)
    if not n:
        return 0.0, 1.0
    x = sum((o - n * w / 36) ** 2 / (n * w / 36) for o, w in zip(observed, WAYS))
    half = x / 2
    term, total = 1.0, 1.0
    for i in range(1, 5):
        term *= half / i
        total += term
    return x, min(1.0, math.exp(-half) * total)


def _build_options(h: K.Hand) -> dict[str, str]:
    """Per build: 'yes' (the cards the table knows cover it), 'maybe' (only with
    unseen cards), 'no'."""
    out = {}
    for name, cost in BUILDS:
        if all(h.known[r] >= cost[r] for r in range(5)):
            out[name] = "yes"
        elif K.can_pay(h, cost):
            out[name] = "maybe"
        else:
            out[name] = "no"
    return out


def annotate(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any) -> list[dict[str, Any]]:
    notes: list[dict[str, Any]] = []
    n = b.cfg.n
    pub = n
    if type == "dice":
        total = sum(data["dice"])
        gained = {str(p): {RES[r]: a.produced[p][r] - b.produced[p][r] for r in range(5) if a.produced[p][r] != b.produced[p][r]}
                  for p in range(n)}
        gained = {p: g for p, g in gained.items() if g}
        blocked = {str(p): a.blocked[p] - b.blocked[p] for p in range(n) if a.blocked[p] != b.blocked[p]}
        if total != 7:
            short = []
            for r in range(5):
                paid = sum(a.produced[p][r] - b.produced[p][r] for p in range(n))
                owed_somewhere = any(b.topo.resource[h] == r and h != b.robber and any(b.buildings[v] >= 0 for v in b.topo.hex_vertices[h])
                                     for h in b.topo.by_number.get(total, ()))
                if owed_somewhere and not paid:
                    short.append(RES[r])
            note: dict[str, Any] = {"kind": "production", "roll": total, "gained": gained, "robber_blocked": blocked,
                                    "text": f"Roll {total}: " + ("; ".join(f"{_n(a, int(p))} +{sum(g.values())}" for p, g in gained.items()) or "no production")}
            if blocked:
                note["text"] += "; the robber withholds " + ", ".join(f"{k} from {_n(a, int(p))}" for p, k in blocked.items())
            if short:
                note["bank_shortage"] = short
                note["text"] += f"; the bank is short of {', '.join(short)}: nobody gets it"
            notes.append(note)
    if type == "steal":
        notes.append({"kind": "robber_cost", "victim": data["from"], "stolen": 1,
                      "lost_so_far": a.lost[data["from"]], "withheld_so_far": a.blocked[data["from"]],
                      "text": f"{_n(a, data['from'])} has lost {a.lost[data['from']]} card(s) to thieves and "
                      f"{a.blocked[data['from']]} to the robber's blockade so far"})
    if a.longest != b.longest:
        notes.append({"kind": "longest_road", "from": b.longest if b.longest >= 0 else None,
                      "to": a.longest if a.longest >= 0 else None, "lengths": list(a.road_len),
                      "text": f"Longest Road: {_n(b, b.longest) if b.longest >= 0 else 'nobody'} → "
                      f"{_n(a, a.longest) if a.longest >= 0 else 'set aside'} (lengths {list(a.road_len)})"})
    if a.army != b.army:
        notes.append({"kind": "largest_army", "from": b.army if b.army >= 0 else None, "to": a.army,
                      "knights": list(a.knights), "text": f"Largest Army: {_n(a, a.army)} with {a.knights[a.army]} knights"})
    if type in ("trade", "trade_bank"):
        sides = [seat] + ([data["with"]] if type == "trade" else [])
        effect = {}
        for p in sides:
            before, after = _build_options(b.hands[p][pub]), _build_options(a.hands[p][pub])
            effect[str(p)] = {"before": before, "after": after}
        changed = [f"{_n(a, int(p))}: " + ", ".join(f"{k} {e['before'][k]}→{e['after'][k]}" for k in e["before"] if e["before"][k] != e["after"][k])
                   for p, e in effect.items()]
        changed = [c for c in changed if not c.endswith(": ")]
        notes.append({"kind": "trade_effect", "build_options": effect,
                      "text": "Build options as the table can tell: " + ("; ".join(changed) if changed else "unchanged")})
    if a.phase == OVER and b.phase != OVER:
        x, p = chi_square_p(a.hist)
        rolls = sum(a.hist)
        notes.append({"kind": "dice_histogram", "rolls": rolls, "observed": {str(t + 2): a.hist[t] for t in range(11)},
                      "expected": {str(t + 2): round(rolls * WAYS[t] / 36, 2) for t in range(11)},
                      "chi_square": round(x, 3), "p_value": round(p, 4),
                      "text": f"{rolls} rolls; chi-square {x:.2f} on 10 degrees of freedom, p = {p:.3f}"
                      + (" (few rolls: the test is rough below 5 expected per sum)" if rolls * WAYS[0] / 36 < 5 else "")})
        topo = a.topo
        notes.append({"kind": "production_summary",
                      "per_player": {str(p): {RES[r]: a.produced[p][r] for r in range(5)} for p in range(n)},
                      "per_hex": [{"hex": list(topo.hexes[h]), "terrain": topo.terrain[h], "number": topo.number[h] or None,
                                   "cards": a.hex_yield[h]} for h in range(len(topo.hexes))],
                      "robber": {str(p): {"stolen": a.lost[p], "withheld": a.blocked[p]} for p in range(n)},
                      "text": "Production: " + "; ".join(f"{_n(a, p)} {sum(a.produced[p])} cards "
                                                          f"(robber: {a.lost[p]} stolen, {a.blocked[p]} withheld)" for p in range(n))})
    return notes


__all__ = ["annotate", "chi_square_p", "describe", "MAX_CITIES", "MAX_ROADS", "MAX_SETTLEMENTS"]
