"""The players of a league (``leagues.roster.Roster``): an immutable sequence
whose append is O(1) amortised because the states that grow from one another
share one list. Nothing a caller holds may change when a newer or an older
roster grows."""

import threading

from engine.match import name_key
from leagues import league as L
from leagues.roster import Roster


def test_a_roster_grows_without_changing_the_one_it_grew_from():
    empty = Roster()
    a = empty.plus("Ann")
    ab = a.plus("Bob")
    abc = ab.plus("Cas")
    assert (tuple(empty), tuple(a), tuple(ab), tuple(abc)) == ((), ("Ann",), ("Ann", "Bob"), ("Ann", "Bob", "Cas"))
    assert "Bob" in ab and "Bob" not in a and "Cas" not in ab
    assert ab.position("Bob") == 1 and a.position("Bob") is None and abc.position("Dirk") is None
    assert abc[-1] == "Cas" and abc[0:2] == ("Ann", "Bob") and len(ab) == 2
    try:
        ab[2]  # Cas is in the shared list, but not in this roster
    except IndexError:
        pass
    else:
        raise AssertionError("ab[2] must be out of range")
    assert ab == ("Ann", "Bob") == Roster(["Ann", "Bob"]) and ("Ann", "Bob") == ab and ab != abc
    assert hash(ab) == hash(("Ann", "Bob"))


def test_growing_an_older_roster_branches_and_leaves_both_lines_as_they_were():
    ab = Roster().plus("Ann").plus("Bob")
    abc = ab.plus("Cas")
    abd = ab.plus("Dirk")  # ab is no longer the newest of its list
    abce = abc.plus("Eva")
    assert tuple(abc) == ("Ann", "Bob", "Cas") and tuple(abd) == ("Ann", "Bob", "Dirk")
    assert tuple(abce) == ("Ann", "Bob", "Cas", "Eva") and tuple(abd.plus("Fien")) == ("Ann", "Bob", "Dirk", "Fien")
    assert "Dirk" not in abc and "Cas" not in abd and "Eva" not in abd
    assert tuple(ab) == ("Ann", "Bob")


def test_find_by_key_sees_only_the_rosters_own_names():
    a = Roster(["Ann"])
    ab = a.plus("Bob")
    assert ab.find(name_key, "bob") == "Bob" and a.find(name_key, "bob") is None  # index built here
    abc = ab.plus(" CAS ")  # kept up to date by the append
    assert abc.find(name_key, "cas") == " CAS " and ab.find(name_key, "cas") is None
    branch = a.plus("Bo b")
    assert branch.find(name_key, "bob") is None and branch.find(name_key, "bo b") == "Bo b"


def test_rosters_grown_from_one_roster_at_once_each_get_their_own_names():
    base = Roster(f"P{i}" for i in range(100))
    out: dict[int, Roster] = {}
    start = threading.Barrier(8)

    def grow(k: int) -> None:
        start.wait()
        out[k] = base.plus(f"T{k}")

    threads = [threading.Thread(target=grow, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, r in out.items():
        assert tuple(r) == (*base, f"T{k}") and all(f"T{j}" not in r for j in out if j != k)
    assert len(base) == 100


def test_registering_leaves_the_state_before_as_it_was():
    state = L.start({"name": "L", "game": "braverats", "format": "swiss", "rounds": 3, "rules": {}})
    states = [state]
    for name in ("Ann", "Bob", "Cas"):
        states.append(L.apply(states[-1], "register", {"player": name}))
    assert [tuple(s.players) for s in states] == [(), ("Ann",), ("Ann", "Bob"), ("Ann", "Bob", "Cas")]
    other = L.apply(states[2], "register", {"player": "Dirk"})  # from an older state: a write retried
    assert tuple(other.players) == ("Ann", "Bob", "Dirk") and tuple(states[3].players) == ("Ann", "Bob", "Cas")
    assert L.apply(states[3], "register", {"player": "Dirk"}).players == ("Ann", "Bob", "Cas", "Dirk")
    for s in states[1:]:
        try:
            L.apply(s, "register", {"player": "Ann"})
        except Exception as exc:
            assert "registered already" in str(exc)
        else:
            raise AssertionError("Ann twice")
    # a state given its players as a tuple keeps them as a Roster, equal to the one the reducer made
    assert L.LeagueState(name="L", game="braverats", format="swiss", planned_rounds=3, rules=state.rules,
                         players=("Ann", "Bob", "Cas"), pairing_system=1) == states[3]


def test_a_state_finds_the_board_of_a_match_as_its_rounds_say():
    state = L.start({"name": "L", "game": "braverats", "format": "round_robin", "rules": {}})
    for name in ("Ann", "Bob", "Cas", "Dirk"):
        state = L.apply(state, "register", {"player": name})
    state = L.apply(state, "pair", L.next_pairing(state))
    before = state
    for board, players in ((2, state.rounds[0].boards[1].players), (1, state.rounds[0].boards[0].players)):
        state = L.apply(state, "link", {"round": 1, "board": board, "match": f"m{board}", "players": list(players)})
    assert state.board_of("m1") == (1, 1) and state.board_of("m2") == (1, 2) and state.board_of("m3") is None
    assert before.board_of("m1") is None  # linked after it
    every = {b.match: (r.number, i + 1) for r in state.rounds for i, b in enumerate(r.boards) if b.match}
    assert every == {m: state.board_of(m) for m in every}
    other = L.apply(before, "link", {"round": 1, "board": 1, "match": "x",
                                     "players": list(before.rounds[0].boards[0].players)})
    assert other.board_of("x") == (1, 1) and other.board_of("m2") is None and state.board_of("x") is None


def test_a_rounds_boards_change_one_at_a_time_and_the_old_ones_stay():
    for n in (0, 1, 63, 64, 65, 130):
        boards = tuple(L.Board(players=(f"a{i}", f"b{i}")) for i in range(n))
        kept = L.Boards(boards)
        assert kept == boards and boards == kept and len(kept) == n and list(kept) == list(boards)
        assert hash(kept) == hash(boards) and kept[0:3] == boards[0:3]
        for i in (0, n // 2, n - 1) if n else ():
            changed = kept.replaced(i, L.Board(players=("x", "y"), match="m"))
            assert changed[i].match == "m" and changed[i - n].match == "m" and kept[i].match is None
            assert [b for j, b in enumerate(changed) if j != i] == [b for j, b in enumerate(boards) if j != i]
            assert changed != kept and kept == boards
        try:
            kept.replaced(n, boards[0] if n else L.Board(players=("x", "y")))
        except IndexError:
            pass
        else:
            raise AssertionError("past the last board")
    assert L.Round(number=1, boards=(L.Board(players=("a", "b")),)).boards == (L.Board(players=("a", "b")),)
