"""The text notation (engine/notation.py and each game's notation.py): a
written match reads back to the same events and states, for every game;
a bad line is refused with its line, column and rule."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine import notation as N
from engine import registry
from tests.support.played import play

#: the games of engine/ (the tests' toy game, when another test registered it, is tested on its own below)
GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("engine.")]
BRAVERATS_VARIANTS = [[], ["A"], ["B"], ["C"], ["D"], ["E"], ["F"], ["A", "B", "C"], ["G"], ["B", "G"], ["E", "G"]]


def states(setup: dict, events: list[tuple[str, int | None, dict]]) -> list:
    """The state after the setup and after each event (the engines' states are
    plain values: compared as they are, not through their encoding for a
    snapshot, which cost Catan more than the match itself)."""
    ms = M.start(setup)
    out = [ms.state]
    for type_, seat, data in events:
        ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
        out.append(ms.state)
    return out


@st.composite
def matches(draw):
    game_id = draw(st.sampled_from(GAMES))
    game = registry.get(game_id)
    players = draw(st.integers(game.min_players, min(game.max_players, 4)))
    options = {}
    if game_id == "braverats":
        options["variants"] = draw(st.sampled_from(BRAVERATS_VARIANTS))
    mode = draw(st.sampled_from(["simulated", "physical"]))
    undo_rate = draw(st.sampled_from([0.0, 0.1]))
    seed = draw(st.integers(0, 2**31))
    return play(game_id, seed, players=players, mode=mode, options=options, undo_rate=undo_rate, limit=400,
                finish=False)


notes_strategy = st.lists(
    st.tuples(st.sampled_from([None, *N.GLYPHS]), st.one_of(st.none(), st.text(max_size=40))).filter(
        lambda gc: gc != (None, None)),
    max_size=4,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(log=matches(), notes=notes_strategy, data=st.data())
@pytest.mark.slow(20)
def test_written_then_read_gives_the_same_moves_states_and_annotations(log, notes, data):
    annotations = [{"seq": data.draw(st.integers(1, len(log))), "glyph": g, "comment": c} for g, c in notes]
    text = N.write(log, annotations)
    read = N.read(text)
    assert read.setup == log[0]["data"]
    written = [(e["type"], e["seat"], e["data"]) for e in log[1:]]
    assert [(e.type, e.seat, e.data) for e in read.events] == written
    assert states(read.setup, [(e.type, e.seat, e.data) for e in read.events]) == states(log[0]["data"], written)
    assert read.final.result_dict == M.replay(log).result_dict
    key = lambda n: (n[0], repr(n[1]), repr(n[2]))  # noqa: E731
    assert sorted([(s, g, c) for s, g, c, _, _ in read.notes], key=key) == sorted(
        [(a["seq"], a["glyph"], a["comment"]) for a in annotations], key=key)
    # the simulated draws came from the seed; the text's own draws were only checked
    assert all(e.by_server == (log[0]["data"]["mode"] == "simulated" and registry.get(read.setup["game"])
                               .event_types[e.type].actor == "chance") for e in read.events if e.type != M.UNDO)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_writes_a_readable_line_per_event(game_id):
    log = play(game_id, 11, undo_rate=0.1)
    text = N.write(log)
    body = [line for line in text.splitlines() if line and not line.startswith("[")]
    assert len(body) == len(log) - 1
    assert all(line.startswith(f"{e['seq']}. ") for line, e in zip(body, log[1:]))
    assert f'[Game "{game_id}"]' in text and "[Players " in text and '[Mode "simulated"]' in text
    assert '[Seed "11"]' in text


def test_the_simulated_draws_may_be_left_out_and_are_then_drawn_from_the_seed():
    log = play("sir_tommy", 5)
    text = N.write(log)
    kept = [line for line in text.splitlines() if ": draw " not in line]
    without_numbers = [line.split(". ", 1)[1] if line[:1].isdigit() else line for line in kept]
    read = N.read("\n".join(without_numbers))
    assert [(e.type, e.seat, e.data) for e in read.events] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]


# -- reading what people type -----------------------------------------------------------

BRAVERATS = '[Game "braverats"]\n[Players "Ann" "Bob"]\n'


def test_dutch_names_tags_and_verbs_are_read():
    read = N.read('[Spel "BraveRats"]\n[Spelers "Ann" "Bob"]\n[Modus "fysiek"]\n\n2. round spion prins\n'
                  "3. bob: play 6\n4. Ann: play tovenaar\n")  # Bob first, face up: Ann's Spy
    assert [e.data for e in read.events] == [{"cards": ["spy", "prince"]}, {"card": "general"}, {"card": "wizard"}]
    assert [e.seat for e in read.events] == [None, 1, 0]
    text = ('[Game "sir_tommy"]\n[Players "Ann" "Bob"]\n\n2. Ann: trekken "harten vrouw" 10S "klaveren 2"\n'
            '3. Ann: leggen 10S 1\n4. Ann: leggen "harten vrouw" 2\n5. Ann: leggen 2C 3\n')
    read = N.read(text)
    assert read.events[0].data["cards"] == ["10S", "QH", "2C"]
    assert [(e.type, e.data.get("card")) for e in read.events[1:]] == [("place", "10S"), ("place", "QH"),
                                                                        ("place", "2C")]


def test_unknown_cards_and_chance_outcomes_are_written_and_read():
    text = BRAVERATS + '[Options "variants=B"]\n\n2. draw spy,unknown,onbekend/prince,general,?\n'
    read = N.read(text)
    assert read.events[0].type == "draw" and read.events[0].seat is None
    assert read.events[0].data == {"cards": [["spy", "unknown", "unknown"], ["general", "prince", "unknown"]]}
    again = N.read(N.write([{"seq": 1, "type": "setup", "seat": None, "data": read.setup},
                            {"seq": 2, "type": "draw", "seat": None, "data": read.events[0].data}]))
    assert again.events[0].data == read.events[0].data


def test_comments_glyphs_and_move_numbers_are_optional_and_free_form():
    text = BRAVERATS + "{before the first move}\n\nround spy prince $5 {a guess}\n{and a long\nnote}\n" \
                       "3. round musician princess ??{the Princess lost}\n"
    read = N.read(text)
    assert [(s, g, c) for s, g, c, _, _ in read.notes] == [
        (1, None, "before the first move"), (2, "!?", None), (2, None, "a guess"), (2, None, "and a long\nnote"),
        (3, "??", "the Princess lost")]


def error(text: str) -> N.NotationError:
    with pytest.raises(N.NotationError) as info:
        N.read(text)
    return info.value


@pytest.mark.rule("braverats.card_in_hand")
def test_a_card_played_twice_names_its_line_column_and_the_rule():
    exc = error(BRAVERATS + "\n2. round spy prince\n3. round   spy musician\n")
    assert (exc.line, exc.column, exc.rule) == (5, 1, "braverats.card_in_hand")
    assert exc.details["rule_text"] == registry.get("braverats").rules["braverats.card_in_hand"]
    assert exc.details["cause"] == "illegal_move" and exc.status == 422 and "line 5, column 1" in exc.message


def test_an_unknown_card_names_the_column_of_the_value():
    exc = error(BRAVERATS + "\n2. round spy pawn\n")
    assert (exc.line, exc.column, exc.rule) == (4, 14, "notation.move")
    assert exc.details["cause"] == "malformed_event" and "pawn" in exc.message
    assert exc.details["rule_text"] == N.NOTATION_RULES["notation.move"]


@pytest.mark.parametrize("text, line, column, rule", [
    ('[Players "Ann" "Bob"]\n\n2. round spy prince\n', 1, 1, "notation.header"),
    ('[Game "chess"]\n[Players "Ann" "Bob"]\n', 1, 1, "notation.header"),
    (BRAVERATS + '[Options "variants=Z"]\n', 3, 1, "notation.header"),
    (BRAVERATS + '[Players "Cy" "Di"]\n', 3, 1, "notation.header"),
    ('[Game "braverats"]\n[Players "Ann" "Ann"]\n', 2, 1, "notation.header"),
    (BRAVERATS + "\n3. round spy prince\n", 4, 1, "notation.move_number"),
    (BRAVERATS + "\n2. Cy: play spy\n", 4, 4, "notation.player"),
    (BRAVERATS + "\n2. castle spy\n", 4, 4, "notation.move"),
    (BRAVERATS + "\n2. round spy prince {open\n", 4, 21, "notation.syntax"),
    (BRAVERATS + '\n2. round "spy prince\n', 4, 10, "notation.syntax"),
    (BRAVERATS + "\n2. round spy prince ! musician\n", 4, 23, "notation.syntax"),
    (BRAVERATS + "\n2. Ann: play hidden\n", 4, 14, "notation.hidden"),
    (BRAVERATS + "\n2. Ann: play spy\n3. Ann: play wizard\n", 5, 1, "core.turn"),
    (BRAVERATS + "\n2. round spy prince\n3. undo 7\n", 5, 1, "core.undo"),
    ('[Game "sir_tommy"]\n[Players "Ann" "Bob"]\n[Mode "simulated"]\n[Seed "5"]\n\n2. Ann: draw AS 2S 3S\n',
     6, 1, "core.simulated_chance"),
])
def test_each_kind_of_bad_text_is_refused_where_it_is(text, line, column, rule):
    exc = error(text)
    assert (exc.line, exc.column, exc.rule) == (line, column, rule), exc.message
    assert exc.details["rule_text"]


@pytest.mark.rule("core.finished")
def test_a_move_after_the_end_is_refused():
    log = play("braverats", 2)
    exc = error(N.write(log) + "99. round spy prince\n")
    assert exc.rule in ("core.finished", "notation.move_number")
    exc = error(N.write(log) + "round spy prince\n")
    assert exc.rule == "core.finished" and exc.line == N.write(log).count("\n") + 1


def test_limits_are_refused_before_anything_is_read():
    assert error("x" * (N.MAX_TEXT + 1)).rule == "notation.limit"
    assert error(BRAVERATS + "{" + "c" * 10_001 + "}\n").rule == "notation.limit"
    many = BRAVERATS + "round spy prince\n" * (N.MAX_EVENTS + 1)
    assert error(many).rule == "notation.limit"


def test_names_that_look_like_notation_are_quoted_and_read_back():
    players = ["Ann: the 1st", "{Bob}"]
    log = play("braverats", 3, options={"variants": ["B"]})
    log[0] = {**log[0], "data": {**log[0]["data"], "players": players}}
    read = N.read(N.write(log))
    assert read.setup["players"] == players
    assert [(e.type, e.seat, e.data) for e in read.events] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]


# -- hidden values ------------------------------------------------------------------------

def viewed(log: list[dict], viewer) -> list[dict]:
    ms = M.replay(log)
    undone = M.undone_seqs(log)
    return [M.event_view(ms, e, viewer, undone) for e in log]


def test_a_seat_export_writes_the_other_seats_face_down_card_as_hidden_and_it_cannot_be_imported():
    setup = M.make_setup("braverats", ["Ann", "Bob"], {}, "physical")
    log = [{"seq": 1, "type": "setup", "seat": None, "data": setup},
           {"seq": 2, "type": "play", "seat": 0, "data": {"card": "prince"}}]
    for_bob = N.write(viewed(log, 1), viewer=1)
    assert "2. Ann: play hidden" in for_bob and "prince" not in for_bob
    assert "2. Ann: play prince" in N.write(viewed(log, 0), viewer=0)
    exc = error(for_bob)
    assert exc.rule == "notation.hidden" and exc.line == for_bob.splitlines().index("2. Ann: play hidden") + 1


def test_a_seat_export_of_variant_b_draws_writes_unseen_cards_as_unknown_and_imports():
    log = play("braverats", 4, mode="physical", options={"variants": ["B"]}, finish=False, limit=6)
    assert M.replay(log).result is None
    for viewer in (0, 1, None):
        text = N.write(viewed(log, viewer), viewer=viewer)
        assert "hidden" not in text.split("\n\n", 1)[1]
        read = N.read(text)  # the unseen cards are unknown: a physical match of what the viewer saw
        seat_view = M.replay(log).view(viewer)
        assert read.final.view(viewer)["hands"][viewer if viewer is not None else 0]["count"] == \
            seat_view["hands"][viewer if viewer is not None else 0]["count"]
        if viewer is not None:
            assert read.final.view(viewer)["hands"][viewer]["cards"] == seat_view["hands"][viewer]["cards"]


def test_the_public_export_of_a_running_simulated_match_hides_the_seed_and_reads_as_physical():
    log = play("twaalven", 8, finish=False, limit=3)
    assert M.replay(log).result is None
    text = N.write(viewed(log, None), viewer=None)
    assert '[Seed "hidden"]' in text and '[View "public"]' in text
    read = N.read(text)
    assert read.setup["mode"] == "physical" and read.setup["seed"] is None
    assert [(e.type, e.seat, e.data) for e in read.events] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]


def test_a_game_without_a_notation_module_gets_the_default_syntax():
    """A new game (the tests' toy game: no notation.py) is written and read
    with the syntax derived from its schemas."""
    from tests.support.toy import ensure_registered

    toy = ensure_registered()
    assert N.syntax_of(toy) is N.DEFAULT_SYNTAX
    for mode in ("simulated", "physical"):
        log = play("toy", 9, mode=mode, undo_rate=0.2)
        text = N.write(log)
        read = N.read(text)
        assert [(e.type, e.seat, e.data) for e in read.events] == [(e["type"], e["seat"], e["data"])
                                                                    for e in log[1:]]


text_values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
SCHEMAS_AND_VALUES = [
    ({"type": "string"}, text_values),
    ({"type": ["string", "integer"]}, st.one_of(text_values, st.integers(-10**6, 10**6))),
    ({"type": ["integer", "null"]}, st.one_of(st.none(), st.integers(-10**6, 10**6))),
    ({"type": "boolean"}, st.booleans()),
    ({"type": "array", "items": {"type": "string"}}, st.lists(text_values, max_size=4)),
    ({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
     st.lists(st.one_of(st.none(), text_values), max_size=4)),
    ({"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
     st.lists(st.lists(text_values, max_size=3), max_size=3)),
    ({"type": "object"}, st.dictionaries(text_values, st.one_of(st.none(), st.integers(), text_values), max_size=3)),
]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_value_of_a_field_is_written_so_that_it_reads_back_exactly(data):
    schema, values = data.draw(st.sampled_from(SCHEMAS_AND_VALUES))
    value = data.draw(values)
    written = N.format_value(value, schema)
    assert N.parse_value(written, schema) == value
    # and inside a whole line: one word, whatever the text holds
    doc = N.parse('[Game "x"]\n\n2. move ' + f"field={written}\n")
    assert [w.text for w in doc.lines[0].words] == ["2.", "move", f"field={written}"]


def _exports_for_each(log_of, hidden_values, viewers):
    """{viewer: the set of texts it exports, over every hidden value}."""
    out = {v: set() for v in viewers}
    for value in hidden_values:
        log = log_of(value)
        for viewer in viewers:
            out[viewer].add(N.write(viewed(log, viewer), viewer=viewer))
    return out


def test_an_export_says_nothing_of_a_face_down_card_whichever_it_is():
    """Ann's face-down BraveRats card, each of the eight in turn: Bob's and
    the public's exports are the same text every time; Ann's tells them apart."""
    setup = M.make_setup("braverats", ["Ann", "Bob"], {}, "physical")

    def log_of(card):
        return [{"seq": 1, "type": "setup", "seat": None, "data": setup},
                {"seq": 2, "type": "play", "seat": 0, "data": {"card": card}}]

    cards = ["musician", "princess", "spy", "assassin", "ambassador", "wizard", "general", "prince"]
    texts = _exports_for_each(log_of, cards, (1, None, 0))
    assert len(texts[1]) == 1 and len(texts[None]) == 1 and len(texts[0]) == len(cards)


def test_an_export_says_nothing_of_a_secret_troubadour_trio_whichever_it_is():
    from engine.simulation import Table

    table = Table(M.make_setup("troubadour", ["Ann", "Bob"], {}, "physical"))
    rng = __import__("random").Random(3)
    while "chance" in table.game.actors(table.state):
        move = table.game.chance_outcome(table.state, rng)
        table.enter(move.type, move.seat, move.data)
    trios = [m["data"]["nobles"] for m in M.legal_moves(table.ms, 0)][:40]

    def log_of(trio):
        return [*table.log, {"seq": table.ms.seq + 1, "type": "choose", "seat": 0,
                             "data": {"nobles": trio, "reveal": 0}}]

    texts = _exports_for_each(log_of, trios, (1, None, 0))
    assert len(texts[1]) == 1 and len(texts[None]) == 1 and len(texts[0]) == len(trios)
    assert "Ann: choose hidden" in next(iter(texts[1]))
