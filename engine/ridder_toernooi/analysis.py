"""Annotations of a tournament, from the exact odds (``odds.py``).

Per event (``annotate``):
- ``challenge``: each knight's chance to win the duel before the dice
  (give-up policy "never": nobody gives up, fight on foot to 10 wounds);
- each completed round (the defender's ``roll``): the luck of both rolls,
  expected against actual wounds.

Over the log (``analyse_log``):
- ``upset``: the winner of a duel had a chance below 25% before the dice;
- ``luck``: per player, actual minus expected wounds dealt, at the end of
  each day and of the match;
- ``?!``: a challenge or a training whose expected premiums were below
  another choice the player had, with the figures.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..text import say
from .state import MOUNTED, hits

UPSET = 0.25
#: a choice is marked ?! when another was worth this many expected premiums more
DUBIOUS = 0.15
GIVE_UP_POLICY = "never"


def _odds():
    from . import odds

    return odds


def fighter(game, s, k: int, dice: int | None = None, cover=None):
    odds = _odds()
    kn = s.knights[k]
    cover = kn.cover if cover is None else cover
    return odds.Fighter(min(game.base_dice(s, k) if dice is None else dice, odds.MAX_DICE),
                        tuple(cover[:3]), tuple(cover[3:]), min(kn.wounds, odds.ELIMINATED_AT - 1))


def duel_chances(game, s, a: int, d: int) -> tuple[float, float]:
    o = _odds().duel_odds(fighter(game, s, a), fighter(game, s, d), GIVE_UP_POLICY, s.cfg.woedend, s.cfg.both_eliminated)
    return o.attacker_wins, o.defender_wins


def _name(s, k: int) -> str:
    return s.cards.knights[s.knights[k].card].name


def _roll_luck(game, s, roller: int, target: int, faces, mode: str) -> dict[str, Any]:
    odds = _odds()
    lo = 0 if mode == MOUNTED else 3
    cover = tuple(s.knights[target].cover[lo:lo + 3])
    observed = hits(faces, s.knights[target].cover, lo + 1)
    luck = odds.roll_luck(len(faces), cover, observed)
    return {"knight": game.kid(s, roller), "dice": len(faces), "wounds": observed,
            "expected": round(luck.expected, 3), "p_at_least": round(luck.p_at_least, 4)}


def annotate(game, before, type: str, seat, data, after) -> list[dict[str, Any]]:
    if type == "challenge":
        a, d = after.duel.a, after.duel.d
        pa, pd = duel_chances(game, after, a, d)
        return [{"kind": "odds", "attacker": game.kid(after, a), "defender": game.kid(after, d),
                 "attacker_wins": round(pa, 4), "defender_wins": round(pd, 4), "give_up_policy": GIVE_UP_POLICY,
                 "text": say("before the dice: {a} {pa}%, {d} {pd}%", a=_name(after, a), pa=round(100 * pa),
                             d=_name(after, d), pd=round(100 * pd))}]
    if type == "roll" and before.duel is not None and before.duel.a_faces is not None:
        duel = before.duel
        rolls = [_roll_luck(game, before, duel.a, duel.d, duel.a_faces, duel.mode),
                 _roll_luck(game, before, duel.d, duel.a, data["faces"], duel.mode)]
        a, d = (_dealt(before, r) for r in rolls)
        return [{"kind": "luck", "mode": duel.mode, "rolls": rolls,
                 "text": say("{mode} round: {a}; {d}", mode=_MODE[duel.mode], a=a, d=d)}]
    if type == "roll" and _knockout(before, after):
        duel = before.duel
        r = _roll_luck(game, before, duel.a, duel.d, data["faces"], duel.mode)
        return [{"kind": "luck", "mode": duel.mode, "rolls": [r],
                 "text": say("{mode} round: {a}; the defender is out before he rolls", mode=_MODE[duel.mode],
                             a=_dealt(before, r))}]
    return []


#: a round's mode, as a note says it
_MODE = {MOUNTED: say("mounted"), "foot": say("on foot")}


def _dealt(s, roll: dict[str, Any]):
    """One roll's luck, its knight by name: "Harald dealt 2 (expected 1.37)"."""
    i = s.cards.knight_index(roll["knight"])
    return say("{knight} dealt {wounds} (expected {expected})", knight=s.cards.knights[i].name if i is not None
               else roll["knight"], wounds=roll["wounds"], expected=round(roll["expected"], 2))


def _knockout(before, after) -> bool:
    """The attacker's roll ended the round (option both_eliminated attacker_first:
    it put the defender at 10 wounds, and he does not roll)."""
    return (before.duel is not None and before.duel.a_faces is None
            and (after.duel is None or after.duel.a_faces is None))


def _challenge_value(game, s, seat: int, a: int, d: int) -> float:
    """Expected premiums for ``seat`` of challenging d with a: the win chance
    times the premiums it brings the seat (its knight, and its lady if she
    wears his kerchief)."""
    p, _ = duel_chances(game, s, a, d)
    kn = s.knights[a]
    share = 1 + (1 if kn.kerchief != -1 and s.ladies[kn.kerchief].owner == seat else 0)
    return p * share


def _training_value(game, s, k: int, dice: int, cover_add) -> float:
    """The knight's mean chance to win a duel (attacking and defending)
    against up to three rivals: his expected premiums per duel."""
    odds = _odds()
    kn = s.knights[k]
    cover = list(kn.cover)
    for f in cover_add:
        cover[f - 1] += 1
    me = fighter(game, s, k, dice=game.base_dice(s, k) + dice, cover=tuple(cover))
    rivals = [d for d, other in enumerate(s.knights) if other.owner != kn.owner and other.status != "out_of_tournament"][:3]
    if not rivals:
        return 0.0
    total = 0.0
    for d in rivals:
        other = fighter(game, s, d)
        total += odds.duel_odds(me, other, GIVE_UP_POLICY, s.cfg.woedend, s.cfg.both_eliminated).attacker_wins
        total += odds.duel_odds(other, me, GIVE_UP_POLICY, s.cfg.woedend, s.cfg.both_eliminated).defender_wins
    return total / (2 * len(rivals))


def analyse_log(game, events: list[dict[str, Any]], budget: int, *,
                progress: Callable[[int, int], None] | None = None, max_nodes: int | None = None,
                deadline: float | None = None) -> dict[int, list[dict[str, Any]]] | None:
    """``budget`` (and ``max_nodes``, if smaller) bounds how many training and
    challenge choices are weighed against their alternatives; past
    ``deadline`` (``time.monotonic()``) none is; odds, luck and upsets are
    always annotated. ``progress(done, total)`` counts events."""
    from .. import match as M

    limit = budget if max_nodes is None else min(budget, max_nodes)

    notes: dict[int, list[dict[str, Any]]] = {}
    pre: dict[str, Any] | None = None
    day_luck: list[float] = []
    match_luck: list[float] = []
    checked = 0
    undone = M.undone_seqs(events)  # a roll taken back at the table was never part of the game
    total = len(events)
    for event, before, after in M.replay_steps(events):
        if progress is not None and event["seq"] % 64 == 0:
            progress(event["seq"], total)
        may_weigh = checked < limit and (deadline is None or time.monotonic() < deadline)
        if before is None:
            day_luck = [0.0] * len(after.players)
            match_luck = [0.0] * len(after.players)
            continue
        if event["type"] == M.UNDO or event["seq"] in undone:
            continue
        s0, s1, seq = before.state, after.state, event["seq"]
        t = event["type"]
        if t == "challenge" and s1.duel is not None:
            a, d = s1.duel.a, s1.duel.d
            pa, pd = duel_chances(game, s0, a, d)
            pre = {"a": a, "d": d, "pa": pa, "pd": pd}
            if may_weigh:
                checked += 1
                seat = event["seat"]
                options = [(game.kid(s0, x), game.kid(s0, y), _challenge_value(game, s0, seat, x, y))
                           for x, kx in enumerate(s0.knights) if kx.owner == seat and kx.status == "fit"
                           for y, ky in enumerate(s0.knights) if ky.owner != seat and ky.status == "fit"]
                chosen = _challenge_value(game, s0, seat, a, d)
                best = max(options, key=lambda o: o[2])
                if best[2] - chosen >= DUBIOUS:
                    notes.setdefault(seq, []).append({
                        "kind": "choice", "glyph": "?!", "choice": "challenge", "expected_premiums": round(chosen, 3),
                        "best": {"knight": best[0], "target": best[1], "expected_premiums": round(best[2], 3)},
                        "text": say("?! {knight} against {target} was worth {chosen} expected premiums; {best} "
                                    "against {other} {value}", knight=game.kname(s0, a), target=game.kname(s0, d),
                                    chosen=round(chosen, 2), best=_card_name(s0, best[0]),
                                    other=_card_name(s0, best[1]), value=round(best[2], 2))})
        if t == "train" and may_weigh:
            k = next(i for i, kn in enumerate(s0.knights) if game.kid(s0, i) == event["data"]["knight"])
            choices = game.training_choices(s0, k)
            if len(choices) > 1:
                checked += 1
                values = {(dice, tuple(cover)): _training_value(game, s0, k, dice, cover) for dice, cover in choices}
                chosen = values.get((event["data"]["dice"], tuple(event["data"]["cover"])), 0.0)
                (bd, bc), bv = max(values.items(), key=lambda kv: kv[1])
                # a duel win is worth a premium to the knight and one to his lady
                if 2 * (bv - chosen) >= DUBIOUS:
                    notes.setdefault(seq, []).append({
                        "kind": "choice", "glyph": "?!", "choice": "training",
                        "expected_premiums_per_duel": round(2 * chosen, 3),
                        "best": {"dice": bd, "cover": list(bc), "expected_premiums_per_duel": round(2 * bv, 3)},
                        "text": say("?! this training gives {knight} {chosen} expected premiums per duel; +{dice} "
                                    "dice and cover {cover} {value}", knight=game.kname(s0, k),
                                    chosen=round(2 * chosen, 2), dice=bd, cover=[str(f) for f in bc] or "—",
                                    value=round(2 * bv, 2))})
        if t == "roll" and s0.duel is not None and (s0.duel.a_faces is not None or _knockout(s0, s1)):
            duel = s0.duel
            pairs = [(duel.a, duel.d, event["data"]["faces"])] if duel.a_faces is None else [
                (duel.a, duel.d, duel.a_faces), (duel.d, duel.a, event["data"]["faces"])]
            for roller, target, faces in pairs:
                r = _roll_luck(game, s0, roller, target, faces, duel.mode)
                owner = s0.knights[roller].owner
                day_luck[owner] += r["wounds"] - r["expected"]
                match_luck[owner] += r["wounds"] - r["expected"]
        if s0.duel is not None and s1.duel is None and pre is not None and not s0.duel.deciding:
            winner = _winner(s0, s1, pre)
            if winner is not None:
                p = pre["pa"] if winner == pre["a"] else pre["pd"]
                if p < UPSET:
                    notes.setdefault(seq, []).append({
                        "kind": "upset", "winner": game.kid(s1, winner), "chance": round(p, 4),
                        "text": say("upset: {knight} won with a {p}% chance before the dice", knight=_name(s1, winner),
                                    p=round(100 * p))})
            pre = None
        deciding = s0.phase == "duel_knight" or (s0.duel is not None and s0.duel.deciding)
        if s0.phase in IN_DAY and not deciding and (s1.phase not in IN_DAY or s1.day != s0.day):
            notes.setdefault(seq, []).append(_luck_note(after, f"day {s0.day}", day_luck, say("day {n}", n=s0.day)))
            day_luck = [0.0] * len(after.players)
        if s1.phase == "over" and s0.phase != "over":
            notes.setdefault(seq, []).append(_luck_note(after, "match", match_luck, say("the match")))
    if progress is not None:
        progress(total, total)
    return notes


IN_DAY = frozenset({"participate", "kerchief", "prefer", "challenge", "roll", "give_up", "day_winner"})


def _winner(s0, s1, pre) -> int | None:
    """The knight a duel premium went to in this event."""
    won = {card for card, _, why in s1.awards[len(s0.awards):] if why.endswith(": duel")}
    for k in (pre["a"], pre["d"]):
        if s1.cards.knights[s1.knights[k].card].id in won:
            return k
    return None


def _luck_note(ms, scope: str, luck: list[float], said) -> dict[str, Any]:
    per = {name: round(v, 2) for name, v in zip(ms.players, luck)}
    each = [say("{name} {sign}{value}", name=n, sign="+" if v > 0 else "", value=v) for n, v in per.items()]
    return {"kind": "luck_summary", "scope": scope, "wounds_dealt_minus_expected": per,
            "text": say("luck ({scope}, wounds dealt minus expected): {each}", scope=said, each=each)}


def _card_name(s, ident: str) -> str:
    i = s.cards.knight_index(ident)
    return s.cards.knights[i].name if i is not None else ident

