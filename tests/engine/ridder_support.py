"""Helpers for the Ridder-toernooi tests: a physical table driven event by event."""

from __future__ import annotations

from typing import Any

from engine import match as M
from engine.ridder_toernooi import GAME

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien", "Gijs", "Hanna", "Ivo", "Joke"]

#: seat 0: Apollonius (K01) and Ridder 3; Podica (L02) and Minne 3
#: seat 1: Harald (K02) and Ridder 4; Ilsa (L01) and Minne 4
DEAL2 = {"knights": [["K01", "K03"], ["K02", "K04"]], "ladies": [["L02", "L03"], ["L01", "L04"]]}


class Table:
    def __init__(self, players: int = 2, options: dict[str, Any] | None = None) -> None:
        setup = M.make_setup(GAME.id, NAMES[:players], options or {})
        self.ms = M.start(setup)
        self.log = [{"seq": 1, "type": "setup", "seat": None, "data": setup}]

    @property
    def s(self):
        return self.ms.state

    def ev(self, type: str, seat: int | None = None, **data: Any) -> "Table":
        canon = M.normalize_event(self.ms, type, seat, data)
        self.ms = M.apply_event(self.ms, self.ms.seq + 1, type, seat, canon)
        self.log.append({"seq": self.ms.seq, "type": type, "seat": seat, "data": canon})
        return self

    def view(self) -> dict[str, Any]:
        return self.ms.view()

    def knight(self, ident: str) -> dict[str, Any]:
        return next(k for k in self.view()["knights"] if k["id"] == ident)

    def lady(self, ident: str) -> dict[str, Any]:
        return next(x for x in self.view()["ladies"] if x["id"] == ident)

    def train_nothing(self) -> "Table":
        while self.s.phase == "train":
            k = next(i for i, p in enumerate(self.s.points) if p)
            self.ev("train", self.s.knights[k].owner, knight=GAME.kid(self.s, k), dice=0, cover=[])
        return self

    def roll(self, *faces: int) -> "Table":
        return self.ev("roll", None, faces=list(faces))

    def duel(self, seat: int, knight: str, target: str, a: list[int], d: list[int]) -> "Table":
        self.ev("challenge", seat, knight=knight, target=target)
        return self.roll(*a).roll(*d)


def started(players: int = 2, deal: dict[str, Any] | None = None, start_faces: list[int] | None = None,
            options: dict[str, Any] | None = None) -> Table:
    """Dealt, nobody trained, start roll made (seat 0 starts by default)."""
    t = Table(players, options)
    if deal is None:
        per = 2 if players <= 5 else 1
        ks = [f"K{i:02d}" for i in range(1, 11)]
        ls = [f"L{i:02d}" for i in range(1, 11)]
        deal = {"knights": [ks[s * per:(s + 1) * per] for s in range(players)],
                "ladies": [ls[s * per:(s + 1) * per] for s in range(players)]}
        if players == 2:
            deal = DEAL2
    if options and options.get("ladies") is False:
        deal = {"knights": deal["knights"], "ladies": []}
    t.ev("deal", None, **deal)
    t.train_nothing()
    faces = start_faces or [6] + [1] * (players - 1)
    t.ev("start_roll", None, faces=faces)
    return t


def day_with_all(t: Table) -> Table:
    """Every seat sends all its knights; kerchiefs go to the first legal target."""
    while t.s.phase == "participate":
        seat = t.s.turn
        own = [GAME.kid(t.s, k) for k, kn in enumerate(t.s.knights) if kn.owner == seat and kn.status != "out_of_tournament"]
        t.ev("participate", seat, knights=own)
    while t.s.phase in ("kerchief", "prefer"):
        seat = t.s.turn
        move = GAME.legal_moves(t.s, seat)[0]
        t.ev(move.type, seat, **move.data)
    return t


def printed_duel() -> Table:
    """The rules' printed example up to its duel: Apollonius (seat 0, one die
    trained onto field 1) has challenged Harald; nobody has rolled yet."""
    t = Table()
    t.ev("deal", None, **DEAL2)
    t.ev("train", 0, knight="K01", dice=1, cover=[1])
    t.train_nothing()
    t.ev("start_roll", None, faces=[5, 2])
    day_with_all(t)
    t.ev("challenge", 0, knight="Apollonius", target="Harald")
    return t
