"""The pages in Dutch and English (issue 19, point 4): every page string goes
through the message catalogue (service/web/translations), Dutch is chosen by
Accept-Language or by the switch in the header (remembered in a cookie), and
the games' option titles, summaries and moves have Dutch words from their
engines. The browser pass over every page in Dutch is tests/test_web_i18n.py."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo

from engine import all_games
from engine.core import _enum_of
from service.web import i18n

WEB = Path(i18n.__file__).resolve().parent
#: the pages (tests/test_pages.py's list): {m} a match, {l} a league
PAGES = ["/", "/record", "/matches/{m}", "/matches/{m}/review", "/leagues", "/leagues/{l}",
         "/games/ridder_toernooi/card-sets/new"]
DUTCH = "nl-NL,nl;q=0.9,en;q=0.8"


def ids(message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def placeholders(text: str) -> set[str]:
    """The names a message fills in: {name} (the scripts) and %(name)s (the templates)."""
    return set(re.findall(r"\{(\w+)\}", text)) | set(re.findall(r"%\((\w+)\)[sd]", text))


@pytest.fixture(scope="module")
def marked():
    return i18n.extract()


@pytest.fixture(scope="module")
def dutch():
    return i18n.read_catalog("nl")


# -- the catalogue ----------------------------------------------------------------------------------


def test_every_marked_string_has_a_dutch_translation_with_the_same_placeholders(marked, dutch):
    assert len(marked) > 250, "the pages' strings are marked (templates, scripts, Python)"
    problems = []
    for m in marked:
        if not m.id:
            continue
        where = ", ".join(f"{f}:{n}" for f, n in m.locations[:2])
        nl = dutch.get(m.id)
        if nl is None:
            problems.append(f"not in the Dutch catalogue: {m.id!r} ({where})")
            continue
        forms = [nl.string] if isinstance(nl.string, str) else list(nl.string)
        if nl.fuzzy or not all(forms):
            problems.append(f"no Dutch translation (or a fuzzy one): {m.id!r} ({where})")
            continue
        names = set().union(*(placeholders(x) for x in ids(m)))
        for form in forms:
            if placeholders(form) - names or (len(forms) == 1 and placeholders(form) != names):
                problems.append(f"{m.id!r}: the Dutch {form!r} fills in {sorted(placeholders(form))}, not {sorted(names)}")
    assert not problems, "\n".join(problems)


def test_the_catalogue_keeps_no_message_the_pages_no_longer_use(marked, dutch):
    used = {ids(m)[0] for m in marked if m.id}
    stale = [m.id for m in dutch if m.id and ids(m)[0] not in used]
    assert not stale, f"in the catalogue but on no page (remove them): {stale}"


#: what an API client types, never a word a Dutch reader reads: an options key (``options.board_doc``), a
#: JSON document's shape (``{"colour": …}``), a snake_case id (``exclude_regions``), a format id
API_WORDS = re.compile(r'options\.|\{"|\[\.\.\.\]|\bkroniek\.[a-z]|\b[a-z]+_[a-z_]+\b')


def test_no_dutch_message_shows_an_api_identifier(dutch):
    """The engines' refusals, editor errors and help reach the pages: their Dutch names a field as the pages
    do (the error's ``field`` points the editor at it), not as the JSON document spells it."""
    shown = []
    for m in dutch:
        if not m.id:
            continue
        for form in [m.string] if isinstance(m.string, str) else list(m.string):
            words = re.sub(r"\{\w+\}|%\(\w+\)[sd]", "", form)
            if API_WORDS.search(words):
                shown.append(f"{ids(m)[0]!r} -> {form!r}")
    assert not shown, "\n".join(shown)


def test_plurals_are_one_and_many_in_both_languages(dutch):
    """K.tn (kroniek.js) takes the first form for exactly one and the second for every other count, as
    English does; the Dutch catalogue must say the same rule, or the scripts would pick the wrong form."""
    assert dutch.plural_forms == "nplurals=2; plural=(n != 1);"
    plurals = [m for m in dutch if m.id and not isinstance(m.id, str)]
    assert plurals and all(len(m.string) == 2 for m in plurals)


def test_every_k_t_call_in_the_scripts_is_seen_by_the_extractor(marked):
    """A K.t the extractor misses (one nested in another's arguments) would never be checked for a
    translation: every literal K.t / K.tn message in the scripts is among the extracted ones, and no
    K.t takes anything but a literal (a message built at run time has no entry to look up)."""
    extracted = {ids(m)[0] for m in marked if m.id}
    problems = []
    for script in sorted((WEB / "static").glob("*.js")):
        code = "\n".join(line for line in script.read_text().splitlines() if not line.lstrip().startswith(("/*", "*", "//")))
        code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
        for msg in re.findall(r'\bK\.t\("((?:[^"\\]|\\.)*)"', code) + re.findall(r'\bK\.tn\([^,()]+,\s*"((?:[^"\\]|\\.)*)"', code):
            if msg not in extracted:
                problems.append(f"{script.name}: K.t({msg!r}) is not extracted")
        problems += [f"{script.name}: a K.t of a value built at run time: {call}"
                     for call in re.findall(r'\bK\.tn?\((?!\s*")(?![^,()]+,\s*")[^)]{0,40}', code) if not call.startswith("K.t = ")]
    assert not problems, "\n".join(problems)


class TextOf(HTMLParser):
    """The text and the attributes a person reads (title, placeholder, aria-label) of a template whose
    Jinja expressions and tags were taken out."""

    ATTRS = {"title", "placeholder", "aria-label", "alt"}

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for k, v in attrs:
            if k in self.ATTRS and v:
                self.found.append(v)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.found.append(data)


#: words a page shows in every language: the product's name, the API, the names of the languages themselves
UNTRANSLATED = {"Kroniek", "API", "Nederlands", "English", "Toon de pagina's in het Nederlands", "Show the pages in English"}


@pytest.mark.parametrize("template", sorted(p.name for p in (WEB / "templates").glob("*.html") if p.name != "apidocs.html"))
def test_no_template_shows_a_word_outside_gettext(template):
    source = (WEB / "templates" / template).read_text()
    bare = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", source, flags=re.S)
    parser = TextOf()
    parser.feed(bare)
    words = [t.strip() for t in parser.found if re.search(r"[A-Za-z]{2,}", t) and t.strip(" \n·") not in UNTRANSLATED]
    assert not words, f"{template} shows text that is not marked for translation: {words}"


def test_the_app_compiles_the_catalogue_as_pybabel_would(dutch):
    """The catalogue is compiled in memory when the app starts (no .mo in the repository): what gettext then
    reads is what ``pybabel compile`` writes from the same .po."""
    import io

    compiled = i18n.compile_catalog(dutch)
    buf = io.BytesIO()
    write_mo(buf, dutch, use_fuzzy=False)
    buf.seek(0)
    reference = read_mo(buf)
    for m in reference:
        if not m.id:
            continue
        if isinstance(m.id, str):
            assert compiled.gettext(m.id) == m.string
        else:
            assert compiled.ngettext(m.id[0], m.id[1], 1) == m.string[0]
            assert compiled.ngettext(m.id[0], m.id[1], 2) == m.string[1]


# -- the games' own words ---------------------------------------------------------------------------


def test_every_game_names_its_options_and_their_values_in_words_said_in_dutch_and_its_moves_in_dutch(dutch):
    """An option's title and the words for its values are messages (marked N_, said by the API in the reader's
    language): a picker never shows ``attacker_first``, in either language."""
    nl = i18n.language("nl")
    # the project's games (a test process may also hold the tests' toy games, which no page offers)
    for g in [g for g in all_games() if type(g).__module__.startswith("engine.")]:
        assert g.summary_said(nl) != g.summary, g.id
        for key, prop in g.options_schema["properties"].items():
            assert "_" not in prop["title"] and dutch.get(prop["title"]) and nl.gettext(prop["title"]) != prop["title"], (g.id, key)
            worded = {v for v in _enum_of(prop) if isinstance(v, str) and len(v) > 1}
            titles = prop.get("enum_titles", {})
            for alt in prop.get("anyOf", []) + prop.get("oneOf", []):
                titles = titles or alt.get("enum_titles", {})
            assert set(titles) == worded, (g.id, key, "every value of an option in words")
            assert all("_" not in w and dutch.get(w) and dutch.get(w).string for w in titles.values()), (g.id, key)
        for event_type in g.event_types:
            assert g.event_title_nl(event_type), (g.id, event_type)


def test_the_api_says_an_options_title_and_its_values_words_in_the_readers_language(anon):
    en = anon.get("/api/games/ridder_toernooi").get_json()["options"]["properties"]["both_eliminated"]
    nl = anon.get("/api/games/ridder_toernooi", headers={"Accept-Language": "nl"}).get_json()["options"]["properties"]["both_eliminated"]
    assert en["title"] == "Both knights reach 10 wounds" and nl["title"] == "Beide ridders bereiken 10 wonden"
    assert en["enum_titles"]["attacker_first"] == "the attacker first" and nl["enum_titles"]["attacker_first"] == "de aanvaller eerst"
    assert en["enum"] == nl["enum"]  # the values stay the API's


def test_a_game_with_an_option_but_no_title_or_no_words_for_a_value_is_refused():
    from engine.core import titled, worded

    schema = {"type": "object", "properties": {"first_seat": {"type": "integer"}, "variant": {"type": "string"}}}
    with pytest.raises(ValueError, match="missing for \\['variant'\\]"):
        titled(schema, first_seat="Who starts")
    with pytest.raises(ValueError, match="unknown \\['nope'\\]"):
        titled(schema, first_seat="Who starts", variant="Variant", nope="x")
    schema["properties"]["variant"]["enum"] = ["replay", "counts", "A"]
    with pytest.raises(ValueError, match="missing \\['counts'\\]"):
        worded(schema, variant={"replay": "replayed"})
    assert worded(schema, variant={"replay": "replayed", "counts": "counts"})["properties"]["variant"]["enum_titles"]["counts"] == "counts"


def test_the_api_names_each_move_in_dutch(anon):
    games = {g.id: g for g in all_games()}
    for gid in ("braverats", "troubadour"):
        types = anon.get(f"/api/games/{gid}").get_json()["event_types"]
        assert all(t["title_nl"] for t in types.values()), gid
        for name, t in types.items():
            if name != "undo":
                assert t["title_nl"] == games[gid].event_title_nl(name)
    types = anon.get("/api/games/troubadour").get_json()["event_types"]
    assert types["deal"]["title_nl"] == "kastelen en dorpen klaarleggen"  # the table's own word (an alias)
    assert types["undo"]["title_nl"] == "ongedaan maken"


# -- choosing the language -------------------------------------------------------------------------


@pytest.fixture
def pages(client):
    m = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    client.post(f"/api/matches/{m}/events", json={"type": "play", "seat": 0, "data": {"card": "spy"}})
    l = client.post("/api/leagues", json={"name": "Dinsdagclub", "game": "braverats", "format": "swiss", "rounds": 3,
                                          "players": ["Ann", "Bob", "Cor", "Dirk"]}).get_json()["id"]
    return [p.format(m=m, l=l) for p in PAGES]


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([\w-]+)">', html)
    assert found, html[:200]
    return found.group(1)


def test_accept_language_nl_gives_every_page_in_dutch(anon, pages, dutch):
    """Every page with Accept-Language nl: ``<html lang="nl">``, its script catalogue in Dutch, and each
    catalogue message the English page shows shown in Dutch instead."""
    english_to_dutch = {m.id: m.string for m in dutch if m.id and isinstance(m.id, str) and len(m.id) > 3 and "%" not in m.id}
    for path in pages:
        en = anon.get(path).get_data(as_text=True)
        nl = anon.get(path, headers={"Accept-Language": DUTCH}).get_data(as_text=True)
        assert lang_of(en) == "en" and lang_of(nl) == "nl", path
        assert '<script src="/assets/messages.nl.js">' in nl and '<script src="/assets/messages.en.js">' in en
        shown = [msg for msg in english_to_dutch if f">{msg}<" in en]
        assert shown, path
        for msg in shown:
            assert f">{english_to_dutch[msg]}<" in nl, (path, msg)
        assert ">Competities<" in nl and ">Vastleggen<" in nl and ">Leagues<" not in nl


def test_accept_language_picks_the_best_language_the_pages_speak(anon):
    for header, lang in [("nl", "nl"), ("nl-BE", "nl"), ("en-GB,nl;q=0.5", "en"), ("fr,nl;q=0.8", "nl"), ("fr", "en"), ("", "en")]:
        assert lang_of(anon.get("/", headers={"Accept-Language": header}).get_data(as_text=True)) == lang, header


def test_the_switch_is_remembered_across_pages_and_beats_accept_language(anon, pages):
    r = anon.post("/language", data={"lang": "en", "next": pages[2]}, headers={"Accept-Language": DUTCH})
    assert r.status_code == 303 and r.headers["Location"] == pages[2]
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"{i18n.COOKIE}=en;") and "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie
    for path in pages:
        assert lang_of(anon.get(path, headers={"Accept-Language": DUTCH}).get_data(as_text=True)) == "en", path
    anon.post("/language", data={"lang": "nl", "next": "/"})
    for path in pages:
        assert lang_of(anon.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)) == "nl", path


def test_every_page_has_the_switch_to_the_other_language(anon, pages):
    for path in pages:
        en = anon.get(path).get_data(as_text=True)
        nl = anon.get(path, headers={"Accept-Language": DUTCH}).get_data(as_text=True)
        here = re.escape(path)
        assert re.search(rf'<form class="langswitch" method="post" action="/language">\s*<input type="hidden" name="next" value="{here}">', en)
        assert 'name="lang" value="nl" lang="nl"' in en and 'value="en"' not in en.split('class="langswitch"')[1].split("</form>")[0]
        assert 'name="lang" value="en" lang="en"' in nl


def test_the_switch_refuses_another_language_and_never_leads_off_the_site(anon):
    assert anon.post("/language", data={"lang": "fr"}).status_code == 400
    for target in ["//example.org/", "https://example.org/", "/\\example.org", "javascript:alert(1)"]:
        r = anon.post("/language", data={"lang": "nl", "next": target})
        assert r.status_code == 303 and r.headers["Location"] == "/", target


def test_the_scripts_get_their_messages_in_the_page_language(anon, dutch):
    nl = anon.get("/assets/messages.nl.js")
    assert nl.status_code == 200 and nl.mimetype == "text/javascript"
    body = nl.get_data(as_text=True)
    data = json.loads(re.search(r"window\.KRONIEK_MESSAGES = (\{.*\});", body).group(1))
    assert data["lang"] == "nl"
    assert data["messages"]["Sign in"] == "Aanmelden"
    assert data["messages"]["{n} event"] == ["{n} gebeurtenis", "{n} gebeurtenissen"]
    assert len(data["messages"]) == len([m for m in dutch if m.id])
    en = json.loads(re.search(r"window\.KRONIEK_MESSAGES = (\{.*\});", anon.get("/assets/messages.en.js").get_data(as_text=True)).group(1))
    assert en == {"lang": "en", "messages": {}}
    assert anon.get("/assets/messages.fr.js").status_code == 404


def test_a_dutch_home_page_shows_the_games_in_dutch(anon):
    html = anon.get("/", headers={"Accept-Language": DUTCH}).get_data(as_text=True)
    troje = re.search(r'data-player-counts="4,6">([^<]*)<', html)
    assert troje and troje.group(1) == "4 of 6 spelers"
    for g in all_games():
        assert g.summary_said(i18n.language("nl")).replace("'", "&#39;") in html, g.id
