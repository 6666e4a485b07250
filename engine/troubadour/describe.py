"""One-line descriptions of events (public: the review shows them to everyone,
so they never name an unrevealed noble choice) and the worker's automatic
annotations, both computed from the states before and after an event.

Said as messages (engine/text.py) in the rules text's words for Dutch (dorp, kasteel, edelen, raapstapel,
draaistapel, standaardkaartdraai, "de schoppen boer"). Cards are named by suit symbol and rank (♥7), nobles
in a list by suit symbol and letter (♠J, Dutch ♠B), never by their ids."""

from __future__ import annotations

from typing import Any

from ..text import Text, Words, say, say_n
from .cards import (CARD_IDS, CARD_INDEX, CASTLE_SAID, JD, KD, NOBLE_IDS, NOBLE_SAID, POWER_SAID, QD, SUITS,
                    card_face, card_faces, face_of, mask_cards)
from .state import CHOOSE, FACE_DOWN, JACK, OVER, PLAY, TIE, Player, State, cons_list, fits

GUARDS = {"JS": JD, "QS": QD, "JQKS": KD}


def _n(s: State, seat: int | None) -> str | Text:
    """A seat as a sentence names it: its player's name."""
    if seat is None:
        return say("the table")
    return s.names[seat] if s.names and 0 <= seat < len(s.names) else say("seat {seat}", seat=str(seat))


def _and(names: list[Any]) -> Any:
    """Names joined as a sentence joins them: "Ann, Bob and Cas"."""
    if len(names) == 1:
        return names[0]
    return say("{a} and {b}", a=names[:-1], b=names[-1])


def _semicolons(parts: list[Any]) -> Any:
    """Parts of a line each with its own commas, joined by semicolons."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = say("{first}; {then}", first=part, then=out)
    return out


_face = face_of


def _castle_cards(p: Player) -> int:
    return sum(p.castles)


def describe(game: Any, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
    """One line per event."""
    b, a = before, after
    n = _n
    if type == "deal":
        who = seat if seat is not None else next(i for i, p in enumerate(b.players) if len(p.villages[0]) == 2)
        return say("{who}'s five villages are dealt, face up on top: {cards}", who=n(b, who),
                   cards=[_face(x) for x in data["face_up"]])
    if type == "choose":
        line = say("{who} chooses three nobles in secret", who=n(b, seat))
        return _then(line, _order_text(a)) if a.phase != CHOOSE else line
    if type == "reveal":
        trios = [say("{who} {nobles}", who=n(b, i), nobles=[_face(x) for x in tr]) for i, tr in enumerate(data["nobles"])]
        return _then(say("Round {round}, the nobles are revealed: {trios}", round=b.round, trios=_semicolons(trios)),
                     _order_text(a))
    if type == "die":
        rolls = [say("{who} {roll}", who=n(b, i), roll=r) for i, r in enumerate(data["rolls"]) if r is not None]
        return _then(say("Equal trios: the die shows {rolls}", rolls=rolls), _order_text(a))
    if type == "counter_pick":
        return _counter_text(b, a, say("{who} picks a noble against the tie in secret", who=n(b, seat)))
    if type == "counter_reveal":
        picks = [say("{who} {noble}", who=n(b, i), noble=_face(x)) for i, x in enumerate(data["nobles"]) if x is not None]
        return _counter_text(b, a, say("Equal trios: the picks are {picks}", picks=picks))
    if type == "turn_over":
        if data["clubs_jack"]:
            return say("{who} turns over a card (standard turn-over, extended by the clubs jack)", who=n(b, seat))
        return say("{who} turns over a card (standard turn-over)", who=n(b, seat))
    if type == "flip":
        cur = b.order[b.pos][0]
        p = b.players[cur]
        card = _face(data["card"])
        if p.ndraw == 0:
            line = say("{who}'s discard pile is turned over as the new draw pile; {who} turns up {card}", who=n(b, cur),
                       card=card)
        else:
            line = say("{who} turns up {card}", who=n(b, cur), card=card)
        tn = a.turn
        if tn.flip is None and b.turn.flip is not None and b.turn.flip[0] == JACK and a.phase == PLAY:
            ap = a.players[cur]
            c = CARD_INDEX[data["card"]]
            if not (fits(ap, c)):
                return say("{line} (no card left that could fit: the clubs jack stops)", line=line)
        return line
    if type == "turn_up":
        owner = seat if seat is not None else next(d[0] for d in b.due if d[1] == data["village"] - 1)
        return say("Village {village} of {who}: the face-down card is turned up, {card}", village=data["village"],
                   who=n(b, owner), card=_face(data["card"]))
    if type == "shuffled":
        return say("{who}'s draw pile was shuffled (against the rules): its order is no longer known",
                   who=n(b, b.order[b.pos][0]))
    if type == "build":
        return _build_text(b, seat, data, a)
    if type == "attack":
        power, target = data["power"], data["target"]
        said = POWER_SAID[power]
        if power == "JS":
            line = say("{who} attacks {target}'s village {village} with {power}", who=n(b, seat), target=n(b, target),
                       village=data.get("village"), power=said)
        elif power == "QS":
            line = say("{who} attacks the top card of every village of {target} with {power}", who=n(b, seat),
                       target=n(b, target), power=said)
        else:
            line = say("{who} attacks {castle} of {target} with {power}", who=n(b, seat),
                       castle=CASTLE_SAID[SUITS.index(data.get("castle", "S"))], target=n(b, target), power=said)
        if GUARDS[power] in b.trios[target]:  # type: ignore[index]
            return say("{line}: stopped by {guard}", line=line, guard=NOBLE_SAID[GUARDS[power]])
        return say("{line}: {lost} go under the draw pile", line=line, lost=_lost(a, target))
    if type == "extra_draw":
        return say("{who} plays {power}: {n} extra cards", who=n(b, seat), power=POWER_SAID[data["power"]],
                   n=2 if data["power"] == "QC" else 3)
    if type == "extra_card":
        return say("{who} turns the next extra card ({left} left after it)", who=n(b, seat), left=b.turn.extra - 1)
    if type == "turn_top":
        return say("{who} turns up the face-down top card of village {village}", who=n(b, seat), village=data["village"])
    if type == "hearts_queen":
        return say("{who} plays the queen of hearts on face-down card {slot} (counted from the bottom) of village "
                   "{village}", who=n(b, seat), slot=data["slot"], village=data["village"])
    if type == "name_card":
        return say("{who} plays queen+king of hearts and names {card}: cards are turned until it appears",
                   who=n(b, seat), card=_face(data["card"]))
    if type == "end_turn":
        if a.phase == OVER:
            return say("{who} ends the turn", who=n(b, seat))
        if a.phase == CHOOSE:
            return say("{who} ends the turn; round {round} is over", who=n(b, seat), round=b.round)
        return say("{who} ends the turn; {next} is next", who=n(b, seat), next=n(a, a.order[a.pos][0]))
    return Words(en=type)


def _then(line: Text, then: Text | None) -> Text:
    return line if then is None else say("{first}; {then}", first=line, then=then)


def _order_text(a: State) -> Text | None:
    """After the nobles are laid open: the turn order, or who tied and how the tie is broken."""
    if a.phase == TIE:
        group = next(slot for slot in a.order if len(slot) > 1)
        names = _and([_n(a, x) for x in group])
        if a.tie_break == "die":
            return say("{players} chose exactly the same trio: the tie is broken by a die", players=names)
        return say("{players} chose exactly the same trio: the tie is broken by picking one more noble", players=names)
    if a.phase == PLAY:
        return say("turn order {players}", players=[_n(a, slot[0]) for slot in a.order])
    return None


def _counter_text(b: State, a: State, line: Text) -> Text:
    if a.phase == TIE and len(a.reveals) > len(b.reveals):
        return say("{line}: no winner, pick again", line=line)
    if len(a.reveals) > len(b.reveals):
        return _then(line, _order_text(a))
    return line


def _build_text(b: State, seat: int, data: dict[str, Any], a: State) -> Text:
    c = CARD_INDEX[data["card"]]
    p = b.players[seat]
    if p.discard is not None and p.discard[0] == c:
        src: Text = say("the discard pile")
        moved = [c]
    else:
        v = next(i for i, village in enumerate(p.villages) if c in village)
        village = p.villages[v]
        idx = village.index(c)
        src = say("village {village}", village=v + 1)
        moved = list(village[idx:]) if data["to"] != "castle" and not data.get("hearts_jack") and idx < len(village) - 1 else [c]
        if idx < len(village) - 1 and data.get("hearts_jack"):
            src = say("inside village {village} with the hearts jack", village=v + 1)
        elif idx < len(village) - 1 and data["to"] == "castle":
            src = say("inside village {village} (the ace the hearts queen turned)", village=v + 1)
    what: Any = card_face(c) if len(moved) == 1 else say("the run {run}", run="–".join(card_face(x) for x in moved))
    suit, rank = divmod(c, 10)
    if data["to"] == "castle":
        dest = say("to start {castle}", castle=CASTLE_SAID[suit]) if rank == 0 else \
            say("onto {castle}", castle=CASTLE_SAID[suit])
    else:
        dest = say("onto village {village}", village=data["to"])
    line = say("{who} builds {what} from {source} {dest}", who=_n(b, seat), what=what, source=src, dest=dest)
    if a.phase == OVER:
        return say("{line}: four castles complete, {who} wins", line=line, who=_n(a, seat))
    if data["to"] == "castle" and a.players[seat].castles[c // 10] == 10:
        return say("{line} ({castle} is complete)", line=line, castle=CASTLE_SAID[c // 10])
    return line


def _lost(a: State, target: int) -> Any:
    """What an attack put under the target's draw pile: the cards seen and how many face down."""
    added = a.players[target].draw[-1]
    known = mask_cards(added[1])
    down = added[2]
    parts: list[Any] = []
    if known:
        parts.append(card_faces(known))
    if down:
        parts.append(say_n(down, "{n} face-down card", "{n} face-down cards"))
    if not parts:
        return say("no cards")
    return parts[0] if len(parts) == 1 else say("{a} and {b}", a=parts[0], b=parts[1])

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
                "text": say("{who} ended the turn without the standard turn-over (allowed, but rarely meant)",
                            who=_n(b, seat)),
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
                "text": say("{who}'s attack with {power} on {target} is stopped by {guard}; the nobles are spent",
                            who=_n(b, seat), power=POWER_SAID[power], target=_n(b, target), guard=NOBLE_SAID[guard]),
            })
        else:
            added = a.players[target].draw[-1]
            known = mask_cards(added[1])
            where = {"JS": f"village {data.get('village')}", "QS": "village tops", "JQKS": f"castle {data.get('castle')}"}[power]
            said = {"JS": lambda: say("village {village}", village=data.get("village")),
                    "QS": lambda: say("the tops of the villages"),
                    "JQKS": lambda: CASTLE_SAID[SUITS.index(data.get("castle", "S"))]}[power]()
            notes.append({
                "kind": "cards_lost",
                "seat": target,
                "by": seat,
                "power": power,
                "from": where,
                "cards": [CARD_IDS[c] for c in known],
                "face_down": added[2],
                "text": say("{target} loses {lost} from {where} to {who}'s attack with {power}", target=_n(b, target),
                            lost=_lost(a, target), where=said, who=_n(b, seat), power=POWER_SAID[power]),
            })
    elif type == "shuffled":
        cur = b.order[b.pos][0]
        p = b.players[cur]
        lost = [CARD_IDS[c] for c in (cons_list(p.discard) if p.ndraw == 0 else [])]
        notes.append({
            "kind": "discrepancy",
            "seat": cur,
            "text": say("{who}'s draw pile was shuffled against the rules (the discard pile was turned over shuffled): "
                        "the log knows its cards but no longer their order", who=_n(b, cur)) if p.ndraw == 0 else
            say("{who}'s draw pile was shuffled against the rules: the log knows its cards but no longer their order",
                who=_n(b, cur)),
            "cards_known": len(lost) if lost else None,
        })
    return notes


def _missed(game: Any, b: State, seat: int) -> list[dict[str, Any]]:
    """Cards that fitted a castle when the turn was ended."""
    from .cards import JH

    p = b.players[seat]
    t = b.turn
    castles = p.castles
    cards: list[tuple[int, Text]] = []
    if p.discard is not None and castles[p.discard[0] // 10] == p.discard[0] % 10:
        cards.append((p.discard[0], say("the top of the discard pile")))
    hj = JH in b.trios[seat] and not t.used >> JH & 1  # type: ignore[index]
    for v, village in enumerate(p.villages):
        for i, c in enumerate(village):
            if c == FACE_DOWN or castles[c // 10] != c % 10:
                continue
            if i == len(village) - 1:
                cards.append((c, say("the top of village {village}", village=v + 1)))
            elif hj:
                cards.append((c, say("inside village {village}, with the unused hearts jack", village=v + 1)))
    if not cards:
        return []
    fitted = [say("{card} ({where}) fitted {castle}", card=card_face(c), where=where, castle=CASTLE_SAID[c // 10])
              for c, where in cards]
    return [{
        "kind": "missed_build",
        "seat": seat,
        "cards": [CARD_IDS[c] for c, _ in cards],
        "text": say("{who} ended the turn while {cards}", who=_n(b, seat), cards=_semicolons(fitted)),
    }]


def _rate(cards: int, rounds: int) -> int | float:
    """Castle cards per round, to two decimals; a whole number as one ("2/round", not "2.0/round")."""
    rate = round(cards / rounds, 2)
    return int(rate) if rate == int(rate) else rate


def _tempo(b: State, a: State) -> dict[str, Any]:
    now = [_castle_cards(p) for p in a.players]
    gained = [now[i] - b.start_castles[i] for i in range(a.n)]
    rounds = b.round
    each = [say("{who} {cards} ({sign}{gained}, {rate}/round)", who=_n(a, i), cards=now[i],
                sign="+" if gained[i] >= 0 else "", gained=gained[i], rate=_rate(now[i], rounds))
            for i in range(a.n)]
    return {
        "kind": "tempo",
        "final": a.phase == OVER,
        "round": rounds,
        "castle_cards": now,
        "gained": gained,
        "per_round": [round(x / rounds, 2) for x in now],
        "text": say("End of round {round}: cards on castles {each}", round=rounds, each=each),
    }
