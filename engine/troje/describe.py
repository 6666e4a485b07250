"""Troje's one-line descriptions and the worker's automatic annotations.

Both are shown to every viewer of an event that is not redacted for them
(``Troje.event_view``), so they read only what that event's viewers may
know: a donation's cards appear only in the donation's own description and
notes (the donor and the log see them), a battle's odds only from what the
table knew of the stack (the public's knowledge), never the log's.
"""

from __future__ import annotations

from math import comb
from typing import Any

from ..catan import describe as CD
from ..catan.pieces import OVER, RES, SBP
from . import board as TB
from . import saga as SG
from .phases import TROJE_PHASES
from . import ships as SH
from . import support as SU
from .scene import SIDES

_n = CD._n
ADVANTAGE_WORDS = {"harbour_3to1": "a 3:1 harbour", "victory_point": "a victory point", "swap": "swap",
                   "trade_chip": "a trade chip", "draw": "draw"}
ADVANTAGE_WORDS_NL = {"harbour_3to1": "een 3:1-haven", "victory_point": "een overwinningspunt",
                      "swap": "ruilen met de stapel", "trade_chip": "een 2:1-handelskaartje",
                      "draw": "trekken uit de stapel"}
_cards = CD._cards


def _tile(s: Any, at: list[int], nl: bool = False) -> str:
    return f"{'zeetegel' if nl else 'sea tile'} {at}"


def describe(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any, nl: bool = False) -> str:
    """One line per event, in English or (``nl``) Dutch with the scenario's words (beslissingskaart,
    afdragen, ondersteuningsstapel, zeevolk, handelspunt): one structure, so the two say the same."""
    def t(en: str, dutch: str) -> str:
        return dutch if nl else en

    def n(p: Any, s_: Any = None) -> str:
        return _n(b if s_ is None else s_, p, nl)

    def side(name: str) -> str:
        return SIDES[name]["nl"] if nl and name in SIDES else name.capitalize()

    def one(card: Any, unseen_en: str, unseen_nl: str) -> str:
        if not card:
            return t(unseen_en, unseen_nl)
        return t(CD._a(card), "een kaart " + CD.RES_NL.get(card, card))

    who = n(seat)
    x = a.ext
    stack = SU.size(a.hands, a.cfg.n)
    if type == "decision_card":
        got = data.get("side")
        text = t(f"{who} is dealt a decision card", f"{who} krijgt een beslissingskaart") + (
            f": {side(got)}" if got else t(" (not seen)", " (niet gezien)"))
    elif type == "donate":
        cards = data.get("cards")
        what = _cards(cards, nl) if cards else t(f"{data['count']} card(s) unseen", f"{data['count']} kaart(en), niet gezien")
        text = t(f"{who} donates {what} to the support stack (now {stack}); +1 trade point",
                 f"{who} draagt {what} af aan de ondersteuningsstapel (nu {stack}); +1 handelspunt")
    elif type == "build_ship":
        text = t(f"{who} builds a ship on {_tile(b, data['tile'])} (2 trade points, lumber, wool)",
                 f"{who} bouwt een schip op {_tile(b, data['tile'], True)} (2 handelspunten, hout, wol)")
    elif type == "ship_tile":
        adv = data["advantage"]
        text = t(f"{who}'s ship tile shows {ADVANTAGE_WORDS.get(adv, adv)}",
                 f"Het scheepsfiche van {who} toont {ADVANTAGE_WORDS_NL.get(adv, adv)}")
    elif type == "take_chip":
        text = t(f"{who} takes the {data['resource']} trade chip (2:1)",
                 f"{who} pakt het handelskaartje {CD.RES_NL[data['resource']]} (2:1)")
    elif type == "decline_chip":
        text = t(f"{who} leaves the trade chips: the ship gives no 2:1",
                 f"{who} laat de handelskaartjes liggen: het schip geeft geen 2:1")
    elif type == "move_sea_people":
        text = t(f"{who} moves the sea people to {_tile(b, data['tile'])}",
                 f"{who} verplaatst het zeevolk naar {_tile(b, data['tile'], True)}")
        if data.get("victim") is not None:
            text += t(f" and draws a card from {n(data['victim'])}", f" en trekt een kaart bij {n(data['victim'])}")
        else:
            sea = game.sea(b)
            count = b.cfg.n
            sizes = tuple(b.hands[p][count + 1].size for p in range(count))
            there = SH.victims(sea, sea.index[tuple(data["tile"])], b.ext.ships, b.buildings, seat, sizes,
                               b.ext.tcfg.city_counts)
            if there:
                text += t(f" and draws no card from {n(there[0])}", f" en trekt geen kaart bij {n(there[0])}")
    elif type == "steal":
        card = data.get("card")
        text = t(f"{who} draws {one(card, 'a card', '')} from {n(data['from'])} (sea people)",
                 f"{who} trekt {one(card, '', 'een kaart')} bij {n(data['from'])} (zeevolk)")
    elif type == "use_advantage":
        kind = b.ext.ships[game.sea(b).index[tuple(data["ship"])]][1]
        text = t(f"{who} uses the {TB.ADVANTAGES[kind]} ship on {_tile(b, data['ship'])}",
                 f"{who} gebruikt het schip ({ADVANTAGE_WORDS_NL[TB.ADVANTAGES[kind]]}) op {_tile(b, data['ship'], True)}")
    elif type == "stack_card":
        card = data.get("card")
        text = t(f"{who} draws {one(card, 'a card (not seen)', '')} blind from the support stack",
                 f"{who} trekt blind {one(card, '', 'een kaart (niet gezien)')} uit de ondersteuningsstapel")
    elif type == "return_card":
        card = data.get("card")
        text = t(f"{who} lays {one(card, 'a card (not seen)', '')} back on the support stack",
                 f"{who} legt {one(card, '', 'een kaart (niet gezien)')} terug op de ondersteuningsstapel")
    elif type == "battle":
        rev = tuple(data["revealed"].get(r, 0) for r in RES)
        troy, myc = SU.score(rev)
        won = SU.winner(rev)
        outcome = (t(f"{won.capitalize()} wins, its marker to field {x.saga.fields(won)}",
                     f"{side(won)} wint, zijn kaart naar veld {x.saga.fields(won)}") if won else
                   t("a tie, no marker moves", "gelijkspel, geen kaart verschuift"))
        text = t(f"Battle: {_cards(data['revealed'])} turned up — Troy {troy}, Mycenae {myc}: ",
                 f"Strijd: {_cards(data['revealed'], True)} open gelegd — Troje {troy}, Mykene {myc}: ") + outcome \
            + t(f"; {stack} card(s) stay as the next stack", f"; {stack} kaart(en) blijven als volgende stapel")
        if x.war is not None:
            text += t(f"; the war is over, {x.war.capitalize()} has won it",
                      f"; de oorlog is voorbij, {side(x.war)} heeft hem gewonnen")
    elif type == "claim_win":
        text = t(f"{who} claims {x.tcfg.goal} VP (checked when the decision cards are turned up)",
                 f"{who} eist {x.tcfg.goal} overwinningspunten op (nagekeken als de beslissingskaarten omgaan)")
    elif type == "reveal_allegiances":
        text = t("The decision cards: ", "De beslissingskaarten: ") + ", ".join(
            f"{n(p, a)} {side(s_)}" for p, s_ in enumerate(data["sides"]))
    elif type == "end_turn" and a.phase == game_phase("battle"):
        part = (t("Settler 2's part of the paired turn", "het deel van kolonist 2 van de gedeelde beurt")
                if b.cfg.paired and b.step else t("the turn", "de beurt"))
        text = t(f"{who} ends {part}; the support stack holds {stack} cards: a battle",
                 f"{who} beëindigt {part}; de ondersteuningsstapel telt {stack} kaarten: een strijd")
        if b.cfg.paired and not b.step:
            nxt = n((b.turn + 3) % b.cfg.n)
            text += t(f", then {nxt} takes Settler 2's part", f", daarna neemt {nxt} het deel van kolonist 2")
    else:
        text = CD.describe(game, b, type, seat, data, a, nl)
        text = (text.replace("de struikrover", "het zeevolk") if nl
                else text.replace("the robber", "the sea people")).split(" — ")[0]
    if a.phase == OVER and b.phase != OVER:
        winners = t(" and ", " en ").join(n(w, a) for w in x.winners)
        text += " — " + winners + (t(" win", " winnen") if len(x.winners) > 1 else t(" wins", " wint"))
    return text


def game_phase(name: str) -> int:
    return TROJE_PHASES.index(name)


# -- annotations ------------------------------------------------------------------------------------

def battle_odds(stack: Any, reveal: int) -> dict[str, float]:
    """Troy's, Mycenae's and a tie's chance when ``reveal`` cards are turned up
    from a shuffled stack known as ``stack`` (a ``knowledge.Hand``): each
    unseen card taken as equally likely any resource it could be."""
    cards: list[tuple[float, float, float]] = []  # per card: P(troy), P(mycenae), P(neutral)
    for r in range(5):
        cards += [_split(1 << r)] * stack.known[r]
    for mask, _ in stack.unseen:
        cards.append(_split(mask))
    total = len(cards)
    k = min(reveal, total)
    if not total:
        return {"troy": 0.0, "mycenae": 0.0, "tie": 1.0}
    # dp[j][d]: summed weight of choosing j cards so far with Troy minus Mycenae = d
    dp: list[dict[int, float]] = [dict() for _ in range(k + 1)]
    dp[0][0] = 1.0
    for pt, pm, pn in cards:
        for j in range(min(k, total) - 1, -1, -1):
            for d, w in list(dp[j].items()):
                row = dp[j + 1]
                row[d + 1] = row.get(d + 1, 0.0) + w * pt
                row[d - 1] = row.get(d - 1, 0.0) + w * pm
                row[d] = row.get(d, 0.0) + w * pn
    ways = comb(total, k)
    troy = sum(w for d, w in dp[k].items() if d > 0) / ways
    myc = sum(w for d, w in dp[k].items() if d < 0) / ways
    return {"troy": round(troy, 4), "mycenae": round(myc, 4), "tie": round(max(0.0, 1 - troy - myc), 4)}


def _split(mask: int) -> tuple[float, float, float]:
    bits = [r for r in range(5) if mask >> r & 1]
    k = len(bits)
    t = sum(1 for r in bits if r in SU.TROY_RESOURCES) / k
    m = sum(1 for r in bits if r in SU.MYCENAE_RESOURCES) / k
    return t, m, 1 - t - m


def annotate(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any) -> list[dict[str, Any]]:
    n = b.cfg.n
    notes: list[dict[str, Any]] = []
    x = a.ext
    if type == "battle":
        stack = b.hands[n][n]  # the public's knowledge: what the table knew before the turn-up
        odds = battle_odds(stack, x.tcfg.battle_reveal)
        rev = tuple(data["revealed"].get(r, 0) for r in RES)
        troy, myc = SU.score(rev)
        won = SU.winner(rev)
        notes.append({"kind": "battle_odds", "odds": odds, "stack": stack.size, "known": dict(CD.K.describe(stack)),
                      "result": {"troy": troy, "mycenae": myc, "won_by": won},
                      "text": f"Before the turn-up the table could expect: Troy {odds['troy']:.0%}, Mycenae "
                      f"{odds['mycenae']:.0%}, a tie {odds['tie']:.0%} ({stack.size} cards, "
                      f"{len(stack.unseen)} of them unseen)"})
        history = [{"battle": i + 1, "won_by": w} for i, (_, w) in enumerate(x.battles)]
        vp = {side: SG.side_vp(x.saga, side, x.tcfg.saga_track) for side in SG.SIDES}
        notes.append({"kind": "saga", "troy": x.saga.troy, "mycenae": x.saga.mycenae, "vp": vp, "battles": history,
                      "text": f"Saga track after battle {len(x.battles)}: Troy's supporters {vp['troy']} VP, "
                      f"Mycenae's {vp['mycenae']} VP"})
    if type == "donate" and seat is not None:
        given = x.donations[seat]
        per_side = {"troy": sum(given[r] for r in SU.TROY_RESOURCES),
                    "mycenae": sum(given[r] for r in SU.MYCENAE_RESOURCES),
                    "neutral": sum(given[r] for r in SU.NEUTRAL), "unseen": x.donated_unseen[seat]}
        notes.append({"kind": "support", "seat": seat, "given": per_side,
                      "text": f"{_n(a, seat)} has given Troy {per_side['troy']}, Mycenae {per_side['mycenae']}, "
                      f"neutral {per_side['neutral']} card(s)"
                      + (f" and {per_side['unseen']} unseen" if per_side["unseen"] else "") + " so far"})
    if type == "end_turn" and b.phase == SBP and a.phase == game_phase("battle") or \
            type == "end_turn" and a.phase == game_phase("battle"):
        notes.append({"kind": "battle_due", "stack": SU.size(a.hands, n),
                      "text": f"The support stack holds {SU.size(a.hands, n)} cards (a battle at "
                      f"{x.tcfg.battle_size}): {x.tcfg.battle_reveal} are turned up"})
    if a.longest != b.longest:
        notes.append({"kind": "longest_road", "from": b.longest if b.longest >= 0 else None,
                      "to": a.longest if a.longest >= 0 else None, "lengths": list(a.road_len),
                      "text": f"Longest Trade Route (roads only): {_n(a, a.longest) if a.longest >= 0 else 'set aside'}"})
    return notes
