"""Every game's pages fit a phone and can be tapped (issue 34, part 3): at
390x844 in Debian's Chromium, the new-match form, the match page as its
recorder and as a watcher, the review page, and each game's editors of its
own data: nothing scrolls sideways, not even inside a board, and every tap
target is at least 24x24 CSS px with no other target within 12 px of its
centre (tests/support/fit.py). Checked at the start of a match and twice
later on, so a board is seen with its spots, its roads and its robber."""

from __future__ import annotations

import pytest

from engine.game_data import data_kinds
from engine.registry import get

from .support.fit import problems
from .support.games import project_games
from .test_web import PHONE, api, context, page_of
from .test_web_pages import play_some

pytestmark = pytest.mark.slow(15)

#: how many events into each match the pages are checked, after the set-up
STEPS = (0, 12, 40)


def check(page, where: str, ready: str) -> list[str]:
    page.wait_for_selector(ready, timeout=30_000)
    page.wait_for_function("() => !document.querySelector('.loading, [aria-busy=true]')", timeout=10_000)
    return [f"{where}: {p}" for p in problems(page)]


@pytest.mark.parametrize("game_id", sorted(g.id for g in project_games()))
def test_every_page_of_a_game_fits_a_phone_and_every_target_takes_a_finger(server, browser, game_id):
    base, token = server
    game = get(game_id)
    players = ["Ann", "Bob", "Cor", "Dirk"][:4 if game_id == "catan-troje" else max(game.min_players, 2)]
    recorder = page_of(context(browser, token, viewport=PHONE))
    watcher = page_of(context(browser, None, viewport=PHONE))
    found = []
    recorder.goto(f"{base}/record?game={game_id}")
    found += check(recorder, "the new-match form", "#options .field, #options p")
    for kind in data_kinds(game).values():
        if kind.option is None:
            continue
        recorder.goto(f"{base}/games/{game_id}/{kind.name}/new")
        found += check(recorder, f"the {kind.title} editor", "#editor > :not(p.muted)")
    match = api(base, token, "POST", "/matches", json={"game": game_id, "players": players}).json()["id"]
    done = 1
    for step in STEPS:
        if step > done:
            play_some(base, token, match, step - done, seed=step)
            done = api(base, token, "GET", f"/matches/{match}").json()["seq"]
        recorder.goto(f"{base}/matches/{match}")
        found += check(recorder, f"the match page, recording, seq {done}", f"#match[data-seq='{done}'] #board > *")
        watcher.goto(f"{base}/matches/{match}")
        found += check(watcher, f"the match page, watching, seq {done}", f"#match[data-seq='{done}'] #board > *")
        recorder.goto(f"{base}/matches/{match}/review")
        found += check(recorder, f"the review, seq {done}", "#review[data-seq]")
    assert not found, "\n".join(found)
