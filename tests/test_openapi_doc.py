"""What the OpenAPI document says besides the schemas: who needs a token
(Swagger UI's lock), the 503 every operation may answer, the open error body;
and the 405's Allow header."""

from __future__ import annotations

import pytest

from service.access import WRITES


@pytest.fixture
def spec(anon):
    return anon.get("/api/openapi.json").get_json()


def operations(spec):
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield method.upper(), path, op


def test_only_operations_that_use_a_token_show_the_lock(spec, anon):
    assert "security" not in spec  # no global default: each operation says
    seen = {}
    for method, path, op in operations(spec):
        seen[method, path] = op["security"]
        if method in WRITES:
            assert op["security"] == [{"bearer": []}], (method, path)
    public = [("GET", "/api/games"), ("GET", "/api/matches"), ("GET", "/api/matches/{match_id}"),
              ("GET", "/api/matches/{match_id}/audit"),
              ("GET", "/api/leagues/{league_id}/standings"), ("GET", "/api/log/tree-head"), ("GET", "/api/health")]
    for op in public:
        assert seen[op] == [], op
    assert seen["GET", "/api/users"] == [{"bearer": []}]
    # a seat's view needs a token, the public view (no seat) does not
    assert seen["GET", "/api/matches/{match_id}/state"] == [{"bearer": []}, {}]
    assert seen["GET", "/api/matches/{match_id}/review"] == [{"bearer": []}, {}]
    # and the public reads really answer without one
    assert anon.get("/api/games").status_code == 200 and anon.get("/api/log/tree-head").status_code == 200


def test_every_operation_documents_the_503_with_retry_after(spec):
    for method, path, op in operations(spec):
        unavailable = op["responses"]["503"]
        assert "Retry-After" in unavailable["headers"], (method, path)


def test_error_bodies_are_open_and_declare_their_details(spec):
    body = spec["components"]["schemas"]["ErrorBody"]
    assert body.get("additionalProperties", True) is not False
    assert {"code", "message", "field", "fields", "limit", "game", "user", "needs", "current_seq",
            "tree_size", "rule", "rule_text"} <= set(body["properties"])
    conflict = spec["paths"]["/api/matches/{match_id}/events"]["post"]["responses"]["409"]
    schema = conflict["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "current_seq" in spec["components"]["schemas"][schema]["properties"]


def test_a_405_names_the_allowed_methods(anon):
    res = anon.delete("/api/games")
    assert res.status_code == 405 and res.get_json()["error"]["code"] == "method_not_allowed"
    assert set(res.headers["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}
    res = anon.put("/api/matches")
    assert res.status_code == 405 and {"GET", "POST"} <= set(res.headers["Allow"].replace(" ", "").split(","))


def test_indices_beyond_what_json_keeps_are_refused_and_declared(client, spec):
    """Found by schemathesis: Redis refused these indices and the API said 500.
    The input gate refuses them first; the document declares the same bound."""
    mid = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    huge = 2**80
    for url, field in ((f"/api/matches?offset={huge}", "offset"),
                       (f"/api/matches/{mid}/events?from={huge}&seat=referee", "from"),
                       (f"/api/matches/{mid}/events?to={huge}", "to"),
                       (f"/api/matches/{mid}/state?at={huge}", "at"),
                       (f"/api/log/leaves?from={huge}", "from"),
                       (f"/api/log/tree-head?size={huge}", "size")):
        res = client.get(url)
        assert res.status_code == 400, (url, res.get_json())
        error = res.get_json()["error"]
        assert error["code"] == "limit_exceeded" and error["field"] == field, url
        path = "/api" + url.split("?")[0].removeprefix("/api").replace(mid, "{match_id}")
        param = next(p for p in spec["paths"][path]["get"]["parameters"] if p["name"] == field)
        assert param["schema"]["maximum"] == 2**53 - 1, url
    assert client.get(f"/api/matches/{mid}/events?from={2**53 - 1}&seat=referee").get_json()["events"] == []
