"""A match as the page's own engine continues it (issue 34).

The match page runs this very package in the browser (Pyodide, in a Web
Worker: ``service/web/static/engine-worker.js``), so a tap is drawn at once
and, offline, the drawing keeps taking taps: one engine, the same rules on
both sides. The server stays the authority; what the page works out here is
shown until the server's answer confirms it or rolls it back.

A ``PageTable`` starts from what the server sends the page
(``page_payload``: the setup without the seed and the server's secret, and a
snapshot, ``engine.match.encode``), follows the server's events
(``advance``), and lays the moves waiting on the device on top (``play``):
each is checked and applied exactly as the server would (``normalize_event``,
``apply_event``), and the table is then shown as the server would show it to
that viewer (``MatchState.view``, ``scene``, ``visible_moves``,
``chance_due``).

What the page does not get, it cannot show: a snapshot goes only to a viewer
who may see the whole table (``service.api``), and a simulated match's chance
outcomes are the server's to draw (the page has no secret and no seed).

Pure: no I/O. Calls take and give JSON text, so the page's worker passes one
string each way.
"""

from __future__ import annotations

import json
from typing import Any

from . import match as M
from .core import CHANCE, KroniekError
from .text import SAID, Text, to_json

#: how many undo steps the page's snapshot keeps (an undo past them waits for the server)
PAGE_UNDO_DEPTH = 8


def dumps(value: Any) -> str:
    """JSON for the page: what the engine says (a result's reason) as its message, which the page says in its own
    language from the same catalogue (``K.say``)."""
    return json.dumps(value, separators=(",", ":"), default=_said)


def _said(value: Any) -> Any:
    if isinstance(value, SAID):
        return value.to_json()
    raise TypeError(f"{type(value).__name__} is not JSON")


def page_setup(setup: dict[str, Any]) -> dict[str, Any]:
    """A setup as the page gets it: no seed and no server secret (together they decide every draw of a
    simulated match, and the page never draws)."""
    out = {k: v for k, v in setup.items() if k != "secret"}
    out["seed"] = None
    return out


def page_payload(match_id: str, ms: M.MatchState) -> dict[str, Any]:
    """What the server sends a page's engine to start from: the match at ``ms.seq``."""
    return {"match": match_id, "seq": ms.seq, "setup": page_setup(ms.setup), "snapshot": M.encode(ms, PAGE_UNDO_DEPTH)}


def _error(exc: Exception, index: int | None = None) -> dict[str, Any]:
    if isinstance(exc, M.HistoryElided):
        out = {"code": "history_elided", "message": "this undo reaches further back than the page keeps: "
               "the server undoes it when the move is sent"}
    elif isinstance(exc, KroniekError):
        out = exc.to_dict()
        if isinstance(exc.text, SAID):  # said by the page in its language (K.say), from the same catalogue
            out["said"] = to_json(exc.text)
        rule = out.get("rule")
        if rule:
            out["rule_text"] = M.rule_text(rule)
            if out["rule_text"]:  # its text is a message of the catalogue too (N_)
                out["rule_said"] = to_json(Text(out["rule_text"]))
    else:  # a fault of the engine itself: said, never thrown across into the page
        out = {"code": "engine_fault", "message": f"{type(exc).__name__}: {exc}"}
    if index is not None:
        out["index"] = index
    return out


def _key(move: dict[str, Any]) -> str:
    return json.dumps([move.get("type"), move.get("seat"), move.get("data")], sort_keys=True, separators=(",", ":"))


class PageTable:
    """One match in one page: the server's match (``confirmed``) and the moves on top of it."""

    def __init__(self, payload_json: str) -> None:
        payload = json.loads(payload_json)
        self.match = payload["match"]
        self.setup = payload["setup"]
        self.confirmed = M.decode(self.setup, payload["snapshot"])
        #: (move key, the match after it) for the moves last played on top of ``confirmed``
        self._chain: list[tuple[str, M.MatchState]] = []

    @property
    def seq(self) -> int:
        return self.confirmed.seq

    def advance(self, events_json: str) -> str:
        """Follow the server's events after ``confirmed`` (as the log holds them, for a viewer who sees them
        whole), each checked by the rules as a replay checks it. Answers ``{"seq"}``, or ``{"error"}`` when
        they do not follow on (the page then asks for a new snapshot)."""
        ms = self.confirmed
        try:
            for event in json.loads(events_json):
                if event["seq"] <= ms.seq:
                    continue
                if event["seq"] != ms.seq + 1:
                    raise M.MalformedEvent(f"seq {ms.seq + 1} is missing", field="seq")
                data = M.normalize_event(ms, event["type"], event["seat"], event["data"], by_server=True)
                if data != event["data"]:
                    raise M.MalformedEvent(f"seq {event['seq']}: data is not in canonical form", field="data")
                ms = M.apply_event(ms, event["seq"], event["type"], event["seat"], data)
        except Exception as exc:  # noqa: BLE001 - the page starts again from a snapshot
            return json.dumps({"error": _error(exc), "seq": self.confirmed.seq})
        if ms is not self.confirmed:
            self.confirmed = ms
            self._chain = []
        return json.dumps({"seq": ms.seq})

    def payload(self) -> str:
        """``confirmed`` as a page payload again: what the page keeps to open offline."""
        return json.dumps(page_payload(self.match, self.confirmed), separators=(",", ":"))

    def play(self, moves_json: str, viewer_json: str) -> str:
        """The table after the waiting ``moves`` (``{type, seat, data}``, in order), as ``viewer`` (a seat,
        ``"referee"`` or null) sees it: ``seq``, ``view``, ``scene``, ``moves`` (the legal moves that viewer
        may see), ``chance`` (the kind of chance outcome due), ``server_draws`` (a simulated match at a chance
        node: only the server goes on from here). A move the rules refuse stops there: ``refused`` says which
        (``index``) and why, and the table is shown as it was before it."""
        moves = json.loads(moves_json)
        viewer = json.loads(viewer_json)
        ms, refused = self._play(moves)
        out = self.show(ms, viewer)
        if refused is not None:
            out["refused"] = refused
        return dumps(out)

    def _play(self, moves: list[dict[str, Any]]) -> tuple[M.MatchState, dict[str, Any] | None]:
        ms, kept = self.confirmed, 0
        for move, (key, after) in zip(moves, self._chain):
            if _key(move) != key:
                break
            ms, kept = after, kept + 1
        del self._chain[kept:]
        for index in range(kept, len(moves)):
            move = moves[index]
            try:
                data = M.normalize_event(ms, move["type"], move.get("seat"), move.get("data"))
                after = M.apply_event(ms, ms.seq + 1, move["type"], move.get("seat"), data)
            except Exception as exc:  # noqa: BLE001 - said to the page, which rolls the move back
                return ms, _error(exc, index)
            self._chain.append((_key(move), after))
            ms = after
        return ms, None

    @staticmethod
    def show(ms: M.MatchState, viewer: Any) -> dict[str, Any]:
        """The table at ``ms`` as ``viewer`` sees it, exactly as the API answers for it."""
        scene = M.scene(ms, viewer)
        return {
            "seq": ms.seq,
            "view": ms.view(viewer),
            "scene": scene,
            "moves": M.visible_moves(ms, viewer),
            "chance": M.chance_due(ms),
            "server_draws": ms.simulated and ms.result is None and CHANCE in ms.game.actors(ms.state),
        }
