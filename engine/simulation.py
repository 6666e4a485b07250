"""Whole simulated games through ``engine.match``, for any game with bots.

The same setup, validation, reducer and seeded chance draws as a recorded
match. Pure: no I/O, no clock, no global random; ``progress`` (optional) is
called after each game, which is how the CLI drives its progress bar.

``Table`` drives one match as the server does (normalize, apply, then the
server's chance draws in a simulated match) and keeps its log. ``Simulator``
plays whole games with one bot per seat and summarises many of them; a game
declares only what is its own: its bots, seat names, default strategy, the
extra fields of a game's record (from the final state) and which numeric
fields the summary gives statistics of (and which other fields it counts).

A game whose seats know something the log does not record (Troje's decision
cards when the log leaves them to the reveal at the end) declares ``secrets``:
drawn once per game, each seat's bot is given its own (``secret=``); and a
game in which the whole table moves (that reveal) declares ``table_move``.

A simulation is run by its user for themselves, so its setups hold no server
secret: every draw comes from the seed alone (``engine.match.chance_rng``),
and the same seed plays the same games on any machine. A simulated match on
the server is another thing: the service mixes a secret into its draws.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from . import match as M
from . import registry
from .core import CHANCE, Game, InvalidOptions, Move, player_count_text

#: A bot: ``bot(game, state, seat, rng) -> Move``, a legal move for ``seat``
#: (with the seat's secret as keyword ``secret`` when its game declares secrets).
Bot = Callable[..., Move]
#: The whole table's move when only the table may act: ``table_move(game, state, secrets) -> Move``.
TableMove = Callable[[Game, Any, Any], Move]
#: What each seat knows that the log does not record: ``secrets(game, state, rng)``,
#: one value per seat (or None: nothing this game), from the state after the setup.
Secrets = Callable[[Game, Any, random.Random], Sequence[Any] | None]


def _mover(acting: Sequence[Any]) -> int | None:
    """The seat to move (the first seat among the actors), or None when only
    the table (or nobody but chance) may act."""
    if len(acting) == 1:
        a = acting[0]
        return a if a != CHANCE and a != "table" else None
    return next((a for a in acting if a != CHANCE and a != "table"), None)


def _move_of(bots: Sequence[Bot], table_move: TableMove | None, secrets: Sequence[Any] | None, game: Game,
             state: Any, acting: Sequence[Any], rng: random.Random) -> tuple[int | None, Move]:
    """Who moves now and the move: a seat's bot, or the table's move."""
    seat = _mover(acting)
    if seat is None:
        if "table" not in acting or table_move is None:
            raise RuntimeError(f"nobody can move: {list(acting)} act and no move is drawn or declared")
        return None, table_move(game, state, secrets)
    if secrets is None:
        return seat, bots[seat](game, state, seat, rng)
    return seat, bots[seat](game, state, seat, rng, secret=secrets[seat])


class Table:
    """A match driven through the framework, with its log (``keep_log``).

    ``enter`` takes a move as the API would: normalized (unless
    ``validate=False``: the reducer still checks every rule), applied, then
    followed by the server's chance draws in a simulated match. The chance
    draws due right after the setup are made at once.
    """

    def __init__(self, setup: dict[str, Any], keep_log: bool = True) -> None:
        self.setup = setup
        self.ms = M.start(setup)
        self.keep_log = keep_log
        self.log: list[dict[str, Any]] = [{"seq": 1, "type": "setup", "seat": None, "data": setup}] if keep_log else []
        self.draw_chance()

    @property
    def state(self) -> Any:
        return self.ms.state

    @property
    def game(self) -> Game:
        return self.ms.game

    def apply(self, type_: str, seat: Any, data: dict[str, Any]) -> None:
        """Apply one already-normalized event (and log it)."""
        self.ms = M.apply_event(self.ms, self.ms.seq + 1, type_, seat, data)
        if self.keep_log:
            self.log.append({"seq": self.ms.seq, "type": type_, "seat": seat, "data": data})

    def enter(self, type_: str, seat: Any, data: dict[str, Any], validate: bool = True) -> dict[str, Any]:
        """Enter one move; returns its data as applied (canonical when validated)."""
        if validate:
            data = M.normalize_event(self.ms, type_, seat, data)
        self.apply(type_, seat, data)
        self.draw_chance()
        return data

    def draw_chance(self) -> None:
        drawn, self.ms = M.draw_chance(self.ms, self.ms.seq + 1)
        if self.keep_log:
            seq = self.ms.seq - len(drawn)
            for type_, seat, data in drawn:
                seq += 1
                self.log.append({"seq": seq, "type": type_, "seat": seat, "data": data})


def _play_engine_only(
    setup: dict[str, Any], bots: Sequence[Bot], rng: random.Random, max_events: int, keep_log: bool,
    secrets: Secrets | None = None, table_move: TableMove | None = None,
) -> tuple[Game, int, Any, Any, list[dict[str, Any]]]:
    """``Table``'s game without the framework: the game's reducer, its legal
    chance outcomes drawn from the RNG ``engine.match.draw_chance`` derives
    (seed, secret if any, and depth: here every event deepens the line, there is no undo),
    canonicalised by the game's own ``normalize``. Returns the game, the last
    seq, the final state, its result and the log (when kept)."""
    game = registry.get(setup["game"])
    state = game.setup(tuple(setup["players"]), setup["options"])
    seed = setup["seed"]
    known = secrets(game, state, random.Random(f"{seed}:secrets")) if secrets is not None else None
    seq = 1
    log: list[dict[str, Any]] = [{"seq": 1, "type": "setup", "seat": None, "data": setup}] if keep_log else []
    apply, actors, result_of, chance_outcome, normalize = (
        game.apply, game.actors, game.result, game.chance_outcome, game.normalize)
    chance_rng = M.chance_rng
    # One loop for both: while chance is to act (and the game runs) its
    # outcome is drawn; else, below max_events, a seat's bot moves.
    while True:
        acting = actors(state)
        result = result_of(state)
        if result is not None:
            break
        if CHANCE in acting:
            move = chance_outcome(state, chance_rng(setup, seq - 1))
            if move is not None:
                type_, by = move.type, move.seat
                data = normalize(state, type_, by, move.data)
                state = apply(state, type_, by, data)
                seq += 1
                if keep_log:
                    log.append({"seq": seq, "type": type_, "seat": by, "data": data})
                continue
        if seq >= max_events:
            break
        seat, move = _move_of(bots, table_move, known, game, state, acting, rng)
        state = apply(state, move.type, seat, move.data)
        seq += 1
        if keep_log:
            log.append({"seq": seq, "type": move.type, "seat": seat, "data": move.data})
    return game, seq, state, result, log


def check_players(game_id: str, players: int) -> Game:
    """The registered game, if ``players`` may play it (else ``ValueError``,
    which the CLI shows as a usage error)."""
    game = registry.get(game_id)
    if players not in game.player_counts:
        raise ValueError(f"{game.name} is played by {player_count_text(game.player_counts)} players, not {players}")
    try:  # a count the game allows that its own options check refuses (a board for other counts)
        M.make_setup(game_id, [f"P{i}" for i in range(players)], {}, mode="simulated", seed=0)
    except InvalidOptions as exc:
        if exc.details.get("field") == "players":
            raise ValueError(exc.message) from None
    return game


def stats(values: Sequence[float]) -> dict[str, float] | None:
    """Mean (one decimal), median, min and max; None without values."""
    if not values:
        return None
    return {"mean": round(statistics.fmean(values), 1), "median": statistics.median(values),
            "min": min(values), "max": max(values)}


def _tally(values: Sequence[Any]) -> dict[str, int]:
    """How often each value other than None occurs, most frequent first (ties by name)."""
    out: dict[str, int] = {}
    for v in values:
        if v is not None:
            out[str(v)] = out.get(str(v), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


@dataclass(frozen=True)
class Simulator:
    """What a game declares to be simulated; the rest is shared."""

    game_id: str
    #: seat names, as many as the game's most players
    names: tuple[str, ...]
    bots: Mapping[str, Bot]
    default_strategy: str
    #: the game's own fields of a game's record: ``record(game, final state)``
    record: Callable[[Game, Any], dict[str, Any]]
    #: numeric record fields summarised over the finished games, in order
    stats: tuple[str, ...] = ("events",)
    #: other record fields whose values (None aside) the summary counts over the finished games
    counts: tuple[str, ...] = ()
    #: what the seats know that the log does not record (see the module docstring)
    secrets: Secrets | None = None
    #: the whole table's move, when only the table may act
    table_move: TableMove | None = None

    def play_game(
        self,
        players: int,
        strategies: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        max_events: int = 20_000,
        keep_log: bool = False,
        validate: bool = True,
        engine_only: bool = False,
        secret: str | None = None,
    ) -> dict[str, Any]:
        """One simulated game; ``strategies[s]`` plays seat s. Returns its
        record (and, with ``keep_log``, the log as stored: setup first).

        ``secret``: a server secret mixed into the draws, as the service mixes
        one into a simulated match's (to replay such a game through a service
        given the same secret); None, the default, draws from the seed alone.

        ``engine_only`` plays the same game on the game's own reducer, without
        ``engine.match`` (no undo stack, no JSON-schema checks of the drawn
        chance outcomes, no shape checks of the bots' moves): the same
        seeded draws, so the same log, which the tests check. It is what a
        bench compares with other engines' own game loops."""
        for name in strategies:
            if name not in self.bots:
                raise ValueError(f"unknown strategy {name!r}; known: {', '.join(sorted(self.bots))}")
        setup = M.make_setup(self.game_id, list(self.names[:players]), options or {}, mode="simulated", seed=seed,
                             secret=secret)
        rng = random.Random(f"{seed}:bots")
        bots = [self.bots[strategies[s]] for s in range(players)]
        if engine_only:
            game, seq, state, result, log = _play_engine_only(setup, bots, rng, max_events, keep_log, self.secrets,
                                                              self.table_move)
        else:
            table = Table(setup, keep_log)
            game = table.game
            actors = game.actors
            known = self.secrets(game, game.setup(tuple(setup["players"]), setup["options"]),
                                 random.Random(f"{seed}:secrets")) if self.secrets is not None else None
            while table.ms.result is None and table.ms.seq < max_events:
                state = table.ms.state
                seat, move = _move_of(bots, self.table_move, known, game, state, actors(state), rng)
                table.enter(move.type, seat, move.data, validate)
            seq, state, result, log = table.ms.seq, table.ms.state, table.ms.result, table.log
        out: dict[str, Any] = {
            "seed": seed,
            "strategies": list(strategies),
            "finished": result is not None,
            "winner": result.winners[0] if result else None,
            "events": seq,
            **self.record(game, state),
        }
        if keep_log:
            out["log"] = log
        return out

    def simulate(
        self,
        games: int,
        players: int = 2,
        strategies: Sequence[str] | None = None,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        max_events: int = 20_000,
        progress: Callable[[dict[str, Any]], None] | None = None,
        validate: bool = False,
        engine_only: bool = False,
    ) -> dict[str, Any]:
        """Play ``games`` full games and summarise them.

        ``strategies`` is one name for all seats or one per seat (none: the
        default strategy); the seats rotate from game to game (game g gives
        seat s the strategy ``strategies[(s + g) % k]``) so that no strategy
        keeps the advantage or handicap of one seat. Game g is played with
        seed ``seed * 1_000_003 + g``. A game that reaches ``max_events``
        events is counted as unfinished.

        Every move goes through the reducer (``engine.match.apply_event``),
        which checks every rule; ``validate`` also runs the API's shape and
        actor checks (``normalize_event``) on the bots' moves, which they
        always pass (the tests replay such logs through
        ``engine.match.replay``), at about 15% of the time.
        """
        check_players(self.game_id, players)
        strategies = list(strategies or ()) or [self.default_strategy]
        k = len(strategies)
        records = []
        for g in range(games):
            per_seat = [strategies[(s + g) % k] for s in range(players)]
            rec = self.play_game(players, per_seat, seed * 1_000_003 + g, options, max_events, validate=validate,
                                 engine_only=engine_only)
            records.append(rec)
            if progress is not None:
                progress(rec)
        return self.summarize(records, players, strategies)

    def summarize(self, records: list[dict[str, Any]], players: int, strategies: Sequence[str]) -> dict[str, Any]:
        """Wins by seat and by strategy, seats played by strategy, and the
        statistics of ``self.stats`` over the finished games."""
        finished = [r for r in records if r["finished"]]
        by_seat = [0] * players
        by_strategy: dict[str, int] = {name: 0 for name in strategies}
        seats_played: dict[str, int] = {name: 0 for name in strategies}
        for r in records:
            for name in r["strategies"]:
                seats_played[name] += 1
            if r["finished"]:
                by_seat[r["winner"]] += 1
                by_strategy[r["strategies"][r["winner"]]] += 1
        return {
            "game": self.game_id,
            "games": len(records),
            "players": players,
            "strategies": list(strategies),
            "finished": len(finished),
            "unfinished": len(records) - len(finished),
            **{key: stats([r[key] for r in finished]) for key in self.stats},
            **{key: _tally([r[key] for r in finished]) for key in self.counts},
            "wins_by_seat": by_seat,
            "wins_by_strategy": by_strategy,
            "seats_by_strategy": seats_played,
            "games_list": [{k: v for k, v in r.items() if k != "log"} for r in records],
        }


__all__ = ["Bot", "Simulator", "Table", "check_players", "stats"]


def simulator_of(game: Game) -> Simulator | None:
    """The game's simulator (its bots): ``SIMULATOR`` of the ``simulate`` module beside the module that defines
    the game's class, found by that convention as the registry finds games, so that a game's own module need
    not import the simulator that imports it. None: the game has none."""
    import importlib

    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.simulate")
    except ModuleNotFoundError:
        return None
    return getattr(module, "SIMULATOR", None)
