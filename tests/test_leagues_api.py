"""Leagues through the API, against a real Redis: a round robin played with
real BraveRats matches, a Swiss league run with forfeits, and the rules that
keep standings honest."""

import csv
import io
import random

import pytest

from leagues import league as L
from tests.support.tamper import rewrite_entry
from workers.jobs import validate_log

ROUNDS = [("prince", "spy"), ("general", "assassin"), ("ambassador", "musician"), ("wizard", "wizard"),
          ("spy", "princess"), ("musician", "general"), ("assassin", "ambassador"), ("princess", "prince")]


def post(client, url, body=None, status=201):
    res = client.post(url, json=body or {})
    assert res.status_code == status, res.get_json()
    return res.get_json()


def play_board(client, store, league_id, round_no, board):
    """A board's match started, played to its end, validated and its result entered; the match."""
    mid = post(client, f"/api/leagues/{league_id}/rounds/{round_no}/boards/{board}/match")["id"]
    play_to_the_end(client, mid)
    assert validate_log(store, mid)["status"] == "valid"
    post(client, f"/api/leagues/{league_id}/results", {"match": mid})
    return mid


def play_to_the_end(client, match_id):
    for red, blue in ROUNDS:
        body = post(client, f"/api/matches/{match_id}/events", {"type": "round", "data": {"cards": [red, blue]}})
        if body["status"] == "finished":
            return
    raise AssertionError("the match did not finish")


@pytest.mark.rule("league.pair", "league.result", "league.link")
def test_round_robin_played_with_validated_matches(client, store):
    lg = post(client, "/api/leagues", {"name": "Club", "game": "braverats", "format": "round_robin",
                                        "players": ["Ann", "Bob", "Cas", "Dirk"]})
    assert lg["total_rounds"] == 3
    lid = lg["id"]
    for round_no in (1, 2, 3):
        paired = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
        for board in paired["boards"]:
            match = post(client, f"/api/leagues/{lid}/rounds/{round_no}/boards/{board['board']}/match")
            assert match["players"] == board["players"]
            play_to_the_end(client, match["id"])
            # Not validated yet: the result cannot enter the standings.
            err = post(client, f"/api/leagues/{lid}/results", {"match": match["id"]}, status=422)["error"]
            assert err["rule"] == "league.result" and "validated" in err["message"]
            validate_log(store, match["id"])
            post(client, f"/api/leagues/{lid}/results", {"match": match["id"]})
    lg = client.get(f"/api/leagues/{lid}").get_json()
    assert lg["finished"] is True
    # Everyone met everyone once (Berger tables).
    met = {frozenset(b["players"]) for r in lg["rounds"] for b in r["boards"]}
    assert len(met) == 6
    standings = client.get(f"/api/leagues/{lid}/standings").get_json()["standings"]
    assert sum(s["games"] for s in standings) == 12 and sum(s["wins"] + s["draws"] / 2 for s in standings) == 6
    table = list(csv.reader(io.StringIO(client.get(f"/api/leagues/{lid}/standings?format=csv").get_data(as_text=True))))
    assert table[0][:3] == ["rank", "player", "points"] and len(table) == 5
    assert client.get(f"/api/leagues/{lid}/audit").get_json()["valid"] is True


@pytest.mark.rule("league.register", "league.pair")
def test_registration_closes_and_rounds_wait_for_results(client):
    lid = post(client, "/api/leagues", {"name": "L", "game": "braverats", "format": "round_robin",
                                         "players": ["A", "B", "C"]})["id"]
    post(client, f"/api/leagues/{lid}/players", {"player": "A"}, status=422)
    post(client, f"/api/leagues/{lid}/rounds")
    assert post(client, f"/api/leagues/{lid}/players", {"player": "D"}, status=422)["error"]["rule"] == "league.register"
    assert post(client, f"/api/leagues/{lid}/rounds", status=422)["error"]["rule"] == "league.pair"


@pytest.mark.rule("league.forfeit", "league.rounds")
def test_swiss_league_with_forfeits_pairs_legally_every_round(client):
    players = [f"P{i}" for i in range(9)]
    lid = post(client, "/api/leagues", {"name": "Swiss", "game": "braverats", "format": "swiss", "rounds": 5,
                                         "players": players})["id"]
    rng = random.Random(4)
    seen = set()
    for round_no in range(1, 6):
        rnd = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
        assert rnd["bye"] is not None  # nine players: one bye a round
        for board in rnd["boards"]:
            pair = frozenset(board["players"])
            assert pair not in seen, "a rematch"
            seen.add(pair)
            loser = rng.choice(board["players"])
            post(client, f"/api/leagues/{lid}/forfeits",
                 {"round": round_no, "board": board["board"], "forfeited": [loser], "reason": "did not show"})
    assert post(client, f"/api/leagues/{lid}/rounds", status=422)["error"]["rule"] == "league.rounds"
    byes = [r["bye"] for r in client.get(f"/api/leagues/{lid}").get_json()["rounds"]]
    assert len(set(byes)) == 5
    res = client.post(f"/api/leagues/{lid}/forfeits", json={"round": 1, "board": 1, "forfeited": ["P0"], "reason": ""})
    assert res.status_code == 400


@pytest.mark.rule("league.pair")
def test_a_pairing_other_than_the_systems_is_refused():
    state = L.start({"name": "x", "game": "braverats", "format": "round_robin"})
    for p in "ABCD":
        state = L.apply(state, "register", {"player": p})
    good = L.next_pairing(state)
    forged = {**good, "boards": [list(reversed(good["boards"][0])), good["boards"][1]]}
    with pytest.raises(Exception) as err:
        L.apply(state, "pair", forged)
    assert getattr(err.value, "rule", None) == "league.pair"
    assert L.apply(state, "pair", good).rounds[0].boards[0].players == tuple(good["boards"][0])


@pytest.mark.rule("league.withdraw", "league.correction")
def test_withdrawal_and_correction(client):
    lid = post(client, "/api/leagues", {"name": "W", "game": "braverats", "format": "swiss", "rounds": 2,
                                         "players": ["A", "B", "C", "D"]})["id"]
    rnd = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][0]
    for board in rnd["boards"]:
        post(client, f"/api/leagues/{lid}/forfeits",
             {"round": 1, "board": board["board"], "forfeited": [board["players"][1]], "reason": "late"})
    post(client, f"/api/leagues/{lid}/withdrawals", {"player": "A"})
    assert post(client, f"/api/leagues/{lid}/withdrawals", {"player": "A"}, status=422)["error"]["rule"] == "league.withdraw"
    rnd2 = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][1]
    assert "A" not in {p for b in rnd2["boards"] for p in b["players"]}


def test_a_tampered_league_result_is_caught_by_the_audit(client, store):
    lid = post(client, "/api/leagues", {"name": "T", "game": "braverats", "format": "round_robin",
                                         "players": ["A", "B"]})["id"]
    post(client, f"/api/leagues/{lid}/rounds")
    post(client, f"/api/leagues/{lid}/forfeits", {"round": 1, "board": 1, "forfeited": ["A"], "reason": "ill"})
    leagues_store = type(store)(store.r, store.prefix, kind="l")
    events = client.get(f"/api/leagues/{lid}/events").get_json()["events"]
    seq = events[-1]["seq"]
    rewrite_entry(leagues_store, lid, seq, data={**events[-1]["data"], "forfeited": ["B"]})
    report = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert report["valid"] is False and report["first_invalid_seq"] == seq


@pytest.mark.rule("league.setup")
def test_a_league_needs_a_known_game_format_and_round_count(client):
    base = {"name": "S", "game": "braverats", "format": "swiss", "rounds": 3}
    assert client.post("/api/leagues", json={**base, "format": "knockout"}).status_code == 400
    assert client.post("/api/leagues", json={**base, "rounds": None}).status_code == 400
    assert client.post("/api/leagues", json={**base, "game": "chess"}).status_code == 404
    assert client.post("/api/leagues", json=base).status_code == 201


def test_every_league_rule_has_a_test(rules_covered):
    assert set(L.RULES) - rules_covered == set()


def test_unknown_league_is_404(client):
    assert client.get("/api/leagues/nope").status_code == 404
    assert client.post("/api/leagues/nope/rounds").status_code == 404


@pytest.mark.rule("league.link")
def test_a_forfeited_board_gets_no_match(client):
    """A match started for a board whose forfeit is in could be played and
    validated but never entered (the board has its result): it is refused at
    the start, and the league's log is unchanged."""
    lid = post(client, "/api/leagues", {"name": "F", "game": "braverats", "format": "swiss", "rounds": 2,
                                         "players": ["A", "B", "C", "D"]})["id"]
    board = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][0]["boards"][0]
    post(client, f"/api/leagues/{lid}/forfeits",
         {"round": 1, "board": board["board"], "forfeited": [board["players"][0]], "reason": "did not show"})
    before = client.get(f"/api/leagues/{lid}").get_json()
    err = post(client, f"/api/leagues/{lid}/rounds/1/boards/{board['board']}/match", status=422)["error"]
    assert err["rule"] == "league.link" and "forfeit" in err["message"]
    assert client.get(f"/api/leagues/{lid}").get_json() == before
    assert client.get(f"/api/leagues/{lid}").get_json()["rounds"][0]["boards"][0]["match"] is None


@pytest.mark.slow(8)
def test_a_league_holds_4096_players_and_pairs_them(app, client, store):
    """The cap is 4,096 players: a league's creation takes 1,000 of them (an
    array's limit: 1,001 are refused and nothing is written), the others
    register one by one up to 4,096, and the 4,097th is refused. Its first
    Swiss round (2,048 boards, a pairing past the API's array limit, made
    by the server) is stored and reads back as written: the audit finds the
    log whole, and a replay from it pairs the round again."""
    from service import limits

    assert limits.MAX_LEAGUE_PLAYERS == 4096
    names = [f"Player {i:04d}" for i in range(limits.MAX_LEAGUE_PLAYERS + 1)]
    base = {"name": "Big", "game": "braverats", "format": "swiss", "rounds": 12}
    assert client.post("/api/leagues", json={**base, "players": names[:1001]}).status_code == 400
    assert store.r.zcard(app.extensions["kroniek.leagues"].store.index_key) == 0
    lid = post(client, "/api/leagues", {**base, "players": names[:1000]})["id"]
    leagues = app.extensions["kroniek.leagues"]
    for name in names[1000:4096]:  # through the service: 3,096 HTTP requests would only test Flask
        leagues.register(lid, name)
    res = client.post(f"/api/leagues/{lid}/players", json={"player": names[4096]})
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "limit_exceeded", res.get_json()
    assert client.get(f"/api/leagues/{lid}").get_json()["players"] == names[:4096]
    paired = client.post(f"/api/leagues/{lid}/rounds")
    assert paired.status_code == 201, paired.get_json()
    boards = paired.get_json()["league"]["rounds"][0]["boards"]
    assert len(boards) == 2048 and sorted(p for b in boards for p in b["players"]) == names[:4096]
    events = client.get(f"/api/leagues/{lid}/events").get_json()["events"]
    assert len(events) == 4098 and events[-1]["type"] == "pair" and len(events[-1]["data"]["boards"]) == 2048
    assert client.get(f"/api/leagues/{lid}/audit").get_json()["valid"] is True
    assert L.replay(leagues.events(lid)) == leagues.state(lid)


def test_a_leagues_accuracy_and_luck_are_its_players_evaluations_summed_up(client, anon, store):
    """Issue 37: a BraveRats league's evaluation per player is what the analysis stored for each finished
    match, by the board's seats: accuracy the mean over the player's judged cards, luck none (no chance in
    BraveRats); a finished match not yet analysed is pending."""
    from tests.test_translog import play_to_the_end
    from workers.jobs import analyse_log

    lid = client.post("/api/leagues", json={"name": "Duel", "game": "braverats", "format": "round_robin",
                                             "players": ["Ann", "Bob", "Cor", "Dirk"]}).get_json()["id"]
    assert client.post(f"/api/leagues/{lid}/rounds").status_code == 201
    league = client.get(f"/api/leagues/{lid}").get_json()
    boards = league["rounds"][0]["boards"]
    mids = []
    for b, _ in enumerate(boards, start=1):
        mid = client.post(f"/api/leagues/{lid}/rounds/1/boards/{b}/match").get_json()["id"]
        play_to_the_end(client, mid)
        assert validate_log(store, mid)["status"] == "valid"
        assert client.post(f"/api/leagues/{lid}/results", json={"match": mid}).status_code == 201
        mids.append(mid)
    before = anon.get(f"/api/leagues/{lid}/evaluation").get_json()
    assert before["pending"] == 2 and before["players"] == [] and before["matches"] == 0
    analyse_log(store, mids[0])
    analyse_log(store, mids[1])
    got = anon.get(f"/api/leagues/{lid}/evaluation").get_json()
    assert got["pending"] == 0 and got["matches"] == 2 and got["luck_unit"] is None
    expected = {}
    for b, mid in zip(client.get(f"/api/leagues/{lid}").get_json()["rounds"][0]["boards"], mids):
        for s in store.evaluation(mid)["summary"]:
            expected[b["players"][s["seat"]]] = (s["accuracy"], s["moves"])
    by = {p["player"]: p for p in got["players"]}
    assert set(by) == {"Ann", "Bob", "Cor", "Dirk"}
    for name, (accuracy, moves) in expected.items():
        assert by[name]["accuracy"] == accuracy and by[name]["moves"] == moves and by[name]["luck"] is None
    accuracies = [p["accuracy"] for p in got["players"]]
    assert accuracies == sorted(accuracies, reverse=True)  # the most accurate first
    assert anon.get("/api/leagues/nope/evaluation").status_code == 404


def eight_players_where_round_6_needs_a_colour_rule_relaxed(client) -> str:
    """A Swiss league of 8 whose round 6 no pairing keeps C.3 for (found by search: boards decided by
    forfeit, seed 2)."""
    lid = post(client, "/api/leagues", {"name": "Eight", "game": "braverats", "format": "swiss", "rounds": 7,
                                         "players": [f"P{i}" for i in range(8)]})["id"]
    rng = random.Random(2)
    for r in range(1, 6):
        rnd = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
        for b in rnd["boards"]:
            post(client, f"/api/leagues/{lid}/forfeits", {"round": r, "board": b["board"],
                                                          "forfeited": [rng.choice(b["players"])], "reason": "x"})
    return lid


@pytest.mark.rule("league.pair")
def test_where_no_pairing_keeps_the_absolute_criteria_none_is_made_unless_the_organiser_chooses_one(client, store):
    lid = eight_players_where_round_6_needs_a_colour_rule_relaxed(client)
    before = client.get(f"/api/leagues/{lid}").get_json()["seq"]
    refused = post(client, f"/api/leagues/{lid}/rounds", status=422)["error"]
    assert refused["code"] == "no_legal_pairing" and refused["round"] == 6 and refused["relax"] == ["colour"]
    assert "No valid pairing exists for round 6" in refused["message"] and "relax=colour" in refused["message"]
    assert client.get(f"/api/leagues/{lid}").get_json()["seq"] == before  # nothing written
    assert client.post(f"/api/leagues/{lid}/rounds?relax=chaos").status_code == 400
    paired = post(client, f"/api/leagues/{lid}/rounds?relax=colour")["league"]["rounds"][-1]
    assert paired["round"] == 6 and len(paired["boards"]) == 4
    event = client.get(f"/api/leagues/{lid}/events").get_json()["events"][-1]
    assert event["type"] == "pair" and event["data"]["relaxed"] == ["colour"] and event["data"]["chosen"] == ["colour"]
    assert client.get(f"/api/leagues/{lid}/audit").get_json()["valid"] is True
    events = client.get(f"/api/leagues/{lid}/events").get_json()["events"]
    state = L.replay([{"type": e["type"], "data": e["data"]} for e in events])  # the choice replays
    assert len(state.rounds) == 6
    forged = {**event["data"], "chosen": ["rematch"]}
    with pytest.raises(Exception) as err:
        L.apply(L.replay([{"type": e["type"], "data": e["data"]} for e in events[:-1]]), "pair", forged)
    assert getattr(err.value, "rule", None) == "league.pair"
