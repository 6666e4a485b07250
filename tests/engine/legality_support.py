"""The legality property over every registered game, as plain functions
(``tests/engine/test_every_game_legality.py`` drives them with Hypothesis;
the injected-hole tests call them on a game made wrong on purpose).

A match is played to a position by the game's bots (``SIMULATOR``, where the
game has one) or by random legal moves, in a simulated match, so that the
server draws every chance outcome, or (``hide``) in a physical match whose
recorder enters some of the drawn cards as unseen. After every event the
game's invariants (``Game.invariants``) must hold. At some positions, each through the path the
service takes (``engine.match.normalize_event`` then ``apply_event``), on a
physical copy of the match (there a recorder enters the chance outcomes):

- every move ``legal_moves`` lists, and the chance outcome the game would
  draw, is accepted, the state it was applied to unchanged, and the
  invariants hold after it;
- events made by mutating legal data (another seat, another card or value,
  another vertex, edge or hex, null for a card, a chance outcome of another
  kind or none due, any event after the end) are either refused with a
  ``KroniekError`` of 4xx status, the state unchanged, or accepted with the
  invariants holding, and
  - a chance outcome is accepted only of the kind (and for the seat) due;
  - an event of a type the game enumerates completely
    (``Game.complete_moves``) is accepted only when listed.

Each function returns the problems found (empty: none), each naming the
game, the position (seq) and the event.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from typing import Any, Iterator

from engine import match as M
from engine import registry
from engine.core import CHANCE, KroniekError

#: (a probe while writing a game's ``complete_moves``: treat every type as enumerated completely)
_ALL_COMPLETE = os.environ.get("KRONIEK_LEGALITY_ALL_COMPLETE") == "1"

#: simulators of the games that have bots
SIMULATORS: dict[str, Any] = {}


def _simulators() -> dict[str, Any]:
    if not SIMULATORS:
        from engine.catan.simulate import SIMULATOR as catan
        from engine.ridder_toernooi.simulate import SIMULATOR as ridder
        from engine.troje.simulate import SIMULATOR as troje
        from engine.troubadour.simulate import SIMULATOR as troubadour

        for sim in (catan, ridder, troje, troubadour):
            SIMULATORS[sim.game_id] = sim
    return SIMULATORS


#: options tried per game (besides the defaults), each a readable variant of the rules
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "braverats": [{}, {"variants": ["A"]}, {"variants": ["B"]}, {"variants": ["C"]}, {"variants": ["D"]},
                  {"variants": ["E"]}, {"variants": ["F"]}, {"variants": ["G"]}],
    "catan": [{}, {"turn_model": "paired"}, {"turn_model": "standard"}],
    "catan-troje": [{}, {"allegiances": "private"}, {"revealed_cards": "removed"}],
    "ridder_toernooi": [{}, {"ladies": False}, {"challenge_required": False}],
}


def player_counts(game_id: str) -> list[int]:
    """The player counts the game allows (between its bounds, as its setup takes them)."""
    game = registry.get(game_id)
    out = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            M.make_setup(game_id, [f"P{i}" for i in range(n)], {}, mode="simulated", seed=0)
        except KroniekError:
            continue
        out.append(n)
    return out


def setup_for(game_id: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """A simulated match's setup, or None when the options do not fit the player count."""
    names = [f"P{i}" for i in range(players)]
    try:
        return M.make_setup(game_id, names, options, mode="simulated", seed=seed)
    except KroniekError:
        return None


# -- playing to positions --------------------------------------------------------------------------

def _jsonable(data: Any) -> Any:
    return json.loads(json.dumps(data))


def bot_positions(setup: dict[str, Any], seed: int, max_events: int) -> Iterator[tuple[Any, M.MatchState]]:
    """Every position of a match the game's bots play (one strategy each,
    drawn from the seed), with the event that led to it."""
    sim = _simulators()[setup["game"]]
    rng = random.Random(seed)
    n = len(setup["players"])
    strategies = [rng.choice(sorted(sim.bots)) for _ in range(n)]
    rec = sim.play_game(n, strategies, setup["seed"], setup["options"], max_events=max_events, keep_log=True)
    for event, _, after in M.replay_steps(_jsonable(rec["log"])):
        yield event, after


def random_positions(setup: dict[str, Any], seed: int, max_events: int,
                     hide: float = 0.0) -> Iterator[tuple[Any, M.MatchState]]:
    """Every position of a match played by random legal moves, with the
    event that led to it. The game draws the chance outcomes; with ``hide``,
    the match is a physical one whose recorder enters that share of the
    drawn cards as unseen (``card`` null, where the game takes it)."""
    rng = random.Random(seed)
    seed_ = setup["seed"]
    if hide:
        setup = {**setup, "mode": "physical", "seed": None}
    ms = M.start(setup)
    yield None, ms
    game = ms.game
    while ms.result is None and ms.seq < max_events:
        actors = game.actors(ms.state)
        if CHANCE in actors:
            move = game.chance_outcome(ms.state, random.Random(f"{seed_}:{ms.depth}"))
            if move is not None:
                raw = _jsonable(move.data)
                tries = [raw]
                if hide and isinstance(raw.get("card"), str) and rng.random() < hide:
                    tries.insert(0, {**raw, "card": None})
                for i, data in enumerate(tries):
                    try:
                        data = M.normalize_event(ms, move.type, move.seat, data, by_server=not hide)
                        after = M.apply_event(ms, ms.seq + 1, move.type, move.seat, data)
                    except KroniekError:
                        if i + 1 < len(tries):
                            continue  # this game needs the card seen
                        raise
                    break
                ms = after
                yield {"type": move.type, "seat": move.seat, "data": data}, ms
                continue
        moves = [m for a in actors if a != CHANCE for m in M.legal_moves(ms, None if a == "table" else a)]
        if not moves and hide and CHANCE in actors:
            return  # a chance outcome the game cannot draw from what the recorder saw: the line ends here
        if not moves:
            raise AssertionError(f"{game.id} seq {ms.seq}: nobody can move ({list(actors)} act, nothing listed)")
        m = rng.choice(moves)
        data = M.normalize_event(ms, m["type"], m["seat"], _jsonable(m["data"]))
        ms = M.apply_event(ms, ms.seq + 1, m["type"], m["seat"], data)
        yield {"type": m["type"], "seat": m["seat"], "data": data}, ms


# -- the checks -------------------------------------------------------------------------------------

def broken(ms: M.MatchState) -> list[str]:
    """The game's invariants ``ms`` breaks, named."""
    return [f"{ms.game.id} seq {ms.seq}: invariant {name}: {what}" for name, what in ms.game.invariants(ms.state)]


def physical(ms: M.MatchState) -> M.MatchState:
    """The same match as a recorder enters it (chance outcomes entered by hand)."""
    return dataclasses.replace(ms, setup={**ms.setup, "mode": "physical", "seed": None})


def _encoded(ms: M.MatchState) -> str:
    return json.dumps(ms.game.encode_state(ms.state), sort_keys=True, default=repr)


def _canon(type_: str, seat: Any, data: dict[str, Any]) -> str:
    return json.dumps([type_, seat, data], sort_keys=True)


def attempt(ms: M.MatchState, type_: str, seat: Any, data: Any) -> tuple[str, Any, Any]:
    """Enter one event as the service would: ("accepted", match after, canonical data),
    ("refused", error, None) or ("crashed", exception, None)."""
    try:
        norm = M.normalize_event(ms, type_, seat, data)
        after = M.apply_event(ms, ms.seq + 1, type_, seat, norm)
    except KroniekError as exc:
        return "refused", exc, None
    except Exception as exc:  # noqa: BLE001 - what the property looks for
        return "crashed", exc, None
    return "accepted", after, norm


def listed(ms: M.MatchState) -> dict[Any, list[dict[str, Any]]]:
    """The moves ``legal_moves`` lists now, by actor (a seat, or None for the table)."""
    out: dict[Any, list[dict[str, Any]]] = {}
    for a in ms.game.actors(ms.state) if ms.result is None else ():
        if a == CHANCE:
            continue
        seat = None if a == "table" else a
        out[seat] = [_jsonable(m) for m in M.legal_moves(ms, seat)]
    return out


def _mutations(value: Any, seen: list[Any], rng: random.Random) -> list[Any]:
    """Other values for one field: neighbours of a number, other seen values, null."""
    out: list[Any] = []
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, value - 1, 0, value + rng.randint(2, 60), -1]
    elif isinstance(value, str):
        out.append(None)
    elif isinstance(value, list):
        if value and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            i = rng.randrange(len(value))
            out += [value[:i] + [value[i] + d] + value[i + 1:] for d in (1, -1, 3)]
        if value and all(isinstance(x, list) for x in value):
            i = rng.randrange(len(value))
            for alt in _mutations(value[i], [], rng)[:2]:
                out.append(value[:i] + [alt] + value[i + 1:])
        if value:
            out.append(value[:-1])
            out.append(value + [value[-1]])
        out.append(list(reversed(value)))
    elif isinstance(value, dict):
        for k, v in list(value.items())[:3]:
            if isinstance(v, int) and not isinstance(v, bool):
                out.append({**value, k: v + 1})
                if v:
                    out.append({**value, k: v - 1})
    elif value is None:
        pass
    out += [s for s in seen if s != value][:4]
    return out


def mutated(ms: M.MatchState, pool: dict[str, list[dict[str, Any]]], rng: random.Random,
            budget: int) -> list[tuple[str, Any, dict[str, Any]]]:
    """Events made from legal data by one change each, at most ``budget``."""
    n = len(ms.players)
    seats: list[Any] = [None, *range(n)]
    out: list[tuple[str, Any, dict[str, Any]]] = []
    for type_ in ms.game.event_types:
        samples = pool.get(type_) or [{}]
        for data in rng.sample(samples, min(3, len(samples))):
            out += [(type_, seat, data) for seat in seats]
            alternatives: dict[str, list[Any]] = {}
            for key, value in data.items():
                seen = [d.get(key) for d in pool.get(type_, []) if key in d]
                rng.shuffle(seen)
                alternatives[key] = _mutations(value, seen, rng)
            for key, alts in alternatives.items():
                for alt in alts:
                    for seat in rng.sample(seats, 2):
                        out.append((type_, seat, {**data, key: alt}))
                # without the field (where it is optional, the game must work it out or refuse)
                out.append((type_, rng.choice(seats), {k: v for k, v in data.items() if k != key}))
    rng.shuffle(out)
    return out[:budget]


#: chance outcomes a game also takes where another kind is due: (game, kind due) -> kinds
ALSO_DUE = {
    # a recorder notes that the discard pile was shuffled into the draw pile before the card turned up
    ("troubadour", "flip"): {"shuffled"},
    ("troubadour", "turn_up"): {"shuffled"},
}


#: chance outcomes a game takes for any seat still owed one, in any order: (game, kind)
ANY_ORDER = {("troubadour", "deal")}


def _due_matches(game_id: str, due: dict[str, Any], type_: str, seat: Any) -> bool:
    """Whether a chance outcome entered as ``type_`` by ``seat`` is the one
    due: of its kind (or one the game also takes there), and for the seat
    due. A seat left null, or given where the outcome is nobody's (dice, a
    deal), names no other player's cards: only another seat where a seat's
    cards are due counts as a wrong seat."""
    if type_ != due["type"] and type_ not in ALSO_DUE.get((game_id, due["type"]), ()):
        return False
    return seat is None or due["seat"] is None or seat == due["seat"] or (game_id, type_) in ANY_ORDER


def check_position(ms: M.MatchState, pool: dict[str, list[dict[str, Any]]], rng: random.Random,
                   budget: int = 60, listed_budget: int = 40) -> list[str]:
    """The property at one position (see the module docstring)."""
    game = ms.game
    problems: list[str] = []
    rec = physical(ms)
    before = _encoded(rec)
    where = f"{game.id} seq {ms.seq}"

    def unchanged(what: str) -> None:
        if _encoded(rec) != before:
            problems.append(f"{where}: {what} changed the state it was applied to")

    # every listed move, and the chance outcome due, is accepted
    moves = listed(rec)
    listed_keys: dict[Any, set[str]] = {}
    for seat, ms_moves in moves.items():
        keys = listed_keys.setdefault(seat, set())
        for m in ms_moves:
            pool.setdefault(m["type"], []).append(m["data"])
        for m in rng.sample(ms_moves, min(listed_budget, len(ms_moves))) if ms_moves else ():
            outcome, got, norm = attempt(rec, m["type"], m["seat"], m["data"])
            if outcome != "accepted":
                problems.append(f"{where}: listed {m} is {outcome}: {got!r}")
                continue
            unchanged(f"listed {m}")
            problems += [f"{p} after listed {m['type']}" for p in broken(got)]
        for m in ms_moves:
            try:
                keys.add(_canon(m["type"], m["seat"], M.normalize_event(rec, m["type"], m["seat"], m["data"])))
            except KroniekError:
                pass  # reported above when sampled
    due: list[dict[str, Any]] = M.chance_due(rec)
    if ms.result is None and CHANCE in game.actors(ms.state):
        move = game.chance_outcome(ms.state, random.Random(rng.random()))
        if move is not None:
            data = _jsonable(move.data)
            pool.setdefault(move.type, []).append(data)
            outcome, got, _ = attempt(rec, move.type, move.seat, data)
            if outcome != "accepted":
                problems.append(f"{where}: the chance outcome drawn, {move.to_dict()}, is {outcome}: {got!r}")
            else:
                unchanged(f"chance {move.type}")
                problems += [f"{p} after chance {move.type}" for p in broken(got)]
    # mutations of legal data
    for type_, seat, data in mutated(rec, pool, rng, budget):
        event = {"type": type_, "seat": seat, "data": data}
        outcome, got, norm = attempt(rec, type_, seat, data)
        if outcome == "crashed":
            problems.append(f"{where}: {event} crashed: {type(got).__name__}: {got}")
            continue
        unchanged(f"{event} ({outcome})")
        if outcome == "refused":
            if not 400 <= got.status < 500:
                problems.append(f"{where}: {event} refused with status {got.status}")
            continue
        if ms.result is not None:
            problems.append(f"{where}: {event} accepted after the end")
            continue
        actor = game.event_types[type_].actor
        if actor == CHANCE:
            if due and not any(_due_matches(game.id, d, type_, seat) for d in due):
                problems.append(f"{where}: chance {event} accepted where {due} is due")
        elif type_ in game.complete_moves or _ALL_COMPLETE:
            if _canon(type_, seat, norm) not in listed_keys.get(seat, set()):
                problems.append(f"{where}: {event} accepted but not listed by legal_moves")
        problems += [f"{p} after {event}" for p in broken(got)]
    return problems


def explore(game_id: str, players: int, options: dict[str, Any], seed: int, *, bots: bool,
            max_events: int, positions: int, budget: int = 60, hide: float = 0.0) -> list[str]:
    """Play one match (bots or random legal moves), check the invariants after
    every event and the whole property at ``positions`` positions of it (the
    last one always: the end, where every event is refused)."""
    setup = setup_for(game_id, players, options, seed)
    if setup is None:
        return []
    rng = random.Random(seed)
    if bots and game_id in _simulators():
        def play(setup, seed, max_events):
            return bot_positions(setup, seed, max_events)
    else:
        def play(setup, seed, max_events):
            return random_positions(setup, seed, max_events, hide=0.0 if bots else hide)
    problems: list[str] = []
    line: list[M.MatchState] = []
    pool: dict[str, list[dict[str, Any]]] = {}  # the data of the events played: what the mutations start from
    try:
        for event, ms in play(setup, seed, max_events):
            line.append(ms)
            if event is not None and event["type"] in ms.game.event_types:
                pool.setdefault(event["type"], []).append(event["data"])
            problems += broken(ms)
    except KroniekError as exc:  # a bot's or a listed move refused on the main line
        problems.append(f"{game_id}: the line of play stopped at seq {len(line) + 1}: {exc.to_dict()}")
    if problems:
        return problems[:20]
    picks = sorted(rng.sample(range(len(line)), min(positions - 1, len(line)))) + [len(line) - 1]
    for i in picks:
        problems += check_position(line[i], pool, rng, budget)
        if len(problems) > 20:
            break
    return problems[:20]
