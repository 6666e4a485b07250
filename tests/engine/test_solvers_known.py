"""The solvers on known positions: hand-built wins and losses (one lost only
because of Stapelen's strict rule), every witness line replayed through the
reducer, and agreement with a brute-force oracle that plays the engine's own
legal moves."""

from __future__ import annotations

import pytest

import engine.sir_tommy  # noqa: F401
import engine.stapelen  # noqa: F401
import engine.twaalven  # noqa: F401
from engine import registry
from engine.jogledor import batch
from engine.jogledor.analysis import effective_line
from engine.jogledor.cards import CARD_IDS
from engine.jogledor.simulate import Recorder, play_random
from engine.sir_tommy import solver as sir_solver
from engine.sir_tommy.game import END
from engine.sir_tommy.game import State as SirState
from engine.stapelen import solver as st_solver
from engine.stapelen.game import State as StState
from engine.twaalven import solver as tw_solver
from engine.twaalven.game import State as TwState

ID = {c: i for i, c in enumerate(CARD_IDS)}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def columns_with(remaining: list[list[str]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A full tableau whose first columns hold ``remaining`` (bottom to top)
    under cards already taken; returns (columns, heights)."""
    used = {ID[c] for col in remaining for c in col}
    filler = [c for c in range(52) if c not in used]
    cols, heights = [], []
    for i in range(13):
        left = [ID[c] for c in remaining[i]] if i < len(remaining) else []
        col = left + [filler.pop() for _ in range(4 - len(left))]
        cols.append(tuple(col))
        heights.append(len(left))
    return tuple(cols), tuple(heights)


def replay_line(game_id: str, state, line) -> object:
    """Play a witness line through the engine's normalize and apply; return the end state."""
    game = registry.get(game_id)
    for move in line:
        data = game.normalize(state, move.type, move.seat, move.data)
        assert data == move.data or game_id == "sir_tommy" or move.type == "roles", (move, data)
        state = game.apply(state, move.type, move.seat, data)
    return state


def oracle(game_id: str, state) -> bool:
    """Brute force over the engine's own legal moves (small positions only)."""
    game = registry.get(game_id)
    if state.over is not None:
        return state.over[0] == "win"
    return any(oracle(game_id, game.apply(state, m.type, m.seat, m.data)) for m in game.legal_moves(state, state.to_move))


def tw_state(remaining: list[list[str]], twelves: int, to_move: int) -> TwState:
    cols, heights = columns_with(remaining)
    turns = (52 - sum(heights)) // 2
    first = to_move if turns % 2 == 0 else 1 - to_move
    taken0 = (turns + 1) // 2 if first == 0 else turns // 2
    taken = (((0, 0),) * taken0, ((0, 0),) * (turns - taken0))
    state = TwState(columns=cols, heights=heights, twelves=twelves, first=first, taken=taken)
    assert state.to_move == to_move
    return state


# -- Twaalven en veertienen ---------------------------------------------------------

def test_twaalven_hand_built_win_and_its_witness():
    state = tw_state([["6S"], ["8S"], ["4S"], ["8H"]], twelves=1, to_move=0)  # seat 0: fourteens
    sol = tw_solver.solve(state)
    assert sol.status == "win" and len(sol.line) == 2
    assert sol.line[0].data["cards"][0] == "6S"
    end = replay_line("twaalven", state, sol.line)
    assert end.over[0] == "win"


def test_twaalven_hand_built_loss_pairs_left_in_one_column():
    # the twelve player (seat 1) must take A+J, the fourteen player then 2+Q; what is left
    # are two pairs each lying in one column (7 on 7, 4 on 8): lost, as the tactics section warns
    state = tw_state([["AH"], ["2H", "JD"], ["7D", "7S"], ["8H", "4S"], ["QC"]], twelves=1, to_move=1)
    sol = tw_solver.solve(state)
    assert sol.status == "loss" and sol.nodes == 3 and sol.line == ()
    assert oracle("twaalven", state) is False


def test_twaalven_over_quota_is_lost_without_search():
    # four 6s left, one twelve and one fourteen to take: they only split as 6-6 twice
    state = tw_state([["6S"], ["6H"], ["6D"], ["6C"]], twelves=0, to_move=1)
    assert tw_solver.needs([0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0], 1, 1) is None
    assert tw_solver.needs([0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0], 2, 0) == [2] + [0] * 13
    sol = tw_solver.solve(state)
    assert sol.status == "loss" and sol.nodes == 0
    assert oracle("twaalven", state) is False


def test_twaalven_roles_open_the_witness_starts_with_the_roles():
    rec = Recorder("twaalven", mode="simulated", seed=33)
    sol = tw_solver.solve(rec.state)
    assert sol.status == "win" and sol.line[0].type == "roles"
    for move in sol.line:
        rec.play(move)
    assert rec.ms.result.outcome == "win"


@pytest.mark.parametrize("game_id", ["twaalven", "stapelen"])
def test_every_witness_line_of_twenty_deals_replays_to_a_win(game_id):
    for i in range(20):
        deck = batch.deal_deck(game_id, 77, i)
        state = batch.fresh_state(game_id, deck)
        sol = batch.solve_one(game_id, deck)
        assert sol.status == "win"
        assert replay_line(game_id, state, sol.line).over[0] == "win"


def test_a_budget_too_small_answers_unknown_never_loss():
    for i in range(10):
        for game_id in ("twaalven", "stapelen"):
            deck = batch.deal_deck(game_id, 5, i)
            sol = batch.solve_one(game_id, deck, budget=3)
            assert sol.status in ("unknown", "win")
            assert sol.status != "loss"


# -- Stapelen -----------------------------------------------------------------------

def three_left(seat0_tops: tuple[str, str, str]) -> StState:
    """Three cards left, 5H, 9H, AH, one per column; seat 1 to move with tops 4, 8, K."""
    cols, heights = columns_with([["5H"], ["9H"], ["AH"]])
    seat0 = tuple((ID[c],) for c in seat0_tops)
    seat1 = ((ID["4S"],), (ID["8S"],), (ID["KS"],))
    state = StState(columns=cols, heights=heights, first=0, foundations=(seat0, seat1))
    assert state.to_move == 1
    return state


def test_stapelen_lost_only_because_of_the_strict_rule():
    state = three_left(("2S", "2C", "2D"))  # seat 0 needs three 3s: it can never move
    sol = st_solver.solve(state)
    assert sol.status == "loss"
    assert oracle("stapelen", state) is False
    # seat 1 alone could put all three cards away: only the turn order loses it
    tops = state.tops(1)
    assert sorted(t % 13 + 1 for t in tops) == sorted(r for r in (5, 9, 1))


def test_stapelen_hand_built_win():
    state = three_left(("2S", "2C", "8C"))  # now seat 0 can take the 9 after seat 1's 5
    sol = st_solver.solve(state)
    assert sol.status == "win" and [m.data["card"] for m in sol.line] == ["5H", "9H", "AH"]
    assert replay_line("stapelen", state, sol.line).over[0] == "win"


def test_stapelen_hand_built_loss_found_by_search():
    cols, heights = columns_with([["10C", "6D", "AC"], ["5S"], ["4S", "7C", "5C"], ["2S"]])
    found = (((ID["3C"],), (ID["KD"],), (ID["4C"],)), ((ID["7D"],), (ID["JD"],), (ID["9H"],)))
    state = StState(columns=cols, heights=heights, first=0, foundations=found)
    assert state.to_move == 0
    sol = st_solver.solve(state)
    assert sol.status == "loss" and sol.nodes > 1
    assert oracle("stapelen", state) is False


# -- Sir Tommy ----------------------------------------------------------------------

def up(top: str, suit: str) -> tuple[int, ...]:
    return tuple(ID[r + suit] for r in RANKS[: RANKS.index(top) + 1])


def down(low: str, suit: str) -> tuple[int, ...]:
    return tuple(ID[r + suit] for r in reversed(RANKS[RANKS.index(low):]))


def sir_endgame(rows: list[list[str]], to_move: int = 0) -> SirState:
    """Up (seat 0): spades and hearts complete, diamonds and clubs to 3; down
    (seat 1): diamonds and clubs from the King to 9. Ten cards on the rows."""
    return SirState(up=0, order=tuple(range(52)), rows=tuple(tuple(ID[c] for c in r) for r in rows),
                    foundations=((up("K", "S"), up("K", "H"), up("3", "D"), up("3", "C")),
                                 (down("9", "D"), down("9", "C"), (), ())),
                    to_move=to_move, phase=END)


def test_sir_tommy_endgame_win_with_witness():
    state = sir_endgame([["8D", "4D"], ["8C", "4C"], ["5D", "5C", "6D", "7D"], ["7C", "6C"]])
    sol = sir_solver.solve(state)
    assert sol.status == "win"
    end = replay_line("sir_tommy", state, sol.line)
    assert end.over[0] == "win"
    assert oracle("sir_tommy", state) is True


def test_sir_tommy_endgame_loss():
    state = sir_endgame([["7D", "8D"], ["8C", "7C"], ["6C", "5C", "4D", "6D", "4C", "5D"], []])
    sol = sir_solver.solve(state)
    assert sol.status == "loss" and sol.line == ()
    assert oracle("sir_tommy", state) is False


def test_sir_tommy_one_pass_already_made_the_player_to_move_must_build():
    # seat 1 passed; seat 0 to move can build nothing useful first... the 5D needs seat 1
    state = sir_endgame([["4D", "5D"], [], [], []], to_move=0)
    state = SirState(**{**state.__dict__, "rows": ((ID["4D"], ID["5D"]),), "passes": 0})
    assert sir_solver.solve(state).status in ("win", "loss")
    passed = SirState(**{**state.__dict__, "passes": 1})
    assert sir_solver.solve(passed).status == ("win" if oracle("sir_tommy", passed) else "loss")


def test_sir_tommy_known_deck_witness_replays_from_the_first_draw():
    wins = 0
    for i in range(6):
        deck = batch.deal_deck("sir_tommy", 3, i)
        state = batch.fresh_state("sir_tommy", deck)
        sol = sir_solver.solve_known(state, deck, budget=50_000)
        assert sol.status != "loss" or sol.line == ()
        if sol.status == "win":
            wins += 1
            rec = Recorder("sir_tommy")
            for move in sol.line:
                rec.play(move)
            assert rec.ms.result.outcome == "win"
            drawn = [c for e in rec.log if e["type"] == "draw" for c in e["data"]["cards"]]
            assert sorted(drawn) == sorted(CARD_IDS[c] for c in deck)
    assert wins >= 2


# -- the oracle on many small positions -------------------------------------------------

def small_positions(game_id: str, seed: int):
    """Positions near the end of a game: Sir Tommy from random play; the open
    games follow a winning line to 12 cards, then play at random."""
    import random

    game = registry.get(game_id)
    if game_id == "sir_tommy":
        rec = play_random(game_id, seed, mode="physical")
        for _, _, state in effective_line(rec.log)[1]:
            if state.over is None and not state.stock and sum(map(len, state.rows)) <= 10:
                yield state
        return
    deck = batch.deal_deck(game_id, 1000 + seed, 0)
    state = batch.fresh_state(game_id, deck)
    line = list(batch.solve_one(game_id, deck).line)
    rng = random.Random(seed)
    while line and state.left > 12:
        move = line.pop(0)
        state = game.apply(state, move.type, move.seat, move.data)
    while state.over is None:
        yield state
        moves = game.legal_moves(state, state.to_move)
        move = rng.choice(moves)
        state = game.apply(state, move.type, move.seat, move.data)


@pytest.mark.parametrize("game_id", ["twaalven", "stapelen", "sir_tommy"])
def test_solvers_agree_with_brute_force_on_small_positions(game_id):
    game = registry.get(game_id)
    checked = {"win": 0, "loss": 0}
    for seed in range(40):
        for state in small_positions(game_id, seed):
            if game_id == "sir_tommy":
                sol = sir_solver.solve(state)
            else:
                sol = (tw_solver if game_id == "twaalven" else st_solver).solve(state)
            assert sol.status == ("win" if oracle(game_id, state) else "loss"), (seed, game.encode_state(state))
            if sol.status == "win":
                assert replay_line(game_id, state, sol.line).over[0] == "win"
            checked[sol.status] += 1
    assert checked["win"] >= 10 and checked["loss"] >= 5, checked


def oracle_known(state, rest: tuple[int, ...], memo: dict) -> bool:
    """Brute force over the engine's moves with the stock order known: the
    draws are taken from ``rest`` (the relaxed dead-position cut of the
    solver is checked against this)."""
    game = registry.get("sir_tommy")
    if state.over is not None:
        return state.over[0] == "win"
    key = (state, rest)
    if key in memo:
        return memo[key]
    if state.phase == "draw":
        k = state.draw_size
        move = ("draw", state.to_move, {"cards": [CARD_IDS[c] for c in sorted(rest[:k])]})
        won = oracle_known(game.apply(state, *move), rest[k:], memo)
    else:
        won = any(oracle_known(game.apply(state, m.type, m.seat, m.data), rest, memo)
                  for m in game.legal_moves(state, state.to_move))
    memo[key] = won
    return won


def test_sir_tommy_solver_with_stock_left_agrees_with_brute_force():
    checked = {"win": 0, "loss": 0}
    for seed in range(80):
        rec = play_random("sir_tommy", seed, mode="simulated")
        order = rec.state.order
        for _, _, state in effective_line(rec.log)[1]:
            if state.over is not None or state.phase != "draw" or state.stock > 4:
                continue
            if sum(map(len, state.rows)) > 12:
                continue
            rest = order[len(state.order):]
            sol = sir_solver.solve_known(state, rest)
            assert sol.status == ("win" if oracle_known(state, tuple(rest), {}) else "loss")
            checked[sol.status] += 1
    assert checked["win"] >= 3 and checked["loss"] >= 3, checked
