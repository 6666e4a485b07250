"""Troubadour through the HTTP API against a real Redis: a physical recording
in which an impossible card is refused with its reason and the stream stays as
it was; the log filtered per seat; a simulated match drawn by the server."""

import engine.troubadour  # noqa: F401  (registers the game until engine/__init__.py imports it)


def _post(client, mid, type_, seat=None, data=None):
    return client.post(f"/api/matches/{mid}/events", json={"type": type_, "seat": seat, "data": data or {}})


def test_physical_recording_refuses_an_impossible_card_and_keeps_the_stream(client):
    res = client.post("/api/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    assert _post(client, mid, "deal", 0, {"face_up": ["AS", "2H", "3C", "4D", "5S"]}).status_code == 201
    assert _post(client, mid, "deal", None, {"face_up": ["harten 7", "7♠", "8D", "9C", "10H"]}).status_code == 201
    assert _post(client, mid, "choose", 1, {"nobles": ["klaver boer", "QC", "KC"]}).status_code == 201
    # Ann (seat 0) and the public do not see Bob's choice in the log yet; Bob does
    seen = client.get(f"/api/matches/{mid}/events", query_string={"seat": 0}).get_json()["events"]
    assert seen[-1]["data"]["nobles"] is None and seen[-1]["redacted"] is True
    own = client.get(f"/api/matches/{mid}/events", query_string={"seat": 1}).get_json()["events"]
    assert own[-1]["data"]["nobles"] == ["JC", "QC", "KC"]
    assert _post(client, mid, "choose", 0, {"nobles": ["JS", "QS", "KS"]}).status_code == 201
    assert _post(client, mid, "turn_over", 0, {}).status_code == 201
    before = client.get(f"/api/matches/{mid}/events", query_string={"seat": "referee"}).get_json()["events"]
    res = _post(client, mid, "flip", None, {"card": "AS"})  # Ann's ace of spades lies face up in village 1
    assert res.status_code == 422
    err = res.get_json()["error"]
    assert err["rule"] == "troubadour.unseen_card" and "face up in village 1" in err["message"] and err["rule_text"]
    after = client.get(f"/api/matches/{mid}/events", query_string={"seat": "referee"}).get_json()["events"]
    assert after == before
    assert _post(client, mid, "flip", None, {"card": "AD"}).status_code == 201
    body = _post(client, mid, "build", 0, {"card": "AD", "to": "kasteel"}).get_json()
    assert body["state"]["players"][0]["castles"]["D"] == "AD"
    assert client.get(f"/api/matches/{mid}/audit").get_json()["valid"] is True
    review = client.get(f"/api/matches/{mid}/review").get_json()["steps"]
    assert "chooses three nobles in secret" in review[3]["summary"]


def test_a_simulated_match_draws_the_cards_itself(client):
    res = client.post("/api/matches", json={"game": "troubadour", "players": ["Ann", "Bob", "Cas"], "mode": "simulated", "seed": 7})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    state = client.get(f"/api/matches/{mid}/state").get_json()
    assert state["phase"] == "choose" and all(len(v) == 3 for p in state["players"] for v in p["villages"])
    moves = client.get(f"/api/matches/{mid}/legal-moves", query_string={"seat": 0}).get_json()["moves"]
    assert len(moves) == 220
