"""Simulation players. A bot is ``bot(game, state, seat, rng) -> Move``.

* ``random``: a uniformly random legal move (on foot it gives up one time in three).
* ``greedy``: challenges where its chance to win is highest and trains what
  raises its knights' average chance to win most (exact odds, ``odds.py``);
  sends every knight, offers kerchiefs to the knight most likely to win,
  gives up on foot when its chance to win by fighting on is below 25%.
"""

from __future__ import annotations

import random
from typing import Callable

from ..core import Move
from .state import CHALLENGE, DAY_WINNER, DUEL_PICK, ELIMINATED, FIT, KERCHIEF, PARTICIPATE, TRAIN, YIELD

Bot = Callable[..., Move]


def random_bot(game, s, seat: int, rng: random.Random) -> Move:
    if s.phase == YIELD:
        return Move("give_up" if rng.random() < 1 / 3 else "fight_on", seat, {})
    if s.phase == TRAIN:
        return random_training(game, s, seat, rng)
    moves = game.legal_moves(s, seat)
    return moves[rng.randrange(len(moves))]


def random_training(game, s, seat: int, rng: random.Random) -> Move:
    """A random way to spend one knight's points (all of them where mandatory)."""
    k = next(k for k, p in enumerate(s.points) if p and s.knights[k].owner == seat)
    pts = s.points[k]
    room_d, _ = game.capacity(s, k)
    cover = list(s.knights[k].cover)
    fpf = s.cards.fields_per_face
    spend = pts if not s.cfg.training_optional else rng.randint(0, pts)
    dice, faces = 0, []
    for _ in range(spend):
        open_faces = [f for f in range(1, 7) if cover[f - 1] < fpf]
        if dice < room_d and (not open_faces or rng.random() < 0.5):
            dice += 1
        elif open_faces:
            f = rng.choice(open_faces)
            cover[f - 1] += 1
            faces.append(f)
    return Move("train", seat, {"knight": game.kid(s, k), "dice": dice, "cover": sorted(faces)})


def _odds():
    from . import odds  # the exact odds (engine/ridder_toernooi/odds.py)

    return odds


def fighter(game, s, k: int, wounds: int | None = None, dice: int | None = None, cover=None):
    odds = _odds()
    kn = s.knights[k]
    cover = kn.cover if cover is None else cover
    w = kn.wounds if wounds is None else wounds
    return odds.Fighter(min(dice if dice is not None else game.base_dice(s, k), odds.MAX_DICE),
                        tuple(cover[:3]), tuple(cover[3:]), min(w, odds.ELIMINATED_AT - 1))


def win_chance(game, s, a: int, d: int, fa=None, fd=None) -> float:
    """The attacker's chance to win a duel a vs d from its first mounted round."""
    odds = _odds()
    fa = fa or fighter(game, s, a)
    fd = fd or fighter(game, s, d)
    return odds.duel_odds(fa, fd, "never", s.cfg.woedend, s.cfg.both_eliminated).attacker_wins


def greedy_bot(game, s, seat: int, rng: random.Random) -> Move:
    moves = game.legal_moves(s, seat)
    if s.phase == CHALLENGE:
        best = max((m for m in moves if m.type == "challenge"), default=None,
                   key=lambda m: win_chance(game, s, _k(s, m.data["knight"]), _k(s, m.data["target"])))
        return best or moves[0]
    if s.phase == TRAIN:
        return _best_training(game, s, seat, moves)
    if s.phase == PARTICIPATE:
        return max(moves, key=lambda m: len(m.data["knights"]))
    if s.phase == KERCHIEF:
        memo: dict[str, float] = {}

        def strength(m):
            ident = m.data["knight"]
            if ident not in memo:
                k = _k(s, ident)
                rivals = [d for d, kn in enumerate(s.knights) if kn.status == FIT and kn.owner != s.knights[k].owner][:3]
                memo[ident] = sum(win_chance(game, s, k, d) for d in rivals) / max(1, len(rivals))
            # own knights first: a lady's premium on her own player's knight counts twice
            return memo[ident] + (1.0 if s.knights[_k(s, ident)].owner == seat else 0.0)
        return max(moves, key=strength)
    if s.phase == YIELD:
        odds = _odds()
        duel = s.duel
        me_attacker = duel.asked == 0
        fa, fd = fighter(game, s, duel.a), fighter(game, s, duel.d)
        o = odds.foot_odds(fa, fd, "never", s.cfg.both_eliminated)
        p = o.attacker_wins if me_attacker else o.defender_wins
        return Move("give_up" if p < 0.25 else "fight_on", seat, {})
    if s.phase in (DAY_WINNER, DUEL_PICK):
        return max(moves, key=lambda m: -s.knights[_k(s, m.data["knight"])].wounds)
    return moves[rng.randrange(len(moves))]


def _k(s, ident: str) -> int:
    i = s.cards.knight_index(ident)
    return next(j for j, kn in enumerate(s.knights) if kn.card == i)


def _best_training(game, s, seat: int, moves: list[Move]) -> Move:
    """Spend the knight's points one at a time, each on the die or the field
    that raises his mean chance to win (attacking and defending) against two
    of the other players' knights most; stop when nothing raises it."""
    k = _k(s, moves[0].data["knight"])
    rivals = [d for d, kn in enumerate(s.knights) if kn.owner != seat and kn.status != ELIMINATED][:2]
    pts = s.points[k]
    if not rivals:
        return moves[0]
    odds = _odds()
    kn = s.knights[k]
    room_d, _ = game.capacity(s, k)
    others = [fighter(game, s, d) for d in rivals]

    def value(dice: int, cover: tuple[int, ...]) -> float:
        me = fighter(game, s, k, dice=game.base_dice(s, k) + dice, cover=cover)
        return sum(odds.duel_odds(me, o, "never", s.cfg.woedend, s.cfg.both_eliminated).attacker_wins
                   + odds.duel_odds(o, me, "never", s.cfg.woedend, s.cfg.both_eliminated).defender_wins for o in others)

    dice, cover, faces = 0, list(kn.cover), []
    best = value(0, tuple(cover))
    for _ in range(pts):
        options = []
        if dice < room_d:
            options.append((value(dice + 1, tuple(cover)), "die", 0))
        for f in range(1, 7):
            if cover[f - 1] < s.cards.fields_per_face:
                trial = list(cover)
                trial[f - 1] += 1
                options.append((value(dice, tuple(trial)), "face", f))
        if not options:
            break
        v, what, f = max(options)
        if v <= best and s.cfg.training_optional:
            break
        best = v
        if what == "die":
            dice += 1
        else:
            cover[f - 1] += 1
            faces.append(f)
    return Move("train", seat, {"knight": game.kid(s, k), "dice": dice, "cover": sorted(faces)})


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
