"""Helpers for the Troubadour tests (no tests here): a match recorded through
the framework, and positions built directly for the rule tests."""

from __future__ import annotations

from typing import Any

import pytest

import engine.troubadour  # noqa: F401,I001  (registers the game until engine/__init__.py imports it)
from engine import match as M
from engine import registry
from engine.core import RuleViolation
from engine.troubadour.cards import CARD_INDEX, NOBLE_INDEX, SUITS
from engine.troubadour.state import FACE_DOWN, ORDERED, PLAY, UNORDERED, Player, State, Turn, cons_from

GAME = registry.get("troubadour")
NAMES = ("Ann", "Bob", "Cas", "Dirk")


class Rec:
    """A match recorded through the framework (normalize, apply, chance draws), with its log."""

    def __init__(self, players: int = 2, options: dict[str, Any] | None = None, mode: str = "physical",
                 seed: int | None = None, state: State | None = None):
        self.setup = M.make_setup("troubadour", list(NAMES[:players]), options or {}, mode=mode, seed=seed)
        self.ms = M.start(self.setup)
        if state is not None:
            self.ms = M.MatchState(game=GAME, setup=self.setup, seq=1, state=state)
        self.log: list[dict[str, Any]] = [{"seq": 1, "type": "setup", "seat": None, "data": self.setup}]
        self.steps: list[tuple[Any, str, Any, dict[str, Any], Any]] = []
        self.draw_chance()

    @property
    def state(self) -> State:
        return self.ms.state

    def _apply(self, type_: str, seat: Any, data: dict[str, Any]) -> None:
        before = self.ms.state
        self.ms = M.apply_event(self.ms, self.ms.seq + 1, type_, seat, data)
        self.log.append({"seq": self.ms.seq, "type": type_, "seat": seat, "data": data})
        self.steps.append((before, type_, seat, data, self.ms.state))

    def add(self, type_: str, seat: Any = None, data: dict[str, Any] | None = None) -> dict[str, Any]:
        norm = M.normalize_event(self.ms, type_, seat, data or {})
        self._apply(type_, seat, norm)
        self.draw_chance()
        return norm

    def draw_chance(self) -> None:
        for type_, seat, data in M.chance_events(self.ms, self.ms.seq + 1):
            self._apply(type_, seat, data)

    def reject(self, type_: str, seat: Any = None, data: dict[str, Any] | None = None, rule: str | None = None) -> RuleViolation:
        """The event is refused with a RuleViolation and nothing changes."""
        before, log = self.ms, list(self.log)
        with pytest.raises(RuleViolation) as exc:
            self.add(type_, seat, data)
        assert self.ms is before and self.log == log
        if rule is not None:
            assert exc.value.rule == rule, exc.value.message
        assert exc.value.message
        return exc.value

    # -- shorthands -----------------------------------------------------------------
    def deal(self, *faces: list[str]) -> None:
        for seat, cards in enumerate(faces):
            self.add("deal", seat, {"face_up": cards})

    def reveal(self, *trios: list[str]) -> None:
        self.add("reveal", None, {"nobles": [list(t) for t in trios]})

    def flip(self, card: str) -> None:
        self.add("flip", None, {"card": card})

    def build(self, seat: int, card: str, to: Any, **extra: Any) -> None:
        self.add("build", seat, {"card": card, "to": to, **extra})

    def end(self, seat: int) -> None:
        self.add("end_turn", seat, {})

    def describe_last(self) -> str:
        before, type_, seat, data, after = self.steps[-1]
        return str(GAME.describe(before, type_, seat, data, after))

    def annotate_last(self) -> list[dict[str, Any]]:
        before, type_, seat, data, after = self.steps[-1]
        return GAME.annotate(before, type_, seat, data, after)

    def view(self, seat: Any = None) -> dict[str, Any]:
        return GAME.view(self.state, seat)


def card(name: str) -> int:
    return CARD_INDEX[name]


def _player(villages, castles, discard, draw) -> Player:
    vill = tuple(tuple(FACE_DOWN if c == "?" else card(c) for c in v) for v in villages)
    heights = tuple(castles.get(s, 0) for s in SUITS)
    located = 0
    for v in vill:
        for c in v:
            if c >= 0:
                located |= 1 << c
    for s, h in enumerate(heights):
        for r in range(h):
            located |= 1 << (s * 10 + r)
    for c in discard:
        located |= 1 << card(c)
    segs = []
    for seg in draw:
        if seg == "rest":
            segs.append("rest")
        elif seg[0] == "order":
            cards = [card(c) for c in seg[1]]
            for c in cards:
                located |= 1 << c
            segs.append((ORDERED, cons_from(cards), 0, len(cards)))
        else:  # ("set", cards, unknown)
            mask = 0
            for c in seg[1]:
                mask |= 1 << card(c)
            located |= mask
            segs.append((UNORDERED, mask, seg[2], len(seg[1]) + seg[2]))
    pool = ((1 << 40) - 1) & ~located
    down = sum(1 for v in vill for c in v if c == FACE_DOWN)
    unknown_in_sets = sum(s[2] for s in segs if s != "rest" and s[0] == UNORDERED)
    rest = pool.bit_count() - down - unknown_in_sets
    assert rest >= 0, "more unknown places than unseen cards"
    if "rest" not in segs:
        segs.append("rest")
    segs = [((UNORDERED, 0, rest, rest) if s == "rest" else s) for s in segs]
    segs = [s for s in segs if s[3] > 0]
    return Player(vill, heights, cons_from(list(reversed([card(c) for c in discard]))), len(discard), tuple(segs),
                  sum(s[3] for s in segs), pool)


def position(
    villages: list[list[list[str]]] | None = None,
    castles: list[dict[str, int]] | None = None,
    discard: list[list[str]] | None = None,
    draw: list[list[Any]] | None = None,
    trios: list[list[str]] | None = None,
    players: int = 2,
    current: int = 0,
    used: list[str] = (),
    std: bool = False,
    options: dict[str, Any] | None = None,
) -> Rec:
    """A match in the middle of a turn of ``current``: villages as lists bottom
    first ("?" = face down), castles as {suit: height}, discard bottom first,
    draw as segments top first ("rest" = every unseen card not face down in a
    village; ("order", [cards]); ("set", [cards], unknown count)). Every card not
    placed is unseen. Trios default to jacks of clubs etc. per seat."""
    n = players
    villages = villages or [[[] for _ in range(5)] for _ in range(n)]
    castles = castles or [{} for _ in range(n)]
    discard = discard or [[] for _ in range(n)]
    draw = draw or [["rest"] for _ in range(n)]
    trios = trios or [["JC", "QC", "QH"] for _ in range(n)]
    ps = tuple(_player(villages[s], castles[s], discard[s], draw[s]) for s in range(n))
    tri = tuple(tuple(sorted(NOBLE_INDEX[x] for x in t)) for t in trios)
    order = ((current,),) + tuple((s,) for s in range(n) if s != current)
    mask = 0
    for x in used:
        mask |= 1 << NOBLE_INDEX[x]
    opts = {"tie_break": "die", "turn_order": "rank", "protected_attack": "stopped", **(options or {})}
    state = State(
        n=n, tie_break=opts["tie_break"], turn_order=opts["turn_order"], phase=PLAY, round=1, players=ps,
        secret=(None,) * n, trios=tri, reveals=(tri,), order=order, pos=0, turn=Turn(mask, std, None, None, 0),
        due=(), winner=None, start_castles=tuple(sum(p.castles) for p in ps), names=NAMES[:n],
        protected_attack=opts["protected_attack"],
    )
    return Rec(players=n, options=opts, state=state)


def started(players: int = 2, options: dict[str, Any] | None = None) -> Rec:
    """A physical match with its villages dealt (face up: village v of every
    player shows its v-th card of 10S, 9H, 8S, 7H, 6S... per seat)."""
    rec = Rec(players, options)
    faces = [["10S", "10H", "10D", "10C", "9S"], ["9H", "9D", "9C", "8S", "8H"],
             ["8D", "8C", "7S", "7H", "7D"], ["7C", "6S", "6H", "6D", "6C"]]
    rec.deal(*faces[:players])
    return rec
