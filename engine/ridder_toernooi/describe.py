"""One line per event for the review, said as messages (engine/text.py) in the rules text's words (minne,
doek, te paard, woedend, dagwinnaar). Knights and ladies are named by their cards' names, never their ids."""

from __future__ import annotations

from typing import Any

from ..text import Text, say, say_n
from .state import FOOT, MOUNTED, ROLL, hits


def _k(game, s, ident: str) -> str:
    i = s.cards.knight_index(ident)
    return s.cards.knights[i].name if i is not None else ident


def _l(game, s, ident: str) -> str:
    i = s.cards.lady_index(ident)
    return s.cards.ladies[i].name if i is not None else ident


def card_set_label(state) -> Text:
    """Which cards the match is played with: the shipped placeholder set as such, any other set by its own
    name (a club's set keeps its name even where some of its values are still the placeholder's)."""
    from .cards import shipped_placeholder

    cards = state.cards
    if shipped_placeholder(cards.hash):
        return say("with the PLACEHOLDER card set (not the printed cards)")
    if cards.placeholder:
        return say("with the card set {name} (some values still the placeholder's, not the printed cards)",
                   name=repr(cards.name))
    return say("with the card set {name}", name=repr(cards.name))


def describe(game, before, type: str, seat: int | None, data: dict[str, Any], after) -> Text:
    who = before.names[seat] if seat is not None else say("the table")
    if type == "deal":
        parts = []
        for i, row in enumerate(data["knights"]):
            ladies = data["ladies"][i] if data["ladies"] else []
            parts.append(say("{name}: {cards}", name=before.names[i],
                             cards=[_k(game, before, r) for r in row] + [_l(game, before, r) for r in ladies]))
        dealt = parts[0]
        for part in parts[1:]:
            dealt = say("{first}; {then}", first=dealt, then=part)
        return say("Deal {cards} — {dealt}", cards=card_set_label(before), dealt=dealt)
    if type == "train":
        bits: list[Text] = []
        if data["dice"]:
            bits.append(say_n(data["dice"], "+{n} die", "+{n} dice"))
        if data["cover"]:
            bits.append(say("covers {faces}", faces=[str(f) for f in data["cover"]]))
        knight = _k(game, before, data["knight"])
        if not bits:
            return say("{who} trains {knight}: nothing", who=who, knight=knight)
        trained = bits[0] if len(bits) == 1 else say("{a} and {b}", a=bits[0], b=bits[1])
        return say("{who} trains {knight}: {what}", who=who, knight=knight, what=trained)
    if type == "start_roll":
        rolls = [say("{name} {face}", name=before.names[i], face=f) for i, f in enumerate(data["faces"]) if f is not None]
        if after.first >= 0:
            return say("Start roll ({rolls}): {name} starts", rolls=rolls, name=before.names[after.first])
        return say("Start roll ({rolls}): tied, roll again", rolls=rolls)
    if type == "participate":
        names = [_k(game, before, r) for r in data["knights"]]
        return say("Day {day}: {who} sends {knights}", day=before.day, who=who,
                   knights=names if names else say("no knight"))
    if type == "kerchief":
        k = before.cards.knight_index(data["knight"])
        x = before.cards.lady_index(data["lady"])
        offered = dict(who=who, lady=_l(game, before, data["lady"]), knight=_k(game, before, data["knight"]))
        worn = [kn for kn in after.knights if kn.card == k]
        lady = [ld for ld in after.ladies if ld.card == x]
        if after.pending is not None:
            return say("{who} offers {lady}'s kerchief to {knight}: identical matches, the knight chooses", **offered)
        if lady and worn and lady[0].knight != -1:
            return say("{who} offers {lady}'s kerchief to {knight}: accepted", **offered)
        return say("{who} offers {lady}'s kerchief to {knight}: rejected", **offered)
    if type == "prefer":
        return say("{who} keeps {lady}", who=who, lady=_l(game, before, data["lady"]))
    if type == "challenge":
        return say("{who}: {knight} challenges {target}", who=who, knight=_k(game, before, data["knight"]),
                   target=_k(game, before, data["target"]))
    if type == "pass":
        return say("{who} passes", who=who)
    if type == "roll":
        return _roll(game, before, data, after)
    if type == "give_up":
        return say("{who} gives up", who=who)
    if type == "fight_on":
        return say("{who} fights on", who=who)
    if type == "day_winner":
        return say("{who} names {knight} day winner", who=who, knight=_k(game, before, data["knight"]))
    if type == "duel_knight":
        return say("{who} sends {knight} to the deciding duel", who=who, knight=_k(game, before, data["knight"]))
    return say("{type}", type=type)


def _roll(game, before, data: dict[str, Any], after) -> Text:
    d = before.duel
    mode = say("mounted") if d.mode == MOUNTED else say("on foot")
    roller = d.a if d.a_faces is None else d.d
    used = len(data["faces"]) - game.base_dice(before, roller)
    if d.extra and used == d.extra:
        how = say("{mode}, woedend +{extra}", mode=mode, extra=d.extra)
    elif d.extra:  # option woedend_die optional: he left the woedend die (or some) out
        how = say("{mode}, woedend, without the extra die", mode=mode) if used <= 0 else \
            say("{mode}, woedend, +{used} of {extra}", mode=mode, used=used, extra=d.extra)
    else:
        how = mode
    text = say("{knight} rolls {faces} ({how})", knight=_k(game, before, data["knight"]),
               faces=[str(f) for f in data["faces"]], how=how)
    lo = 1 if d.mode == MOUNTED else 4
    if d.a_faces is None:
        # R9: the attacker's hits are marked at once, before the defender rolls
        target = before.knights[d.d]
        wd = hits(data["faces"], target.cover, lo)
        text = say_n(target.wounds + wd, "{text}: {name} takes {took} ({n} wound)",
                     "{text}: {name} takes {took} ({n} wounds)", text=text,
                     name=_k(game, before, game.kid(before, d.d)), took=wd)
        if after.duel is None or after.duel.a_faces is None:
            text = say("{text}, out before he strikes back; the duel is over", text=text)
        return text
    wa = hits(data["faces"], before.knights[d.a].cover, lo)
    wd = hits(d.a_faces, before.knights[d.d].cover, lo)
    text = say("{text}: {attacker} takes {a}, {defender} takes {b}", text=text,
               attacker=_k(game, before, game.kid(before, d.a)), a=wa, defender=_k(game, before, game.kid(before, d.d)),
               b=wd)
    if after.duel is None or after.duel.deciding != d.deciding or after.phase not in (ROLL, "give_up"):
        return say("{text}; the duel is over", text=text)
    if after.duel.mode == FOOT and d.mode == MOUNTED:
        return say("{text}; both fall: on foot", text=text)
    if after.duel.rerolls > d.rerolls:
        return say("{text}; no hit: woedend", text=text)
    return text
