"""The API speaks the reader's language (issue 35): ``Accept-Language`` or ``?lang=`` choose Dutch for what the
engines say (descriptions, end lines, refusals, rules, option and data help, the worker's notes), English
stays the default, and the Dutch comes from the same catalogue as the pages' (engine/text.py)."""

from __future__ import annotations

import pytest

from engine.text import Text, from_json, say, say_n, to_json
from service.web.i18n import language

NL = {"Accept-Language": "nl-NL,nl;q=0.9"}


def create(client, **body):
    res = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"], **body})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


def rnd(client, mid, red, blue, headers=None):
    return client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": [red, blue]}},
                       headers=headers or {})


# -- the messages themselves ------------------------------------------------------------------------


def test_a_message_is_said_in_each_language_with_its_values_said_too():
    dutch = language("nl")
    line = say("{name} wins {n} rounds", name=say("{name} ({colour})", name="Ann", colour=say("Red")), n=2)
    assert str(line) == "Ann (Red) wins 2 rounds"
    assert line.render(dutch) == "Ann (Rood) wint 2 ronden"
    # plurals by Babel's rule for the language; numbers as the language writes them
    assert say_n(1, "{n} unseen card", "{n} unseen cards").render(dutch) == "1 ongeziene kaart"
    assert say_n(1000, "{n} unseen card", "{n} unseen cards").render(dutch) == "1.000 ongeziene kaarten"
    assert say_n(1000, "{n} unseen card", "{n} unseen cards").render() == "1000 unseen cards"
    # a proper name is never translated, even one that is a word of the catalogue
    assert say("{name} ({colour})", name="Red", colour=say("Red")).render(dutch) == "Red (Rood)"


def test_a_message_kept_as_json_reads_back_as_the_same_message():
    line = say_n(3, "{n} round on hold", "{n} rounds on hold")
    nested = say("{first}; {then}", first=line, then=say("{name} wins the round", name="Bob"))
    for text in (line, nested):
        assert from_json(to_json(text)) == text and isinstance(from_json(to_json(text)), Text)
        assert from_json(to_json(text)).render(language("nl")) == text.render(language("nl"))


# -- the API ----------------------------------------------------------------------------------------


def test_a_refusal_names_its_rule_in_dutch_when_asked_and_in_english_by_default(client):
    mid = create(client)
    assert rnd(client, mid, "prince", "spy").status_code == 201
    english = rnd(client, mid, "prince", "spy").get_json()["error"]
    assert english["rule"] == "braverats.card_in_hand"
    assert english["message"].startswith("Ann (Red) has no Prince left in hand; the cards still in Ann's hand are ")
    assert english["message"].endswith(" (Ann played the Prince in round 1)")
    assert english["rule_text"].startswith("A player can only play a card that is still in his hand")
    for asked in ({"headers": NL}, {"query_string": {"lang": "nl"}}):
        res = client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["prince", "spy"]}},
                          **asked)
        assert res.status_code == 422
        dutch = res.get_json()["error"]
        assert dutch["rule"] == english["rule"] and dutch["code"] == english["code"]
        assert dutch["message"].startswith("Ann (Rood) heeft geen Prins meer in de hand; de kaarten die Ann nog in de "
                                           "hand heeft: Muzikant, Prinses, Spion, Sluipmoordenaar")
        assert dutch["message"].endswith(" (Ann speelde de Prins in ronde 1)")
        assert dutch["rule_text"].startswith("Een speler kan alleen een kaart spelen die nog in zijn hand is")
    # a malformed move too, with the field it names
    bad = client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["prins", "koning"]}},
                      headers=NL).get_json()["error"]
    assert bad["field"] == "cards[1]" and bad["message"].startswith("cards[1]: onbekende kaart 'koning'; de kaarten zijn ")


def test_lang_must_be_one_the_api_speaks(client):
    mid = create(client)
    res = client.get(f"/api/matches/{mid}/review", query_string={"lang": "fr"})
    assert res.status_code == 400
    error = res.get_json()["error"]
    assert error["field"] == "lang" and "en, nl" in error["message"]
    # an Accept-Language it does not speak is not an error: English
    assert client.get(f"/api/matches/{mid}/review", headers={"Accept-Language": "fr"}).get_json()["steps"][0][
        "summary"] == "Setup: BraveRats for Ann, Bob (physical)"


def test_the_review_the_end_line_and_the_workers_notes_in_dutch(client, store):
    from workers.jobs import validate_log

    mid = create(client)
    for red, blue in [("prince", "spy"), ("musician", "assassin"), ("general", "wizard"), ("spy", "ambassador"),
                      ("princess", "prince")]:
        assert rnd(client, mid, red, blue).status_code == 201
    validate_log(store, mid)
    english = client.get(f"/api/matches/{mid}").get_json()["result"]
    dutch = client.get(f"/api/matches/{mid}", headers=NL).get_json()["result"]
    assert english["reason"] == "Ann (Red)'s Princess caught Bob (Blue)'s Prince in round 5"
    assert dutch == {**english, "reason": "de Prinses van Ann (Rood) ving de Prins van Bob (Blauw) in ronde 5"}
    # the table's state says its end line and each round's why in the reader's language too (the record page's
    # "Afgelopen:" line)
    for headers, result in ((NL, dutch), ({}, english)):
        state = client.get(f"/api/matches/{mid}/state", headers=headers).get_json()
        assert state["result"] == result
    # the list of matches (the home page's) kept the reason as its message: said in the reader's language too
    for headers, result in ((NL, dutch), ({}, english)):
        listed = client.get("/api/matches", headers=headers).get_json()["matches"]
        assert next(m for m in listed if m["id"] == mid)["result"] == result
    why = [r["why"] for r in client.get(f"/api/matches/{mid}/state", headers=NL).get_json()["rounds"]]
    assert why[0] == "de Prins wint de ronde" and why[2].startswith("de Tovenaar negeert de Generaal")
    steps = client.get(f"/api/matches/{mid}/review", query_string={"lang": "nl"}).get_json()["steps"]
    assert steps[0]["summary"] == "Opzet: BraveRats voor Ann, Bob (fysiek)"
    assert steps[1]["summary"] == ("Ronde 1: Ann (Rood) Prins tegen Bob (Blauw) Spion — de Prins wint de ronde"
                                   ": Ann wint de ronde; Ann speelt de volgende ronde eerst (Spion)")
    assert steps[3]["summary"].startswith("Ronde 3: Ann (Rood) Generaal tegen Bob (Blauw) Tovenaar — de Tovenaar "
                                          "negeert de Generaal: alleen de waarden tellen; ")
    # the worker's note was kept as a message: said in Dutch now, in English to another reader
    notes = [a for a in steps[1]["annotations"] if a["source"] == "worker"]
    assert notes and notes[0]["text"] == steps[1]["summary"]
    english_steps = client.get(f"/api/matches/{mid}/review").get_json()["steps"]
    assert [a["text"] for a in english_steps[1]["annotations"] if a["source"] == "worker"] == \
        [english_steps[1]["summary"]]
    assert english_steps[1]["summary"].startswith("Round 1: Ann (Red) Prince vs Bob (Blue) Spy — the Prince wins")
    assert [s["summary_nl"] for s in english_steps] == [s["summary"] for s in steps]


def test_a_game_its_options_data_and_rules_in_dutch(anon):
    english = anon.get("/api/games/braverats").get_json()
    dutch = anon.get("/api/games/braverats", headers=NL).get_json()
    assert dutch["options"]["properties"]["princess_attack_seat"]["description"] == \
        "Variant F: de speler die zijn Prins ruilt tegen de Prinses van de ander."
    assert english["options"]["properties"]["princess_attack_seat"]["description"] == \
        "Variant F: the seat that gives up its Prince for the other's Princess."
    assert dutch["event_types"]["play"]["schema"]["properties"]["card"]["description"].startswith("een kaart: muzikant")
    assert dutch["rules"]["braverats.spy_order"].startswith("Volgorde na een Spion")
    assert dutch["summary"].startswith("Twee rattenclans") and english["summary"].startswith("Two rat clans")
    assert anon.get("/api/games", headers=NL).get_json()["games"] == \
        [g | {"summary": anon.get(f"/api/games/{g['id']}", headers=NL).get_json()["summary"]}
         for g in anon.get("/api/games", headers=NL).get_json()["games"]]
    # what is the same in both languages stays the same
    assert dutch["aliases"] == english["aliases"] and dutch["player_counts"] == english["player_counts"]
    # a game's own data (a club's boards, card sets, ship tiles): what it is, in the reader's language
    for game, kind in (("catan", "boards"), ("ridder_toernooi", "card-sets"), ("catan-troje", "ship-tiles")):
        en = anon.get(f"/api/games/{game}").get_json()["data_kinds"][kind]
        nl = anon.get(f"/api/games/{game}", headers=NL).get_json()["data_kinds"][kind]
        assert "format kroniek." in en["description"] and "kroniek." not in nl["description"], nl
        assert nl["title"] != en["title"] and "_" not in nl["title"]  # what one document is called
        assert {**nl, "description": en["description"], "default": en["default"], "title": en["title"]} == en


@pytest.mark.parametrize("seat", ["referee", None])
def test_a_hidden_move_is_named_in_dutch_never_shown(client, seat):
    mid = create(client, options={"variants": ["B"]})
    ms = client.application.extensions["kroniek"].current(mid)
    draw = ms.game.chance_outcome(ms.state, __import__("random").Random(0)).to_dict()
    assert client.post(f"/api/matches/{mid}/events", json=draw).status_code == 201
    query = {"lang": "nl", **({"seat": seat} if seat else {})}
    line = client.get(f"/api/matches/{mid}/review", query_string=query).get_json()["steps"][1]["summary"]
    if seat is None:
        assert line == "Kaarten trekken (verborgen in deze weergave)"
    else:
        assert line == "Elke speler trekt 3 kaarten van zijn trekstapel"


def test_a_refused_catan_move_and_a_refused_troje_move_in_dutch_when_asked(client):
    res = client.post("/api/matches", json={"game": "catan", "players": ["Ann", "Bob", "Cas"]})
    assert res.status_code == 201, res.get_json()
    catan = res.get_json()["id"]
    assert client.post(f"/api/matches/{catan}/events", json={"type": "build_settlement", "seat": 0,
                                                             "data": {"vertex": 0}}).status_code == 201
    move = {"type": "build_settlement", "seat": 0, "data": {"vertex": 20}}
    english = client.post(f"/api/matches/{catan}/events", json=move).get_json()["error"]
    dutch = client.post(f"/api/matches/{catan}/events", json=move, headers=NL).get_json()["error"]
    assert english["rule"] == dutch["rule"] == "catan.setup_order"
    assert english["message"] == "in the set-up Ann places a road now"
    assert dutch["message"] == "in de opbouw bouwt Ann nu een straat"
    assert english["rule_text"].startswith("Set-up (opbouw): each player places one settlement")
    assert dutch["rule_text"].startswith("Opbouw: elke speler bouwt in volgorde vanaf de startspeler één dorp")
    # a place is named as the board's drawing names it, in the reader's words
    road = {"type": "build_road", "seat": 0, "data": {"edge": 200}}
    assert client.post(f"/api/matches/{catan}/events", json=road, headers=NL).get_json()["error"]["message"] == \
        "geen pad 200: dit spelbord heeft 0–71"

    res = client.post("/api/matches", json={"game": "catan-troje", "players": ["Ann", "Bob", "Cas", "Dirk"],
                                            "options": {"allegiances": "at_reveal"}})
    assert res.status_code == 201, res.get_json()
    troje = res.get_json()["id"]
    move = {"type": "donate", "seat": 0, "data": {"cards": {"wool": 1}}}
    english = client.post(f"/api/matches/{troje}/events", json=move).get_json()["error"]
    dutch = client.post(f"/api/matches/{troje}/events", json=move, headers=NL).get_json()["error"]
    assert english["rule"] == dutch["rule"] == "troje.donate"
    assert english["message"] == "no donation now (now: placing a settlement in the set-up)"
    assert dutch["message"] == "nu geen afdragen (nu: een dorp bouwen in de opbouw)"
    assert english["rule_text"].startswith("To support his city a player may, once during his trade and build phase")
    assert dutch["rule_text"].startswith("Om zijn stad te steunen mag een speler één keer tijdens zijn handels- en")
    # a sea tile as the board's drawing numbers it
    ship = {"type": "build_ship", "seat": 0, "data": {"tile": 999}}
    assert client.post(f"/api/matches/{troje}/events", json=ship, headers=NL).get_json()["error"]["message"].startswith(
        "geen zeetegel #999: dit spelbord heeft #0–#")


def test_catan_and_troje_help_in_dutch(anon):
    for game, option, words in (("catan", "discard_limit", "Bij een 7 legt een speler met meer kaarten"),
                                ("catan-troje", "stack_draws", "De voordelen ruilen en trekken")):
        english = anon.get(f"/api/games/{game}").get_json()
        dutch = anon.get(f"/api/games/{game}", headers=NL).get_json()
        assert dutch["options"]["properties"][option]["description"].startswith(words)
        assert dutch["summary"].startswith("Het ") and english["summary"].startswith("The ")
        assert dutch["data_kinds"]["boards"]["default"] != english["data_kinds"]["boards"]["default"]
