"""One-line descriptions of events (public: the review shows them to everyone,
so they never name an unrevealed noble choice) and the worker's automatic
annotations, both computed from the states before and after an event."""

from __future__ import annotations

from typing import Any

from .cards import (CARD_IDS, CARD_INDEX, JD, KD, NOBLE_DUTCH, NOBLE_IDS, POWER_NAMES, QD, SUIT_DUTCH, SUIT_NAMES, SUITS,
                    list_ids, mask_cards)
from .state import CHOOSE, FACE_DOWN, JACK, OVER, PLAY, TIE, Player, State, cons_list, fits

GUARDS = {"JS": JD, "QS": QD, "JQKS": KD}


def _n(s: State, seat: int | None, nl: bool = False) -> str:
    if seat is None:
        return "de tafel" if nl else "the table"
    return s.names[seat] if s.names and 0 <= seat < len(s.names) else (f"plaats {seat}" if nl else f"seat {seat}")


#: the powers as the Dutch rules text names their cards
POWER_NAMES_NL = {"JS": "de schoppenboer", "QS": "de schoppenvrouw", "JQKS": "schoppenboer+vrouw+heer",
                  "QC": "de klavervrouw", "KC": "de klaverheer", "QKH": "hartenvrouw+heer"}


def _castle_cards(p: Player) -> int:
    return sum(p.castles)


def describe(game: Any, before: State, type: str, seat: int | None, data: dict[str, Any], after: State,
             nl: bool = False) -> str:
    """One line per event, in English or (``nl``) Dutch with the rules text's words (dorp, kasteel, edelen,
    aflegstapel, trekstapel): one structure, so the two say the same."""
    def t(en: str, dutch: str) -> str:
        return dutch if nl else en

    def n(s: State, p: int | None) -> str:
        return _n(s, p, nl)

    b, a = before, after
    if type == "deal":
        who = seat if seat is not None else next(i for i, p in enumerate(b.players) if len(p.villages[0]) == 2)
        return t(f"{n(b, who)}'s five villages are dealt, face up on top: {', '.join(data['face_up'])}",
                 f"De vijf dorpen van {n(b, who)} zijn gedeeld, open bovenop: {', '.join(data['face_up'])}")
    if type == "choose":
        text = t(f"{n(b, seat)} chooses three nobles in secret", f"{n(b, seat)} kiest in het geheim drie edelen")
        return text + _after_reveal(a, nl) if a.phase != CHOOSE else text
    if type == "reveal":
        trios = "; ".join(f"{n(b, i)} {', '.join(tr)}" for i, tr in enumerate(data["nobles"]))
        return t(f"Round {b.round}, the nobles are revealed: {trios}",
                 f"Ronde {b.round}, de edelen worden getoond: {trios}") + _after_reveal(a, nl)
    if type == "die":
        rolls = ", ".join(f"{n(b, i)} {r}" for i, r in enumerate(data["rolls"]) if r is not None)
        return t(f"Equal trios: the die shows {rolls}", f"Gelijke drietallen: de dobbelsteen toont {rolls}") \
            + _order_text(a, nl)
    if type == "counter_pick":
        text = t(f"{n(b, seat)} picks a noble against the tie in secret",
                 f"{n(b, seat)} kiest in het geheim een edele tegen de gelijkheid")
        return text + _counter_text(b, a, nl)
    if type == "counter_reveal":
        picks = ", ".join(f"{n(b, i)} {x}" for i, x in enumerate(data["nobles"]) if x is not None)
        return t(f"Equal trios: the picks are {picks}", f"Gelijke drietallen: gekozen zijn {picks}") \
            + _counter_text(b, a, nl)
    if type == "turn_over":
        if nl:
            return f"{n(b, seat)} draait een kaart om (gewone omdraai" + (
                ", verlengd door de klaverboer)" if data["clubs_jack"] else ")")
        return f"{n(b, seat)} turns over a card (standard turn-over" + (
            ", extended by the clubs jack)" if data["clubs_jack"] else ")")
    if type == "flip":
        cur = b.order[b.pos][0]
        p = b.players[cur]
        pre = t(f"{n(b, cur)}'s discard pile is turned over as the new draw pile; ",
                f"de aflegstapel van {n(b, cur)} wordt omgedraaid als nieuwe trekstapel; ") if p.ndraw == 0 else ""
        text = pre + t(f"{n(b, cur)} turns up {data['card']}", f"{n(b, cur)} draait {data['card']} om")
        if nl:
            text = text[:1].upper() + text[1:]
        tn = a.turn
        if tn.flip is None and b.turn.flip is not None and b.turn.flip[0] == JACK and a.phase == PLAY:
            ap = a.players[cur]
            c = CARD_INDEX[data["card"]]
            if not (fits(ap, c)):
                text += t(" (no card left that could fit: the clubs jack stops)",
                          " (geen kaart meer die past: de klaverboer stopt)")
        return text
    if type == "turn_up":
        owner = seat if seat is not None else next(d[0] for d in b.due if d[1] == data["village"] - 1)
        return t(f"Village {data['village']} of {n(b, owner)}: the face-down card is turned up, {data['card']}",
                 f"Dorp {data['village']} van {n(b, owner)}: de gedekte kaart wordt omgedraaid, {data['card']}")
    if type == "shuffled":
        cur = n(b, b.order[b.pos][0])
        return t(f"{cur}'s draw pile was shuffled (against the rules): its order is no longer known",
                 f"De trekstapel van {cur} is geschud (tegen de regels): de volgorde is niet meer bekend")
    if type == "build":
        return _build_text(b, seat, data, a, nl)
    if type == "attack":
        power, target = data["power"], data["target"]
        if nl:
            where = {"JS": f"dorp {data.get('village')}", "QS": "de bovenste kaart van elk dorp",
                     "JQKS": f"het {SUIT_DUTCH[SUITS.index(data.get('castle', 'S'))]}kasteel"}[power]
            text = f"{n(b, seat)} valt {where} van {n(b, target)} aan met {POWER_NAMES_NL[power]}"
        else:
            where = {"JS": f"village {data.get('village')}", "QS": "the top card of every village",
                     "JQKS": f"the {SUIT_NAMES[SUITS.index(data.get('castle', 'S'))]} castle"}[power]
            text = f"{n(b, seat)} attacks {n(b, target)}'s {where} with {POWER_NAMES[power]}"
        if GUARDS[power] in b.trios[target]:  # type: ignore[index]
            return text + t(f": stopped by the {_noble_label(GUARDS[power])}",
                            f": tegengehouden door de {_noble_label(GUARDS[power], True)}")
        lost = _lost(b, a, target, nl)
        return text + t(f": {lost} go under the draw pile", f": {lost} gaan onder de trekstapel")
    if type == "extra_draw":
        k = 2 if data['power'] == 'QC' else 3
        return t(f"{n(b, seat)} plays {POWER_NAMES[data['power']]}: {k} extra cards",
                 f"{n(b, seat)} speelt {POWER_NAMES_NL[data['power']]}: {k} extra kaarten")
    if type == "extra_card":
        return t(f"{n(b, seat)} turns the next extra card ({b.turn.extra - 1} left after it)",
                 f"{n(b, seat)} draait de volgende extra kaart om (daarna nog {b.turn.extra - 1})")
    if type == "turn_top":
        return t(f"{n(b, seat)} turns up the face-down top card of village {data['village']}",
                 f"{n(b, seat)} draait de gedekte bovenste kaart van dorp {data['village']} om")
    if type == "hearts_queen":
        return t(f"{n(b, seat)} plays the queen of hearts on the face-down card at slot {data['slot']} of village "
                 f"{data['village']}", f"{n(b, seat)} speelt de hartenvrouw op de gedekte kaart op plaats "
                 f"{data['slot']} van dorp {data['village']}")
    if type == "name_card":
        return t(f"{n(b, seat)} plays queen+king of hearts and names {data['card']}: cards are turned until it appears",
                 f"{n(b, seat)} speelt hartenvrouw+heer en noemt {data['card']}: er worden kaarten omgedraaid tot "
                 "die verschijnt")
    if type == "end_turn":
        text = t(f"{n(b, seat)} ends the turn", f"{n(b, seat)} beëindigt de beurt")
        if a.phase == OVER:
            return text
        if a.phase == CHOOSE:
            return text + t(f"; round {b.round} is over", f"; ronde {b.round} is voorbij")
        return text + t(f"; {n(a, a.order[a.pos][0])} is next", f"; {n(a, a.order[a.pos][0])} is aan de beurt")
    return type


def _noble_label(nb: int, nl: bool = False) -> str:
    from .cards import noble_short

    return f"{SUIT_DUTCH[nb // 3]}{NOBLE_DUTCH[nb % 3]}" if nl else noble_short(nb)


def _after_reveal(a: State, nl: bool = False) -> str:
    if a.phase == CHOOSE:
        return ""
    return "; " + _order_text(a, nl).lstrip("; ")


def _order_text(a: State, nl: bool = False) -> str:
    if a.phase == TIE:
        group = next(slot for slot in a.order if len(slot) > 1)
        if nl:
            return f"; {' en '.join(_n(a, x, True) for x in group)} kozen precies hetzelfde drietal: de gelijkheid " \
                "wordt beslist met " + ("een dobbelsteen" if a.tie_break == "die" else "nog een edele kiezen")
        return f"; {' and '.join(_n(a, x) for x in group)} chose exactly the same trio: the tie is broken by " + (
            "a die" if a.tie_break == "die" else "picking one more noble"
        )
    if a.phase == PLAY:
        return ("; beurtvolgorde " if nl else "; turn order ") + ", ".join(_n(a, slot[0], nl) for slot in a.order)
    return ""


def _counter_text(b: State, a: State, nl: bool = False) -> str:
    if a.phase == TIE and len(a.reveals) > len(b.reveals):
        return ": geen winnaar, opnieuw kiezen" if nl else ": no winner, pick again"
    if len(a.reveals) > len(b.reveals):
        return _order_text(a, nl)
    return ""


def _build_text(b: State, seat: int, data: dict[str, Any], a: State, nl: bool = False) -> str:
    def t(en: str, dutch: str) -> str:
        return dutch if nl else en

    c = CARD_INDEX[data["card"]]
    p = b.players[seat]
    if p.discard is not None and p.discard[0] == c:
        src = t("the discard pile", "de aflegstapel")
        moved = [c]
    else:
        v = next(i for i, village in enumerate(p.villages) if c in village)
        village = p.villages[v]
        idx = village.index(c)
        src = t(f"village {v + 1}", f"dorp {v + 1}")
        moved = list(village[idx:]) if data["to"] != "castle" and not data.get("hearts_jack") and idx < len(village) - 1 else [c]
        if idx < len(village) - 1 and (data.get("hearts_jack") or data["to"] == "castle"):
            src = t(f"inside village {v + 1}" + (" with the hearts jack" if data.get("hearts_jack") else
                                                 " (the ace the hearts queen turned)"),
                    f"binnen dorp {v + 1}" + (" met de hartenboer" if data.get("hearts_jack") else
                                              " (de aas die de hartenvrouw omdraaide)"))
    run = "–".join(CARD_IDS[x] for x in moved)
    what = data["card"] if len(moved) == 1 else t(f"the run {run}", f"de reeks {run}")
    suit, rank = divmod(c, 10)
    if data["to"] == "castle":
        if nl:
            dest = f"om het {SUIT_DUTCH[suit]}kasteel te beginnen" if rank == 0 else f"op het {SUIT_DUTCH[suit]}kasteel"
        else:
            dest = f"to start the {SUIT_NAMES[suit]} castle" if rank == 0 else f"onto the {SUIT_NAMES[suit]} castle"
    else:
        dest = t(f"onto village {data['to']}", f"op dorp {data['to']}")
    text = t(f"{_n(b, seat)} builds {what} from {src} {dest}", f"{_n(b, seat, True)} bouwt {what} van {src} {dest}")
    if a.phase == OVER:
        text += t(f": four castles complete, {_n(a, seat)} wins", f": vier kastelen af, {_n(a, seat, True)} wint")
    elif data["to"] == "castle" and a.players[seat].castles[c // 10] == 10:
        text += t(f" (the {SUIT_NAMES[c // 10]} castle is complete)", f" (het {SUIT_DUTCH[c // 10]}kasteel is af)")
    return text


def _lost(b: State, a: State, target: int, nl: bool = False) -> str:
    ap = a.players[target]
    added = ap.draw[-1]
    known = mask_cards(added[1])
    down = added[2]
    parts = []
    if known:
        parts.append(list_ids(known))
    if down:
        parts.append(f"{down} gedekte kaart{'en' if down > 1 else ''}" if nl
                     else f"{down} face-down card{'s' if down > 1 else ''}")
    return (" en " if nl else " and ").join(parts) if parts else ("geen kaarten" if nl else "no cards")

# -- annotations ----------------------------------------------------------------------------

def annotate(game: Any, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
    b, a = before, after
    notes: list[dict[str, Any]] = []
    if type == "end_turn":
        notes.extend(_missed(game, b, seat))
        t = b.turn
        p = b.players[seat]
        if not t.std and p.ndraw + p.ndiscard:
            notes.append({
                "kind": "skipped_turn_over",
                "seat": seat,
                "text": f"{_n(b, seat)} ended the turn without the standard turn-over (allowed, but rarely meant)",
            })
        if a.phase == CHOOSE:
            notes.append(_tempo(b, a))
    elif type == "build" and a.phase == OVER:
        notes.append(_tempo(b, a))
    elif type == "attack":
        power, target = data["power"], data["target"]
        guard = GUARDS[power]
        if guard in b.trios[target]:  # type: ignore[index]
            notes.append({
                "kind": "attack_stopped",
                "seat": seat,
                "target": target,
                "power": power,
                "protected_by": NOBLE_IDS[guard],
                "text": f"{_n(b, seat)}'s attack with {POWER_NAMES[power]} on {_n(b, target)} is stopped by the "
                f"{_noble_label(guard)}; the nobles are spent",
            })
        else:
            added = a.players[target].draw[-1]
            known = mask_cards(added[1])
            where = {"JS": f"village {data.get('village')}", "QS": "village tops", "JQKS": f"castle {data.get('castle')}"}[power]
            notes.append({
                "kind": "cards_lost",
                "seat": target,
                "by": seat,
                "power": power,
                "from": where,
                "cards": [CARD_IDS[c] for c in known],
                "face_down": added[2],
                "text": f"{_n(b, target)} loses {_lost(b, a, target)} from {where} to {_n(b, seat)}'s attack with {POWER_NAMES[power]}",
            })
    elif type == "shuffled":
        cur = b.order[b.pos][0]
        p = b.players[cur]
        lost = [CARD_IDS[c] for c in (cons_list(p.discard) if p.ndraw == 0 else [])]
        notes.append({
            "kind": "discrepancy",
            "seat": cur,
            "text": f"{_n(b, cur)}'s draw pile was shuffled against the rules"
            + (" (the discard pile was turned over shuffled)" if p.ndraw == 0 else "")
            + ": the log knows its cards but no longer their order",
            "cards_known": len(lost) if lost else None,
        })
    return notes


def _missed(game: Any, b: State, seat: int) -> list[dict[str, Any]]:
    """Cards that fitted a castle when the turn was ended."""
    from .cards import JH

    p = b.players[seat]
    t = b.turn
    castles = p.castles
    cards = []
    if p.discard is not None and castles[p.discard[0] // 10] == p.discard[0] % 10:
        cards.append((p.discard[0], "the top of the discard pile"))
    hj = JH in b.trios[seat] and not t.used >> JH & 1  # type: ignore[index]
    for v, village in enumerate(p.villages):
        for i, c in enumerate(village):
            if c == FACE_DOWN or castles[c // 10] != c % 10:
                continue
            if i == len(village) - 1:
                cards.append((c, f"the top of village {v + 1}"))
            elif hj:
                cards.append((c, f"inside village {v + 1}, with the unused hearts jack"))
    if not cards:
        return []
    return [{
        "kind": "missed_build",
        "seat": seat,
        "cards": [CARD_IDS[c] for c, _ in cards],
        "text": f"{_n(b, seat)} ended the turn while "
        + "; ".join(f"{CARD_IDS[c]} ({where}) fitted the {SUIT_NAMES[c // 10]} castle" for c, where in cards),
    }]


def _tempo(b: State, a: State) -> dict[str, Any]:
    now = [_castle_cards(p) for p in a.players]
    gained = [now[i] - b.start_castles[i] for i in range(a.n)]
    rounds = b.round
    return {
        "kind": "tempo",
        "final": a.phase == OVER,
        "round": rounds,
        "castle_cards": now,
        "gained": gained,
        "per_round": [round(x / rounds, 2) for x in now],
        "text": f"End of round {rounds}: cards on castles "
        + ", ".join(f"{_n(a, i)} {now[i]} ({gained[i]:+d}, {now[i] / rounds:.2f}/round)" for i in range(a.n)),
    }
