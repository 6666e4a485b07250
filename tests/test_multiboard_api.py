"""``GET /api/leagues/<id>/rounds/<r>/stream`` (service/multiboard.py): a round's boards in one stream, each
board once when it opens and again when it changes, from the matches' live feeds (let go when it ends). The
browser side is tests/test_web_multiboard.py."""

from __future__ import annotations

import json

from service.feed import feed_of
from tests.test_leagues_api import play_to_the_end, post
from workers.jobs import validate_log


def boards_in(body: str) -> list[dict]:
    return [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")]


def test_a_round_stream_sends_every_board_then_what_changed_and_lets_the_feeds_go(client, app, store):
    lid = post(client, "/api/leagues", {"name": "Night", "game": "braverats", "format": "swiss", "rounds": 2,
                                         "players": ["Ann", "Bob", "Cas", "Dee", "Eva"]})["id"]
    rnd = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
    mid = post(client, f"/api/leagues/{lid}/rounds/1/boards/1/match")["id"]
    res = client.get(f"/api/leagues/{lid}/rounds/1/stream?wait=0")
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    body = res.get_data(as_text=True)
    assert body.startswith("retry: 1000")
    sent = boards_in(body)
    assert [b["board"] for b in sent] == [1, 2] and [b["players"] for b in sent] == [x["players"] for x in rnd["boards"]]
    assert sent[0]["match"] == mid and sent[0]["seq"] == 1 and sent[0]["status"] == "in_progress"
    assert sent[1]["match"] is None and sent[1]["seq"] == 0 and sent[1]["outcome"] is None
    assert feed_of(app.extensions["kroniek"], mid) is None  # the stream ended: its feed let go
    play_to_the_end(client, mid)
    assert validate_log(store, mid)["status"] == "valid"
    post(client, f"/api/leagues/{lid}/results", {"match": mid})
    done = boards_in(client.get(f"/api/leagues/{lid}/rounds/1/stream?wait=0").get_data(as_text=True))[0]
    assert done["status"] == "finished" and done["result"]["outcome"] == "win" and done["outcome"]["ranks"] in ([1, 2], [2, 1])
    assert client.get(f"/api/leagues/{lid}/rounds/2/stream?wait=0").status_code == 404
    assert client.get("/api/leagues/nope/rounds/1/stream?wait=0").status_code == 404
    assert client.get(f"/api/leagues/{lid}/rounds/1/stream?wait=-1").status_code == 400
