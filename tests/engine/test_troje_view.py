"""What Troje's view gives the pages to draw the board with (service/web/static/boards.js):
the land as Catan's ``layout``, and in ``view["troje"]`` the sea tiles, the ships,
the sea people and where Troy and Mycenae stand (the layout names them only
``special``)."""

from __future__ import annotations

from engine import registry
from engine.troje import board as TB

G = registry.get("catan-troje")
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien")


def test_the_view_says_where_troy_and_mycenae_stand_on_the_board_in_play():
    for n in (4, 6):
        s = G.setup(NAMES[:n], {})
        view = G.view(s, None)
        (doc,) = TB.builtin_boards().values()
        where = {city: list(at) for city, at in TB.city_hexes(doc).items()}
        assert view["troje"]["cities"] == where and set(where) == {"troy", "mycenae"}
        special = [h["at"] for h in view["layout"]["hexes"] if h["terrain"] == "special"]
        assert sorted(special) == sorted(where.values())  # both in play, the layout's only special hexes
