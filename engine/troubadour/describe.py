"""One-line descriptions of events (public: the review shows them to everyone,
so they never name an unrevealed noble choice) and the worker's automatic
annotations, both computed from the states before and after an event."""

from __future__ import annotations

from typing import Any

from .cards import CARD_IDS, CARD_INDEX, JD, KD, NOBLE_IDS, POWER_NAMES, QD, SUIT_NAMES, SUITS, list_ids, mask_cards
from .state import CHOOSE, FACE_DOWN, JACK, OVER, PLAY, TIE, Player, State, cons_list, fits

GUARDS = {"JS": JD, "QS": QD, "JQKS": KD}


def _n(s: State, seat: int | None) -> str:
    if seat is None:
        return "the table"
    return s.names[seat] if s.names and 0 <= seat < len(s.names) else f"seat {seat}"


def _castle_cards(p: Player) -> int:
    return sum(p.castles)


def describe(game: Any, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> str:
    b, a = before, after
    if type == "deal":
        who = seat if seat is not None else next(i for i, p in enumerate(b.players) if len(p.villages[0]) == 2)
        return f"{_n(b, who)}'s five villages are dealt, face up on top: {', '.join(data['face_up'])}"
    if type == "choose":
        text = f"{_n(b, seat)} chooses three nobles in secret"
        return text + _after_reveal(a) if a.phase != CHOOSE else text
    if type == "reveal":
        trios = "; ".join(f"{_n(b, i)} {', '.join(t)}" for i, t in enumerate(data["nobles"]))
        return f"Round {b.round}, the nobles are revealed: {trios}" + _after_reveal(a)
    if type == "die":
        rolls = ", ".join(f"{_n(b, i)} {r}" for i, r in enumerate(data["rolls"]) if r is not None)
        return f"Equal trios: the die shows {rolls}" + _order_text(a)
    if type == "counter_pick":
        text = f"{_n(b, seat)} picks a noble against the tie in secret"
        return text + _counter_text(b, a)
    if type == "counter_reveal":
        picks = ", ".join(f"{_n(b, i)} {x}" for i, x in enumerate(data["nobles"]) if x is not None)
        return f"Equal trios: the picks are {picks}" + _counter_text(b, a)
    if type == "turn_over":
        return f"{_n(b, seat)} turns over a card (standard turn-over" + (", extended by the clubs jack)" if data["clubs_jack"] else ")")
    if type == "flip":
        cur = b.order[b.pos][0]
        p = b.players[cur]
        pre = f"{_n(b, cur)}'s discard pile is turned over as the new draw pile; " if p.ndraw == 0 else ""
        text = pre + f"{_n(b, cur)} turns up {data['card']}"
        t = a.turn
        if t.flip is None and b.turn.flip is not None and b.turn.flip[0] == JACK and a.phase == PLAY:
            ap = a.players[cur]
            c = CARD_INDEX[data["card"]]
            if not (fits(ap, c)):
                text += " (no card left that could fit: the clubs jack stops)"
        return text
    if type == "turn_up":
        owner = seat if seat is not None else next(d[0] for d in b.due if d[1] == data["village"] - 1)
        return f"Village {data['village']} of {_n(b, owner)}: the face-down card is turned up, {data['card']}"
    if type == "shuffled":
        return f"{_n(b, b.order[b.pos][0])}'s draw pile was shuffled (against the rules): its order is no longer known"
    if type == "build":
        return _build_text(b, seat, data, a)
    if type == "attack":
        power, target = data["power"], data["target"]
        where = {"JS": f"village {data.get('village')}", "QS": "the top card of every village", "JQKS": f"the {SUIT_NAMES[SUITS.index(data.get('castle', 'S'))]} castle"}[power]
        text = f"{_n(b, seat)} attacks {_n(b, target)}'s {where} with {POWER_NAMES[power]}"
        if GUARDS[power] in b.trios[target]:  # type: ignore[index]
            return text + f": stopped by the {_noble_label(GUARDS[power])}"
        lost = _lost(b, a, target)
        return text + f": {lost} go under the draw pile"
    if type == "extra_draw":
        return f"{_n(b, seat)} plays {POWER_NAMES[data['power']]}: {2 if data['power'] == 'QC' else 3} extra cards"
    if type == "extra_card":
        return f"{_n(b, seat)} turns the next extra card ({b.turn.extra - 1} left after it)"
    if type == "turn_top":
        return f"{_n(b, seat)} turns up the face-down top card of village {data['village']}"
    if type == "hearts_queen":
        return f"{_n(b, seat)} plays the queen of hearts on the face-down card at slot {data['slot']} of village {data['village']}"
    if type == "name_card":
        return f"{_n(b, seat)} plays queen+king of hearts and names {data['card']}: cards are turned until it appears"
    if type == "end_turn":
        text = f"{_n(b, seat)} ends the turn"
        if a.phase == OVER:
            return text
        if a.phase == CHOOSE:
            return text + f"; round {b.round} is over"
        return text + f"; {_n(a, a.order[a.pos][0])} is next"
    return type


def _noble_label(nb: int) -> str:
    from .cards import noble_short

    return noble_short(nb)


def _after_reveal(a: State) -> str:
    if a.phase == CHOOSE:
        return ""
    return "; " + _order_text(a).lstrip("; ")


def _order_text(a: State) -> str:
    if a.phase == TIE:
        group = next(slot for slot in a.order if len(slot) > 1)
        return f"; {' and '.join(_n(a, t) for t in group)} chose exactly the same trio: the tie is broken by " + (
            "a die" if a.tie_break == "die" else "picking one more noble"
        )
    if a.phase == PLAY:
        return "; turn order " + ", ".join(_n(a, slot[0]) for slot in a.order)
    return ""


def _counter_text(b: State, a: State) -> str:
    if a.phase == TIE and len(a.reveals) > len(b.reveals):
        return ": no winner, pick again"
    if len(a.reveals) > len(b.reveals):
        return _order_text(a)
    return ""


def _build_text(b: State, seat: int, data: dict[str, Any], a: State) -> str:
    c = CARD_INDEX[data["card"]]
    p = b.players[seat]
    if p.discard is not None and p.discard[0] == c:
        src = "the discard pile"
        moved = [c]
    else:
        v = next(i for i, village in enumerate(p.villages) if c in village)
        village = p.villages[v]
        idx = village.index(c)
        src = f"village {v + 1}"
        moved = list(village[idx:]) if data["to"] != "castle" and not data.get("hearts_jack") and idx < len(village) - 1 else [c]
        if idx < len(village) - 1 and (data.get("hearts_jack") or data["to"] == "castle"):
            src = f"inside village {v + 1}" + (" with the hearts jack" if data.get("hearts_jack") else " (the ace the hearts queen turned)")
    what = data["card"] if len(moved) == 1 else "the run " + "–".join(CARD_IDS[x] for x in moved)
    if data["to"] == "castle":
        suit, rank = divmod(c, 10)
        dest = f"to start the {SUIT_NAMES[suit]} castle" if rank == 0 else f"onto the {SUIT_NAMES[suit]} castle"
    else:
        dest = f"onto village {data['to']}"
    text = f"{_n(b, seat)} builds {what} from {src} {dest}"
    if a.phase == OVER:
        text += f": four castles complete, {_n(a, seat)} wins"
    elif data["to"] == "castle" and a.players[seat].castles[c // 10] == 10:
        text += f" (the {SUIT_NAMES[c // 10]} castle is complete)"
    return text


def _lost(b: State, a: State, target: int) -> str:
    ap = a.players[target]
    added = ap.draw[-1]
    known = mask_cards(added[1])
    down = added[2]
    parts = []
    if known:
        parts.append(list_ids(known))
    if down:
        parts.append(f"{down} face-down card{'s' if down > 1 else ''}")
    return " and ".join(parts) if parts else "no cards"


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
