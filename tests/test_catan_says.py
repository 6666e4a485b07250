"""Catan and Troje speak the reader's language through the API (issue 35): the review's lines, the set-up line
and the worker's notes in Dutch with Accept-Language: nl (the box's words: dorp, straat, struikrover, steen;
Troje's: zeevolk, ondersteuningsstapel, beslissingskaart), in English without it; places named as players
name them, never by coordinates or numbers."""

from __future__ import annotations

import re

from tests.test_catan_api import _record_to_the_steal
from tests.test_troje_api import ANN_DONATES, BATTLE, record_walk
from workers.jobs import validate_log

NL = {"Accept-Language": "nl-NL,nl;q=0.9"}


def review(client, mid, headers=None):
    return client.get(f"/api/matches/{mid}/review", query_string={"seat": "referee"},
                      headers=headers or {}).get_json()["steps"]


def notes(step):
    return [a["text"] for a in step["annotations"] if a.get("source") == "worker"]


def no_coordinates(steps):
    """No line names a place by its coordinates or an intersection's or path's number."""
    for s in steps:
        assert not re.search(r"\[-?\d+, -?\d+\]|(intersection|path|kruispunt|pad|tile|tegel) \d", s["summary"]), s


def test_catans_review_in_dutch_when_asked_and_in_english_by_default(client, store):
    mid = _record_to_the_steal(client, "wool", "knight")
    validate_log(store, mid)
    english, dutch = review(client, mid), review(client, mid, NL)
    no_coordinates(english + dutch)
    assert english[0]["summary"].endswith("(physical), the standard board")
    assert dutch[0]["summary"].endswith("(fysiek), het standaardbord")
    assert english[1]["summary"] == "Ann builds a settlement (set-up) on the intersection of hills 6, desert and pasture 4"
    assert dutch[1]["summary"] == "Ann bouwt een dorp (opbouw) op het kruispunt van heuvelland 6, woestijn en weiland 4"
    assert english[2]["summary"] == "Ann builds a road on the path between hills 6 and desert"
    assert dutch[2]["summary"] == "Ann bouwt een straat op het pad tussen heuvelland 6 en woestijn"
    assert dutch[11]["summary"] == ("Ann bouwt een dorp (opbouw) op het kruispunt van bos 8, heuvelland 5 en gebergte 3 "
                                    "en neemt 1 hout, 1 steen, 1 erts")
    assert english[14]["summary"] == "Dice 2+4 = 6: Ann 1 brick; Bob 1 grain; Cor 1 brick"
    assert dutch[14]["summary"] == "Worp 2+4 = 6: Ann 1 steen; Bob 1 graan; Cor 1 steen"
    assert notes(english[14]) == ["Roll 6: Ann +1; Bob +1; Cor +1"] and notes(dutch[14]) == ["Worp 6: Ann +1; Bob +1; Cor +1"]
    assert notes(dutch[15]) == ["Bouwmogelijkheden zoals de tafel ze kan zien: Bob: ontwikkelingskaart nee→ja"]
    assert dutch[19]["summary"] == "Worp 3+4 = 7: de struikrover; niemand legt af"
    assert english[20]["summary"] == "Bob moves the robber to the 6-field on hills and steals from Ann"
    assert dutch[20]["summary"] == "Bob zet de struikrover op het 6-veld op heuvelland en steelt van Ann"
    assert dutch[21]["summary"] == "Bob steelt wol van Ann"
    assert notes(dutch[21]) == ["Ann is tot nu toe 1 kaart kwijtgeraakt aan dieven en 0 aan de blokkade van de struikrover"]
    assert english[23]["summary"] == "Bob draws a development card: Knight"
    assert dutch[23]["summary"] == "Bob trekt een ontwikkelingskaart: Ridder"
    # summary_nl beside summary says the same as the Dutch answer
    assert [s["summary_nl"] for s in english] == [s["summary"] for s in dutch]


def test_trojes_review_in_dutch_when_asked_and_in_english_by_default(client, store):
    mid = record_walk(client)
    validate_log(store, mid)
    english, dutch = review(client, mid), review(client, mid, NL)
    no_coordinates(english + dutch)
    assert english[0]["summary"].endswith(", the placeholder board (not the printed one), the "
                                          "placeholder ship tiles (not the printed ones)")
    assert dutch[0]["summary"].endswith(", het voorlopige bord (niet het gedrukte), "
                                        "voorlopige scheepsfiches (niet de gedrukte)")
    assert dutch[1]["summary"] == "Ann krijgt een beslissingskaart: Troje"
    assert dutch[11]["summary"] == "Dirk bouwt een dorp (opbouw) op het kruispunt van heuvelland 10, bos 5 en de zee"
    step, stap = english[ANN_DONATES - 1], dutch[ANN_DONATES - 1]
    assert step["summary"] == "Ann donates 1 ore, 2 wool to the support stack (now 7); +1 trade point"
    assert stap["summary"] == "Ann draagt 1 erts, 2 wol af aan de ondersteuningsstapel (nu 7); +1 handelspunt"
    assert notes(stap) == ["Ann heeft tot nu toe afgedragen: Troje 3, Mykene 0, neutraal 0"]
    assert dutch[26]["summary"] == "Worp 3+4 = 7: het zeevolk; niemand legt af"
    assert english[27]["summary"] == ("Bob moves the sea people to the sea tile to the south-east of the 5-field on forest "
                                      "and draws a card from Dirk")
    assert dutch[27]["summary"] == ("Bob verplaatst het zeevolk naar de zeetegel ten zuidoosten van het 5-veld op bos "
                                    "en trekt een kaart bij Dirk")
    assert dutch[28]["summary"] == "Bob trekt graan bij Dirk (zeevolk)"
    assert dutch[29]["summary"] == "Bob draagt 3 kaarten (niet gezien) af aan de ondersteuningsstapel (nu 10); +1 handelspunt"
    assert dutch[30]["summary"] == "Bob beëindigt de beurt; de ondersteuningsstapel telt 10 kaarten: een strijd"
    step, stap = english[BATTLE - 1], dutch[BATTLE - 1]
    assert step["summary"] == ("Battle: 1 brick, 2 lumber, 2 ore, 2 wool turned up — Troy 4, Mycenae 2: Troy wins, its "
                               "marker to field 1; 3 cards stay as the next stack")
    assert stap["summary"] == ("Strijd: 1 steen, 2 hout, 2 erts, 2 wol open gelegd — Troje 4, Mykene 2: Troje wint, zijn "
                               "overwinningspunt-kaart naar veld 1; 3 kaarten blijven als volgende stapel")
    assert notes(step) == ["Before the turn-up the table could expect: Troy 46%, Mycenae 39%, a tie 14% (10 cards, 6 of "
                           "them unseen)", "Saga track after battle 1: Troy's supporters 1 VP, Mycenae's 0 VP"]
    assert notes(stap) == ["Voor het omdraaien kon de tafel verwachten: Troje 46%, Mykene 39%, gelijkspel 14% (10 "
                           "kaarten, waarvan 6 niet gezien)", "Saga-lijst na strijd 1: overwinningspunten voor de "
                           "spelers van Troje 1, voor die van Mykene 0"]
    assert [s["summary_nl"] for s in english] == [s["summary"] for s in dutch]


def test_the_result_in_dutch_when_asked():
    """The end's reason is a message too (read by the API's match answer in the reader's language)."""
    from service.web.i18n import language
    from tests.test_dutch_summaries import played

    for game_id in ("catan", "catan-troje"):
        last = None
        for seed in range(6):
            for before, type_, seat, data, after, game in played(game_id, seed):
                last = game, after
            result = last[0].result(last[1])
            if result is not None:
                break
        assert result is not None, game_id
        english, dutch = str(result.reason), result.reason.render(language("nl"))
        assert "VP" in english and "overwinningspunten" in dutch and "VP" not in dutch, (english, dutch)
