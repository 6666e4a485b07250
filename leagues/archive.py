"""A league's archive, and the check anyone can run on it without the server.

The archive is JSON lines, one record each:

- ``header``: ``format``, ``version``, ``league``, ``game``, ``exported_at``
- ``event``: ``stream`` (``l`` the league, ``m`` a match), ``id``, ``event``
  (the envelope with its ``hash``; a stream sealed with commitments also
  carries each event's ``salt`` and ``commitment``), in seq order per stream
- ``unfinished``: a linked match still in play (``id``, ``seq``, ``head``):
  its log stays private until it ends, so it is named, not included
- ``tree_head``: the signed head of the transparency log (Ed25519)
- ``proof``: an inclusion proof of a stream's head in that tree (``stream``,
  ``id``, ``leaf_index``, ``tree_size``, ``leaf``, ``leaf_hash``, ``audit_path``)
- ``footer``: ``records``, the number of records before it (a cut-off file
  is caught)

``verify_archive`` trusts nothing in it but the public key it is given: it
recomputes every event's hash and commitment and every chain (with the
audit's own checker), replays the league with its
reducer and every match with its game's engine, checks every result against
the match log it came from, and checks each stream's head against the signed
tree. Each problem names where it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from engine.core import KroniekError
from replays.audit import ChainCheck, break_text
from replays.hashing import COMMITMENTS, canonical
from replays.merkle import leaf_hash, proof_from_hex, verify_inclusion
from replays.signing import verify_tree_head

from . import league as L

FORMAT = "kroniek-league-archive"
VERSION = 1


def ranks_from_result(result: dict[str, Any], players: int) -> list[int]:
    """A match result as league ranks: winners 1, the others 2; a draw all 1."""
    if result["outcome"] == "draw":
        return [1] * players
    return [1 if seat in result["winners"] else 2 for seat in range(players)]


def leaf_record(stream: str, stream_id: str, seq: int, head: str) -> dict[str, Any]:
    """What the transparency log holds for a stream head (its leaf's data is
    the canonical JSON of this)."""
    return {"kind": stream, "id": stream_id, "seq": seq, "head": head}


@dataclass
class Problem:
    where: str
    problem: str

    def to_dict(self) -> dict[str, str]:
        return {"where": self.where, "problem": self.problem}

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


@dataclass
class ArchiveReport:
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(
        default_factory=lambda: {"events": 0, "commitments": 0, "matches": 0, "results": 0, "proofs": 0})
    #: how many streams use each hash scheme (``commitments``, ``legacy``)
    schemes: dict[str, int] = field(default_factory=dict)
    league: str | None = None
    tree_head: dict[str, Any] | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    def add(self, where: str, problem: str) -> None:
        self.problems.append(Problem(where, problem))

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "league": self.league,
            "problems": [p.to_dict() for p in self.problems],
            "notes": self.notes,
            "checked": self.checked,
            "schemes": self.schemes,
            "tree_size": self.tree_head and self.tree_head.get("tree_size"),
        }


def _name(stream: str, stream_id: str) -> str:
    return f"{'league' if stream == 'l' else 'match'} {stream_id}"


def _check_chain(report: ArchiveReport, stream: str, stream_id: str, events: list[dict[str, Any]]) -> bool:
    """Seqs 1, 2, 3 … in order, each pointing at its predecessor, each hash
    its committed fields', each commitment its data's: the audit's checker
    and wording (``replays.audit``; every exported event carries its salt).
    Reports the first break (what follows it cannot be trusted)."""
    check = ChainCheck(complete=True)
    for event in events:
        brk = check.step(event)
        if brk is not None:
            report.add(f"{_name(stream, stream_id)} seq {brk.seq}", break_text(brk))
            return False
    report.checked["events"] += check.seq
    report.checked["commitments"] += check.data_checked if check.scheme == COMMITMENTS else 0
    if check.scheme is not None:
        report.schemes[check.scheme] = report.schemes.get(check.scheme, 0) + 1
    return True


def _check_result(report: ArchiveReport, where: str, data: dict[str, Any], log: list[dict[str, Any]] | None) -> None:
    from engine import match as M

    match_id = data.get("match")
    if log is None:
        report.add(where, f"the result of match {match_id} is in the league, but the match's log is not in the archive")
        return
    seq, head = data.get("seq"), data.get("head")
    if not isinstance(seq, int) or not 1 <= seq <= len(log) or log[seq - 1]["hash"] != head:
        report.add(where, f"names match {match_id} at seq {seq} with head {str(head)[:12]}…, "
                          "which is not an event of the match's log")
        return
    if seq != len(log):
        report.add(where, f"match {match_id} has events after seq {seq}, where its result was taken")
    try:
        ms = M.replay(log[:seq])
    except KroniekError as exc:
        report.add(f"match {match_id}", f"its log does not replay: {exc.message}")
        return
    if ms.status != "finished" or ms.result is None:
        report.add(where, f"match {match_id} had not finished at seq {seq}")
        return
    result = ms.result_english
    players = list(ms.players)
    if list(data.get("players", ())) != players:
        report.add(where, f"players {data.get('players')} are not match {match_id}'s {players}")
    ranks = ranks_from_result(result, len(players))
    if list(data.get("ranks", ())) != ranks or list(data.get("scores", ())) != list(result["scores"]):
        report.add(where, f"says ranks {data.get('ranks')} and scores {data.get('scores')}, "
                          f"but match {match_id}'s log gives ranks {ranks} and scores {result['scores']}")
    report.checked["results"] += 1


def verify_archive(records: Iterable[dict[str, Any]], public_key: str | None = None) -> ArchiveReport:
    """Check a league archive; ``public_key`` (base64 Ed25519) pins the
    server's key. Without it the tree head's own key is used and the report
    says so: that proves the archive intact, not who signed it."""
    report = ArchiveReport()
    streams: dict[tuple[str, str], list[dict[str, Any]]] = {}
    unfinished: dict[str, dict[str, Any]] = {}
    proofs: list[dict[str, Any]] = []
    tree_head: dict[str, Any] | None = None
    header: dict[str, Any] | None = None
    count = 0
    footer: int | None = None
    for n, record in enumerate(records, start=1):
        if footer is not None:
            report.add(f"record {n}", "comes after the footer")
        kind = record.get("kind") if isinstance(record, dict) else None
        if kind == "header":
            header = record
        elif kind == "event" and isinstance(record.get("event"), dict):
            streams.setdefault((record.get("stream"), record.get("id")), []).append(record["event"])
        elif kind == "unfinished":
            unfinished[record.get("id")] = record
        elif kind == "tree_head":
            tree_head = record
        elif kind == "proof":
            proofs.append(record)
        elif kind == "footer":
            footer = record.get("records")
            if footer != count:
                report.add("footer", f"says {footer} records, the archive has {count}: records were added or removed")
            continue
        else:
            report.add(f"record {n}", f"unknown or malformed record (kind {kind!r})")
        count += 1
    if header is None or header.get("format") != FORMAT:
        report.add("header", f"missing, or not a {FORMAT}")
        return report
    if footer is None:
        report.add("footer", "missing: the archive was cut off")
    league_id = header.get("league")
    report.league = league_id

    # 1. every chain
    intact = {key: _check_chain(report, *key, events) for key, events in streams.items()}

    # 2. the league, replayed by its reducer, and every result against its match's log
    league_log = streams.get(("l", league_id))
    if not league_log:
        report.add(f"league {league_id}", "its log is not in the archive")
        return report
    # Which matches belong to the league, and each result against its match's
    # log, read from the events themselves: a broken chain above is reported
    # once, without hiding what else is wrong.
    linked = {e["data"].get("match") for e in league_log
              if isinstance(e, dict) and e.get("type") == "link" and isinstance(e.get("data"), dict)}
    for event in league_log:
        if isinstance(event, dict) and event.get("type") == "result" and isinstance(event.get("data"), dict):
            where = f"league {league_id} seq {event.get('seq')} (result)"
            _check_result(report, where, event["data"], streams.get(("m", event["data"].get("match"))))
    if intact[("l", league_id)]:
        at = 1
        try:
            if league_log[0]["type"] != "setup":
                raise KroniekError("a league log starts with its setup")
            state = L.start(league_log[0]["data"])
            for event in league_log[1:]:
                at = event["seq"]
                state = L.apply(state, event["type"], event["data"])
        except KroniekError as exc:
            report.add(f"league {league_id} seq {at}", f"the league's rules refuse it: {exc.message}")
    for (stream, stream_id), events in streams.items():
        if stream == "m":
            report.checked["matches"] += 1
            if stream_id not in linked:
                report.add(f"match {stream_id}", "is in the archive but not linked to a board of the league")
    for match_id in linked - {i for s, i in streams if s == "m"} - set(unfinished):
        report.add(f"match {match_id}", "is linked to the league but neither its log nor its state is in the archive")

    # 3. the signed tree head, and every stream's head in it
    if tree_head is None:
        report.add("tree_head", "missing: nothing ties the archive to the server's published log")
        return report
    report.tree_head = tree_head
    if public_key is None:
        report.notes.append("the tree head was checked with the key it carries; pass the server's public key "
                            "to check who signed it")
    if not verify_tree_head(tree_head, public_key):
        report.add("tree_head", "its signature does not verify" + (" with the given key" if public_key else ""))
    covered: set[tuple[str, str]] = set()
    for proof in proofs:
        stream, stream_id = proof.get("stream"), proof.get("id")
        where = f"proof for {_name(stream, stream_id)}"
        leaf = proof.get("leaf") or {}
        if leaf.get("kind") != stream or leaf.get("id") != stream_id:
            report.add(where, "its leaf is another stream's")
            continue
        events = streams.get((stream, stream_id))
        seq = leaf.get("seq")
        if not events or not isinstance(seq, int) or not 1 <= seq <= len(events) or events[seq - 1]["hash"] != leaf.get("head"):
            report.add(where, f"the tree holds seq {seq} with head {str(leaf.get('head'))[:12]}…, "
                              "which the archive's log does not have: the log was changed after it was logged")
            continue
        if stream == "m" and seq != len(events):
            report.add(where, f"the tree holds the match's final head at seq {seq}, the archive's log goes on to seq {len(events)}")
        if stream == "l" and seq != len(events):
            report.notes.append(f"league events after seq {seq} are not in this tree head yet")
        computed = leaf_hash(canonical(leaf_record(stream, stream_id, seq, leaf["head"])).encode())
        try:
            path = proof_from_hex(proof.get("audit_path") or [])
            root = bytes.fromhex(tree_head["root_hash"])
            ok = (proof.get("tree_size") == tree_head.get("tree_size")
                  and verify_inclusion(computed, proof.get("leaf_index"), tree_head["tree_size"], path, root))
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok:
            report.add(where, "does not prove the head is in the signed tree")
            continue
        covered.add((stream, stream_id))
        report.checked["proofs"] += 1
    for key in streams:
        if key not in covered and not any(p.problem and p.where.startswith(f"proof for {_name(*key)}") for p in report.problems):
            report.add(_name(*key), "has no inclusion proof in the signed tree")
    return report
