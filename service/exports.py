"""What a league exports: play rows for play-logging apps, and the whole
archive with its proofs for ``kroniek audit verify``."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any, Iterator

from engine import match as M
from engine.core import KroniekError
from engine.text import from_json
from leagues.archive import FORMAT, VERSION
from replays.hashing import public, utc_now

from .leagues import LeagueService


def start_player(ms: M.MatchState, log: list[dict[str, Any]]) -> int | None:
    """The seat that made the first move; None where the seats move at once
    (a game says so with a ``start_player(log)`` of its own)."""
    own = getattr(ms.game, "start_player", None)
    if own is not None:
        return own(log)
    for event in log[1:]:
        kind = ms.game.event_types.get(event["type"])
        if kind is not None and kind.actor == "seat" and event["seat"] is not None:
            return event["seat"]
    return None


def play_rows(leagues: LeagueService, league_id: str, player: str | None = None) -> list[dict[str, Any]]:
    """One row per board with an outcome: date, players, scores, ranks,
    winners and start player, the fields play-logging apps import; with
    ``player``, only that player's boards. ``started_at``/``finished_at``: the
    match's first and last event (None for a forfeit)."""
    state = leagues.state(league_id)
    rows = []
    for rnd in state.rounds:
        for number, board in enumerate(rnd.boards, start=1):
            outcome = board.outcome
            if outcome is None or (player is not None and player not in board.players):
                continue
            row: dict[str, Any] = {
                "date": None, "game": state.game, "league": league_id, "round": rnd.number, "board": number,
                "match": board.match, "players": list(board.players), "scores": None,
                "ranks": list(outcome.ranks), "winners": [p for p, r in zip(board.players, outcome.ranks) if r == 1],
                "start_player": None, "forfeit": getattr(outcome, "forfeit", None),
                "started_at": None, "finished_at": None,
            }
            if row["forfeit"] is not None:
                row["winners"] = [p for p in board.players if p not in (outcome.forfeited or ())]
            if board.match is not None and row["forfeit"] is None:
                ms = leagues.matches.current(board.match)  # the service's cached state, not a fresh replay
                log = leagues.matches.store.events(board.match, 1, ms.seq)
                seat = start_player(ms, log)
                row["date"] = log[-1]["recorded_at"][:10]
                row["started_at"], row["finished_at"] = log[0]["recorded_at"], log[-1]["recorded_at"]
                row["scores"] = (ms.result_dict or {}).get("scores")
                row["start_player"] = board.players[seat] if seat is not None else None
            rows.append(row)
    return rows


def player_record(leagues: LeagueService, league_id: str, player: str) -> dict[str, Any]:
    """One player of a league: each round they were paired in (the board, their seat, the others, the
    match, how it ended for them and the points it gave), their score against each opponent (head to
    head), and their points. ``NotFound`` for a name the league does not have."""
    from leagues.standings import player_points

    from .errors import NotFound

    state = leagues.state(league_id)
    if player not in state.players:
        raise NotFound(f"league {league_id} has no player {player!r}")
    rounds: list[dict[str, Any]] = []
    meetings: dict[str, dict[str, Any]] = {}
    for rnd in state.rounds:
        if rnd.bye == player:
            gained = player_points([r for r in state.results() if r.round == rnd.number and r.bye
                                    and r.players == (player,)], state.rules, (player,)).get(player, 0)
            rounds.append({"round": rnd.number, "board": None, "seat": None, "opponents": [], "match": None,
                           "outcome": "bye", "points": _num(gained)})
            continue
        for number, board in enumerate(rnd.boards, start=1):
            if player not in board.players:
                continue
            seat = board.players.index(player)
            others = [p for p in board.players if p != player]
            outcome, points = None, None
            if board.outcome is not None:
                mine = board.outcome.ranks[seat]
                best = min(board.outcome.ranks)
                outcome = ("forfeit won" if player not in board.outcome.forfeited else "forfeit lost") \
                    if board.outcome.forfeit is not None else \
                    "draw" if all(r == mine for r in board.outcome.ranks) else "win" if mine == best else "loss"
                points = _num(player_points([board.outcome], state.rules, board.players).get(player, 0))
                for other, rank in zip(board.players, board.outcome.ranks):
                    if other == player:
                        continue
                    h2h = meetings.setdefault(other, {"opponent": other, "games": 0, "wins": 0, "draws": 0,
                                                      "losses": 0})
                    h2h["games"] += 1
                    h2h["wins" if mine < rank else "losses" if mine > rank else "draws"] += 1
            rounds.append({"round": rnd.number, "board": number, "seat": seat, "opponents": others,
                           "match": board.match, "outcome": outcome, "points": points})
    total = state.points().get(player, 0)
    rank = next((s.rank for s in state.standings() if s.player == player), None)
    return {"league": league_id, "name": state.name, "game": state.game, "player": player, "points": _num(total),
            "rank": rank, "rounds": rounds, "head_to_head": sorted(meetings.values(), key=lambda m: m["opponent"])}


def _num(x: Any) -> Any:
    from fractions import Fraction

    from leagues.standings import _num as as_json

    return as_json(Fraction(x))


def league_evaluation(leagues: LeagueService, league_id: str) -> dict[str, Any]:
    """Each player's accuracy and luck over the league (issue 37): from the evaluation the analysis stored for
    each of its finished matches (forfeits have none). Accuracy: the mean over all the player's judged moves
    (a match with more judged moves weighs more); luck: summed over the matches, in the game's unit.
    ``pending``: finished matches whose evaluation is not stored yet."""
    state = leagues.state(league_id)
    per: dict[str, dict[str, Any]] = {}
    pending, counted, unit = 0, 0, None
    played = [board for rnd in state.rounds for board in rnd.boards
              if board.match is not None and board.outcome is not None
              and getattr(board.outcome, "forfeit", None) is None]
    for board, ev in zip(played, leagues.matches.store.evaluations([b.match for b in played])):
        if ev is None or ev.get("method") is None:
            pending += ev is None
            continue
        counted += 1
        unit = unit or (ev.get("luck") or {}).get("unit")
        for entry in ev.get("summary", []):
            if not 0 <= entry["seat"] < len(board.players):
                continue
            me = per.setdefault(board.players[entry["seat"]], {"matches": 0, "moves": 0, "weighted": 0.0,
                                                               "luck": None, "glyphs": {}})
            me["matches"] += 1
            if entry.get("accuracy") is not None and entry.get("moves"):
                me["moves"] += entry["moves"]
                me["weighted"] += entry["accuracy"] * entry["moves"]
            if entry.get("luck") is not None:
                me["luck"] = (me["luck"] or 0.0) + entry["luck"]
            for g, n in (entry.get("glyphs") or {}).items():
                me["glyphs"][g] = me["glyphs"].get(g, 0) + n
    players = [{"player": name, "matches": me["matches"], "moves": me["moves"],
                "accuracy": round(me["weighted"] / me["moves"], 1) if me["moves"] else None,
                "luck": None if me["luck"] is None else round(me["luck"], 2), "glyphs": me["glyphs"]}
               for name, me in per.items()]
    players.sort(key=lambda p: (p["accuracy"] is None, -(p["accuracy"] or 0), p["player"]))
    return {"league": league_id, "game": state.game, "matches": counted, "pending": pending,
            "luck_unit": from_json(unit) if unit else None, "players": players}


def play_rows_csv(rows: list[dict[str, Any]]) -> str:
    """A row per player per play (the shape spreadsheet imports expect)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "game", "league", "round", "board", "match", "player", "seat", "score", "rank",
                     "winner", "start_player", "forfeit"])
    for row in rows:
        for seat, player in enumerate(row["players"]):
            writer.writerow([
                row["date"] or "", row["game"], row["league"], row["round"], row["board"], row["match"] or "",
                player, seat, "" if row["scores"] is None else row["scores"][seat], row["ranks"][seat],
                int(player in row["winners"]), int(player == row["start_player"]), row["forfeit"] or "",
            ])
    return out.getvalue()


#: BoardGameGeek's ids of the games Kroniek knows, where BGG has the game itself (for the exports' ``bggId`` and
#: ``objectid``); a game not listed is exported by name only
BGG_IDS = {"catan": 13}

#: the namespace of the exports' UUIDs: the same league exported twice gives the same ids, so an app that
#: imports both keeps one copy of each play
EXPORT_NS = uuid.UUID("6f1f7d0c-3c0e-5b6e-9a51-6b726f6e6965")


def _stamp(recorded_at: str) -> str:
    """``recorded_at`` (ISO 8601, UTC) as BG Stats writes dates: ``YYYY-MM-DD HH:MM:SS``."""
    return recorded_at[:19].replace("T", " ")


def _minutes(row: dict[str, Any]) -> int:
    from datetime import datetime

    start, end = (datetime.fromisoformat(row[k].replace("Z", "+00:00")) for k in ("started_at", "finished_at"))
    return max(0, round((end - start).total_seconds() / 60))


def _comment(row: dict[str, Any], league_name: str) -> str:
    return f"{league_name}, round {row['round']}, board {row['board']}; Kroniek match {row['match']}"


def bgstats_file(rows: list[dict[str, Any]], game: Any, league_id: str, league_name: str) -> dict[str, Any]:
    """The plays as a BG Stats play file (the JSON that app's share and import read: ``players``, ``locations``,
    ``games`` and ``plays`` with ``playerScores`` by ``playerRefId``); its field names are the app's own, as in
    the files it writes. Scores are strings there. Only boards played are plays (a forfeit is not)."""
    rows = [row for row in rows if row["forfeit"] is None]
    names = sorted({p for row in rows for p in row["players"]})
    ref = {name: i for i, name in enumerate(names, start=1)}
    cooperative = bool(getattr(game, "cooperative", False))
    scored = any(row["scores"] is not None for row in rows)
    stamp = _stamp(max(row["finished_at"] for row in rows)) if rows else None
    entry: dict[str, Any] = {"id": 1, "uuid": str(uuid.uuid5(EXPORT_NS, f"game:{game.id}")), "name": game.name,
                             "cooperative": cooperative, "highestWins": True, "noPoints": not scored,
                             "usesTeams": False}
    if game.id in BGG_IDS:
        entry["bggId"] = BGG_IDS[game.id]
    plays = []
    for row in rows:
        scores = []
        for seat, player in enumerate(row["players"]):
            score = "" if row["scores"] is None else str(row["scores"][seat])
            scores.append({"playerRefId": ref[player], "score": score, "winner": player in row["winners"],
                           "newPlayer": False, "startPlayer": player == row["start_player"],
                           "rank": row["ranks"][seat], "seatOrder": seat + 1})
        plays.append({"uuid": str(uuid.uuid5(EXPORT_NS, f"play:{league_id}:{row['round']}:{row['board']}")),
                      "playDate": _stamp(row["finished_at"]),
                      "gameRefId": 1, "locationRefId": 1, "durationMin": _minutes(row),
                      "ignored": False, "manualWinner": False,
                      "rounds": 0, "usesTeams": False, "comments": _comment(row, league_name),
                      "playerScores": scores})
    return {
        "about": "A play file for Board Game Stats, exported by Kroniek: open it with Board Game Stats to import "
                 "the plays.",
        "players": [{"id": ref[n], "uuid": str(uuid.uuid5(EXPORT_NS, f"player:{league_id}:{n}")), "name": n,
                     "isAnonymous": False, "bggUsername": ""} for n in names],
        "locations": [{"id": 1, "uuid": str(uuid.uuid5(EXPORT_NS, f"location:{league_id}")), "name": league_name}],
        "games": [entry],
        "plays": plays,
        **({"modificationDate": stamp} if stamp else {}),
    }


#: the columns of the BGG-style play CSV: BoardGameGeek's own names for a play and its players, as its
#: XML API 2 writes them (``<play date quantity length incomplete nowinstats location>``, ``<item name
#: objectid>``, ``<comments>``, ``<player username userid name startposition color score new rating win>``)
BGG_COLUMNS = ("date", "quantity", "length", "incomplete", "nowinstats", "location", "objectname", "objectid",
               "comments", "username", "userid", "name", "startposition", "color", "score", "new", "rating", "win")


def bgg_plays_csv(rows: list[dict[str, Any]], game: Any, league_name: str) -> str:
    """A row per player per play with BoardGameGeek's field names (``BGG_COLUMNS``), boards played only (a
    forfeit is no play). ``username``/``userid`` stay empty: Kroniek's names are not BGG accounts."""
    out = io.StringIO()
    writer = csv.DictWriter(out, BGG_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        if row["forfeit"] is not None:
            continue
        for seat, player in enumerate(row["players"]):
            writer.writerow({
                "date": row["finished_at"][:10], "quantity": 1,
                "length": _minutes(row), "incomplete": 0, "nowinstats": 0,
                "location": league_name, "objectname": game.name, "objectid": BGG_IDS.get(game.id, ""),
                "comments": _comment(row, league_name), "username": "", "userid": "", "name": player,
                "startposition": seat + 1, "color": "",
                "score": "" if row["scores"] is None else row["scores"][seat], "new": 0, "rating": 0,
                "win": int(player in row["winners"]),
            })
    return out.getvalue()


def archive_records(leagues: LeagueService, log: Any, signing_key: Any, league_id: str) -> Iterator[dict[str, Any]]:
    """The archive's records (see ``leagues.archive``): the league's log, the
    logs of its finished matches, a signed tree head, and the inclusion proof
    of each of those streams' heads in it."""
    # Read straight from the log, not through the reducer: an archive of a
    # league whose log no longer replays must still be made, to show where.
    league_log = leagues.events(league_id)
    yield {"kind": "header", "format": FORMAT, "version": VERSION, "league": league_id,
           "game": league_log[0]["data"].get("game"), "exported_at": utc_now()}
    count = 1
    for event in league_log:
        yield {"kind": "event", "stream": "l", "id": league_id, "event": public(event)}
        count += 1
    streams: list[tuple[str, str, int]] = [("l", league_id, len(league_log))]
    linked = dict.fromkeys(e["data"].get("match") for e in league_log if e["type"] == "link")
    for match_id in filter(None, linked):
        match_log = leagues.matches.store.events(match_id)
        if not match_log:
            continue  # verify reports a linked match without a log
        try:
            finished = leagues.matches.current(match_id).status == "finished"
        except KroniekError:
            finished = True  # a log that no longer replays is shown whole, so verify can say where
        if not finished:
            yield {"kind": "unfinished", "id": match_id, "seq": len(match_log), "head": match_log[-1]["hash"]}
            count += 1
            continue
        for event in match_log:
            yield {"kind": "event", "stream": "m", "id": match_id, "event": public(event)}
            count += 1
        streams.append(("m", match_id, len(match_log)))
    head = log.tree_head(signing_key)
    yield {"kind": "tree_head", **head}
    count += 1
    for stream, stream_id, seq in streams:
        index = log.index_of(stream, stream_id, seq)
        if index is None or index >= head["tree_size"]:
            continue  # not logged yet (a match the worker has not validated): verify says so
        yield {"kind": "proof", "stream": stream, "id": stream_id, **log.inclusion(index, head["tree_size"])}
        count += 1
    yield {"kind": "footer", "records": count}
