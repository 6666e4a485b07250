"""The state of a tournament: immutable named tuples, and their exact JSON form."""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import Cards, cards_from_doc

# phases
DEAL = "deal"
TRAIN = "train"
START = "start_roll"
PARTICIPATE = "participate"
KERCHIEF = "kerchief"
PREFER = "prefer"
CHALLENGE = "challenge"
ROLL = "roll"
YIELD = "give_up"
DAY_WINNER = "day_winner"
DUEL_PICK = "duel_knight"
OVER = "over"

# knight status
IDLE = "idle"  # not taking part today (or before the first day)
FIT = "fit"  # taking part and not beaten today
OUT = "out_today"  # lost a duel today
ELIMINATED = "out_of_tournament"

MOUNTED = "mounted"
FOOT = "foot"


class Config(NamedTuple):
    days: int
    ladies: bool
    wound_penalty: bool
    penalty_7_9: int
    training_optional: bool
    dice_min: int
    tie_break: str
    challenge_required: bool
    woedend: str
    give_up_after_mounted: bool
    day_winner_metric: str
    lady_bonus_after_loss: bool
    final_bonus_ties: str
    deciding_duel: bool
    # Options added after engine version 1 was first recorded: a setup (or a
    # snapshot) from before them reads as their defaults, today's behaviour.
    rejected_lady_next: bool = False
    woedend_die: str = "required"
    both_eliminated: str = "no_winner"


class Knight(NamedTuple):
    card: int  # index into cards.knights
    owner: int
    dice: int  # position on the dice track
    cover: tuple[int, ...]  # covered fields per face 1..6 (red + trained)
    wounds: int
    premiums: int
    status: str
    day_premiums: int
    penalty: int  # E2: dice less today
    kerchief: int  # lady index or -1
    took_part: bool  # took part today


class Lady(NamedTuple):
    card: int
    owner: int
    premiums: int
    knight: int  # knight index wearing her kerchief, or -1
    rejected: tuple[int, ...]  # knights who rejected her today


class Duel(NamedTuple):
    a: int  # attacker knight index
    d: int  # defender knight index
    mode: str  # mounted | foot
    a_faces: tuple[int, ...] | None  # the attacker's roll of this round, once rolled
    extra: int  # woedend dice this round
    rerolls: int  # woedend rerolls so far
    rounds: int  # rounds fought
    deciding: bool
    asked: int  # give-up phase: 0 attacker to declare, 1 defender
    #: the wounds the attacker's roll of this round has put on the defender's
    #: track already (R9: "eventuele treffers worden vastgehouden"); -1 while
    #: the attacker has not rolled, and in a snapshot taken before the hits
    #: were marked at once (the defender's roll marks them then)
    dealt: int = -1


class State(NamedTuple):
    cfg: Config
    cards: Cards
    card_doc: dict[str, Any]
    names: tuple[str, ...]
    phase: str
    day: int
    first: int  # start player of day 1 (-1 before the roll)
    start: int  # start player today
    turn: int  # seat to act (participation, kerchief, challenge, choices)
    knights: tuple[Knight, ...]
    ladies: tuple[Lady, ...]
    points: tuple[int, ...]  # training points per knight, still to spend now
    rolling: tuple[int, ...]  # seats rolling for the start player
    declared: tuple[int, ...]  # seats that announced participation today
    passes: int  # consecutive passes in the challenge phase (option challenge_required false)
    pending: tuple[int, int, int] | None  # PREFER: (knight, incumbent lady, newcomer lady)
    duel: Duel | None
    tied: tuple[int, ...]  # DAY_WINNER: tied knights of one player / DUEL_PICK: seats in order
    picks: tuple[int, ...]  # DUEL_PICK: knights chosen so far
    champion: int  # deciding duels: the seat still standing (-1 none)
    awards: tuple[tuple[str, int, str], ...]  # (card id, premiums, reason)
    ended: tuple[Any, ...] | None  # (outcome, winners, reason)

    @property
    def n(self) -> int:
        return len(self.names)


def encode(s: State) -> dict[str, Any]:
    return {
        "cfg": list(s.cfg),
        "cards": s.card_doc,
        "names": list(s.names),
        "phase": s.phase,
        "day": s.day,
        "first": s.first,
        "start": s.start,
        "turn": s.turn,
        "knights": [[k.card, k.owner, k.dice, list(k.cover), k.wounds, k.premiums, k.status, k.day_premiums,
                     k.penalty, k.kerchief, k.took_part] for k in s.knights],
        "ladies": [[x.card, x.owner, x.premiums, x.knight, list(x.rejected)] for x in s.ladies],
        "points": list(s.points),
        "rolling": list(s.rolling),
        "declared": list(s.declared),
        "passes": s.passes,
        "pending": list(s.pending) if s.pending else None,
        "duel": None if s.duel is None else [
            s.duel.a, s.duel.d, s.duel.mode, None if s.duel.a_faces is None else list(s.duel.a_faces),
            s.duel.extra, s.duel.rerolls, s.duel.rounds, s.duel.deciding, s.duel.asked, s.duel.dealt],
        "tied": list(s.tied),
        "picks": list(s.picks),
        "champion": s.champion,
        "awards": [list(a) for a in s.awards],
        "ended": None if s.ended is None else [s.ended[0], list(s.ended[1]), s.ended[2]],
    }


def decode(o: dict[str, Any]) -> State:
    d = o["duel"]
    return State(
        cfg=Config(*o["cfg"]),
        cards=cards_from_doc(o["cards"]),
        card_doc=o["cards"],
        names=tuple(o["names"]),
        phase=o["phase"],
        day=o["day"],
        first=o["first"],
        start=o["start"],
        turn=o["turn"],
        knights=tuple(Knight(k[0], k[1], k[2], tuple(k[3]), *k[4:]) for k in o["knights"]),
        ladies=tuple(Lady(x[0], x[1], x[2], x[3], tuple(x[4])) for x in o["ladies"]),
        points=tuple(o["points"]),
        rolling=tuple(o["rolling"]),
        declared=tuple(o["declared"]),
        passes=o["passes"],
        pending=tuple(o["pending"]) if o["pending"] else None,
        duel=None if d is None else Duel(d[0], d[1], d[2], None if d[3] is None else tuple(d[3]), *d[4:]),
        tied=tuple(o["tied"]),
        picks=tuple(o["picks"]),
        champion=o["champion"],
        awards=tuple(tuple(a) for a in o["awards"]),
        ended=None if o["ended"] is None else (o["ended"][0], tuple(o["ended"][1]), o["ended"][2]),
    )


def _fast_replace(self, **changes):
    """``_replace`` without namedtuple's generic overhead (the reducer's hot path)."""
    values = list(self)
    idx = type(self)._idx
    for name, value in changes.items():
        values[idx[name]] = value
    return tuple.__new__(type(self), values)


for _cls in (State, Knight, Lady, Duel):
    _cls._idx = {name: i for i, name in enumerate(_cls._fields)}
    _cls._replace = _fast_replace


def hits(faces: tuple[int, ...] | list[int], cover: tuple[int, ...], lo: int) -> int:
    """Wounds dealt by ``faces`` against ``cover`` (faces lo..lo+2 hit; each covered field blocks one die)."""
    n = 0
    for f in (lo, lo + 1, lo + 2):
        c = 0
        for x in faces:
            if x == f:
                c += 1
        if c > cover[f - 1]:
            n += c - cover[f - 1]
    return n
