"""The worker's annotations of a tournament, checked against the exact odds and
against a recount from the replayed states; views; bad input never crashes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import REFEREE, KroniekError
from engine.ridder_toernooi import GAME, odds
from engine.ridder_toernooi.simulate import play_game

from .ridder_support import DEAL2, Table, day_with_all, printed_duel, started


def test_odds_before_the_dice_and_luck_of_the_printed_duel():
    t = printed_duel()
    before_challenge = M.replay(t.log[:-1])
    notes = GAME.annotate(before_challenge.state, "challenge", 0, t.log[-1]["data"], t.s)
    (note,) = notes
    a = odds.Fighter(4, (2, 1, 1), (1, 1, 1), 0)
    d = odds.Fighter(5, (1, 1, 0), (1, 1, 0), 0)
    expect = odds.duel_odds(a, d, "never", "every")
    assert note["kind"] == "odds" and note["attacker_wins"] == round(expect.attacker_wins, 4)
    assert note["defender_wins"] == round(expect.defender_wins, 4)
    t.roll(1, 3, 3, 6)
    mid = t.ms
    t.roll(1, 2, 5, 5, 6)
    (luck,) = GAME.annotate(mid.state, "roll", None, t.log[-1]["data"], t.s)
    apollonius, harald = luck["rolls"]
    assert apollonius == {"knight": "K01", "dice": 4, "wounds": 2,
                          "expected": round(odds.expected_hits(4, (1, 1, 0)), 3),
                          "p_at_least": round(odds.prob_at_least(4, (1, 1, 0), 2), 4)}
    assert harald["wounds"] == 0 and harald["expected"] == round(odds.expected_hits(5, (2, 1, 1)), 3)


def _simulated_logs(n: int, players: int = 4):
    for seed in range(n):
        yield play_game(players, ["random"] * players, 500 + seed, keep_log=True)["log"]


def test_upsets_choices_and_luck_summaries_recount():
    upsets = choices = 0
    for log in _simulated_logs(6):
        notes = GAME.analyse_log(log, 10_000)
        states = {after.seq: (before, after) for _, before, after in M.replay_steps(log) if before is not None}
        scopes = [n["scope"] for seq in sorted(notes) for n in notes[seq] if n["kind"] == "luck_summary"]
        assert scopes == ["day 1", "day 2", "day 3", "day 4", "match"]
        day_sums = [0.0] * 4
        match = None
        for seq in sorted(notes):
            for n in notes[seq]:
                if n["kind"] == "luck_summary":
                    values = list(n["wounds_dealt_minus_expected"].values())
                    if n["scope"] == "match":
                        match = values
                    else:
                        day_sums = [x + y for x, y in zip(day_sums, values)]
                if n["kind"] == "upset":
                    upsets += 1
                    assert n["chance"] < 0.25
                    # the duel's challenge: the latest challenge before this seq
                    ch = max(e["seq"] for e in log if e["type"] == "challenge" and e["seq"] < seq)
                    before, after = states[ch]
                    a, d = after.state.duel.a, after.state.duel.d
                    o = odds.duel_odds(odds.Fighter(GAME.base_dice(before.state, a), before.state.knights[a].cover[:3],
                                                    before.state.knights[a].cover[3:], min(before.state.knights[a].wounds, 9)),
                                       odds.Fighter(GAME.base_dice(before.state, d), before.state.knights[d].cover[:3],
                                                    before.state.knights[d].cover[3:], min(before.state.knights[d].wounds, 9)),
                                       "never", "every")
                    won = o.attacker_wins if n["winner"] == GAME.kid(after.state, a) else o.defender_wins
                    assert round(won, 4) == n["chance"]
                    b2, a2 = states[seq]
                    assert (n["winner"], 1, f"day {b2.state.day}: duel") in a2.state.awards
                if n["kind"] == "choice":
                    choices += 1
                    assert n["glyph"] == "?!"
                    if n["choice"] == "challenge":
                        assert n["best"]["expected_premiums"] - n["expected_premiums"] >= 0.15 - 1e-9
                    else:
                        gap = n["best"]["expected_premiums_per_duel"] - n["expected_premiums_per_duel"]
                        assert gap >= 0.15 - 1e-3
        assert match == pytest.approx(day_sums, abs=0.05)
    assert upsets > 0 and choices > 0


def test_every_view_is_the_same_nothing_is_hidden():
    t = printed_duel()
    public = t.ms.view(None)
    assert t.ms.view(0) == public == t.ms.view(1) == t.ms.view(REFEREE)
    for event in t.log[1:]:
        assert GAME.event_view(t.s, event, 0) == event


EVENT = st.fixed_dictionaries({
    "type": st.sampled_from(list(GAME.event_types) + ["undo"]),
    "seat": st.one_of(st.none(), st.integers(-1, 4)),
    "data": st.dictionaries(st.sampled_from(["knight", "target", "lady", "knights", "faces", "dice", "cover", "ladies"]),
                            st.one_of(st.integers(-3, 12), st.text(max_size=5), st.sampled_from(["K01", "K02", "L01", "Ilsa"]),
                                      st.lists(st.one_of(st.integers(0, 7), st.none(), st.sampled_from(["K01", "K04"])), max_size=8),
                                      st.lists(st.lists(st.sampled_from(["K01", "K02", "K03", "K04", "L01", "L02"]), max_size=3), max_size=3)),
                            max_size=4),
})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.lists(EVENT, min_size=1, max_size=6), stage=st.integers(0, 3))
def test_bad_input_never_crashes(events, stage):
    t = [Table, lambda: started(), lambda: day_with_all(started()), printed_duel][stage]()
    ms = t.ms
    for e in events:
        try:
            data = M.normalize_event(ms, e["type"], e["seat"], e["data"])
            ms = M.apply_event(ms, ms.seq + 1, e["type"], e["seat"], data)
        except KroniekError:
            pass
        except M.HistoryElided:
            pass


# -- the bots ---------------------------------------------------------------------------------

def test_greedy_challenges_where_its_chance_is_highest():
    import random

    from engine.ridder_toernooi.bots import greedy_bot, win_chance

    t = day_with_all(started())
    move = greedy_bot(GAME, t.s, 0, random.Random(1))
    assert move.type == "challenge"
    k = {GAME.kid(t.s, i): i for i in range(len(t.s.knights))}
    chances = {(m.data["knight"], m.data["target"]): win_chance(GAME, t.s, k[m.data["knight"]], k[m.data["target"]])
               for m in GAME.legal_moves(t.s, 0)}
    assert chances[(move.data["knight"], move.data["target"])] == max(chances.values())


def test_greedy_training_raises_the_knights_chances():
    import random

    from engine.ridder_toernooi.bots import fighter, greedy_bot

    t = Table()
    t.ev("deal", None, **DEAL2)
    move = greedy_bot(GAME, t.s, 0, random.Random(1))
    assert move.type == "train" and move.data["dice"] + len(move.data["cover"]) >= 1
    k = next(i for i in range(4) if GAME.kid(t.s, i) == move.data["knight"])
    after = GAME.apply(t.s, "train", 0, move.data)
    for d in (2, 3):
        before_p = odds.duel_odds(fighter(GAME, t.s, k), fighter(GAME, t.s, d)).attacker_wins
        after_p = odds.duel_odds(fighter(GAME, after, k), fighter(GAME, after, d)).attacker_wins
        before_q = odds.duel_odds(fighter(GAME, t.s, d), fighter(GAME, t.s, k)).defender_wins
        after_q = odds.duel_odds(fighter(GAME, after, d), fighter(GAME, after, k)).defender_wins
        assert after_p + after_q > before_p + before_q


def test_greedy_beats_random():
    from engine.ridder_toernooi.simulate import simulate

    summary = simulate(8, 2, ["greedy", "random"], seed=11)
    assert summary["unfinished"] == 0
    assert summary["wins_by_strategy"]["greedy"] > summary["wins_by_strategy"]["random"]


def test_an_undone_roll_is_not_counted_as_luck():
    t = Table()
    t.ev("deal", None, **DEAL2)
    t.ev("train", 0, knight="K01", dice=1, cover=[1])
    t.train_nothing()
    t.ev("start_roll", None, faces=[5, 2])
    t.ev("participate", 0, knights=["K01"]).ev("participate", 1, knights=["K02"])
    t.ev("kerchief", 0, lady="L02", knight="K01").ev("kerchief", 1, lady="L01", knight="K02")
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(1, 3, 3, 6)
    t.roll(6, 6, 6, 6, 6)  # a recording mistake …
    t.ev("undo", None)  # … taken back (the duel it ended and the day with it)
    t.roll(1, 2, 5, 5, 6)
    notes = GAME.analyse_log(t.log, 10_000)
    (day1,) = [n for ns in notes.values() for n in ns if n["kind"] == "luck_summary" and n["scope"] == "day 1"]
    luck = day1["wounds_dealt_minus_expected"]
    assert luck["Ann"] == round(2 - odds.expected_hits(4, (1, 1, 0)), 2)
    assert luck["Bob"] == round(0 - odds.expected_hits(5, (2, 1, 1)), 2)


def test_the_analysis_reports_progress_and_keeps_to_its_limits():
    """The worker's analysis job passes a progress callback, a node cap and a
    deadline: choices are weighed only within them; odds, luck and upsets stay."""
    log = next(_simulated_logs(1))
    seen: list[tuple[int, int]] = []
    full = GAME.analyse_log(log, 10_000, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (len(log), len(log)) and [d for d, _ in seen] == sorted(d for d, _ in seen)

    def kinds(notes):
        return {n["kind"] for ns in notes.values() for n in ns}

    assert "choice" in kinds(full)
    for capped in (GAME.analyse_log(log, 10_000, max_nodes=0), GAME.analyse_log(log, 10_000, deadline=0.0)):
        assert "choice" not in kinds(capped)
        assert kinds(full) - {"choice"} == kinds(capped)
