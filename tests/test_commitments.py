"""Commitments keep hidden data out of the hash chain (issue 9, point 1).

Every event is sealed with a fresh salt; its hash covers a commitment to its
data, and a viewer who may not see the data gets the event without the salt.
Here an outsider tries, for a BraveRats face-down play, a Troubadour secret
trio and a BraveRats variant-E deal, every candidate value against everything
they can read (the log, the state, the review, the legal moves, the audit, the
match, the annotations, the transparency log): each candidate's commitment
under every visible salt, its hash in the scheme before commitments, and its
text. Nothing matches, and what they read is the same whatever the hidden
value was. The referee, and everyone after the match, can still check every
commitment; so can ``kroniek audit verify`` on a league's export.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re

import pytest
from click.testing import CliRunner

import engine.troubadour  # noqa: F401  (registers the game)
from engine import match as M
from engine.braverats.cards import CARD_IDS, DECK
from engine import get as get_game
from engine.core import KroniekError
from engine.text import to_json
from replays import ChainCheck, EventStore, audit_match, canonical, check_chain, commitment, event_hash, seal
from replays.hashing import COMMITMENTS, GENESIS, LEGACY, LEGACY_FIELDS
from service.cli import main
from tests.conftest import client_with_token
from tests.support.tamper import rewrite_entry
from workers.jobs import InvariantBroken, validate_log

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


# -- helpers ---------------------------------------------------------------------------------

def post(client, url, body=None, status=201):
    res = client.post(url, json=body if body is not None else {})
    assert res.status_code == status, res.get_json()
    return res.get_json()


def get(client, url, **query):
    res = client.get(url, query_string=query)
    assert res.status_code == 200, (url, query, res.get_json())
    return res.get_json()


def event(client, mid, type_, seat=None, data=None):
    return post(client, f"/api/matches/{mid}/events", {"type": type_, "seat": seat, "data": data or {}})


def player(client, make_user, app, mid, seat):
    """A client of a new user who plays ``seat`` of the match (and nothing more)."""
    name, token = make_user(f"seat{seat}")
    post(client, f"/api/matches/{mid}/roles", {"user": name, "role": "player", "seat": seat})
    return client_with_token(app, token)


def answer(client, url, **query):
    """Status and body: a refusal is also something the viewer reads."""
    res = client.get(url, query_string=query)
    return {"status": res.status_code, "body": res.get_json()}


def seen_by(viewer, seat, mid) -> dict[str, object]:
    """Everything about match ``mid`` that ``viewer`` (a client; ``seat`` its
    seat, None for the public) can read."""
    q = {} if seat is None else {"seat": seat}
    base = f"/api/matches/{mid}"
    return {
        "events": get(viewer, f"{base}/events", **q),
        "state": get(viewer, f"{base}/state", **q),
        "review": get(viewer, f"{base}/review", **q),
        "legal": answer(viewer, f"{base}/legal-moves", **q),
        "audit": get(viewer, f"{base}/audit"),
        "match": get(viewer, base),
        "annotations": get(viewer, f"{base}/annotations"),
        "listing": [m for m in get(viewer, "/api/matches", limit=100)["matches"] if m["id"] == mid],
    }


def transparency(viewer) -> dict[str, object]:
    return {"tree_head": get(viewer, "/api/log/tree-head"), "leaves": get(viewer, "/api/log/leaves")}


def normalized(docs: dict[str, object], mid: str) -> str:
    """What a viewer read, with what differs between any two recordings
    (salts, commitments, hashes, times, the match id) blanked out."""
    text = canonical(docs).replace(mid, "MATCH")
    return TIME.sub("TIME", HEX64.sub("HEX", text))


def salts_in(doc: object) -> set[str]:
    """Every ``salt`` anywhere in what a viewer read."""
    if isinstance(doc, dict):
        found = {doc["salt"]} if isinstance(doc.get("salt"), str) else set()
        return found.union(*(salts_in(v) for v in doc.values()))
    if isinstance(doc, list):
        return set().union(*(salts_in(v) for v in doc))
    return set()


def attack(views: list[dict[str, object]], hidden: dict, candidates: list[dict], skip_text=("legal",)) -> list[str]:
    """Try every candidate for the data of the logged event ``hidden`` (its
    referee view) against what the viewer read; return what matched."""
    found = []
    texts = [canonical(v) for v in views]
    hexes = set(HEX64.findall(" ".join(texts)))
    salts = salts_in(views)
    searchable = " ".join(canonical({k: d for k, d in v.items() if k not in skip_text}) for v in views)
    for data in candidates:
        for salt in salts:
            if commitment(salt, data) in hexes:
                found.append(f"commitment of {data} under a visible salt")
        legacy = {k: hidden[k] for k in LEGACY_FIELDS if k != "data"}
        if event_hash({**legacy, "data": data}) in hexes:
            found.append(f"hash of {data} in the clear")
        if canonical(data)[1:-1] in searchable:
            found.append(f"text of {data}")
    return found


def verified_view(events: list[dict]) -> ChainCheck:
    """The chain of a log as a viewer got it, checked by the audit's checker."""
    check = ChainCheck(complete=False)
    for e in events:
        brk = check.step(e)
        assert brk is None, brk
    return check


def referee_checks(client, mid) -> None:
    log = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
    check = ChainCheck(complete=True)
    for e in log:
        assert check.step(e) is None
    assert check.scheme == COMMITMENTS and check.data_checked == len(log)
    audit = get(client, f"/api/matches/{mid}/audit")
    assert audit["valid"] is True and audit["scheme"] == COMMITMENTS and audit["head"] == log[-1]["hash"]


# -- (a) a BraveRats face-down play ---------------------------------------------------------

ROUNDS = [("prince", "spy"), ("general", "assassin"), ("ambassador", "musician"), ("wizard", "wizard"),
          ("spy", "princess"), ("musician", "general"), ("assassin", "ambassador"), ("princess", "prince")]


def test_a_face_down_play_cannot_be_brute_forced(app, client, anon, make_user, store):
    svc = app.extensions["kroniek"]
    outcomes = {}
    for card in CARD_IDS:
        mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"]})["id"]
        bob = player(client, make_user, app, mid, 1)
        answer = event(client, mid, "play", 0, {"card": card})
        validate_log(store, mid)  # the worker's verdict and annotations are there too
        before = svc.state_at(mid, 1)
        candidates = [M.normalize_event(before, "play", 0, {"card": c}) for c in CARD_IDS]
        hidden = get(client, f"/api/matches/{mid}/events", seat="referee")["events"][1]
        assert hidden["data"] == {"card": card} and "salt" in hidden
        views = {"public": seen_by(anon, None, mid), "blue": seen_by(bob, 1, mid)}
        views["public"]["append_answer"] = {k: v for k, v in answer.items()}
        for name, docs in views.items():
            shown = docs["events"]["events"][1]
            assert shown["redacted"] is True and "salt" not in shown and shown["commitment"] == hidden["commitment"]
            assert attack([docs, transparency(anon)], hidden, candidates) == [], name
            verified_view(docs["events"]["events"])  # the chain still checks for this viewer
        # The control: with the salt (the referee's view) the same attack finds the card, and only it.
        referee = {"events": get(client, f"/api/matches/{mid}/events", seat="referee")}
        assert attack([referee], hidden, candidates) == [f"commitment of {{'card': '{card}'}} under a visible salt",
                                                         f"text of {{'card': '{card}'}}"]
        outcomes[card] = {name: normalized(docs, mid) for name, docs in views.items()}
        referee_checks(client, mid)
    # Whatever the card, Blue and the public read exactly the same.
    assert len({json.dumps(o, sort_keys=True) for o in outcomes.values()}) == 1


def test_after_the_match_everyone_checks_every_commitment(app, client, anon, make_user, store):
    mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"]})["id"]
    bob = player(client, make_user, app, mid, 1)
    event(client, mid, "play", 0, {"card": "wizard"})
    event(client, mid, "undo", None, {})  # an undone face-down play stays hidden while the match runs
    for red, blue in ROUNDS:
        event(client, mid, "play", 0, {"card": red})
        log = get(bob, f"/api/matches/{mid}/events", seat=1)["events"]
        assert all("salt" not in e for e in log if e.get("redacted"))
        assert "salt" not in log[1] and log[1]["data"] == {"hidden": True}
        assert verified_view(log).scheme == COMMITMENTS
        if event(client, mid, "play", 1, {"card": blue})["status"] == "finished":
            break
    assert validate_log(store, mid)["status"] == "valid"
    for viewer, seat in ((anon, None), (bob, 1)):
        log = get(viewer, f"/api/matches/{mid}/events", **({} if seat is None else {"seat": seat}))["events"]
        check = ChainCheck(complete=True)  # every event whole, with its salt
        assert all(check.step(e) is None for e in log) and check.data_checked == len(log)
        assert log[1]["data"] == {"card": "wizard"}
    referee_checks(client, mid)


# -- (b) a Troubadour secret trio -----------------------------------------------------------

def troubadour_until_choice(client, trio):
    mid = post(client, "/api/matches", {"game": "troubadour", "players": ["Ann", "Bob"]})["id"]
    event(client, mid, "deal", 0, {"face_up": ["AS", "2H", "3C", "4D", "5S"]})
    event(client, mid, "deal", None, {"face_up": ["7S", "7H", "8D", "9C", "10H"]})
    answer = event(client, mid, "choose", 1, {"nobles": list(trio)})
    return mid, answer


def test_a_secret_trio_cannot_be_brute_forced(app, client, anon, make_user, store):
    svc = app.extensions["kroniek"]
    trios = [("JC", "QC", "KC"), ("JS", "QS", "KS"), ("JH", "QD", "KS"), ("JD", "QH", "KC"), ("QS", "KH", "JC")]
    outcomes = {}
    for trio in trios:
        mid, answer = troubadour_until_choice(client, trio)
        ann = player(client, make_user, app, mid, 0)
        validate_log(store, mid)
        before = svc.state_at(mid, 3)
        nobles = ["JC", "QC", "KC", "JS", "QS", "KS", "JH", "QH", "KH", "JD", "QD", "KD"]
        candidates = []
        for perm in itertools.permutations(nobles, 3):  # 1,320 ordered trios
            try:
                candidates.append(M.normalize_event(before, "choose", 1, {"nobles": list(perm)}))
            except KroniekError:
                pass
        assert len(candidates) == 1320
        hidden = get(client, f"/api/matches/{mid}/events", seat="referee")["events"][3]
        views = {"public": seen_by(anon, None, mid), "ann": seen_by(ann, 0, mid)}
        views["public"]["append_answer"] = answer
        for name, docs in views.items():
            shown = docs["events"]["events"][3]
            assert shown["redacted"] is True and shown["data"]["nobles"] is None and "salt" not in shown
            assert attack([docs, transparency(anon)], hidden, candidates) == [], name
            verified_view(docs["events"]["events"])
        outcomes[trio] = {name: normalized(docs, mid) for name, docs in views.items()}
        referee_checks(client, mid)
        # Ann chooses too: the trios are revealed, and Ann can check Bob's commitment.
        event(client, mid, "choose", 0, {"nobles": ["JD", "QD", "KD"]})
        log = get(ann, f"/api/matches/{mid}/events", seat=0)["events"]
        assert "salt" in log[3] and commitment(log[3]["salt"], log[3]["data"]) == log[3]["commitment"]
        assert verified_view(log).data_checked == len(log)
    assert len({json.dumps(o, sort_keys=True) for o in outcomes.values()}) == 1


# -- (c) a BraveRats variant-E deal ---------------------------------------------------------

def red_hands() -> list[tuple[str, ...]]:
    """Every hand of 8 Red can be dealt from the 16 cards (two of each)."""
    kinds = sorted(set(DECK))
    hands = []
    for counts in itertools.product(range(3), repeat=len(kinds)):
        if sum(counts) == 8:
            hands.append(tuple(CARD_IDS[k] for k, n in zip(kinds, counts) for _ in range(n)))
    return hands


def blue_of(red: tuple[str, ...]) -> list[str]:
    rest = [CARD_IDS[c] for c in DECK]
    for card in red:
        rest.remove(card)
    return rest


def test_a_variant_e_deal_cannot_be_brute_forced(app, client, anon, make_user, store):
    svc = app.extensions["kroniek"]
    hands = red_hands()
    assert len(hands) == 1107
    deals = [hands[0], hands[-1], hands[len(hands) // 2], hands[137]]
    outcomes = {}
    for red in deals:
        mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"],
                                            "options": {"variants": ["E"]}})["id"]
        answer = event(client, mid, "deal", None, {"hands": [list(red), blue_of(red)]})
        validate_log(store, mid)
        ann = player(client, make_user, app, mid, 0)
        before = svc.state_at(mid, 1)
        candidates = [M.normalize_event(before, "deal", None, {"hands": [list(h), blue_of(h)]}) for h in hands]
        hidden = get(client, f"/api/matches/{mid}/events", seat="referee")["events"][1]
        public = seen_by(anon, None, mid)
        public["append_answer"] = answer
        shown = public["events"]["events"][1]
        assert shown["redacted"] is True and "salt" not in shown
        # the table's moves would list both hands: they are the recorder's
        assert public["legal"]["status"] == 401 and "referee" in public["legal"]["body"]["error"]["message"]
        assert len(get(client, f"/api/matches/{mid}/legal-moves")["moves"]) > 0
        assert attack([public, transparency(anon)], hidden, candidates) == []
        # A seat sees its own hand, so the deal is partly redacted: no salt for it
        # either (it checks the deal after the match, or through the referee).
        own = get(ann, f"/api/matches/{mid}/events", seat=0)["events"][1]
        assert own["redacted"] is True and own["data"]["hands"][0] == list(hidden["data"]["hands"][0])
        assert "salt" not in own
        verified_view(public["events"]["events"])
        outcomes[red] = normalized(public, mid)
        referee_checks(client, mid)
    assert len(set(outcomes.values())) == 1


def test_the_seed_and_secret_of_a_simulated_match_lose_their_salt(client, anon):
    mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"], "mode": "simulated",
                                        "seed": 12345, "options": {"variants": ["E"]}})["id"]
    log = get(anon, f"/api/matches/{mid}/events")["events"]
    assert log[0]["data"]["seed"] == log[0]["data"]["secret"] == "hidden" and "salt" not in log[0]
    assert log[1]["type"] == "deal" and "salt" not in log[1]
    # Not even the true setup, server secret and all (as if guessed right), checks against what the public
    # reads: no commitment under a visible salt, no hash in the clear, no text.
    real = get(client, f"/api/matches/{mid}/events", seat="referee")["events"][0]
    assert len(real["data"]["secret"]) == 64 and real["data"]["seed"] == 12345
    guesses = [{**real["data"], "seed": s} for s in range(12340, 12350)]
    assert real["data"] in guesses
    assert not attack([{"events": {"events": log}}, seen_by(anon, None, mid)], real, guesses)
    referee_checks(client, mid)


# -- the league's archive --------------------------------------------------------------------

def test_a_league_export_with_hidden_plays_verifies_offline(client, store, tmp_path):
    lid = post(client, "/api/leagues", {"name": "Duel", "game": "braverats", "format": "round_robin",
                                         "players": ["Ann", "Bob"]})["id"]
    post(client, f"/api/leagues/{lid}/rounds")
    mid = post(client, f"/api/leagues/{lid}/rounds/1/boards/1/match")["id"]
    event(client, mid, "play", 0, {"card": "musician"})
    event(client, mid, "undo")
    for red, blue in ROUNDS:
        to_act = get(client, f"/api/matches/{mid}/state", seat="referee")["to_act"]
        first = 1 if 1 in to_act else 0  # Blue first where it may (after a Spy, who must goes first)
        cards = {0: red, 1: blue}
        event(client, mid, "play", first, {"card": cards[first]})
        if event(client, mid, "play", 1 - first, {"card": cards[1 - first]})["status"] == "finished":
            break
    assert validate_log(store, mid)["status"] == "valid"
    post(client, f"/api/leagues/{lid}/results", {"match": mid})
    lines = client.get(f"/api/leagues/{lid}/export").get_data(as_text=True).splitlines()
    records = [json.loads(line) for line in lines]
    match_events = [r["event"] for r in records if r["kind"] == "event" and r["stream"] == "m"]
    assert match_events and all("salt" in e and "commitment" in e for e in match_events)
    path = tmp_path / "league.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = CliRunner().invoke(main, ["audit", "verify", str(path), "--json"])
    report = json.loads(out.output)
    assert out.exit_code == 0, report["problems"]
    league_events = sum(1 for r in records if r["kind"] == "event" and r["stream"] == "l")
    assert report["checked"]["commitments"] == len(match_events) + league_events
    assert report["schemes"] == {COMMITMENTS: 2}
    # An exported event without its salt cannot be checked: verify says so.
    i = next(i for i, r in enumerate(records) if r["kind"] == "event" and r["stream"] == "m" and r["event"]["seq"] == 2)
    del records[i]["event"]["salt"]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    out = CliRunner().invoke(main, ["audit", "verify", str(path), "--json"])
    problems = json.loads(out.output)["problems"]
    assert out.exit_code == 1
    assert {"where": f"match {mid} seq 2", "problem": "has no salt: its data cannot be checked against its commitment"} in problems


# -- the scheme itself -----------------------------------------------------------------------

def test_the_scheme_byte_for_byte():
    e = seal(2, "play", 0, {"card": "spy"}, "2026-11-21T20:31:07.412Z", "ann", "ab" * 32)
    salt = bytes.fromhex(e["salt"])
    assert len(salt) == 32
    assert e["commitment"] == hashlib.sha256(salt + b'{"card":"spy"}').hexdigest()
    committed = ('{"commitment":"%s","prev_hash":"%s","recorded_at":"2026-11-21T20:31:07.412Z",'
                 '"recorded_by":"ann","seat":0,"seq":2,"type":"play"}') % (e["commitment"], "ab" * 32)
    assert e["hash"] == hashlib.sha256(committed.encode()).hexdigest() == event_hash(e)
    assert json.loads(e["text"]) == {k: v for k, v in e.items() if k not in ("text", "hash")}
    assert e["text"] == canonical(json.loads(e["text"]))
    again = seal(2, "play", 0, {"card": "spy"}, "2026-11-21T20:31:07.412Z", "ann", "ab" * 32)
    assert again["salt"] != e["salt"] and again["commitment"] != e["commitment"] and again["hash"] != e["hash"]


def toy_stream(store, n=4):
    """A stream of ``n`` sealed events (any data: the audit checks the chain only)."""
    mid = "c0ffee"
    events = [seal(1, "setup", None, {"game": "x"}, "t", "ann", GENESIS)]
    for seq in range(2, n + 1):
        events.append(seal(seq, "move", seq % 2, {"n": seq}, "t", "ann", events[-1]["hash"]))
    assert store.create(mid, events, {"game": "x"}, 0.0)
    return mid, events


def test_edited_data_with_its_old_commitment_is_caught(store):
    mid, events = toy_stream(store)
    assert audit_match(store, mid).valid
    rewrite_entry(store, mid, 3, data={"n": 4})  # commitment, hash and chain as they were
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 3
    assert report.reason == ("seq 3: its hash does not match its content: the event was edited "
                             "(the commitment does not match the data and salt)")


def test_an_edited_salt_is_caught(store):
    mid, events = toy_stream(store)
    rewrite_entry(store, mid, 2, salt="00" * 32)
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 2
    rewrite_entry(store, mid, 2, salt=events[1]["salt"])
    assert audit_match(store, mid).valid
    rewrite_entry(store, mid, 2, salt="XYZ")
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 2 and "salt" in report.reason


def test_a_stored_text_that_is_not_canonical_or_has_extra_fields_is_caught(store):
    mid, events = toy_stream(store)
    key = store.key(mid, "log")
    text = events[1]["text"].replace(":", ": ", 1)
    assert json.loads(text) == json.loads(events[1]["text"])
    store.r.delete(key)
    for e in events:
        store.r.xadd(key, {"event": text if e["seq"] == 2 else e["text"], "hash": e["hash"]}, id=f"{e['seq']}-0")
    assert audit_match(store, mid).first_invalid_seq == 2
    rewrite_entry(store, mid, 2, note="hello")
    report = audit_match(store, mid)
    assert report.first_invalid_seq == 2 and "note" in report.reason


def legacy_seal(seq, type_, seat, data, prev):
    """An envelope as Kroniek sealed it before commitments: data hashed in the clear."""
    envelope = {"seq": seq, "type": type_, "seat": seat, "data": data, "recorded_at": "t", "recorded_by": "ann",
                "prev_hash": prev}
    text = canonical(envelope)
    return {**envelope, "text": text, "hash": hashlib.sha256(text.encode()).hexdigest()}


def test_legacy_logs_still_verify_and_say_so(store):
    events = [legacy_seal(1, "setup", None, {"game": "x"}, GENESIS)]
    for seq in range(2, 5):
        events.append(legacy_seal(seq, "move", 0, {"n": seq}, events[-1]["hash"]))
    assert store.create("01d", events, {"game": "x"}, 0.0)
    report = audit_match(store, "01d")
    assert report.valid and report.scheme == LEGACY and report.to_dict()["scheme"] == LEGACY
    check = ChainCheck(complete=True)
    assert all(check.step({k: v for k, v in e.items() if k != "text"}) is None for e in events)
    assert check.scheme == LEGACY
    rewrite_entry(store, "01d", 3, data={"n": 9})
    assert audit_match(store, "01d").first_invalid_seq == 3


def test_a_log_may_not_mix_schemes(store):
    first = seal(1, "setup", None, {"game": "x"}, "t", "ann", GENESIS)
    second = legacy_seal(2, "move", 0, {"n": 2}, first["hash"])
    assert store.create("mix", [first, second], {"game": "x"}, 0.0)
    report = audit_match(store, "mix")
    assert not report.valid and report.first_invalid_seq == 2 and report.scheme == COMMITMENTS
    assert "does not mix" in report.reason and "legacy" in report.reason
    # the other way round too, in the archive's words
    first = legacy_seal(1, "setup", None, {"game": "x"}, GENESIS)
    second = seal(2, "move", 0, {"n": 2}, "t", "ann", first["hash"])
    entries = [(f"{e['seq']}-0", {"event": e["text"], "hash": e["hash"]}) for e in (first, second)]
    report = check_chain(entries)
    assert report.first_invalid_seq == 2 and report.scheme == LEGACY and "does not mix" in report.reason


def test_a_view_without_salts_still_checks_but_not_an_edited_hash():
    a = seal(1, "setup", None, {"seed": 7}, "t", "ann", GENESIS)
    b = seal(2, "play", 0, {"card": "spy"}, "t", "ann", a["hash"])
    shown = [{k: v for k, v in a.items() if k != "text"},
             {**{k: v for k, v in b.items() if k not in ("text", "salt")}, "data": {"card": "hidden"}, "redacted": True}]
    check = verified_view(shown)
    assert check.data_checked == 1 and check.head == b["hash"]
    assert ChainCheck(complete=True).step(shown[0]) is None
    forged = {**shown[1], "seat": 1}
    check = ChainCheck(complete=False)
    assert check.step(shown[0]) is None and check.step(forged).kind == "content"


# -- the review and the verdict, per viewer --------------------------------------------------

def test_the_review_is_filtered_like_the_log(app, client, anon, make_user, store):
    mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"]})["id"]
    ann = player(client, make_user, app, mid, 0)
    bob = player(client, make_user, app, mid, 1)
    event(client, mid, "play", 0, {"card": "general"})
    validate_log(store, mid)
    public = get(anon, f"/api/matches/{mid}/review")["steps"]
    assert public[1]["summary"] == "Ann: play (hidden from this view)" and public[1]["annotations"] == []
    assert get(bob, f"/api/matches/{mid}/review", seat=1)["steps"][1] == public[1]
    own = get(ann, f"/api/matches/{mid}/review", seat=0)["steps"][1]["summary"]
    assert own != public[1]["summary"] and "general" not in own.lower()  # the game's own line
    assert get(client, f"/api/matches/{mid}/review", seat="referee")["steps"][1]["summary"] == own
    # a seat's review is that seat's player's (or a recorder's or referee's), as the log is
    assert anon.get(f"/api/matches/{mid}/review", query_string={"seat": 0}).status_code == 401
    assert bob.get(f"/api/matches/{mid}/review", query_string={"seat": 0}).status_code == 403
    assert bob.get(f"/api/matches/{mid}/review", query_string={"seat": "referee"}).status_code == 403
    assert client.get(f"/api/matches/{mid}/review", query_string={"seat": 5}).status_code == 400
    # Once the round resolves, both cards are public and so is the game's summary.
    event(client, mid, "play", 1, {"card": "spy"})
    validate_log(store, mid)
    steps = get(anon, f"/api/matches/{mid}/review")["steps"]
    assert steps[1]["summary"] == own and "General" in steps[2]["summary"] and steps[2]["annotations"]


def test_an_invalid_verdict_names_no_hidden_card_to_the_public(client, anon, store):
    mid = post(client, "/api/matches", {"game": "braverats", "players": ["Ann", "Bob"]})["id"]
    event(client, mid, "play", 0, {"card": "princess"})
    # As a verdict from a worker that disagrees with this server would read:
    store.save_verdict(mid, {"status": "invalid", "seq": 2, "events": 2, "first_invalid_seq": 2,
                             "message": "Red has no Princess left", "rule": "braverats.card_in_hand"}, {})
    details = get(anon, f"/api/matches/{mid}")["validation_details"]
    assert details["first_invalid_seq"] == 2 and "rule" not in details
    assert "princess" not in canonical(details).lower() and "seq 2 breaks a rule" in details["message"]
    nl = get(anon, f"/api/matches/{mid}", lang="nl")["validation_details"]["message"]
    assert nl.startswith("nr. 2 breekt een spelregel") and "princess" not in nl.lower()
    # about an event everyone sees, the message stands
    assert event(client, mid, "play", 1, {"card": "musician"})["status"] == "in_progress"
    store.save_verdict(mid, {"status": "invalid", "seq": 3, "events": 3, "first_invalid_seq": 2,
                             "message": "Red has no Princess left", "rule": "braverats.card_in_hand"}, {})
    assert get(anon, f"/api/matches/{mid}")["validation_details"]["message"] == "Red has no Princess left"
    # a verdict that kept what the engine said is served in the reader's language, the message's JSON not shown
    broken = InvariantBroken(3, get_game("braverats"), "braverats.score")
    store.save_verdict(mid, {"status": "invalid", "seq": 3, "events": 3, "first_invalid_seq": 3,
                             "message": broken.message, "said": to_json(broken.text), "invariant": "braverats.score"}, {})
    assert get(anon, f"/api/matches/{mid}")["validation_details"]["message"] == (
        "seq 3: after this event the game breaks what always holds: No score is negative.")
    nl = get(anon, f"/api/matches/{mid}", lang="nl")["validation_details"]
    assert nl["message"] == "nr. 3: na deze zet klopt niet meer wat in het spel altijd geldt: Geen score is negatief."
    assert "said" not in nl


# -- properties of the checker ---------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def sealed(datas: list) -> list[tuple[str, dict[str, str]]]:
    events, prev = [], GENESIS
    for seq, data in enumerate(datas, start=1):
        e = seal(seq, "move", seq % 3 if seq % 4 else None, {"v": data}, "2026-01-01T00:00:00.000Z", "ann", prev)
        events.append((f"{seq}-0", {"event": e["text"], "hash": e["hash"]}))
        prev = e["hash"]
    return events


@settings(max_examples=150, deadline=None)
@given(st.lists(JSON, min_size=1, max_size=5))
def test_every_sealed_log_verifies(datas):
    """No false alarm: whatever the data, the stored texts audit valid and every commitment checks."""
    entries = sealed(datas)
    report = check_chain(entries, len(entries))
    assert report.valid and report.scheme == COMMITMENTS and report.length == len(datas)
    check = ChainCheck(complete=True)
    for _, fields in entries:
        assert check.step({**json.loads(fields["event"]), "hash": fields["hash"]}) is None
    assert check.data_checked == len(datas)


FIELDS = ["seq", "type", "seat", "data", "recorded_at", "recorded_by", "prev_hash", "salt", "commitment", "hash"]


@settings(max_examples=200, deadline=None)
@given(st.lists(JSON, min_size=2, max_size=5), st.data())
def test_every_single_edit_is_caught(datas, draw):
    """Any field of any event changed (its hash recomputed or not, but for
    the head's): the audit and the archive check both break at that seq or
    the next."""
    entries = sealed(datas)
    at = draw.draw(st.integers(0, len(entries) - 1))
    name = draw.draw(st.sampled_from(FIELDS))
    envelope = json.loads(entries[at][1]["event"])
    old = entries[at][1]["hash"] if name == "hash" else envelope[name]
    new = draw.draw(JSON if name == "data" else st.one_of(st.just("ab" * 32), st.integers(0, 9), st.none(), st.text(max_size=5)))
    if new == old:
        return
    stored_hash = entries[at][1]["hash"]
    if name == "hash":
        stored_hash = str(new)
        if stored_hash == old:
            return
    else:
        envelope[name] = new
    # A forger may recompute the edited event's hash too, except on the last
    # event: rewriting the head whole is what the transparency log catches.
    if at < len(entries) - 1 and draw.draw(st.booleans()) and name != "hash":
        stored_hash = event_hash(envelope) if "commitment" in envelope and "prev_hash" in envelope else stored_hash
    entries[at] = (entries[at][0], {"event": canonical(envelope), "hash": stored_hash})
    report = check_chain(entries, len(entries))
    assert not report.valid and report.first_invalid_seq <= at + 2
    check = ChainCheck(complete=True)
    broke = None
    for _, fields in entries:
        broke = check.step({**json.loads(fields["event"]), "hash": fields["hash"]})
        if broke:
            break
    assert broke is not None and broke.seq <= at + 2
