"""The pages' server side (no browser): ``GET /`` is the home page with the
public lists and a link to the API docs; every page is HTML that loads only
the app's own assets (nothing from another host); ``legal-moves`` names the
chance outcome due, never its data. The browser tests are tests/test_web.py."""

from __future__ import annotations

import re

import pytest

from service.web import i18n
from engine import match as M


def test_home_is_a_page_with_the_games_matches_leagues_and_the_api_docs(client, anon):
    m = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()
    league = client.post("/api/leagues", json={"name": "Club cup", "game": "braverats", "format": "round_robin",
                                               "players": ["Ann", "Bob", "Cy"]}).get_json()
    r = anon.get("/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert 'href="/api/docs"' in html and "Sir Tommy voor twee" in html and "Twaalven en veertienen" in html
    assert f'href="/matches/{m["id"]}"' in html and f'href="/leagues/{league["id"]}"' in html
    assert anon.get("/api").get_json()["pages"] == "/"


@pytest.mark.parametrize("path", ["/", "/record", "/matches/{m}", "/matches/{m}/review", "/leagues", "/leagues/{l}",
                                  "/games/ridder_toernooi/card-sets/new", "/games/catan-troje/boards/new"])
def test_every_page_loads_only_its_own_assets(client, anon, path):
    m = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    l = client.post("/api/leagues", json={"name": "Cup", "game": "braverats", "format": "round_robin",
                                          "players": ["Ann", "Bob"]}).get_json()["id"]
    html = anon.get(path.format(m=m, l=l)).get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css|svg))"', html)
    assert re.search(r'<link rel="icon" href="/assets/[^"]+\.svg"', html)  # no /favicon.ico 404 in the console
    assert assets and all(a.startswith("/assets/") for a in assets), assets
    assert "//" not in "".join(assets)  # no CDN: the pages work offline with the server
    for asset in assets:
        r = anon.get(asset)
        assert r.status_code == 200 and len(r.data) > 100, asset


def test_the_data_editor_is_there_for_each_kind_of_a_game_and_only_those(anon):
    """/games/<game>/<kind>/new for every data kind a game declares, in the
    page's language; any other game or kind is a 404."""
    from engine import all_games
    from engine.game_data import data_kinds

    kinds = [(g.id, k, dk) for g in all_games() for k, dk in data_kinds(g).items()]
    assert {k for _, k, _ in kinds} >= {"card-sets", "boards", "ship-tiles"}
    for game_id, kind, dk in kinds:
        html = anon.get(f"/games/{game_id}/{kind}/new").get_data(as_text=True)
        assert f"Enter a {dk.title}" in html and f'data-kind="{kind}"' in html and f'data-option="{dk.option}"' in html
        dutch = anon.get(f"/games/{game_id}/{kind}/new", headers={"Accept-Language": "nl"}).get_data(as_text=True)
        assert f"Een {i18n.language('nl').gettext(dk.title)} invoeren" in dutch
    assert anon.get("/games/braverats/card-sets/new").status_code == 404
    assert anon.get("/games/nope/boards/new").status_code == 404


def test_an_unknown_asset_is_a_404_and_the_api_404_stays_json(anon):
    assert anon.get("/assets/nope.js").status_code == 404
    r = anon.get("/api/nope")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"


def test_legal_moves_name_the_chance_outcome_due_but_not_its_data(client):
    m = client.post("/api/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]}).get_json()
    due = client.get(f"/api/matches/{m['id']}/legal-moves").get_json()
    assert due["to_act"] == ["chance"] and due["chance"] == [{"type": "deal", "seat": 0}]
    braverats = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()
    assert client.get(f"/api/matches/{braverats['id']}/legal-moves").get_json()["chance"] == []


def test_chance_due_follows_the_game_and_ends_with_the_match():
    ms = M.start(M.make_setup("stapelen", ["Ann", "Bob"]))
    assert M.chance_due(ms) == [{"type": "deal", "seat": None}]
    ms = M.apply_event(ms, 2, "deal", None, M.normalize_event(ms, "deal", None, {"seed": 3}))
    assert M.chance_due(ms) == []  # the players are to move


def test_home_names_games_and_counts_in_words(client, anon):
    """Issue 19's smaller defects on the home page: a match is listed under its game's name, not its id
    (``ridder_toernooi:``); "1 event" and "1 round", not "1 events"; Troje is for "4 or 6 players", not "4–6"."""
    m = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"]}).get_json()
    html = anon.get("/").get_data(as_text=True)
    row = re.search(rf'<li><a href="/matches/{m["id"]}"[^>]*>(.*?)</a>\s*<span class="muted">([^<]*)</span>', html)
    assert row, "the match is listed"
    assert re.sub(r"<[^>]+>", "", row.group(1)).startswith("Ridder-toernooi (Ritter ohne Furcht und Tadel): Ann") and "ridder_toernooi" not in row.group(1)
    assert row.group(2) == "in progress, 1 event"
    troje = re.search(r'data-player-counts="4,6">([^<]*)<', html)
    assert troje and troje.group(1) == "4 or 6 players"
    client.post("/api/leagues", json={"name": "Cup", "game": "braverats", "format": "swiss", "rounds": 3,
                                      "players": ["Ann", "Bob", "Cy", "Di"]})
    assert "BraveRats, swiss, 0 rounds paired" in anon.get("/").get_data(as_text=True)


def test_every_option_of_every_game_has_a_title_in_words():
    """A page labels an option (a checkbox above all) with its title, never with its key
    (``musician_cancels_lasting_powers``); the description stays its help text."""
    from engine import all_games

    for g in all_games():
        for key, prop in g.options_schema["properties"].items():
            title = prop.get("title", "")
            assert title and "_" not in title and title != key, (g.id, key)
            assert prop.get("description"), (g.id, key)
