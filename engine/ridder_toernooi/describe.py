"""One line per event, in English and in Dutch, for the review."""

from __future__ import annotations

from typing import Any

from .state import FOOT, MOUNTED, ROLL, hits


def _k(game, s, ident: str) -> str:
    i = s.cards.knight_index(ident)
    return s.cards.knights[i].name if i is not None else ident


def _l(game, s, ident: str) -> str:
    i = s.cards.lady_index(ident)
    return s.cards.ladies[i].name if i is not None else ident


def card_set_label(state, nl: bool = False) -> str:
    """Which cards the match is played with; a placeholder set says so."""
    if nl:
        return ("met de PLACEHOLDER-kaartset (niet de gedrukte kaarten)" if state.cards.placeholder
                else f"met de kaartset {state.cards.name!r}")
    return ("with the PLACEHOLDER card set (not the printed cards)" if state.cards.placeholder
            else f"with the card set {state.cards.name!r}")


def describe(game, before, type: str, seat: int | None, data: dict[str, Any], after, nl: bool = False) -> str:
    """One line per event, in English or (``nl``) Dutch with the rules text's words (minne, doek, te paard,
    woedend, dagwinnaar): one structure, so the two say the same."""
    def t(en: str, dutch: str) -> str:
        return dutch if nl else en

    who = before.names[seat] if seat is not None else t("the table", "de tafel")
    if type == "deal":
        parts = []
        for i, row in enumerate(data["knights"]):
            ladies = data["ladies"][i] if data["ladies"] else []
            parts.append(f"{before.names[i]}: " + ", ".join([_k(game, before, r) for r in row] + [_l(game, before, r) for r in ladies]))
        return f"{t('Deal', 'Delen')} {card_set_label(before, nl)} — " + "; ".join(parts)
    if type == "train":
        bits = []
        if data["dice"]:
            n = data["dice"]
            bits.append(t(f"+{n} {'die' if n == 1 else 'dice'}", f"+{n} {'dobbelsteen' if n == 1 else 'dobbelstenen'}"))
        if data["cover"]:
            bits.append(t("covers ", "dekt af: ") + ", ".join(str(f) for f in data["cover"]))
        return (f"{who} {t('trains', 'traint')} {_k(game, before, data['knight'])}: "
                + (t(" and ", " en ").join(bits) or t("nothing", "niets")))
    if type == "start_roll":
        rolls = ", ".join(f"{before.names[i]} {f}" for i, f in enumerate(data["faces"]) if f is not None)
        if after.first >= 0:
            return t(f"Start roll ({rolls}): {before.names[after.first]} starts",
                     f"Startworp ({rolls}): {before.names[after.first]} begint")
        return t(f"Start roll ({rolls}): tied, roll again", f"Startworp ({rolls}): gelijk, opnieuw gooien")
    if type == "participate":
        names = ", ".join(_k(game, before, r) for r in data["knights"]) or t("no knight", "geen ridder")
        return t(f"Day {before.day}: {who} sends {names}", f"Dag {before.day}: {who} laat deelnemen: {names}")
    if type == "kerchief":
        k = before.cards.knight_index(data["knight"])
        x = before.cards.lady_index(data["lady"])
        lady_name, knight_name = _l(game, before, data["lady"]), _k(game, before, data["knight"])
        text = t(f"{who} offers {lady_name}'s kerchief to {knight_name}",
                 f"{who} biedt de doek van {lady_name} aan {knight_name} aan")
        worn = [kn for kn in after.knights if kn.card == k]
        lady = [ld for ld in after.ladies if ld.card == x]
        if after.pending is not None:
            return text + t(": identical matches, the knight chooses", ": gelijke overeenkomsten, de ridder kiest")
        if lady and worn and lady[0].knight != -1:
            return text + t(": accepted", ": aangenomen")
        return text + t(": rejected", ": afgewezen")
    if type == "prefer":
        return t(f"{who} keeps {_l(game, before, data['lady'])}", f"{who} houdt {_l(game, before, data['lady'])}")
    if type == "challenge":
        return t(f"{who}: {_k(game, before, data['knight'])} challenges {_k(game, before, data['target'])}",
                 f"{who}: {_k(game, before, data['knight'])} daagt {_k(game, before, data['target'])} uit")
    if type == "pass":
        return t(f"{who} passes", f"{who} past")
    if type == "roll":
        d = before.duel
        mode = t("mounted", "te paard") if d.mode == MOUNTED else t("on foot", "te voet")
        text = f"{_k(game, before, data['knight'])} {t('rolls', 'gooit')} {', '.join(map(str, data['faces']))} ({mode}"
        roller = d.a if d.a_faces is None else d.d
        used = len(data["faces"]) - game.base_dice(before, roller)
        if d.extra and used == d.extra:
            text += f", woedend +{d.extra})"
        elif d.extra:  # option woedend_die optional: he left the woedend die (or some) out
            left_out = t("without the extra die", "zonder de extra dobbelsteen")
            text += f", woedend, {left_out if used <= 0 else t(f'+{used} of {d.extra}', f'+{used} van {d.extra}')})"
        else:
            text += ")"
        if d.a_faces is None:
            # R9: the attacker's hits are marked at once, before the defender rolls
            lo = 1 if d.mode == MOUNTED else 4
            target = before.knights[d.d]
            wd = hits(data["faces"], target.cover, lo)
            name = _k(game, before, game.kid(before, d.d))
            text += t(f": {name} takes {wd} ({target.wounds + wd} wounds)",
                      f": {name} krijgt {wd} ({target.wounds + wd} verwondingen)")
            if after.duel is None or after.duel.a_faces is None:
                text += t(", out before he strikes back; the duel is over",
                          ", uitgeschakeld voor hij terugslaat; het duel is voorbij")
        else:
            lo = 1 if d.mode == MOUNTED else 4
            wa = hits(data["faces"], before.knights[d.a].cover, lo)
            wd = hits(d.a_faces, before.knights[d.d].cover, lo)
            ka, kd = _k(game, before, game.kid(before, d.a)), _k(game, before, game.kid(before, d.d))
            text += t(f": {ka} takes {wa}, {kd} takes {wd}", f": {ka} krijgt {wa}, {kd} krijgt {wd}")
            if after.duel is None or after.duel.deciding != d.deciding or after.phase not in (ROLL, "give_up"):
                text += t("; the duel is over", "; het duel is voorbij")
            elif after.duel.mode == FOOT and d.mode == MOUNTED:
                text += t("; both fall: on foot", "; beiden vallen: te voet")
            elif after.duel.rerolls > d.rerolls:
                text += t("; no hit: woedend", "; geen treffer: woedend")
        return text
    if type == "give_up":
        return t(f"{who} gives up", f"{who} geeft op")
    if type == "fight_on":
        return t(f"{who} fights on", f"{who} vecht door")
    if type == "day_winner":
        return t(f"{who} names {_k(game, before, data['knight'])} day winner",
                 f"{who} noemt {_k(game, before, data['knight'])} dagwinnaar")
    if type == "duel_knight":
        return t(f"{who} sends {_k(game, before, data['knight'])} to the deciding duel",
                 f"{who} stuurt {_k(game, before, data['knight'])} naar het beslissende duel")
    return type
