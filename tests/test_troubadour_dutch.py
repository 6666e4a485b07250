"""Troubadour speaks the reader's language (issue 35): with ``Accept-Language: nl`` the API gives the review's
lines, a refusal, the end line, the rules and the help of the options and events in the Dutch rules text's
words (dorp, kasteel, raapstapel, draaistapel, "de schoppen boer"), and in English without it. Cards are named
by suit symbol and rank (♠A), never by their ids."""

from __future__ import annotations

import engine.troubadour  # noqa: F401  (registers the game)

NL = {"Accept-Language": "nl-NL,nl;q=0.9"}


def _post(client, mid, type_, seat=None, data=None, headers=None):
    return client.post(f"/api/matches/{mid}/events", json={"type": type_, "seat": seat, "data": data or {}},
                       headers=headers or {})


def _started(client) -> str:
    res = client.post("/api/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    assert _post(client, mid, "deal", 0, {"face_up": ["AS", "2H", "3C", "4D", "5S"]}).status_code == 201
    assert _post(client, mid, "deal", None, {"face_up": ["7H", "7S", "8D", "9C", "10H"]}).status_code == 201
    assert _post(client, mid, "choose", 1, {"nobles": ["JC", "QC", "KC"]}).status_code == 201
    assert _post(client, mid, "choose", 0, {"nobles": ["JS", "QD", "KD"]}).status_code == 201
    assert _post(client, mid, "turn_over", 0, {}).status_code == 201
    return mid


def test_a_refusal_in_dutch_when_asked_and_in_english_by_default(client):
    mid = _started(client)
    english = _post(client, mid, "flip", None, {"card": "AS"}).get_json()["error"]
    dutch = _post(client, mid, "flip", None, {"card": "AS"}, headers=NL).get_json()["error"]
    assert english["rule"] == dutch["rule"] == "troubadour.unseen_card"
    assert english["message"].startswith("♠A cannot come from Ann's draw pile: it is face up in village 1; the next "
                                         "card can be any of the ")
    assert dutch["message"].startswith("♠A kan niet van de draaistapel van Ann komen: die ligt open in dorp 1; de "
                                       "volgende kaart kan elk van de ")
    assert english["rule_text"].startswith("A card the table turns face up")
    assert dutch["rule_text"].startswith("Een kaart die aan tafel wordt omgedraaid")
    # a noble where a building card belongs, by its name in each language
    noble = _post(client, mid, "flip", None, {"card": "QH"}, headers=NL).get_json()["error"]
    assert noble["message"] == "de harten vrouw is een edele; de stapels en dorpen hebben alleen bouwkaarten, aas tot tien"
    # a malformed move too
    bad = _post(client, mid, "flip", None, {"card": "joker"}, headers=NL).get_json()["error"]
    assert bad["message"].startswith("card: 'joker' is geen kaart; schrijf bijvoorbeeld")


def test_the_review_in_dutch_and_in_english(client):
    mid = _started(client)
    assert _post(client, mid, "flip", None, {"card": "AD"}).status_code == 201
    assert _post(client, mid, "build", 0, {"card": "AD", "to": "castle"}).status_code == 201
    assert _post(client, mid, "build", 0, {"card": "AS", "to": "castle"}).status_code == 201
    dutch = [s["summary"] for s in client.get(f"/api/matches/{mid}/review", headers=NL).get_json()["steps"]]
    english = [s["summary"] for s in client.get(f"/api/matches/{mid}/review").get_json()["steps"]]
    assert english[1:] == [
        "Ann's five villages are dealt, face up on top: ♠A, ♥2, ♣3, ♦4, ♠5",
        "Bob's five villages are dealt, face up on top: ♥7, ♠7, ♦8, ♣9, ♥10",
        "Bob chooses three nobles in secret",
        "Ann chooses three nobles in secret; turn order Ann, Bob",
        "Ann turns over a card (standard turn-over)",
        "Ann turns up ♦A",
        "Ann builds ♦A from the discard pile to start the diamonds castle",
        "Ann builds ♠A from village 1 to start the spades castle",
    ]
    assert dutch[1:] == [
        "De vijf dorpen van Ann zijn klaargelegd, open bovenop: ♠A, ♥2, ♣3, ♦4, ♠5",
        "De vijf dorpen van Bob zijn klaargelegd, open bovenop: ♥7, ♠7, ♦8, ♣9, ♥10",
        "Bob kiest in het geheim drie edelen",
        "Ann kiest in het geheim drie edelen; beurtvolgorde Ann, Bob",
        "Ann draait een kaart om (standaardkaartdraai)",
        "Ann draait ♦A om",
        "Ann bouwt ♦A van de raapstapel om het ruitenkasteel te beginnen",
        "Ann bouwt ♠A van dorp 1 om het schoppenkasteel te beginnen",
    ]


def test_the_game_its_options_events_and_rules_in_dutch(anon):
    english = anon.get("/api/games/troubadour").get_json()
    dutch = anon.get("/api/games/troubadour", headers=NL).get_json()
    assert english["summary"].startswith("Double patience") and dutch["summary"].startswith("Dubbel patience")
    assert dutch["options"]["properties"]["turn_order"]["description"] == (
        "Met drie of vier spelers: iedereen speelt in de volgorde van de gekozen edelen, de laagste eerst; of de "
        "laagste begint en de beurt gaat met de klok mee.")
    assert english["options"]["properties"]["turn_order"]["description"].startswith("With three or four players")
    for said in (english, dutch):  # help a player reads: no option ids, no rule codes, no JSON jargon
        for prop in said["options"]["properties"].values():
            assert not any(word in prop["description"] for word in ("tie_break", "(true)", "(false)", "[]", "R1"))
        for event in said["event_types"].values():
            text = event["description"]
            assert not any(word in text for word in ("turn_top", "turn_up", "hearts_jack", "clubs_jack", "tie_break",
                                                     "extra_card", "flip"))
    assert dutch["event_types"]["build"]["description"].startswith("Een open kaart (van de raapstapel of uit een dorp)")
    assert dutch["rules"]["troubadour.castle_start"] == "Een kasteel begint met een aas [4]."
    assert english["rules"]["troubadour.castle_start"] == "A castle (kasteel) starts with an ace (aas) [4]."
