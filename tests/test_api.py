"""The HTTP contract, against a real Redis, with the framework's toy game."""


import pytest

from tests.support.toy import ensure_registered

ensure_registered()


def create(client, **body):
    body = {"game": "toy", "players": ["Ann", "Bob"], **body}
    res = client.post("/api/matches", json=body)
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def post_event(client, mid, headers=None, **body):
    return client.post(f"/api/matches/{mid}/events", json=body, headers=headers or {})


def test_games_list_and_detail(client):
    games = client.get("/api/games").get_json()["games"]
    toy = next(g for g in games if g["id"] == "toy")
    assert {"id", "name", "min_players", "max_players"} <= set(toy)
    detail = client.get("/api/games/toy").get_json()
    assert detail["event_types"]["add"]["schema"]["required"] == ["n"]
    assert "undo" in detail["event_types"]
    assert detail["options"]["properties"]["target"]["default"] == 20
    assert client.get("/api/games/chess").status_code == 404


def test_create_match_contract(client):
    m = create(client)
    assert m["game"] == "toy" and m["players"] == ["Ann", "Bob"]
    assert m["seq"] == 1 and m["status"] == "in_progress" and m["result"] is None
    assert m["validation"] == "pending"


@pytest.mark.parametrize(
    "body, status",
    [
        ({"game": "toy"}, 400),
        ({"game": "toy", "players": "Ann"}, 400),
        ({"game": "toy", "players": ["Ann"]}, 400),
        ({"game": "nope", "players": ["Ann", "Bob"]}, 404),
        ({"game": "toy", "players": ["Ann", "Bob"], "options": {"target": "x"}}, 400),
        ({"game": "toy", "players": ["Ann", "Bob"], "extra": 1}, 400),
    ],
)
def test_create_match_errors_are_json(client, body, status):
    res = client.post("/api/matches", json=body)
    assert res.status_code == status
    err = res.get_json()["error"]
    assert err["code"] and err["message"]


def test_append_returns_seq_hash_status_state(client):
    mid = create(client)["id"]
    res = post_event(client, mid, type="add", seat=0, data={"n": 2}, expected_seq=1)
    assert res.status_code == 201
    body = res.get_json()
    assert body["seq"] == 2 and len(body["hash"]) == 64
    assert body["status"] == "in_progress" and body["state"]["total"] == 2


def test_seq_conflict_is_409_with_current_seq(client, store):
    mid = create(client)["id"]
    post_event(client, mid, type="add", seat=0, data={"n": 2}, expected_seq=1)
    res = post_event(client, mid, type="roll", data={"value": 2}, expected_seq=1)
    assert res.status_code == 409
    assert res.get_json()["error"]["current_seq"] == 2
    assert res.get_json()["current_seq"] == 2
    assert len(store.events(mid)) == 2


def test_illegal_move_is_422_naming_the_rule_and_stream_unchanged(client, store):
    mid = create(client)["id"]
    before = list(store.entries(mid))
    res = post_event(client, mid, type="add", seat=0, data={"n": 5})
    assert res.status_code == 422
    err = res.get_json()["error"]
    assert err["code"] == "illegal_move" and err["rule"] == "toy.add"
    assert err["rule_text"] == "Add 1, 2 or 3."
    assert list(store.entries(mid)) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"type": 3},
        {"type": "add", "seat": "zero", "data": {"n": 1}},
        {"type": "add", "seat": 0, "data": []},
        {"type": "add", "seat": 0, "data": {"n": "x"}},
        {"type": "fly", "seat": 0},
        {"type": "add", "seat": 0, "data": {"n": 1}, "expected_seq": "1"},
        {"type": "add", "seat": 9, "data": {"n": 1}},
    ],
)
def test_malformed_event_is_400_and_stream_unchanged(client, store, body):
    mid = create(client)["id"]
    before = list(store.entries(mid))
    res = client.post(f"/api/matches/{mid}/events", json=body)
    assert res.status_code == 400, res.get_json()
    assert res.get_json()["error"]["message"]
    assert list(store.entries(mid)) == before


def test_not_json_at_all_is_400(client):
    mid = create(client)["id"]
    res = client.post(f"/api/matches/{mid}/events", data="{not json", content_type="application/json")
    assert res.status_code == 400
    assert "error" in res.get_json()


def test_unknown_match_is_404(client):
    assert post_event(client, "nope", type="add", seat=0, data={"n": 1}).status_code == 404
    assert client.get("/api/matches/nope").status_code == 404
    assert client.get("/api/matches/nope/audit").status_code == 404


def test_idempotency_key_header(client, store):
    mid = create(client)["id"]
    h = {"Idempotency-Key": "abc-1"}
    a = post_event(client, mid, headers=h, type="add", seat=0, data={"n": 1})
    b = post_event(client, mid, headers=h, type="add", seat=0, data={"n": 1})
    assert a.status_code == b.status_code == 201
    assert a.get_json()["hash"] == b.get_json()["hash"]
    assert len(store.events(mid)) == 2


def test_an_idempotency_key_past_its_limits_is_a_400_naming_the_header(client, store):
    from service.limits import MAX_IDEMPOTENCY_KEY

    mid = create(client)["id"]
    for bad in ("k" * (MAX_IDEMPOTENCY_KEY + 1), "a\tb"):
        res = post_event(client, mid, headers={"Idempotency-Key": bad}, type="add", seat=0, data={"n": 1})
        assert res.status_code == 400, res.get_json()
        err = res.get_json()["error"]
        assert err["field"] == "Idempotency-Key" and err["location"] == "header" and err["limit"] == MAX_IDEMPOTENCY_KEY
    assert len(store.events(mid)) == 1
    edge = {"Idempotency-Key": "k" * MAX_IDEMPOTENCY_KEY}
    first = post_event(client, mid, headers=edge, type="add", seat=0, data={"n": 1})
    again = post_event(client, mid, headers=edge, type="add", seat=0, data={"n": 1})
    assert first.status_code == again.status_code == 201 and again.get_json()["idempotent_replay"] is True
    assert again.data == first.data[:-1] + b',"idempotent_replay":true}'  # the first answer, rebuilt byte for byte
    assert len(store.events(mid)) == 2


def test_events_state_review_annotations_audit(client):
    mid = create(client, options={"target": 5})["id"]
    post_event(client, mid, type="add", seat=0, data={"n": 3})
    post_event(client, mid, type="roll", data={"value": 1})
    post_event(client, mid, type="add", seat=1, data={"n": 1})
    post_event(client, mid, type="undo", data={})
    post_event(client, mid, type="add", seat=1, data={"n": 2})
    events = client.get(f"/api/matches/{mid}/events").get_json()["events"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 6]
    assert [e["seq"] for e in client.get(f"/api/matches/{mid}/events?from=2&to=3").get_json()["events"]] == [2, 3]
    assert client.get(f"/api/matches/{mid}/state?at=3").get_json()["total"] == 4
    assert client.get(f"/api/matches/{mid}/state?at=99").status_code == 400
    review = client.get(f"/api/matches/{mid}/review").get_json()["steps"]
    assert [s["seq"] for s in review] == [1, 2, 3, 4, 5, 6]
    assert review[3]["undone_by"] == 5 and review[4]["undoes"] == [4]
    assert review[5]["summary"] == "seat 1 adds 2"
    # from a seq on (a live page asks only for what is new): the same steps, an undo naming what it marks
    tail = client.get(f"/api/matches/{mid}/review?from=5").get_json()["steps"]
    assert tail == review[4:] and tail[0]["undoes"] == [4]
    assert client.get(f"/api/matches/{mid}/review?from=7").get_json()["steps"] == []
    assert client.get(f"/api/matches/{mid}/review?from=0").status_code == 400
    res = client.post(f"/api/matches/{mid}/annotations", json={"seq": 4, "glyph": "??", "comment": "misclick"})
    assert res.status_code == 201
    assert client.post(f"/api/matches/{mid}/annotations", json={"seq": 4, "glyph": "!!!"}).status_code == 400
    assert client.post(f"/api/matches/{mid}/annotations", json={"seq": 40, "glyph": "!"}).status_code == 400
    notes = client.get(f"/api/matches/{mid}/annotations").get_json()["annotations"]
    assert notes[0]["glyph"] == "??" and notes[0]["seq"] == 4
    review = client.get(f"/api/matches/{mid}/review").get_json()["steps"]
    assert review[3]["annotations"][0]["comment"] == "misclick"
    audit = client.get(f"/api/matches/{mid}/audit").get_json()
    assert audit == {"valid": True, "length": 6, "head": events[-1]["hash"], "first_invalid_seq": None, "reason": None,
                     "scheme": "commitments"}


def test_legal_moves(client):
    mid = create(client)["id"]
    moves = client.get(f"/api/matches/{mid}/legal-moves?seat=0").get_json()["moves"]
    assert [m["data"]["n"] for m in moves] == [1, 2, 3]
    assert client.get(f"/api/matches/{mid}/legal-moves?seat=1").get_json()["moves"] == []


def test_openapi_document_and_docs_page(client):
    spec = client.get("/api/openapi.json").get_json()
    assert "/api/matches/{match_id}/events" in spec["paths"]
    post = spec["paths"]["/api/matches/{match_id}/events"]["post"]
    assert {"201", "400", "404", "409", "422"} <= set(post["responses"])
    page = client.get("/api/docs")
    assert page.status_code == 200 and b"/api/docs/assets/swagger-ui-bundle.js" in page.data
    # The page's scripts are served by the app itself (no internet needed).
    assert client.get("/api/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/api/docs/assets/swagger-ui.css").status_code == 200


def test_unknown_endpoint_is_json_404(client):
    res = client.get("/api/nothing")
    assert res.status_code == 404 and res.get_json()["error"]["code"] == "not_found"
    # it names what was asked, and says "under /api" only to a request that was not
    message = res.get_json()["error"]["message"]
    assert "GET /api/nothing" in message and "/api/docs" in message and "under /api" not in message
    assert "under /api" in client.get("/matches/x/verdict.json").get_json()["error"]["message"]


def test_simulated_seed_is_hidden_from_the_log_until_the_end(client):
    m = create(client, mode="simulated", seed=1234, options={"target": 5})
    setup = client.get(f"/api/matches/{m['id']}/events").get_json()["events"][0]
    assert setup["data"]["seed"] == setup["data"]["secret"] == "hidden" and setup["redacted"] is True
    assert client.get(f"/api/matches/{m['id']}/events?seat=0").get_json()["events"][0]["data"]["seed"] == "hidden"
    referee = client.get(f"/api/matches/{m['id']}/events?seat=referee").get_json()["events"][0]
    assert referee["data"]["seed"] == 1234 and len(referee["data"]["secret"]) == 64
    # Play to the end: the server rolls after each add.
    while client.get(f"/api/matches/{m['id']}").get_json()["status"] != "finished":
        state = client.get(f"/api/matches/{m['id']}/state").get_json()
        res = post_event(client, m["id"], type="add", seat=state["to_act"][0], data={"n": 3})
        assert res.status_code == 201, res.get_json()
        # (an add that reaches the target ends the match: nothing is left to roll for)
        won = state["total"] + 3 >= state["target"]
        assert [e["type"] for e in res.get_json()["appended"]] == (["add"] if won else ["add", "roll"])
    shown = client.get(f"/api/matches/{m['id']}/events").get_json()["events"][0]["data"]
    assert shown["seed"] == 1234 and shown["secret"] == referee["data"]["secret"]


def test_text_that_is_not_unicode_is_400_not_a_crash(client, store):
    mid = create(client)["id"]
    raw = '{"seq": 1, "comment": "\\ud800"}'
    res = client.post(f"/api/matches/{mid}/annotations", data=raw, content_type="application/json")
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "comment"
    raw = '{"type": "add", "seat": 0, "data": {"n": 1, "x": "\\udfff"}}'
    res = client.post(f"/api/matches/{mid}/events", data=raw, content_type="application/json")
    assert res.status_code == 400
    assert len(store.events(mid)) == 1


def test_a_post_without_a_body_is_told_it_needs_one(client):
    m = create(client)
    before = client.get(f"/api/matches/{m['id']}/events").get_json()["events"]
    res = client.post(f"/api/matches/{m['id']}/events", headers={"Content-Type": "application/json"})
    assert res.status_code == 400, res.get_json()
    message = res.get_json()["error"]["message"]
    assert message.startswith("this endpoint takes a JSON body") and "Missing data" not in message
    assert client.get(f"/api/matches/{m['id']}/events").get_json()["events"] == before


# -- the app's routing memo (service.app.KroniekFlask) ---------------------------------
ROUTING_CASES = [
    ("POST", "/api/matches/abc123/events", {}),
    ("GET", "/api/matches/abc123/events", {}),
    ("GET", "/api/matches/abc123/state?at=2&seat=referee", {}),
    ("GET", "/api/matches", {}),
    ("GET", "/api/matches/", {}),  # no such route (a 404), or a redirect: never remembered
    ("DELETE", "/api/matches/abc123/events", {}),  # 405
    ("GET", "/no/such/page", {}),
    ("GET", "/api/matches/%C3%A9t%C3%A9/state", {}),  # a percent-encoded UTF-8 id
    ("GET", "/api/ratings/braverats/players/Ann/Bob", {}),  # a path converter
    ("POST", "/api/leagues/lg1/rounds/3/boards/2/match", {}),  # integer converters
    ("POST", "/api/matches/abc123/events", {"HTTP_HOST": "Example.COM:8080"}),
    ("POST", "/api/matches/abc123/events", {"HTTP_HOST": "bücher.example".encode().decode("latin1")}),
    ("POST", "/api/matches/abc123/events", {"HTTP_HOST": "bad host!"}),
    ("POST", "/api/matches/abc123/events", {"wsgi.url_scheme": "https", "HTTP_HOST": "k.example:443"}),
    ("GET", "/api/matches/abc123/stream", {"HTTP_CONNECTION": "keep-alive, Upgrade", "HTTP_UPGRADE": "websocket"}),
    ("POST", "/api/matches/abc123/events", {"SCRIPT_NAME": "/kroniek"}),
]


def _flask_routing(app, method, url, environ):
    """What Flask itself makes of the request: the adapter and the route."""
    from flask import Flask
    from werkzeug.exceptions import HTTPException

    with app.test_request_context(url, method=method, environ_overrides=environ) as ctx:
        req = ctx.request
        req.__dict__.pop("host", None)
        try:
            adapter = Flask.create_url_adapter(app, req)
            rule, args = adapter.match(return_rule=True)
        except HTTPException as exc:
            return ("refused", type(exc).__name__)
        return (req.host, _settings(adapter), rule, args)


def _settings(adapter):
    return (adapter.server_name, adapter.script_name, adapter.subdomain, adapter.url_scheme, adapter.path_info,
            adapter.default_method, adapter.query_args, adapter.websocket)


def _app_routing(app, method, url, environ):
    """What the app's request context made of it (memo or not)."""
    with app.test_request_context(url, method=method, environ_overrides=environ) as ctx:
        req = ctx.request
        if req.routing_exception is not None:
            return ("refused", type(req.routing_exception).__name__)
        routed = (req.host, _settings(ctx.url_adapter), req.url_rule, dict(req.view_args))
        req.view_args["changed"] = "by the view"  # must not reach the next request
        for key in list(req.view_args):
            if key != "changed":
                req.view_args[key] = "changed"
        return routed


def test_a_remembered_route_is_the_route_flask_finds(app):
    """The app remembers the URL adapter's settings and the route of a
    request line and host it routed before: each later time (the cases
    interleaved, so one that differs from another in a single environ value
    only is told apart) it gives exactly what Flask's own routing gives
    (host, adapter, rule, view arguments, or the same refusal, never
    remembered), and a view changing its arguments changes nothing for the
    next request."""
    from service.app import ROUTE_ENVIRON

    expected = [_flask_routing(app, method, url, environ) for method, url, environ in ROUTING_CASES]
    assert sum(e[0] == "refused" for e in expected) == 4 and len({e[1] for e in expected}) > 10
    for _ in range(3):
        for (method, url, environ), want in zip(ROUTING_CASES, expected):
            assert _app_routing(app, method, url, environ) == want, (method, url, environ)
    assert len(app._routes) == len(ROUTING_CASES) - 4
    for (method, url, environ), want in zip(ROUTING_CASES, expected):
        if want[0] == "refused":
            refused = app.test_request_context(url, method=method, environ_overrides=environ).request.environ
            assert tuple(refused.get(name) for name in ROUTE_ENVIRON) not in app._routes


def test_the_routing_memo_is_bounded_and_off_with_a_server_name(app):
    app._ROUTES_LIMIT = 8
    for i in range(30):
        assert _app_routing(app, "GET", f"/api/matches/m{i}/state", {})[2].rule == "/api/matches/<match_id>/state"
        assert len(app._routes) <= 8
    app._routes.clear()
    app.config["SERVER_NAME"] = "kroniek.example"
    expected = _flask_routing(app, "GET", "/api/matches/m1/state", {"HTTP_HOST": "kroniek.example"})
    for _ in range(2):
        assert _app_routing(app, "GET", "/api/matches/m1/state", {"HTTP_HOST": "kroniek.example"}) == expected
    assert not app._routes
