"""Troje's one-line descriptions and the worker's automatic annotations, said as messages (engine/text.py).

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
from ..text import Text, say, say_n
from . import board as TB
from . import saga as SG
from .phases import TROJE_PHASES
from . import ships as SH
from . import support as SU
from .words import SIDE  # the two cities as the rules text names them (Troje, Mykene), as the refusals do

_n = CD._n
_cards = CD._cards
#: what a ship tile gives, as the rules text says it
ADVANTAGE_WORDS = {"harbour_3to1": say("a 3:1 harbour"), "victory_point": say("a victory point"),
                   "swap": say("a swap with the support stack"), "trade_chip": say("a 2:1 trade chip"),
                   "draw": say("a draw from the support stack")}


def _side(name: str) -> Text:
    return SIDE.get(name) or say("{name}", name=name)


def setup(state: Any) -> Text:
    """The board and the ship tiles a match is played with, for the log's setup line."""
    tiles = state.ext.tcfg.ship_tiles
    fiches = say("the placeholder ship tiles (not the printed ones)") if tiles["provenance"] == "placeholder" \
        else say("ship tiles {name}", name=repr(tiles["name"]))
    return say("{board}, {tiles}", board=CD.board(state), tiles=fiches)


def describe(game: Any, b: Any, type: str, seat: int | None, data: dict[str, Any], a: Any) -> Text:
    """One line per event, in the scenario's words (beslissingskaart, afdragen, ondersteuningsstapel, zeevolk,
    handelspunt); the base game's events as Catan says them, with the sea people for the robber."""
    names = game.field_names(b)

    def n(p: Any, s_: Any = None) -> Any:
        return _n(b if s_ is None else s_, p)

    def tile(at: Any) -> Text:
        return CD.sea_tile(b, at, names, game.sea(b).tiles)

    who = n(seat)
    x = a.ext
    stack = SU.size(a.hands, a.cfg.n)
    text: Text
    if type == "decision_card":
        got = data.get("side")
        text = say("{who} is dealt a decision card: {side}", who=who, side=_side(got)) if got else \
            say("{who} is dealt a decision card (not seen)", who=who)
    elif type == "donate":
        cards = data.get("cards")
        what = _cards(cards) if cards else say_n(data["count"], "{n} card unseen", "{n} cards unseen")
        text = say("{who} donates {cards} to the support stack (now {stack}); +1 trade point", who=who, cards=what,
                   stack=stack)
    elif type == "build_ship":
        text = say("{who} builds a ship on {tile} (2 trade points, lumber, wool)", who=who, tile=tile(data["tile"]))
    elif type == "ship_tile":
        adv = data["advantage"]
        text = say("{who}'s ship tile shows {advantage}", who=who,
                   advantage=ADVANTAGE_WORDS.get(adv) or say("{name}", name=adv))
    elif type == "take_chip":
        text = say("{who} takes the {resource} trade chip (2:1)", who=who, resource=CD.resource(data["resource"]))
    elif type == "decline_chip":
        text = say("{who} leaves the trade chips: the ship gives no 2:1", who=who)
    elif type == "move_sea_people":
        where = tile(data["tile"])
        text = say("{who} moves the sea people to {tile}", who=who, tile=where)
        if data.get("victim") is not None:
            text = say("{who} moves the sea people to {tile} and draws a card from {victim}", who=who, tile=where,
                       victim=n(data["victim"]))
        else:
            sea = game.sea(b)
            count = b.cfg.n
            sizes = tuple(b.hands[p][count + 1].size for p in range(count))
            there = SH.victims(sea, sea.index[tuple(data["tile"])], b.ext.ships, b.buildings, seat, sizes,
                               b.ext.tcfg.city_counts)
            if there:
                text = say("{who} moves the sea people to {tile} and draws no card from {victim}", who=who,
                           tile=where, victim=n(there[0]))
    elif type == "steal":
        card = data.get("card")
        text = say("{who} draws {resource} from {victim} (sea people)", who=who, resource=CD.resource(card),
                   victim=n(data["from"])) if card else \
            say("{who} draws a card from {victim} (sea people)", who=who, victim=n(data["from"]))
    elif type == "use_advantage":
        kind = b.ext.ships[game.sea(b).index[tuple(data["ship"])]][1]
        text = say("{who} uses the ship ({advantage}) on {tile}", who=who,
                   advantage=ADVANTAGE_WORDS[TB.ADVANTAGES[kind]], tile=tile(data["ship"]))
    elif type == "stack_card":
        card = data.get("card")
        text = say("{who} draws {resource} blind from the support stack", who=who, resource=CD.resource(card)) \
            if card else say("{who} draws a card (not seen) blind from the support stack", who=who)
    elif type == "return_card":
        card = data.get("card")
        text = say("{who} lays {resource} back on the support stack", who=who, resource=CD.resource(card)) \
            if card else say("{who} lays a card (not seen) back on the support stack", who=who)
    elif type == "battle":
        rev = tuple(data["revealed"].get(r, 0) for r in RES)
        troy, myc = SU.score(rev)
        won = SU.winner(rev)
        outcome = say("{side} wins, its marker to field {field}", side=_side(won), field=x.saga.fields(won)) if won \
            else say("a tie, no marker moves")
        text = say_n(stack, "Battle: {cards} turned up — Troy {troy}, Mycenae {mycenae}: {outcome}; {n} card stays "
                     "as the next stack", "Battle: {cards} turned up — Troy {troy}, Mycenae {mycenae}: {outcome}; "
                     "{n} cards stay as the next stack", cards=_cards(data["revealed"]), troy=troy, mycenae=myc,
                     outcome=outcome)
        if x.war is not None:
            text = say("{text}; the war is over, {side} has won it", text=text, side=_side(x.war))
    elif type == "claim_win":
        text = say("{who} claims {vp} VP (checked when the decision cards are turned up)", who=who, vp=x.tcfg.goal)
    elif type == "reveal_allegiances":
        text = say("The decision cards: {sides}",
                   sides=[say("{who} {side}", who=n(p, a), side=_side(s_)) for p, s_ in enumerate(data["sides"])])
    elif type == "end_turn" and a.phase == game_phase("battle"):
        if b.cfg.paired and b.step:
            text = say("{who} ends Settler 2's part of the paired turn; the support stack holds {n} cards: a battle",
                       who=who, n=stack)
        else:
            text = say("{who} ends the turn; the support stack holds {n} cards: a battle", who=who, n=stack)
        if b.cfg.paired and not b.step:
            text = say("{text}, then {next} takes Settler 2's part", text=text, next=n((b.turn + 3) % b.cfg.n))
    else:
        text = CD.describe(game, b, type, seat, data, a, robber=say("the sea people"), ending=False)
    if a.phase == OVER and b.phase != OVER:
        winners = [n(w, a) for w in x.winners]
        text = say("{text} — {who} win", text=text, who=CD.both(winners)) if len(winners) > 1 else \
            say("{text} — {who} wins", text=text, who=winners[0])
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


def _percent(p: float) -> int:
    """A chance as a whole percentage."""
    return int(p * 100 + 0.5)


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
                      "text": say_n(stack.size, "Before the turn-up the table could expect: Troy {troy}%, Mycenae "
                                    "{mycenae}%, a tie {tie}% ({n} card, {unseen} of them unseen)",
                                    "Before the turn-up the table could expect: Troy {troy}%, Mycenae {mycenae}%, a "
                                    "tie {tie}% ({n} cards, {unseen} of them unseen)", troy=_percent(odds["troy"]),
                                    mycenae=_percent(odds["mycenae"]), tie=_percent(odds["tie"]),
                                    unseen=len(stack.unseen))})
        history = [{"battle": i + 1, "won_by": w} for i, (_, w) in enumerate(x.battles)]
        vp = {side: SG.side_vp(x.saga, side, x.tcfg.saga_track) for side in SG.SIDES}
        notes.append({"kind": "saga", "troy": x.saga.troy, "mycenae": x.saga.mycenae, "vp": vp, "battles": history,
                      "text": say("Saga track after battle {n}: Troy's supporters {troy} VP, Mycenae's {mycenae} VP",
                                  n=len(x.battles), troy=vp["troy"], mycenae=vp["mycenae"])})
    if type == "donate" and seat is not None:
        given = x.donations[seat]
        per_side = {"troy": sum(given[r] for r in SU.TROY_RESOURCES),
                    "mycenae": sum(given[r] for r in SU.MYCENAE_RESOURCES),
                    "neutral": sum(given[r] for r in SU.NEUTRAL), "unseen": x.donated_unseen[seat]}
        notes.append({"kind": "support", "seat": seat, "given": per_side,
                      "text": say("{who} has given so far: Troy {troy}, Mycenae {mycenae}, neutral {neutral}, unseen "
                                  "{unseen}", who=_n(a, seat), **per_side) if per_side["unseen"] else
                      say("{who} has given so far: Troy {troy}, Mycenae {mycenae}, neutral {neutral}", who=_n(a, seat),
                          troy=per_side["troy"], mycenae=per_side["mycenae"], neutral=per_side["neutral"])})
    if type == "end_turn" and b.phase == SBP and a.phase == game_phase("battle") or \
            type == "end_turn" and a.phase == game_phase("battle"):
        notes.append({"kind": "battle_due", "stack": SU.size(a.hands, n),
                      "text": say("The support stack holds {n} cards (a battle at {at}): {reveal} are turned up",
                                  n=SU.size(a.hands, n), at=x.tcfg.battle_size, reveal=x.tcfg.battle_reveal)})
    if a.longest != b.longest:
        notes.append({"kind": "longest_road", "from": b.longest if b.longest >= 0 else None,
                      "to": a.longest if a.longest >= 0 else None, "lengths": list(a.road_len),
                      "text": say("Longest Trade Route (roads only): {who}", who=_n(a, a.longest))
                      if a.longest >= 0 else say("Longest Trade Route (roads only): set aside")})
    return notes
