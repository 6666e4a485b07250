"""BraveRats on the table (``engine.scene``): the score line, each seat's
hand (its own cards face up for that seat, the other's as backs when the
hand is secret), the place on the table in front of each seat where its
card of this round lies, and the rounds played as face-up pairs.

A round (``round``: both cards revealed together) is a tap on Red's card
and a tap on Blue's; a card played alone (``play``: face down, or face up
first after a Spy) is a tap on the card and one on its seat's place on the
table. A card the table has not seen (variants B and E: drawn or dealt
face down) is the hand's face-down card, whose picker names it. Chance
enters where the table sees it: the draft stack (D), the shuffled cards
(E), the traitor's exchange (A), the draw piles (B). Variant G's loser
picks the next game's variants on a button in the score line.

Dutch names from the rules text: *ronde*, *onbeslist*, *trekstapel*, *de
verrader*, *Willekeur*, *Draft*, the cards *Muzikant* … *Prins*."""

from __future__ import annotations

from typing import Any

from ..scene import Chance, Element, Scene, Zone, counted, labelled, text
from .cards import CARD_IDS, DUTCH_IDS, TITLES, UNKNOWN

COLOURS = (text("Red", "rood"), text("Blue", "blauw"))
ARMIES = ("Royal Reds", "MacBlue")


def card_text(card: str) -> dict[str, str]:
    """"Wizard" / "Tovenaar" for ``"wizard"``."""
    i = CARD_IDS.index(card)
    return text(TITLES[i], DUTCH_IDS[i].capitalize())


def seat_text(seat: int) -> str:
    """A seat in a label: the renderer puts the player's name there."""
    return "{seat%d}" % seat


def hand_id(seat: int, card: str) -> str:
    return f"hand-{seat}-{card}"


def unseen_id(seat: int) -> str:
    """The hand's face-down cards: those the viewer has not seen."""
    return f"unseen-{seat}"


def place_id(seat: int) -> str:
    """The seat's place on the table, where its card of this round lies."""
    return f"place-{seat}"


def _cards_label(cards: list[str]) -> dict[str, str]:
    names = [card_text(c) for c in cards]
    return text(" – ".join(n["en"] for n in names), " – ".join(n["nl"] for n in names))


def _chance_due(view: dict[str, Any]) -> bool:
    return "chance" in (view.get("to_act") or [])


def _values(cards: list[str] | set[str]) -> list[str]:
    """Card ids in the order of their values (Musician 0 … Prince 7)."""
    return [c for c in CARD_IDS if c in cards]


def _score_zone(view: dict[str, Any], moves: list[dict[str, Any]]) -> Zone:
    score = view.get("score") or [0, 0]
    els = []
    over = view.get("game_over")
    if over is None:
        els.append(Element("round", "label", text(
            f"Round {view.get('round', 1)} · {view.get('target', 4)} rounds win",
            f"Ronde {view.get('round', 1)} · {view.get('target', 4)} gewonnen ronden winnen")))
    for s in (0, 1):
        n = score[s]
        els.append(Element(f"score-{s}", "label", text(
            f"{seat_text(s)} ({COLOURS[s]['en']}): {n} round{'s' if n != 1 else ''} won",
            f"{seat_text(s)} ({COLOURS[s]['nl']}): {n} ronde{'n' if n != 1 else ''} gewonnen"),
            shows={"count": n}, highlight=over is not None and over.get("winner") == s))
    held = view.get("held", 0)
    if held:
        els.append(Element("held", "label", text(
            f"{held} round{'s' if held != 1 else ''} on hold", f"{held} onbesliste ronde{'n' if held != 1 else ''}"),
            shows={"count": held}))
    for s, bonus in enumerate(view.get("general_bonus") or []):
        if bonus:
            els.append(Element(f"general-{s}", "label", text(
                f"{seat_text(s)}: +2 this round (General)", f"{seat_text(s)}: +2 deze ronde (Generaal)")))
    first = view.get("spy_first")
    if first is not None:
        els.append(Element("spy", "label", text(
            f"{seat_text(first)} plays first, face up (Spy)", f"{seat_text(first)} speelt eerst, open (Spion)")))
    if over is not None:
        w = over.get("winner")
        els.append(Element("over", "label", text("The game is a draw", "Het spel eindigt onbeslist") if w is None else text(
            f"{seat_text(w)} wins the game", f"{seat_text(w)} wint het spel"), highlight=True))
    series = view.get("series")
    if series:
        a, b = series["games_won"]
        els.append(Element("series", "label", text(
            f"Series (G): game {series['game']} · games won {a}–{b}",
            f"Reeks (G, de ware heerser): spel {series['game']} · gewonnen spellen {a}–{b}")))
    choices = [m for m in moves if m["type"] == "choose_variant"]
    if choices:
        seat = choices[0]["seat"]
        picks = [labelled(m, "Variants " + " ".join(m["data"]["variants"]), "Varianten " + " ".join(m["data"]["variants"]))
                 if m["data"]["variants"] else labelled(m, "The base game", "Het basisspel") for m in choices]
        els.append(Element(f"choose-{seat}", "action", text(
            f"{seat_text(seat)} chooses the next game's variants", f"{seat_text(seat)} kiest de varianten van het volgende spel"),
            moves=picks, highlight=True))
    variants = view.get("variants") or []
    if variants:
        els.append(Element("variants", "label", text("Variants " + " ".join(variants), "Varianten " + " ".join(variants))))
    return Zone("score", "row", text("Score", "Stand"), els)


def _hand_elements(view: dict[str, Any], s: int) -> list[Element]:
    hand = (view.get("hands") or [{}, {}])[s]
    cards = hand.get("cards")
    if cards is None:  # a secret hand: its backs only
        n = hand.get("count", 0)
        return [Element(unseen_id(s), "pile", counted(n, ("{n} card in hand, face down", "{n} cards in hand, face down"),
                                                             ("{n} kaart in de hand, gedekt", "{n} kaarten in de hand, gedekt")),
                        shows={"count": n}, face_down=True)] if n else []
    els = []
    for c in _values(set(cards)):
        n = cards.count(c)
        els.append(Element(hand_id(s, c), "card", card_text(c), shows={"card": c, "count": n}))
    unseen = hand.get("unseen") or 0
    if unseen:
        els.append(Element(unseen_id(s), "pile", counted(unseen, ("{n} card not seen", "{n} cards not seen"),
                                                                   ("{n} ongeziene kaart", "{n} ongeziene kaarten")),
                           shows={"count": unseen}, face_down=True))
    if "pile" in hand:
        p = hand["pile"]
        els.append(Element(f"pile-{s}", "pile", text(f"Draw pile: {p}", f"Trekstapel: {p}"), shows={"count": p}, face_down=True))
    return els


def _place(view: dict[str, Any], s: int) -> Element:
    """The seat's card of this round on the table: face down, face up (after a Spy), or nothing yet."""
    t = (view.get("table") or [{}, {}])[s]
    who = seat_text(s)
    if not t.get("played"):
        return Element(place_id(s), "slot", text(f"{who}'s card of this round", f"De kaart van {who} in deze ronde"))
    card = t.get("card")
    if card is None:
        return Element(place_id(s), "card", text(f"{who} has played, face down", f"{who} heeft gespeeld, gedekt"),
                       shows={"played": True}, face_down=True)
    way = text("face up", "open") if t.get("face_up") else text("face down", "gedekt")
    name = card_text(card)
    return Element(place_id(s), "card", text(f"{who} played the {name['en']}, {way['en']}",
                                             f"{who} speelde de {name['nl']}, {way['nl']}"),
                   shows={"card": card, "played": True}, face_down=False)


def _rounds_zone(view: dict[str, Any]) -> Zone:
    els = []
    for r in view.get("rounds") or []:
        i, w = r["round"], r["winner"]
        if r.get("wins_game") and w is not None:
            res = text(f"{seat_text(w)} wins the game", f"{seat_text(w)} wint het spel")
        elif w is None:
            res = text("on hold", "onbeslist")
        else:
            n = r.get("counts", 1)
            res = text(f"{seat_text(w)} wins" + (f" {n} rounds" if n > 1 else ""),
                       f"{seat_text(w)} wint" + (f" {n} ronden" if n > 1 else ""))
        els.append(Element(f"round-{i}", "trick", text(f"{i}: {res['en']}", f"{i}: {res['nl']}"),
                           shows={"cards": list(r["cards"]), "round": i, "winner": w}))
    return Zone("rounds", "row", text(f"Rounds played: {seat_text(0)}'s card, {seat_text(1)}'s",
                                        f"Gespeelde ronden: de kaart van {seat_text(0)}, die van {seat_text(1)}"), els)


def _set_up_zone(view: dict[str, Any]) -> Zone | None:
    """Before the rounds: the draft stack and its offer (D), the shuffled cards (E), the traitor (A)."""
    phase = view.get("phase")
    due = _chance_due(view)
    els: list[Element] = []
    referee = "unseen_pool" in view  # only the referee's view names the pool
    if phase == "draft":
        d = view["draft"]
        picker = None
        if due:
            values = _values(set(d["deck_cards"])) if "deck_cards" in d else list(CARD_IDS)
            picker = Chance(type="draft", field="cards", values=values, count=4, seat=d.get("drafter"), repeat=True,
                            label=text(f"Draft: tap the 4 cards {seat_text(d['drafter'])} draws",
                                       f"Draft: tik de 4 kaarten aan die {seat_text(d['drafter'])} trekt"))
        els.append(Element("draft-stack", "pile", text(f"Draft stack: {d['deck']}", f"Gedekte stapel: {d['deck']}"),
                           shows={"count": d["deck"]}, face_down=True, chance=picker, highlight=picker is not None))
        offer = d.get("offer")
        if offer is not None:
            for c in _values(set(offer)):
                els.append(Element(f"offer-{c}", "card", card_text(c), shows={"card": c, "count": offer.count(c)}))
        elif d.get("offer_count"):
            n = d["offer_count"]
            els.append(Element("offer", "pile", counted(n, ("{n} card on offer", "{n} cards on offer"),
                                                              ("{n} kaart aangeboden", "{n} kaarten aangeboden")),
                               shows={"count": n}, face_down=True))
        who = d.get("picker")
        label = text(f"Draft (D): {seat_text(who)} keeps one", f"Draft (D): {seat_text(who)} kiest er één") if who is not None \
            else text("Draft (D)", "Draft (D)")
        return Zone("draft", "row", label, els)
    if phase == "deal":
        picker = None
        if due:
            picker = Chance(type="deal", field="hands", values=[*CARD_IDS, UNKNOWN], count=16, groups=[8, 8], repeat=True,
                            label=text(f"Deal: tap the 8 cards of {seat_text(0)}, then the 8 of {seat_text(1)} (unknown: not seen)",
                                       f"Delen: tik de 8 kaarten van {seat_text(0)} aan, dan de 8 van {seat_text(1)} (onbekend: niet gezien)"))
        els.append(Element("shuffled", "pile", text("The 16 cards, shuffled", "De 16 kaarten, geschud"), shows={"count": 16},
                           face_down=True, chance=picker, highlight=picker is not None))
        return Zone("deal", "stack", text("Random (E)", "Willekeur (E)"), els)
    if phase == "exchange":
        picker = None
        if due:
            hands = view.get("hands") or []
            # the cards the two hands may give: those the view shows, unless a hand holds cards it does not
            unseen = any(h.get("cards") is None or h.get("unseen") for h in hands)
            values = list(CARD_IDS) if unseen else _values({c for h in hands for c in h["cards"]})
            picker = Chance(type="exchange", field="cards", values=values, count=2, repeat=True,
                            label=text(f"The traitor: tap the card {seat_text(0)} gives, then the card {seat_text(1)} gives",
                                       f"De verrader: tik de kaart aan die {seat_text(0)} geeft, dan die {seat_text(1)} geeft"))
        els.append(Element("traitor", "action" if picker else "label", text("Exchange one random card", "Ruil 1 willekeurige kaart"),
                           chance=picker, highlight=picker is not None))
        return Zone("traitor", "row", text("The traitor (A)", "De verrader (A)"), els)
    if phase == "draw":
        hands = view.get("hands") or [{}, {}]
        n = 1 if view.get("rounds") else 3
        counts = [min(n, h.get("pile", 0)) for h in hands]
        picker = None
        if due:
            pool = set(view.get("unseen_pool") or [])
            if referee:
                values = _values({c for h in hands for c in h.get("unseen_from", [])}
                                 | (pool if any(h.get("unseen_from_pool") for h in hands) else set()))
            else:
                values = list(CARD_IDS)
            picker = Chance(type="draw", field="cards", values=[*values, UNKNOWN], count=sum(counts), groups=counts, repeat=True,
                            label=counted(counts[0], (
                                f"Draw: tap the {{n}} card {seat_text(0)} draws, then the {counts[1]} of {seat_text(1)} "
                                "(unknown: not seen)",
                                f"Draw: tap the {{n}} cards {seat_text(0)} draws, then the {counts[1]} of {seat_text(1)} "
                                "(unknown: not seen)"), (
                                f"Trekken: tik de {{n}} kaart aan die {seat_text(0)} trekt, dan de {counts[1]} van "
                                f"{seat_text(1)} (onbekend: niet gezien)",
                                f"Trekken: tik de {{n}} kaarten aan die {seat_text(0)} trekt, dan de {counts[1]} van "
                                f"{seat_text(1)} (onbekend: niet gezien)")))
        els.append(Element("draw", "action" if picker else "label", text(
            f"Each player draws {n} from his draw pile", f"Ieder trekt er {n} van zijn trekstapel"),
            chance=picker, highlight=picker is not None))
        return Zone("draw", "row", text("The draw pile (B)", "De trekstapel (B)"), els)
    return None


def scene(view: dict[str, Any], moves: list[dict[str, Any]]) -> Scene:
    seats = [Zone(f"seat-{s}", "seat", text(f"{seat_text(s)} · {ARMIES[s]} ({COLOURS[s]['en']})",
                                            f"{seat_text(s)} · {ARMIES[s]} ({COLOURS[s]['nl']})"),
                  _hand_elements(view, s), seat=s) for s in (0, 1)]
    table = Zone("table", "row", text("This round on the table", "Deze ronde op tafel"), [_place(view, s) for s in (0, 1)])
    by_id = {e.id: e for z in (*seats, table) for e in z.elements}

    def source(s: int, card: str) -> Element:
        """Where a seat's card is tapped: the card in its hand, or the hand's unseen cards."""
        return by_id.get(hand_id(s, card)) or by_id[unseen_id(s)]

    for m in moves:
        d = m["data"]
        if m["type"] == "round":
            a, b = d["cards"]
            source(0, a).targets.setdefault(source(1, b).id, []).append(
                labelled(m, _cards_label([a, b])["en"], _cards_label([a, b])["nl"]))
        elif m["type"] == "play":
            name = card_text(d["card"])
            source(m["seat"], d["card"]).targets.setdefault(place_id(m["seat"]), []).append(labelled(m, name["en"], name["nl"]))
    set_up = _set_up_zone(view)
    if set_up is not None:
        offers = {e.id: e for e in set_up.elements}
        for m in moves:
            if m["type"] == "pick":
                name = card_text(m["data"]["card"])
                offers[f"offer-{m['data']['card']}"].moves.append(labelled(m, name["en"], name["nl"]))
    involved = {i for e in by_id.values() if e.targets for i in (e.id, *e.targets)}
    for e in by_id.values():
        e.highlight = e.highlight or e.id in involved
    if set_up is not None:
        for e in set_up.elements:
            e.highlight = e.highlight or bool(e.moves)
    zones = [_score_zone(view, moves), *([set_up] if set_up else []), seats[0], table, seats[1], _rounds_zone(view)]
    return Scene(zones)
