"""One-line descriptions of events and the worker's automatic annotations, said as messages
(engine/text.py) in the box's words (dorp, straat, stad, struikrover, ontwikkelingskaart).

Both are shown to every viewer of an event that is not redacted for them, so
they read only what the table can see: the public's knowledge of each hand
(``hands[seat][public]``), the board, the bank, counts. A hidden card (a
stolen card, a drawn development card) is named only in ``describe`` of the
event that holds it, which a viewer who may not see it never gets.

A place is named as the players name it, never by its coordinates or number: a field by its number
and terrain ("the 6-field on hills"), an intersection by the fields that meet there (or, on the
coast, as a corner of its one field: "the north corner of ..."), a path by its two fields (or as a
side of its one field).
"""

from __future__ import annotations

import math
from typing import Any

from ..text import Text, say, say_n
from . import knowledge as K
from .pieces import CITY_COST, DEV_COST, MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, OVER, RES, ROAD_COST, SETTLEMENT_COST
from .words import DEV_CARD, RESOURCE, TERRAIN  # the names the refusals use too

#: ways to roll each sum 2..12 with two dice, out of 36
WAYS = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
BUILDS = (("road", ROAD_COST), ("settlement", SETTLEMENT_COST), ("city", CITY_COST), ("development card", DEV_COST))

#: what the build options of the table's view of a hand say (the trade note)
BUILD = {"road": say("road"), "settlement": say("settlement"), "city": say("city"),
         "development card": say("development card")}
CAN = {"yes": say("yes"), "maybe": say("maybe"), "no": say("no")}
#: a board as a line names it by where it came from (the name a table gave its own board otherwise)
PROVENANCE = {"standard": say("the standard board"), "generated": say("a generated board"),
              "printed": say("the printed board"), "placeholder": say("the placeholder board (not the printed one)")}

#: the compass, every 45° from the east (the board drawn with north up): a corner or a side of a field
COMPASS = (say("east"), say("north-east"), say("north"), say("north-west"), say("west"), say("south-west"),
           say("south"), say("south-east"))
#: the same, as a tile lies from a field ("to the north-east of")
TOWARDS = (say("to the east"), say("to the north-east"), say("to the north"), say("to the north-west"),
           say("to the west"), say("to the south-west"), say("to the south"), say("to the south-east"))


def resource(name: str) -> Text:
    """A resource's name (brick: "steen" in Dutch)."""
    return RESOURCE.get(name) or say("{name}", name=name)


def _n(s: Any, seat: int | None) -> str | Text:
    if seat is None:
        return say("the table")
    return s.names[seat] if 0 <= seat < len(s.names) else say("seat {n}", n=seat)


def _cards(d: dict[str, int]) -> list[Text] | Text:
    """Cards by count and resource ("1 lumber, 2 ore"), or "nothing"."""
    out = [say("{n} {resource}", n=k, resource=resource(name)) for name, k in d.items()]
    return out or say("nothing")


def joined(parts: list[Any]) -> Any:
    """Parts said one after the other with "; " between them."""
    out = parts[0]
    for part in parts[1:]:
        out = say("{first}; {then}", first=out, then=part)
    return out


def both(names: list[Any]) -> Any:
    """Names said as "A, B and C" (in Dutch "A, B en C")."""
    if len(names) == 1:
        return names[0]
    return say("{some} and {last}", some=list(names[:-1]), last=names[-1])


def _pixel(c: tuple[int, int]) -> tuple[float, float]:
    """A hex's centre, x to the east and y to the north."""
    return math.sqrt(3) * (c[0] + c[1] / 2), -1.5 * c[1]


def _direction(frm: tuple[float, float], to: tuple[float, float]) -> int:
    """The compass point (an index into COMPASS) nearest to the way from ``frm`` to ``to``."""
    angle = math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))
    return round(angle / 45) % 8


def field(s: Any, h: int, names: dict | None = None) -> Any:
    """A land field as a player names it: "the 6-field on hills", "the desert", or by a name of its own
    (``names``, by coordinates: Troje's Troy and Mycenae, as ``Game.field_names`` gives them)."""
    topo = s.topo
    named = (names or {}).get(topo.hexes[h])
    if named is not None:
        return named
    terrain = topo.terrain[h]
    if topo.number[h]:
        return say("the {number}-field on {terrain}", number=topo.number[h], terrain=TERRAIN.get(terrain, terrain))
    if terrain == "desert":
        return say("the desert")
    return say("the {terrain} field without a number", terrain=TERRAIN.get(terrain, terrain))


def _short(s: Any, c: tuple[int, int], names: dict | None = None) -> Any:
    """A field (or the sea) among others at an intersection or a path: "hills 6", "the sea"."""
    topo = s.topo
    h = topo.hex_index.get(tuple(c))
    if h is None:
        return say("the sea")
    named = (names or {}).get(topo.hexes[h])
    if named is not None:
        return named
    terrain = TERRAIN.get(topo.terrain[h], topo.terrain[h])
    return say("{terrain} {number}", terrain=terrain, number=topo.number[h]) if topo.number[h] else terrain


def _intersection(s: Any, v: int, names: dict | None = None) -> Text:
    """An intersection: by the fields meeting there, or (one field on the coast) as that field's corner."""
    topo = s.topo
    hexes = topo.vertices[v]
    land = [c for c in hexes if c in topo.hex_index]
    if len(land) == 1:
        xs = [_pixel(c) for c in hexes]
        at = (sum(x for x, _ in xs) / 3, sum(y for _, y in xs) / 3)
        return say("the {direction} corner of {field}", direction=COMPASS[_direction(_pixel(land[0]), at)],
                   field=field(s, topo.hex_index[land[0]], names))
    fields = [_short(s, c, names) for c in land] + [say("the sea")] * min(1, len(hexes) - len(land))
    if len(land) == 2 and v in _twins(topo):
        # two fields whose both shared corners lie on the coast: which of the two, by the compass
        (ax, ay), (bx, by) = _pixel(land[0]), _pixel(land[1])
        xs = [_pixel(c) for c in hexes]
        at = (sum(x for x, _ in xs) / 3, sum(y for _, y in xs) / 3)
        return say("the intersection of {fields}, on the {direction}", fields=both(fields),
                   direction=COMPASS[_direction(((ax + bx) / 2, (ay + by) / 2), at)])
    return say("the intersection of {fields}", fields=both(fields))


_TWINS: dict[tuple[str, int], frozenset[int]] = {}


def _twins(topo: Any) -> frozenset[int]:
    """The coastal intersections that share their two land fields with another one (a narrow strip of land)."""
    key = (topo.hash, len(topo.hexes))
    got = _TWINS.get(key)
    if got is None:
        seen: dict[tuple[int, ...], list[int]] = {}
        for w, hs in enumerate(topo.vertex_hexes):
            if len(hs) == 2:
                seen.setdefault(tuple(sorted(hs)), []).append(w)
        got = _TWINS[key] = frozenset(w for ws in seen.values() if len(ws) > 1 for w in ws)
    return got


def _path(s: Any, e: int, names: dict | None = None) -> Text:
    """A path: between its two fields, or (on the coast) along a side of its one field."""
    topo = s.topo
    a, b = topo.edges[e]
    land = [c for c in (a, b) if c in topo.hex_index]
    if len(land) == 1:
        other = b if land[0] == a else a
        return say("the path on the {direction} side of {field}",
                   direction=COMPASS[_direction(_pixel(land[0]), _pixel(other))], field=field(s, topo.hex_index[land[0]], names))
    return say("the path between {a} and {b}", a=_short(s, a, names), b=_short(s, b, names))


def _sea_tile_names(s: Any, at: Any, names: dict | None = None, limit: int = 12) -> list[Text]:
    """The ways to name a sea tile, best first: by the nearest fields (one with a number first)."""
    topo = s.topo
    here = _pixel(tuple(at))

    def distance(h: int) -> tuple[float, int, int]:
        x, y = _pixel(topo.hexes[h])
        return round(math.hypot(x - here[0], y - here[1]), 3), 0 if topo.number[h] else 1, h

    near = sorted(range(len(topo.hexes)), key=distance)[:limit]
    out = [say("the sea tile {direction} of {field}", direction=TOWARDS[_direction(_pixel(topo.hexes[h]), here)],
               field=field(s, h, names)) for h in near]
    return out + [say("the sea tile between {a} and {b}", a=field(s, g, names), b=field(s, h, names))
                  for i, g in enumerate(near[:4]) for h in near[i + 1:4]]


#: per board and player count: each sea tile's name, one no other tile has where the fields allow it
_SEA_NAMES: dict[tuple, dict[tuple[int, int], Text]] = {}


def _sea_tile(s: Any, at: Any, names: dict | None, tiles: Any) -> Text:
    """A sea tile by the field it lies next to; among ``tiles`` (every sea tile in play) each takes the nearest
    field that names no other tile yet, in the board's order."""
    topo = s.topo
    if tuple(at) not in {tuple(c) for c in tiles}:
        return _sea_tile_names(s, at, names, 1)[0]
    key = (topo.hash, len(topo.hexes), len(tiles))
    got = _SEA_NAMES.get(key)
    if got is None:
        if len(_SEA_NAMES) > 64:
            _SEA_NAMES.clear()
        got, used = {}, set()
        for c in tiles:
            options = _sea_tile_names(s, c, names)
            pick = next((o for o in options if str(o) not in used), options[0])
            used.add(str(pick))
            got[tuple(c)] = pick
        _SEA_NAMES[key] = got
    return got[tuple(at)]


def _centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


#: per board, player count and kind of place: the names that more than one place of that kind has
_SAME: dict[tuple, frozenset[str]] = {}


def _qualified(s: Any, kind: str, text: Text, at: tuple[float, float], every: Any) -> Text:
    """``text``, or where another place of its kind has the same name (a big board repeats its fields' numbers
    and terrains) with where it lies from the board's centre."""
    topo = s.topo
    key = (topo.hash, len(topo.hexes), kind)
    same = _SAME.get(key)
    if same is None:
        if len(_SAME) > 256:
            _SAME.clear()
        said: dict[str, int] = {}
        for other in every():
            said[str(other)] = said.get(str(other), 0) + 1
        same = _SAME[key] = frozenset(k for k, n in said.items() if n > 1)
    if str(text) not in same:
        return text
    middle = _centre([_pixel(c) for c in topo.hexes])
    return say("{place} ({direction} of the centre)", place=text, direction=TOWARDS[_direction(middle, at)])


def intersection(s: Any, v: int, names: dict | None = None) -> Text:
    """An intersection as the players name it (``_intersection``), told apart from a namesake by where it lies."""
    topo = s.topo
    return _qualified(s, "intersection", _intersection(s, v, names), _centre([_pixel(c) for c in topo.vertices[v]]),
                      lambda: (_intersection(s, w, names) for w in range(len(topo.vertices))))


def path(s: Any, e: int, names: dict | None = None) -> Text:
    """A path as the players name it (``_path``), told apart from a namesake by where it lies."""
    topo = s.topo
    return _qualified(s, "path", _path(s, e, names), _centre([_pixel(c) for c in topo.edges[e]]),
                      lambda: (_path(s, f, names) for f in range(len(topo.edges))))


def hex_at(s: Any, at: Any, names: dict | None = None) -> Any:
    """The field at ``at`` (the sea where none is in play), told apart from a namesake by where it lies."""
    topo = s.topo
    h = topo.hex_index.get(tuple(at))
    if h is None:
        return say("the sea")
    return _qualified(s, "field", field(s, h, names), _pixel(topo.hexes[h]),
                      lambda: (field(s, g, names) for g in range(len(topo.hexes))))


def sea_tile(s: Any, at: Any, names: dict | None = None, tiles: Any = ()) -> Text:
    """A sea tile by the field it lies next to (``_sea_tile``), told apart from a namesake among ``tiles`` (every
    sea tile in play) by where it lies."""
    return _qualified(s, "sea tile", _sea_tile(s, at, names, tiles), _pixel(tuple(at)),
                      lambda: (_sea_tile(s, t, names, tiles) for t in tiles))


def board(state: Any) -> Text:
    """The board a match is played on, for the log's setup line."""
    topo = state.topo
    shipped = PROVENANCE.get(topo.provenance)
    if shipped is not None:  # (its hash is the setup's, behind the review's details fold: never in a line one reads)
        return shipped
    return say("board {name}", name=repr(topo.name))


def describe(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any,
             robber: Text | None = None, ending: bool = True) -> Text:
    """One line per event. ``robber``: what a 7 calls the robber (Troje's sea people); ``ending``: the
    winner said at the game's end (Troje says its own)."""
    names = game.field_names(b)

    def n(p: Any, s_: Any = None) -> Any:
        return _n(b if s_ is None else s_, p)

    who = n(seat)
    text: Text
    if type == "build_settlement":
        where = intersection(b, data["vertex"], names)
        got = {RES[r]: a.hands[seat][-1].known[r] - b.hands[seat][-1].known[r] for r in range(5)}
        got = {k: v for k, v in got.items() if v > 0}
        if b.phase == 0 and got:
            text = say("{who} builds a settlement (set-up) on {intersection} and takes {cards}", who=who,
                       intersection=where, cards=_cards(got))
        elif b.phase == 0:
            text = say("{who} builds a settlement (set-up) on {intersection}", who=who, intersection=where)
        else:
            text = say("{who} builds a settlement on {intersection}", who=who, intersection=where)
    elif type == "build_road":
        text = say("{who} builds a road on {path}", who=who, path=path(b, data["edge"], names))
    elif type == "build_city":
        text = say("{who} upgrades the settlement on {intersection} to a city", who=who,
                   intersection=intersection(b, data["vertex"], names))
    elif type == "roll":
        text = say("{who} rolls", who=who)
    elif type == "dice":
        d1, d2 = data["dice"]
        total = d1 + d2
        if total == 7:
            discards = [say("{who} discards {n}", who=n(p, a), n=k) for p, k in enumerate(a.pending) if k]
            text = say("Dice {a}+{b} = {total}: {robber}; {discards}", a=d1, b=d2, total=total,
                       robber=robber or say("the robber"), discards=discards or say("nobody discards"))
        else:
            gains = []
            for p in range(b.cfg.n):
                g = {RES[r]: a.produced[p][r] - b.produced[p][r] for r in range(5)}
                g = {k: v for k, v in g.items() if v}
                if g:
                    gains.append(say("{who} {cards}", who=n(p, a), cards=_cards(g)))
            text = say("Dice {a}+{b} = {total}: {gains}", a=d1, b=d2, total=total,
                       gains=joined(gains) if gains else say("nobody produces"))
    elif type == "discard":
        text = say("{who} discards {cards}", who=who, cards=_cards(data["cards"]))
    elif type == "move_robber":
        where = hex_at(b, data["hex"], names)
        if data.get("victim") is not None:
            text = say("{who} moves the robber to {field} and steals from {victim}", who=who, field=where,
                       victim=n(data["victim"]))
        else:
            text = say("{who} moves the robber to {field}", who=who, field=where)
    elif type == "steal":
        card = data.get("card")
        text = say("{who} steals {resource} from {victim}", who=who, resource=resource(card), victim=n(data["from"])) \
            if card else say("{who} steals a card from {victim}", who=who, victim=n(data["from"]))
    elif type == "buy_dev":
        text = say("{who} buys a development card", who=who)
    elif type == "draw_dev":
        card = data.get("card")
        text = say("{who} draws a development card: {card}", who=who, card=DEV_CARD.get(card) or card) if card \
            else say("{who} draws a development card (not seen)", who=who)
    elif type == "play_knight":
        text = say("{who} plays a Knight ({n} played)", who=who, n=a.knights[seat])
    elif type == "play_road_building":
        text = say("{who} plays Road Building", who=who)
    elif type == "play_year_of_plenty":
        text = say("{who} plays Year of Plenty: {cards}", who=who, cards=[resource(c) for c in data["cards"]])
    elif type == "play_monopoly":
        r = RES.index(data["resource"])
        took = a.hands[seat][-1].known[r] - b.hands[seat][-1].known[r]
        text = say("{who} plays Monopoly on {resource} and takes {n}", who=who, resource=resource(data["resource"]),
                   n=took)
    elif type == "reveal_vp":
        text = say_n(data["count"], "{who} reveals {n} victory point card", "{who} reveals {n} victory point cards",
                     who=who)
    elif type == "trade":
        text = say("{who} trades {give} to {other} for {get}", who=who, give=_cards(data["give"]),
                   other=n(data["with"]), get=_cards(data["get"]))
    elif type == "trade_bank":
        k = game.ratio(b, seat, RES.index(data["give"])) * data["count"]
        text = say("{who} trades {give} {give_resource} with the bank for {get} {get_resource}", who=who, give=k,
                   give_resource=resource(data["give"]), get=data["count"], get_resource=resource(data["get"]))
    elif type == "end_turn":
        if b.phase == 10:
            text = say("{who} ends the special building phase", who=who)
        elif b.cfg.paired and b.step:
            text = say("{who} ends Settler 2's part of the paired turn", who=who)
        elif b.cfg.paired:
            text = say("{who} ends the turn; {next} takes Settler 2's part", who=who, next=b.names[a.turn])
        else:
            text = say("{who} ends the turn", who=who)
    else:
        text = say("{type}", type=type)
    if a.longest != b.longest:
        text = say("{text}; Longest Road: {who}", text=text, who=n(a.longest, a)) if a.longest >= 0 else \
            say("{text}; Longest Road: set aside", text=text)
    if a.army != b.army:
        text = say("{text}; Largest Army: {who}", text=text, who=n(a.army, a))
    if ending and a.phase == OVER and b.phase != OVER:
        text = say("{text} — {who} wins", text=text, who=n(a.winner, a))
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
            got = [say("{who} +{n}", who=_n(a, int(p)), n=sum(g.values())) for p, g in gained.items()]
            text = say("Roll {total}: {gains}", total=total, gains=joined(got) if got else say("no production"))
            if blocked:
                text = say("{text}; the robber withholds {withheld}", text=text,
                           withheld=[say("{n} from {who}", n=k, who=_n(a, int(p))) for p, k in blocked.items()])
            note: dict[str, Any] = {"kind": "production", "roll": total, "gained": gained, "robber_blocked": blocked}
            if short:
                note["bank_shortage"] = short
                text = say("{text}; the bank is short of {resources}: nobody gets it", text=text,
                           resources=[resource(r) for r in short])
            note["text"] = text
            notes.append(note)
    if type == "steal":
        victim = data["from"]
        notes.append({"kind": "robber_cost", "victim": victim, "stolen": 1,
                      "lost_so_far": a.lost[victim], "withheld_so_far": a.blocked[victim],
                      "text": say_n(a.lost[victim], "{who} has lost {n} card to thieves and {withheld} to the robber's "
                                    "blockade so far", "{who} has lost {n} cards to thieves and {withheld} to the "
                                    "robber's blockade so far", who=_n(a, victim), withheld=a.blocked[victim])})
    if a.longest != b.longest:
        notes.append({"kind": "longest_road", "from": b.longest if b.longest >= 0 else None,
                      "to": a.longest if a.longest >= 0 else None, "lengths": list(a.road_len),
                      "text": say("Longest Road: {before} → {after} (lengths {lengths})",
                                  before=_n(b, b.longest) if b.longest >= 0 else say("nobody"),
                                  after=_n(a, a.longest) if a.longest >= 0 else say("set aside"),
                                  lengths=list(a.road_len))})
    if a.army != b.army:
        notes.append({"kind": "largest_army", "from": b.army if b.army >= 0 else None, "to": a.army,
                      "knights": list(a.knights),
                      "text": say_n(a.knights[a.army], "Largest Army: {who} with {n} knight",
                                    "Largest Army: {who} with {n} knights", who=_n(a, a.army))})
    if type in ("trade", "trade_bank"):
        sides = [seat] + ([data["with"]] if type == "trade" else [])
        effect = {}
        for p in sides:
            before, after = _build_options(b.hands[p][pub]), _build_options(a.hands[p][pub])
            effect[str(p)] = {"before": before, "after": after}
        changed = []
        for p, e in effect.items():
            moved = [say("{build} {before}→{after}", build=BUILD[k], before=CAN[e["before"][k]], after=CAN[e["after"][k]])
                     for k in e["before"] if e["before"][k] != e["after"][k]]
            if moved:
                changed.append(say("{who}: {changes}", who=_n(a, int(p)), changes=moved))
        notes.append({"kind": "trade_effect", "build_options": effect,
                      "text": say("Build options as the table can tell: {changes}",
                                  changes=joined(changed) if changed else say("unchanged"))})
    if a.phase == OVER and b.phase != OVER:
        x, p = chi_square_p(a.hist)
        rolls = sum(a.hist)
        text = say_n(rolls, "{n} roll; chi-square {x} on 10 degrees of freedom, p = {p}",
                     "{n} rolls; chi-square {x} on 10 degrees of freedom, p = {p}", x=round(x, 2), p=round(p, 3))
        if rolls * WAYS[0] / 36 < 5:
            text = say("{text} (few rolls: the test is rough below 5 expected per sum)", text=text)
        notes.append({"kind": "dice_histogram", "rolls": rolls, "observed": {str(t + 2): a.hist[t] for t in range(11)},
                      "expected": {str(t + 2): round(rolls * WAYS[t] / 36, 2) for t in range(11)},
                      "chi_square": round(x, 3), "p_value": round(p, 4), "text": text})
        topo = a.topo
        notes.append({"kind": "production_summary",
                      "per_player": {str(p): {RES[r]: a.produced[p][r] for r in range(5)} for p in range(n)},
                      "per_hex": [{"hex": list(topo.hexes[h]), "terrain": topo.terrain[h], "number": topo.number[h] or None,
                                   "cards": a.hex_yield[h]} for h in range(len(topo.hexes))],
                      "robber": {str(p): {"stolen": a.lost[p], "withheld": a.blocked[p]} for p in range(n)},
                      "text": say("Production: {players}", players=joined([
                          say_n(sum(a.produced[p]), "{who} {n} card (robber: {stolen} stolen, {withheld} withheld)",
                                "{who} {n} cards (robber: {stolen} stolen, {withheld} withheld)", who=_n(a, p),
                                stolen=a.lost[p], withheld=a.blocked[p]) for p in range(n)]))})
    return notes


__all__ = ["annotate", "board", "chi_square_p", "describe", "field", "intersection", "path", "resource", "sea_tile",
           "MAX_CITIES", "MAX_ROADS", "MAX_SETTLEMENTS"]
