"""Troubadour on the table (``engine.scene``): for every player his nobles
(edelen), draw pile (draaistapel), discard pile (raapstapel), four castles
(kastelen) and five villages (dorpen), with whose turn it is above them.

What a tap means, the rules text's terms beside:

- the draw pile: the standard turn-over (standaardkaartdraai), or the next
  extra card of the clubs queen or king; the card turned is entered with the
  picker that then opens on it (kaart draaien);
- a card and where it goes, tapped one after the other: the discard pile's
  top or a village (its top card, or a run from it: rijtje) and a castle or
  another village (bouwen); the hearts jack (harten boer) and a castle or
  village, for a card from inside a village;
- a noble: the clubs jack (klaver boer) turns until a card fits, the clubs
  queen and king (klaver vrouw, heer) turn their extra cards, the spades
  queen (schoppen vrouw) attacks; the spades jack (schoppen boer) and an
  opponent's village, the spades king (the trio schoppen boer+vrouw+heer) and
  an opponent's castle, the hearts queen (harten vrouw) and one's own village;
  the hearts king names the card queen+king turn until (kaart noemen);
- a village whose top lies face down: turn it up (bovenste kaart omdraaien);
  its card is entered with the picker that opens on that village;
- a player's nobles at the start of a round: a picker of his twelve for the
  three he chooses in secret (drie edelen kiezen); at the set-up, his draw
  pile's picker enters the five face-up village cards (klaarleggen); equal
  trios roll the die (dobbelsteen) on the round's line.

Built only from the viewer's view: another player's secret trio is a face-down
pile, the discard pile shows its top card, and a picker offers the cards that
viewer cannot see on the table (the referee: exactly the cards that can come).
"""

from __future__ import annotations

from typing import Any

from ..scene import Chance, Element, Scene, Zone, counted, labelled, move_key, text
from .cards import CARD_IDS, NOBLE_IDS, NOBLE_DUTCH, NOBLE_NAMES, SUIT_DUTCH, SUIT_NAMES, SUIT_SYMBOLS, SUITS

SYMBOL = dict(zip(SUITS, SUIT_SYMBOLS))
#: what each noble does, in a word or two (rules text, chapter 6)
POWER = {
    "JS": ("takes a village", "plundert een dorp"),
    "QS": ("takes the village tops", "pakt de bovenste kaarten"),
    "KS": ("with jack+queen: a castle", "met boer+vrouw: een kasteel"),
    "JD": ("guards against the spades jack", "beschermt tegen schoppen boer"),
    "QD": ("guards against the spades queen", "beschermt tegen schoppen vrouw"),
    "KD": ("guards the castles", "beschermt de kastelen"),
    "JC": ("turns until a card fits", "draait tot een kaart past"),
    "QC": ("two extra cards", "twee extra kaarten"),
    "KC": ("three extra cards", "drie extra kaarten"),
    "JH": ("builds from inside a village", "bouwt uit een dorp"),
    "QH": ("turns a face-down card", "draait een dichte kaart om"),
    "KH": ("with the queen: names a card", "met de vrouw: noemt een kaart"),
}


# -- names -----------------------------------------------------------------------------

def short(card: str) -> str:
    """"♥7" for "7H": how a label names a card in both languages, suit first as the engine's lines write it."""
    return SYMBOL[card[-1]] + card[:-1]


def noble_text(noble: str) -> dict[str, str]:
    """"Clubs jack" / "Klaver boer"."""
    suit, rank = SUITS.index(noble[-1]), "JQK".index(noble[0])
    return text(f"{SUIT_NAMES[suit].capitalize()} {NOBLE_NAMES[rank]}", f"{SUIT_DUTCH[suit].capitalize()} {NOBLE_DUTCH[rank]}")


def seat_text(seat: int) -> str:
    """A seat in a label: the renderer puts the player's name there."""
    return "{seat%d}" % seat


# -- element ids -----------------------------------------------------------------------

def draw_id(seat: int) -> str:
    return f"draw-{seat}"


def discard_id(seat: int) -> str:
    return f"discard-{seat}"


def castle_id(seat: int, suit: str) -> str:
    return f"castle-{seat}-{suit}"


def village_id(seat: int, village: int) -> str:
    """Village 1–5 of ``seat``."""
    return f"village-{seat}-{village}"


def noble_id(seat: int, noble: str) -> str:
    return f"noble-{seat}-{noble}"


def nobles_id(seat: int) -> str:
    """The seat's nobles not on the table: the twelve to choose from, the nine to pick against a tie."""
    return f"nobles-{seat}"


def done_id(seat: int) -> str:
    return f"done-{seat}"


# -- what the viewer sees ------------------------------------------------------------------

ALL_CARDS = list(CARD_IDS)


def visible_cards(player: dict[str, Any]) -> set[str]:
    """The cards of one player's deck that lie face up on the table."""
    out = {c for v in player["villages"] for c in v if c}
    for suit, top in player["castles"].items():
        if top:
            height = CARD_IDS.index(top) % 10 + 1
            out |= {CARD_IDS[SUITS.index(suit) * 10 + r] for r in range(height)}
    if player["discard_pile"]["top"]:
        out.add(player["discard_pile"]["top"])
    return out


def unseen_cards(player: dict[str, Any]) -> list[str]:
    """The cards that can lie face down in a village: exact for the referee
    (the log's unseen cards), else every card not face up on the table."""
    if "unseen_cards" in player:
        return list(player["unseen_cards"])
    shown = visible_cards(player)
    return [c for c in ALL_CARDS if c not in shown]


def next_cards(player: dict[str, Any]) -> list[str]:
    """The cards the next turned card can be: for the referee exactly those
    (the turned-over discard pile's bottom card, the known order, or the
    cards an unordered segment can hold), else every card not face up."""
    if "draw_segments" not in player:
        return unseen_cards(player)
    if player["draw_pile"] == 0:
        return player["discard_pile"]["cards"][:1]  # the discard pile turned over: its bottom card comes first
    segment = player["draw_segments"][0]
    if "order" in segment:
        return segment["order"][:1]
    can = set(segment["set"]) | (set(player["unseen_cards"]) if segment["unknown"] else set())
    return [c for c in ALL_CARDS if c in can]


# -- the scene --------------------------------------------------------------------------------

def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    players = view["players"]
    phase = view["phase"]
    to_act = view.get("to_act") or []
    chance = "chance" in to_act
    turn = view.get("turn") or {}
    current = turn.get("seat")
    used = set(turn.get("used") or [])

    zones = [round_line(view)]
    for s, p in enumerate(players):
        zones.extend(seat_table(s, p, phase, current, used))
    # the end of a turn and the nine nobles to pick against a tie stand in their player's zone when due
    for s in sorted({m["seat"] for m in moves if m["type"] == "end_turn"}):
        zones[1 + 3 * s].elements.append(Element(done_id(s), "action", text("Done: end the turn", "Klaar: beurt voorbij")))
    for s in sorted({m["seat"] for m in moves if m["type"] == "counter_pick"}):
        zones[1 + 3 * s].elements.insert(0, Element(nobles_id(s), "pile", text(
            "The nine other nobles: pick one against the tie", "De negen andere edelen: kies er één tegen"),
            shows={"count": 9}, face_down=True))
    by_id = {e.id: e for z in zones for e in z.elements}

    pickers(view, moves, by_id, chance)
    fallback = place_moves(view, moves, by_id)

    involved = {i for e in by_id.values() if e.targets for i in (e.id, *e.targets)}
    for e in by_id.values():
        e.highlight = e.highlight or e.tappable or e.id in involved
    return Scene(zones, fallback)


def seat_table(s: int, p: dict[str, Any], phase: str, current: int | None, used: set[str]) -> list[Zone]:
    """One player's three zones: nobles and piles, castles, villages."""
    who = seat_text(s)
    # nobles: the revealed trio, or the twelve still to choose from, or a hidden choice
    nobles: list[Element] = []
    trio = p.get("nobles")
    if phase == "choose":
        if p.get("chosen"):
            if trio:  # the viewer's own choice (or the referee's eye): in the hand, not yet on the table
                nobles = [Element(noble_id(s, nb), "card", noble_label(nb, in_hand=True), shows={"card": nb}) for nb in trio]
            else:
                nobles = [Element(nobles_id(s), "pile", text("Three nobles chosen, in the hand", "Drie edelen gekozen, in de hand"),
                                  shows={"count": 3}, face_down=True)]
        else:
            nobles = [Element(nobles_id(s), "pile", text("Nobles: choose three", "Edelen: kies er drie"),
                              shows={"count": 12}, face_down=True)]
    elif trio:
        nobles = [Element(noble_id(s, nb), "card", noble_label(nb, spent=s == current and nb in used), shows={"card": nb})
                  for nb in trio]
    draw = p["draw_pile"]
    draw_el = Element(draw_id(s), "pile" if draw else "slot",
                      counted(draw, ("Draw pile: {n} card", "Draw pile: {n} cards"), ("Draaistapel: {n} kaart", "Draaistapel: {n} kaarten")) if draw
                      else text("Draw pile: empty", "Draaistapel: leeg"),
                      shows={"count": draw}, face_down=bool(draw))
    pile = p["discard_pile"]
    top = pile["top"]
    discard_el = Element(discard_id(s), "pile" if top else "slot",
                         counted(pile["count"], (f"Discard pile: {{n}} card, {short(top)} on top",
                                                 f"Discard pile: {{n}} cards, {short(top)} on top"),
                                 (f"Raapstapel: {{n}} kaart, {short(top)} boven",
                                  f"Raapstapel: {{n}} kaarten, {short(top)} boven")) if top
                         else text("Discard pile: empty", "Raapstapel: leeg"),
                         shows={"card": top, "count": pile["count"]})
    castles = []
    for x, suit in enumerate(SUITS):
        top_card = p["castles"][suit]
        height = CARD_IDS.index(top_card) % 10 + 1 if top_card else 0
        sym = SYMBOL[suit]
        # short: four castles side by side on a phone; the card (or an empty place) shows how far each is built
        label = (text(f"{sym} castle: complete", f"Kasteel {SUIT_DUTCH[x]}: voltooid") if height == 10
                 else text(f"{sym} castle", f"Kasteel {SUIT_DUTCH[x]}"))
        castles.append(Element(castle_id(s, suit), "pile" if top_card else "slot", label,
                               shows={"card": top_card, "count": height, "suit": suit}))
    villages = []
    for v, cards in enumerate(p["villages"], start=1):
        top_card = cards[-1] if cards else None
        if not cards:
            label = text(f"Village {v} of {who}: empty", f"Dorp {v} van {who}: leeg")
        elif top_card is None:
            label = text(f"Village {v} of {who}: top card face down", f"Dorp {v} van {who}: bovenste kaart dicht")
        else:
            label = text(f"Village {v} of {who}: {short(top_card)} on top", f"Dorp {v} van {who}: {short(top_card)} boven")
        villages.append(Element(village_id(s, v), "card" if cards else "slot", label,
                                shows={"cards": list(cards), "card": top_card, "column": v}))
    standing = text(f"{who}", f"{who}")
    if current == s:
        standing = text(f"{who}: at turn", f"{who}: aan de beurt")
    return [
        Zone(f"seat-{s}", "seat", standing, [*nobles, draw_el, discard_el], seat=s),
        Zone(f"castles-{s}", "row", counted(castle_count(p), (f"Castles of {who}: {{n}} card", f"Castles of {who}: {{n}} cards"),
                                            (f"Kastelen van {who}: {{n}} kaart", f"Kastelen van {who}: {{n}} kaarten")), castles, seat=s),
        Zone(f"villages-{s}", "columns", text(f"Villages of {who}", f"Dorpen van {who}"), villages, seat=s),
    ]


def castle_count(p: dict[str, Any]) -> int:
    return p.get("castle_cards", 0)


def noble_label(noble: str, *, spent: bool = False, in_hand: bool = False) -> dict[str, str]:
    name = noble_text(noble)
    en, nl = POWER[noble]
    if spent:
        return text(f"{name['en']}: used this turn", f"{name['nl']}: deze beurt gebruikt")
    if in_hand:
        return text(f"{name['en']}: chosen, in the hand", f"{name['nl']}: gekozen, in de hand")
    return text(f"{name['en']}: {en}", f"{name['nl']}: {nl}")


def round_line(view: dict[str, Any]) -> Zone:
    """The round, whose turn, and the die when equal trios are rolled for."""
    phase = view["phase"]
    rnd = view.get("round", 0)
    elements: list[Element] = []
    if phase == "deal":
        label = text("Set-up: the five villages of each player are dealt",
                     "Begin van het spel: de vijf dorpen van iedere speler klaarleggen")
    elif phase == "choose":
        label = text(f"Round {rnd}: every player chooses three nobles in secret",
                     f"Spelronde {rnd}: iedere speler kiest in het geheim drie edelen")
    elif phase == "tie":
        tie = view.get("tie") or {}
        tied = ", ".join(seat_text(t) for t in tie.get("tied", []))
        if tie.get("method") == "die":
            label = text(f"Round {rnd}: equal trios ({tied}): the lowest roll starts",
                         f"Spelronde {rnd}: gelijke trio's ({tied}): de laagste worp begint")
            elements.append(Element("die", "action", text("Roll the die", "Dobbelsteen gooien")))
        else:
            label = text(f"Round {rnd}: equal trios ({tied}): each picks one more noble in secret",
                         f"Spelronde {rnd}: gelijke trio's ({tied}): ieder kiest in het geheim nog een edele")
            for t in tie.get("tied", []):
                pick = (tie.get("picks") or {}).get(str(t))
                if pick:
                    elements.append(Element(f"pick-{t}", "card", text(f"{seat_text(t)} picked", f"{seat_text(t)} koos"),
                                            shows={"card": pick}))
                elif t in tie.get("picked", []):
                    elements.append(Element(f"pick-{t}", "pile", text(f"{seat_text(t)} picked, hidden",
                                                                      f"{seat_text(t)} koos, verborgen"),
                                            shows={"count": 1}, face_down=True))
    elif phase == "play":
        turn = view.get("turn") or {}
        order = [seat_text(slot[0]) for slot in view.get("order") or []]
        label = text(f"Round {rnd}: {seat_text(turn['seat'])} at turn (order {', '.join(order)})",
                     f"Spelronde {rnd}: {seat_text(turn['seat'])} aan de beurt (volgorde {', '.join(order)})")
        elements.extend(turn_state(turn))
    else:
        winner = view.get("winner")
        label = (text(f"{seat_text(winner)} completed four castles and wins", f"{seat_text(winner)} voltooide vier kastelen en wint")
                 if winner is not None else text("The game is over", "Het spel is voorbij"))
    return Zone("round", "row", label, elements)


def turn_state(turn: dict[str, Any]) -> list[Element]:
    """What the turn has done so far, as labels."""
    out = []
    if turn.get("turning"):
        what = turn["turning"]
        named = what.get("named")
        en = {"standard turn-over": "the standard turn-over", "clubs jack": "the clubs jack: until a card fits",
              "extra cards": "an extra card", "hearts queen+king": f"hearts queen+king: until {short(named) if named else 'the named card'}"}
        nl = {"standard turn-over": "de standaardkaartdraai", "clubs jack": "klaver boer: tot een kaart past",
              "extra cards": "een extra kaart", "hearts queen+king": f"harten vrouw+heer: tot {short(named) if named else 'de genoemde kaart'}"}
        out.append(Element("turning", "label", text(f"Turning a card: {en.get(what['for'], what['for'])}",
                                                    f"Kaart draaien: {nl.get(what['for'], what['for'])}")))
    elif turn.get("turned_over"):
        out.append(Element("turned", "label", text("Standard turn-over done", "Standaardkaartdraai gedaan")))
    if turn.get("extra_cards_left"):
        k = turn["extra_cards_left"]
        out.append(Element("extra", "label", counted(k, ("{n} extra card left", "{n} extra cards left"), ("Nog {n} extra kaart", "Nog {n} extra kaarten"))))
    return out


# -- chance and secret picks ---------------------------------------------------------------------

def pickers(view: dict[str, Any], moves: list[dict[str, Any]], by_id: dict[str, Element], chance: bool) -> None:
    """Put each picker where the table sees what it enters."""
    players = view["players"]
    phase = view["phase"]
    for s in sorted({m["seat"] for m in moves if m["type"] == "choose"}):
        reveal = next(m["data"]["reveal"] for m in moves if m["type"] == "choose" and m["seat"] == s)
        by_id[nobles_id(s)].chance = Chance(
            type="choose", field="nobles", count=3, seat=s, values=list(NOBLE_IDS), data={"reveal": reveal},
            label=text(f"Nobles of {seat_text(s)}: tap the three chosen", f"Edelen van {seat_text(s)}: tik de drie gekozen aan"))
    if not chance:
        return
    if phase == "deal":
        s = next(i for i, p in enumerate(players) if len(p["villages"][0]) == 2)
        by_id[draw_id(s)].chance = Chance(
            type="deal", field="face_up", count=5, seat=s, values=unseen_cards(players[s]),
            label=text(f"Set-up of {seat_text(s)}: tap the face-up card of villages 1 to 5, in order",
                       f"Klaarleggen voor {seat_text(s)}: tik de open kaart van dorp 1 tot 5 aan, op volgorde"))
    elif phase == "tie":
        tie = view.get("tie") or {}
        tied = tie.get("tied", [])
        if tie.get("method") == "die" and len(tied) == len(players):  # a roll for every player, in seat order
            by_id["die"].chance = Chance(
                type="die", field="rolls", count=len(players), values=[1, 2, 3, 4, 5, 6], repeat=True,
                label=text("Die: tap each player's roll, in seat order", "Dobbelsteen: tik de worp van iedere speler aan, op zitvolgorde"))
    elif phase == "play":
        due = view.get("due") or []
        if due:
            d = due[0]
            owner, v = d["seat"], d["village"]
            by_id[village_id(owner, v)].chance = Chance(
                type="turn_up", field="card", scalar=True, seat=owner, values=unseen_cards(players[owner]),
                data={"village": v},
                label=text(f"Turned up in village {v}: which card?", f"Omgedraaid in dorp {v}: welke kaart?"))
        elif (view.get("turn") or {}).get("turning"):
            s = view["turn"]["seat"]
            p = players[s]
            first = text(" (the discard pile is turned over first)", " (eerst wordt de raapstapel omgedraaid)") \
                if p["draw_pile"] == 0 else text("", "")
            by_id[draw_id(s)].chance = Chance(
                type="flip", field="card", scalar=True, seat=s, values=next_cards(p),
                label=text(f"Turned onto the discard pile: which card?{first['en']}",
                           f"Op de raapstapel gedraaid: welke kaart?{first['nl']}"))


# -- moves --------------------------------------------------------------------------------------

def place_moves(view: dict[str, Any], moves: list[dict[str, Any]], by_id: dict[str, Element]) -> list[dict[str, Any]]:
    """Each legal move on its element or pair of elements; those without a place are returned (the fallback)."""
    players = view["players"]
    fallback: list[dict[str, Any]] = []
    seen: set[str] = set()

    def on(element: str, move: dict[str, Any], en: str, nl: str) -> None:
        e = by_id.get(element)
        if e is None:
            fallback.append(move)
        else:
            e.moves.append(labelled(move, en, nl))

    def pair(a: str, b: str, move: dict[str, Any], en: str, nl: str) -> None:
        if a not in by_id or b not in by_id:
            fallback.append(move)
        else:
            by_id[a].targets.setdefault(b, []).append(labelled(move, en, nl))

    for m in moves:
        key = move_key(m)
        if key in seen:  # a move listed twice (an ace the hearts queen turned on top) has one place
            continue
        seen.add(key)
        t, s, d = m["type"], m["seat"], m.get("data", {})
        if t == "choose":
            continue  # the nobles' picker builds it
        if t == "counter_pick":
            name = noble_text(d["noble"])
            on(nobles_id(s), m, name["en"], name["nl"])
        elif t == "turn_over":
            if d.get("clubs_jack"):
                on(noble_id(s, "JC"), m, "Clubs jack: turn until a card fits", "Klaver boer: draaien tot een kaart past")
            else:
                on(draw_id(s), m, "Standard turn-over: turn one card", "Standaardkaartdraai: één kaart draaien")
        elif t == "extra_card":
            on(draw_id(s), m, "Turn the next extra card", "Volgende extra kaart draaien")
        elif t == "extra_draw":
            if d["power"] == "QC":
                on(noble_id(s, "QC"), m, "Clubs queen: two extra cards", "Klaver vrouw: twee extra kaarten")
            else:
                on(noble_id(s, "KC"), m, "Clubs king: three extra cards", "Klaver heer: drie extra kaarten")
        elif t == "turn_top":
            v = d["village"]
            on(village_id(s, v), m, f"Turn up the top card of village {v}", f"Bovenste kaart van dorp {v} omdraaien")
        elif t == "end_turn":
            on(done_id(s), m, "Done: end the turn", "Klaar: beurt voorbij")
        elif t == "name_card":
            c = short(d["card"])
            on(noble_id(s, "KH"), m, f"Name {c}", f"Noem {c}")
        elif t == "hearts_queen":
            v, slot = d["village"], d["slot"]
            pair(noble_id(s, "QH"), village_id(s, v), m, f"Hearts queen: turn card {slot} of village {v} (1 = bottom)",
                 f"Harten vrouw: kaart {slot} van dorp {v} omdraaien (1 = onderste)")
        elif t == "attack":
            o = d["target"]
            if d["power"] == "JS":
                v = d["village"]
                pair(noble_id(s, "JS"), village_id(o, v), m, f"Spades jack: take village {v} of {seat_text(o)}",
                     f"Schoppen boer: dorp {v} van {seat_text(o)} plunderen")
            elif d["power"] == "QS":
                on(noble_id(s, "QS"), m, f"Spades queen: take the top card of every village of {seat_text(o)}",
                   f"Schoppen vrouw: de bovenste kaart van ieder dorp van {seat_text(o)} pakken")
            else:
                x = SUITS.index(d["castle"])
                pair(noble_id(s, "KS"), castle_id(o, d["castle"]), m,
                     f"Spades jack+queen+king: take the {SUIT_NAMES[x]} castle of {seat_text(o)}",
                     f"Schoppen boer+vrouw+heer: het {SUIT_DUTCH[x]} kasteel van {seat_text(o)} verwoesten")
        elif t == "build":
            place_build(players[s], s, m, pair, fallback)
        else:
            fallback.append(m)
    return fallback


def place_build(p: dict[str, Any], s: int, m: dict[str, Any], pair, fallback: list[dict[str, Any]]) -> None:
    d = m["data"]
    card, to = d["card"], d["to"]
    if to == "castle":
        dest = castle_id(s, card[-1])
        where_en, where_nl = "the castle", "het kasteel"
    else:
        dest = village_id(s, to)
        where_en, where_nl = f"village {to}", f"dorp {to}"
    if d.get("hearts_jack"):
        v = next((i for i, cards in enumerate(p["villages"], start=1) if card in cards), None)
        pair(noble_id(s, "JH"), dest, m, f"Hearts jack: {short(card)} from village {v} onto {where_en}",
             f"Harten boer: {short(card)} uit dorp {v} op {where_nl}")
        return
    if p["discard_pile"]["top"] == card:
        pair(discard_id(s), dest, m, f"{short(card)} from the discard pile onto {where_en}",
             f"{short(card)} van de raapstapel op {where_nl}")
        return
    for v, cards in enumerate(p["villages"], start=1):
        if card in cards:
            i = cards.index(card)
            moved = [card] if to == "castle" else [c for c in cards[i:] if c]
            what = " ".join(short(c) for c in moved)
            pair(village_id(s, v), dest, m, f"{what} from village {v} onto {where_en}", f"{what} uit dorp {v} op {where_nl}")
            return
    fallback.append(m)
