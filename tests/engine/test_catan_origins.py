"""What made cards unseen (``engine.catan.game.Origins``): a Catan state
keeps only the texts a refusal can still name, so it costs the same after
the thousandth steal as after the first (issue 36: every steal added one
to every state, and a snapshot held 17 copies), and every refusal says
exactly what it said when every text was kept."""

from __future__ import annotations

import random

import orjson
import pytest

from engine import match as M
from engine.catan.bots import greedy_bot
from engine.catan.game import SETUP_R, SETUP_S, Origins
from engine.core import KroniekError
from engine.simulation import Table
from engine.text import render, say, to_json

from .legality_support import player_counts, random_positions, setup_for

RES = ("lumber", "brick", "wool", "grain", "ore")


class Passive:
    """A simulated 4-player match whose seats, after the set-up, only roll,
    discard, rob someone and end their turn: it never ends and its steals go on."""

    def __init__(self, seed: int) -> None:
        self.table = Table(M.make_setup("catan", ["Ann", "Bob", "Cor", "Dirk"], {}, "simulated", seed), keep_log=False)
        self.rng = random.Random(seed)

    @property
    def ms(self) -> M.MatchState:
        return self.table.ms

    def play_on(self, until: int) -> None:
        table = self.table
        while table.ms.seq < until:
            s = table.state
            seat = next(a for a in table.game.actors(s) if isinstance(a, int))
            if s.phase in (SETUP_S, SETUP_R):
                move = greedy_bot(table.game, s, seat, self.rng)
            else:
                moves = [m for m in table.game.legal_moves(s, seat)
                         if m.type in ("roll", "discard", "move_robber", "end_turn")]
                move = self.rng.choice([m for m in moves if m.type == "move_robber" and m.data.get("victim") is not None]
                                       or moves)
            table.enter(move.type, move.seat, move.data)


def test_a_states_size_does_not_grow_with_its_steals():
    """Every steal adds an origin; the referee's hands are exact in a
    simulated match, so only the newest origin's text is kept, and the
    state (and so a snapshot, its undo steps included) is as large after
    200 steals as after 40."""
    match = Passive(3)
    match.play_on(1_000)
    early, early_count = M.encode(match.ms), match.ms.state.origins.count
    match.play_on(5_000)
    late, origins = M.encode(match.ms), match.ms.state.origins
    assert early_count >= 30 and origins.count >= 4 * early_count
    assert len(origins.kept) == 1 and origins.kept[0][0] == origins.count
    assert len(orjson.dumps(late["state"])) <= len(orjson.dumps(early["state"])) + 200  # counters, a few digits more
    assert len(orjson.dumps(late)) <= len(orjson.dumps(early)) + 17 * 200
    assert M.decode(match.ms.setup, late).state == match.ms.state


def physical_positions(game: str, players: int, seed: int, until: int = 500):
    """The positions of a physical line whose recorder missed most stolen and
    drawn cards (in Troje, beside each position where a seat may donate, the
    same donation entered by its count alone), where some referee hand holds
    unseen cards."""
    setup = setup_for(game, players, {}, seed)
    for _, ms in random_positions(setup, seed, until, hide=0.6):
        if game == "catan-troje":
            donations = [m for seat in range(players) for m in M.legal_moves(ms, seat) if m["type"] == "donate"]
            if donations:
                move = donations[-1]
                try:
                    data = M.normalize_event(ms, "donate", move["seat"], {**move["data"], "cards": None})
                    ms = M.apply_event(ms, ms.seq + 1, "donate", move["seat"], data)
                except KroniekError:
                    pass
        if any(row[-1].unseen for row in ms.state.hands):
            yield ms


def attempts(ms: M.MatchState, rng: random.Random):
    n = ms.state.cfg.n
    for seat in range(n):
        give = {r: rng.randint(0, 3) for r in rng.sample(RES, 2)}
        yield "trade", seat, {"with": (seat + 1) % n, "give": give, "get": {rng.choice(RES): 1}}
        yield "discard", seat, {"cards": give}
        yield "buy_dev", seat, {}
        yield "play_monopoly", seat, {"resource": rng.choice(RES), "given": {str((seat + 1) % n): rng.randint(0, 4)}}


def answer(ms: M.MatchState, type_: str, seat: int, data: dict) -> str:
    try:
        after = M.apply_event(ms, ms.seq + 1, type_, seat, M.normalize_event(ms, type_, seat, data))
    except KroniekError as exc:
        return render(exc.text)
    return "accepted " + repr(after.state.hands)


@pytest.mark.rule("catan.hand")
@pytest.mark.parametrize("game", ["catan", "catan-troje"])
def test_every_refusal_names_the_same_origins_as_with_every_text_kept(game):
    """On physical lines with unseen cards, every move is answered the same
    by the state as kept and by the same state given back a text for every
    origin it dropped (each a text of its own): so no refusal ever names an
    origin the state no longer keeps, and the ones it names are the same."""
    named = answered = 0
    counts = player_counts(game)
    for seed in range(4):
        rng = random.Random(seed)
        for ms in physical_positions(game, counts[seed % 2], seed):
            origins = ms.state.origins
            assert len(origins.kept) <= 1 + sum(len(row[-1].unseen) for row in ms.state.hands) + (
                origins.count - ms.state.worlds_from + 1 if ms.state.worlds is not None else 0)
            kept = dict(origins.kept)
            every = Origins(origins.count, tuple((o, kept.get(o) or say("dropped origin {o}", o=o))
                                                 for o in range(1, origins.count + 1)))
            whole = M.MatchState(ms.game, ms.setup, ms.seq, ms.state._replace(origins=every), ms.stack, ms.depth)
            for type_, seat, data in attempts(ms, rng):
                said = answer(ms, type_, seat, data)
                assert said == answer(whole, type_, seat, data), (seed, ms.seq, type_, seat, data)
                assert "dropped origin" not in said
                named += "unseen cards from" in said
                answered += 1
    assert answered > 1000 and named > 20


def test_a_snapshot_that_kept_every_origin_still_loads():
    """A snapshot written before issue 36 kept every origin's text as a
    list: it decodes, keeps what the state can still name (the newest
    origin's here) and plays on exactly as the state replayed from the log."""
    match = Passive(5)
    match.play_on(600)
    ms = match.ms
    encoded = M.encode(ms)
    count = ms.state.origins.count
    kept, step = dict(ms.state.origins.kept), ms.stack
    for _ in range(M.SNAPSHOT_UNDO_DEPTH):  # the texts the undo steps' states keep too
        kept.update(step.before.origins.kept)
        step = step.prev
    old = dict(encoded)
    old["state"] = {**encoded["state"], "origins": [to_json(kept.get(o) or say("the steal in turn {turn}", turn=o))
                                                    for o in range(1, count + 1)]}
    old["stack"] = [[*step[:3], {**step[3], "origins": old["state"]["origins"][:step[3]["origins"]["count"]]}]
                    for step in encoded["stack"]]
    decoded = M.decode(ms.setup, old)
    assert decoded.state == ms.state and decoded.state.origins.count == count
    step, replayed, steps = decoded.stack, ms.stack, 0
    while step.before is not M.ELIDED:
        assert step.seq == replayed.seq and step.before == replayed.before
        step, replayed, steps = step.prev, replayed.prev, steps + 1
    assert steps == M.SNAPSHOT_UNDO_DEPTH
