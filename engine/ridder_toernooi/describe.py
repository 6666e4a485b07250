"""One line of English per event, for the review."""

from __future__ import annotations

from typing import Any

from .state import FOOT, MOUNTED, ROLL, hits


def _k(game, s, ident: str) -> str:
    i = s.cards.knight_index(ident)
    return s.cards.knights[i].name if i is not None else ident


def _l(game, s, ident: str) -> str:
    i = s.cards.lady_index(ident)
    return s.cards.ladies[i].name if i is not None else ident


def card_set_label(state) -> str:
    """Which cards the match is played with; a placeholder set says so."""
    return ("with the PLACEHOLDER card set (not the printed cards)" if state.cards.placeholder
            else f"with the card set {state.cards.name!r}")


def describe(game, before, type: str, seat: int | None, data: dict[str, Any], after) -> str:
    who = before.names[seat] if seat is not None else "the table"
    if type == "deal":
        parts = []
        for i, row in enumerate(data["knights"]):
            ladies = data["ladies"][i] if data["ladies"] else []
            parts.append(f"{before.names[i]}: " + ", ".join([_k(game, before, r) for r in row] + [_l(game, before, r) for r in ladies]))
        return f"Deal {card_set_label(before)} — " + "; ".join(parts)
    if type == "train":
        bits = []
        if data["dice"]:
            bits.append(f"+{data['dice']} {'die' if data['dice'] == 1 else 'dice'}")
        if data["cover"]:
            bits.append("covers " + ", ".join(str(f) for f in data["cover"]))
        return f"{who} trains {_k(game, before, data['knight'])}: " + (" and ".join(bits) or "nothing")
    if type == "start_roll":
        rolls = ", ".join(f"{before.names[i]} {f}" for i, f in enumerate(data["faces"]) if f is not None)
        if after.first >= 0:
            return f"Start roll ({rolls}): {before.names[after.first]} starts"
        return f"Start roll ({rolls}): tied, roll again"
    if type == "participate":
        names = ", ".join(_k(game, before, r) for r in data["knights"]) or "no knight"
        return f"Day {before.day}: {who} sends {names}"
    if type == "kerchief":
        k = before.cards.knight_index(data["knight"])
        x = before.cards.lady_index(data["lady"])
        text = f"{who} offers {_l(game, before, data['lady'])}'s kerchief to {_k(game, before, data['knight'])}"
        worn = [kn for kn in after.knights if kn.card == k]
        lady = [ld for ld in after.ladies if ld.card == x]
        if after.pending is not None:
            return text + ": identical matches, the knight chooses"
        if lady and worn and lady[0].knight != -1:
            return text + ": accepted"
        return text + ": rejected"
    if type == "prefer":
        return f"{who} keeps {_l(game, before, data['lady'])}"
    if type == "challenge":
        return f"{who}: {_k(game, before, data['knight'])} challenges {_k(game, before, data['target'])}"
    if type == "pass":
        return f"{who} passes"
    if type == "roll":
        d = before.duel
        mode = "mounted" if d.mode == MOUNTED else "on foot"
        text = f"{_k(game, before, data['knight'])} rolls {', '.join(map(str, data['faces']))} ({mode}"
        roller = d.a if d.a_faces is None else d.d
        used = len(data["faces"]) - game.base_dice(before, roller)
        if d.extra and used == d.extra:
            text += f", woedend +{d.extra})"
        elif d.extra:  # option woedend_die optional: he left the woedend die (or some) out
            text += f", woedend, {'without the extra die' if used <= 0 else f'+{used} of {d.extra}'})"
        else:
            text += ")"
        if d.a_faces is None:
            # R9: the attacker's hits are marked at once, before the defender rolls
            lo = 1 if d.mode == MOUNTED else 4
            target = before.knights[d.d]
            wd = hits(data["faces"], target.cover, lo)
            name = _k(game, before, game.kid(before, d.d))
            text += f": {name} takes {wd} ({target.wounds + wd} wounds)"
            if after.duel is None or after.duel.a_faces is None:
                text += ", out before he strikes back; the duel is over"
        else:
            lo = 1 if d.mode == MOUNTED else 4
            wa = hits(data["faces"], before.knights[d.a].cover, lo)
            wd = hits(d.a_faces, before.knights[d.d].cover, lo)
            text += f": {_k(game, before, game.kid(before, d.a))} takes {wa}, {_k(game, before, game.kid(before, d.d))} takes {wd}"
            if after.duel is None or after.duel.deciding != d.deciding or after.phase not in (ROLL, "give_up"):
                text += "; the duel is over"
            elif after.duel.mode == FOOT and d.mode == MOUNTED:
                text += "; both fall: on foot"
            elif after.duel.rerolls > d.rerolls:
                text += "; no hit: woedend"
        return text
    if type == "give_up":
        return f"{who} gives up"
    if type == "fight_on":
        return f"{who} fights on"
    if type == "day_winner":
        return f"{who} names {_k(game, before, data['knight'])} day winner"
    if type == "duel_knight":
        return f"{who} sends {_k(game, before, data['knight'])} to the deciding duel"
    return type
