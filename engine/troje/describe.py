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

_n = CD._n
ADVANTAGE_WORDS = {"harbour_3to1": "a 3:1 harbour", "victory_point": "a victory point", "swap": "swap",
                   "trade_chip": "a trade chip", "draw": "draw"}
_cards = CD._cards


def _tile(s: Any, at: list[int]) -> str:
    return f"sea tile {at}"


def describe(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any) -> str:
    who = _n(b, seat)
    x = a.ext
    if type == "decision_card":
        side = data.get("side")
        text = f"{who} is dealt a decision card" + (f": {side.capitalize()}" if side else " (not seen)")
    elif type == "donate":
        cards = data.get("cards")
        what = _cards(cards) if cards else f"{data['count']} card(s) unseen"
        text = f"{who} donates {what} to the support stack (now {SU.size(a.hands, a.cfg.n)}); +1 trade point"
    elif type == "build_ship":
        text = f"{who} builds a ship on {_tile(b, data['tile'])} (2 trade points, lumber, wool)"
    elif type == "ship_tile":
        text = f"{who}'s ship tile shows {ADVANTAGE_WORDS.get(data['advantage'], data['advantage'])}"
    elif type == "take_chip":
        text = f"{who} takes the {data['resource']} trade chip (2:1)"
    elif type == "decline_chip":
        text = f"{who} leaves the trade chips: the ship gives no 2:1"
    elif type == "move_sea_people":
        text = f"{who} moves the sea people to {_tile(b, data['tile'])}"
        if data.get("victim") is not None:
            text += f" and draws a card from {_n(b, data['victim'])}"
        else:
            sea = game.sea(b)
            n = b.cfg.n
            sizes = tuple(b.hands[p][n + 1].size for p in range(n))
            there = SH.victims(sea, sea.index[tuple(data["tile"])], b.ext.ships, b.buildings, seat, sizes,
                               b.ext.tcfg.city_counts)
            if there:
                text += f" and draws no card from {_n(b, there[0])}"
    elif type == "steal":
        card = data.get("card")
        text = f"{who} draws {CD._a(card) if card else 'a card'} from {_n(b, data['from'])} (sea people)"
    elif type == "use_advantage":
        kind = b.ext.ships[game.sea(b).index[tuple(data["ship"])]][1]
        text = f"{who} uses the {TB.ADVANTAGES[kind]} ship on {_tile(b, data['ship'])}"
    elif type == "stack_card":
        card = data.get("card")
        text = f"{who} draws {CD._a(card) if card else 'a card (not seen)'} blind from the support stack"
    elif type == "return_card":
        card = data.get("card")
        text = f"{who} lays {CD._a(card) if card else 'a card (not seen)'} back on the support stack"
    elif type == "battle":
        rev = tuple(data["revealed"].get(r, 0) for r in RES)
        troy, myc = SU.score(rev)
        won = SU.winner(rev)
        text = (f"Battle: {_cards(data['revealed'])} turned up — Troy {troy}, Mycenae {myc}: "
                + (f"{won.capitalize()} wins, its marker to field {x.saga.fields(won)}" if won else
                   "a tie, no marker moves")
                + f"; {SU.size(a.hands, a.cfg.n)} card(s) stay as the next stack")
        if x.war is not None:
            text += f"; the war is over, {x.war.capitalize()} has won it"
    elif type == "claim_win":
        text = f"{who} claims {x.tcfg.goal} VP (checked when the decision cards are turned up)"
    elif type == "reveal_allegiances":
        text = "The decision cards: " + ", ".join(f"{_n(a, p)} {side.capitalize()}"
                                                  for p, side in enumerate(data["sides"]))
    elif type == "end_turn" and a.phase == game_phase("battle"):
        part = "Settler 2's part of the paired turn" if b.cfg.paired and b.step else "the turn"
        text = f"{who} ends {part}; the support stack holds {SU.size(a.hands, a.cfg.n)} cards: a battle"
        if b.cfg.paired and not b.step:
            text += f", then {_n(b, (b.turn + 3) % b.cfg.n)} takes Settler 2's part"
    else:
        text = CD.describe(game, b, type, seat, data, a)
        text = text.replace("the robber", "the sea people").split(" — ")[0]
    if a.phase == OVER and b.phase != OVER:
        text += " — " + " and ".join(_n(a, w) for w in x.winners) + (" win" if len(x.winners) > 1 else " wins")
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
