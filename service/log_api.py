"""HTTP endpoints of the transparency log (``replays.translog``): signed tree
heads, the leaves, and inclusion and consistency proofs. All are public reads.

A verifier pins the public key (``/api/log/public-key``) once, then checks
each signed tree head with it (``replays.signing.verify_tree_head``) and each
proof against the head's ``root_hash`` (``replays.merkle.verify_inclusion`` /
``verify_consistency``, or any RFC 6962 library), recomputing the leaf hash
from the leaf record (``replays.translog.record_leaf_hash``).
"""

from __future__ import annotations

import base64
from typing import Any

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from leagues import league as L
from replays.signing import key_id, public_key_b64
from replays.translog import LogCorrupt, TransparencyLog

from . import schemas as S
from .api import _doc_errors
from .errors import NotFound
from .gate import Blueprint

transparency = Blueprint(
    "transparency", __name__, url_prefix="/api",
    description="The transparency log: a Merkle tree (RFC 6962) over the heads of every match and league "
    "stream, its Ed25519-signed tree heads, and inclusion and consistency proofs",
)

MAX_LEAVES = 1000
#: the largest leaf index or tree size a request may name (an integer JSON keeps exactly)
MAX_INDEX = 2**53 - 1
HEX64 = {"pattern": "^[0-9a-f]{64}$"}


def tlog() -> TransparencyLog:
    return current_app.extensions["kroniek.log"]


def signing_key():
    key = current_app.extensions.get("kroniek.signing_key")
    if key is None:
        from .keys import signing_key as process_key

        key = process_key()
    return key


# -- schemas -----------------------------------------------------------------------


class TreeHeadOut(Schema):
    tree_size = fields.Integer(required=True, metadata={"description": "leaves covered"})
    root_hash = fields.String(required=True, metadata={"description": "RFC 6962 root, 64 hex", **HEX64})
    timestamp = fields.Integer(required=True, metadata={"description": "when it was signed, ms since the epoch"})
    signature = fields.String(required=True, metadata={
        "description": "base64 Ed25519 signature over the UTF-8 of "
        '{"root_hash":"<hex>","timestamp":<ms>,"tree_size":<n>,"v":1} (compact JSON, sorted keys)'})
    key_id = fields.String(required=True, metadata={"description": "hex SHA-256 of the raw public key"})
    public_key = fields.String(required=True, metadata={
        "description": "base64 raw public key (a convenience: pin the one from /api/log/public-key)"})


class PublicKeyOut(Schema):
    algorithm = fields.String(required=True, metadata={"example": "Ed25519"})
    public_key = fields.String(required=True, metadata={"description": "base64 of the raw 32-byte public key"})
    key_id = fields.String(required=True, metadata={"description": "hex SHA-256 of the raw public key"})


class LeafRecord(Schema):
    kind = fields.String(required=True, metadata={"description": "m: a match, l: a league"})
    id = fields.String(required=True, metadata={"description": "the match or league id"})
    seq = fields.Integer(required=True, metadata={"description": "the seq of the head event"})
    head = fields.String(required=True, metadata={"description": "the hash of that event, 64 hex", **HEX64})


class LeafOut(Schema):
    index = fields.Integer(required=True)
    leaf = fields.Nested(LeafRecord, required=True, metadata={
        "description": "leaf bytes = UTF-8 of its canonical JSON (sorted keys, no white space)"})
    leaf_hash = fields.String(required=True, metadata={"description": "SHA-256(0x00 || leaf bytes), hex"})


class LeavesOut(Schema):
    tree_size = fields.Integer(required=True, metadata={"description": "leaves in the log now"})
    start = fields.Integer(required=True, data_key="from")
    limit = fields.Integer(required=True)
    leaves = fields.List(fields.Nested(LeafOut), required=True)


class InclusionOut(Schema):
    leaf_index = fields.Integer(required=True)
    tree_size = fields.Integer(required=True)
    leaf = fields.Nested(LeafRecord, required=True)
    leaf_hash = fields.String(required=True)
    audit_path = fields.List(fields.String(), required=True, metadata={
        "description": "RFC 6962 PATH(leaf_index, D[tree_size]), leaf to root, hex"})


class InclusionProofOut(InclusionOut):
    tree_head = fields.Nested(TreeHeadOut, required=True, metadata={"description": "the signed head of tree_size"})


class ConsistencyOut(Schema):
    first = fields.Integer(required=True)
    second = fields.Integer(required=True)
    first_root = fields.String(required=True)
    second_root = fields.String(required=True)
    proof = fields.List(fields.String(), required=True, metadata={
        "description": "RFC 6962 PROOF(first, D[second]), hex"})
    first_tree_head = fields.Nested(TreeHeadOut, required=True)
    second_tree_head = fields.Nested(TreeHeadOut, required=True)


class LeagueResultRef(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the league event that entered the result"})
    match_seq = fields.Integer(required=True, metadata={"description": "the match seq the result names"})
    match_head = fields.String(required=True, metadata={"description": "the match head the result names"})


class LeagueMatchProofOut(Schema):
    tree_head = fields.Nested(TreeHeadOut, required=True, metadata={"description": "one signed root for both proofs"})
    match = fields.Nested(InclusionOut, required=True, metadata={"description": "the match's final head"})
    league = fields.Nested(InclusionOut, required=True, metadata={"description": "the league's latest head"})
    result = fields.Nested(LeagueResultRef, allow_none=True, metadata={
        "description": "the league's result for this match, if entered (null: not yet)"})


class SizeArgs(Schema):
    size = fields.Integer(strict=False, validate=validate.Range(min=0, max=MAX_INDEX), metadata={
        "description": "a tree size the log had (default: the current one); 404 if the log is smaller"})


class LeavesArgs(Schema):
    start = fields.Integer(data_key="from", load_default=0, validate=validate.Range(min=0, max=MAX_INDEX),
                           metadata={"description": "the first leaf index"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=MAX_LEAVES))


class InclusionArgs(SizeArgs):
    kind = fields.String(required=True, validate=validate.OneOf(["m", "l"]),
                         metadata={"description": "m: a match, l: a league"})
    id = fields.String(required=True, validate=validate.Length(min=1, max=200))
    seq = fields.Integer(validate=validate.Range(min=1, max=MAX_INDEX), metadata={
        "description": "the head's seq (default: the stream's latest leaf)"})


class ConsistencyArgs(Schema):
    first = fields.Integer(required=True, validate=validate.Range(min=0, max=MAX_INDEX),
                           metadata={"description": "at most second"})
    second = fields.Integer(validate=validate.Range(min=0, max=MAX_INDEX), metadata={
        "description": "default: the current size; 404 if the log is smaller"})


# -- endpoints ---------------------------------------------------------------------


@transparency.route("/log/tree-head")
class TreeHead(MethodView):
    @transparency.arguments(SizeArgs, location="query", error_status_code=400)
    @transparency.response(200, TreeHeadOut)
    @_doc_errors(transparency, 400, 404)
    def get(self, args):
        """The signed tree head: the root of the current tree, or of the tree of `size` leaves (an earlier one)

        The signature is Ed25519 over the UTF-8 of the compact, key-sorted JSON
        `{"root_hash":…,"timestamp":…,"tree_size":…,"v":1}`; verify it with the
        key from `/api/log/public-key`, never only with the one the head carries.
        """
        return tlog().tree_head(signing_key(), args.get("size"))


@transparency.route("/log/public-key")
class PublicKey(MethodView):
    @transparency.response(200, PublicKeyOut)
    def get(self):
        """The log's Ed25519 public key (base64 of the raw 32 bytes) and its id: pin it to verify tree heads"""
        encoded = public_key_b64(signing_key())
        return {"algorithm": "Ed25519", "public_key": encoded, "key_id": key_id(base64.b64decode(encoded))}


@transparency.route("/log/leaves")
class Leaves(MethodView):
    @transparency.arguments(LeavesArgs, location="query", error_status_code=400)
    @transparency.response(200, LeavesOut)
    @_doc_errors(transparency, 400)
    def get(self, args):
        """The leaves in order, from index `from` (default 0), at most `limit` (≤ 1000, default 100)

        Each with its record and leaf hash; a monitor reads them all to see
        every head the log committed to.
        """
        log = tlog()
        leaves = [{"index": i, "leaf": record, "leaf_hash": h}
                  for i, record, h in log.records(args["start"], args["limit"])]
        return {"tree_size": log.size(), "start": args["start"], "limit": args["limit"], "leaves": leaves}


def _missing_leaf(kind: str, object_id: str, seq: int | None) -> NotFound:
    """Why a stream has no leaf (yet): the 404 the endpoints give."""
    svc = current_app.extensions["kroniek"]
    store = svc.store if kind == "m" else current_app.extensions["kroniek.leagues"].store
    what = "match" if kind == "m" else "league"
    head = store.head_seq(object_id)
    if head is None:
        return NotFound(f"no {what} {object_id!r}")
    if seq is not None:
        return NotFound(f"{what} {object_id} has no head at seq {seq} in the transparency log "
                        f"(its stream is at seq {head[0]})")
    if kind == "l":
        return NotFound(f"league {object_id} has no head in the transparency log yet (the worker adds it at start)")
    listing = store.head(object_id) or {}
    verdict = store.verdict(object_id)
    validation = "pending" if verdict is None or verdict.get("seq", 0) < head[0] else verdict.get("status")
    return NotFound(
        f"match {object_id} has no head in the transparency log yet: a match's final head is added once it has "
        f"finished and the worker has validated its log (status: {listing.get('status', 'unknown')}, "
        f"validation: {validation})",
        status=listing.get("status"), validation=validation,
    )


@transparency.route("/log/proofs/inclusion")
class Inclusion(MethodView):
    @transparency.arguments(InclusionArgs, location="query", error_status_code=400)
    @transparency.response(200, InclusionProofOut)
    @_doc_errors(transparency, 400, 404)
    def get(self, args):
        """An inclusion proof of a stream's head: a match's (`kind=m`) or league's (`kind=l`)

        The head at `seq`, or the stream's latest leaf, in the tree of `size`
        leaves (default: the current tree), with that tree's signed head.
        Check: `leaf_hash` = SHA-256(0x00 || canonical JSON of `leaf`), then
        the audit path against `tree_head.root_hash`. 404 when the stream has
        no leaf yet: a match's head is added once it has finished and the
        worker has validated it.
        """
        log = tlog()
        kind, object_id, seq = args["kind"], args["id"], args.get("seq")
        index = log.index_of(kind, object_id, seq)
        if index is None:
            raise _missing_leaf(kind, object_id, seq)
        size = log.sync() if args.get("size") is None else args["size"]
        proof = log.inclusion(index, size)
        return {"tree_head": log.tree_head(signing_key(), proof["tree_size"]), **proof}


@transparency.route("/log/proofs/consistency")
class Consistency(MethodView):
    @transparency.arguments(ConsistencyArgs, location="query", error_status_code=400)
    @transparency.response(200, ConsistencyOut)
    @_doc_errors(transparency, 400, 404)
    def get(self, args):
        """A consistency proof: the tree of `first` leaves is a prefix of the tree of `second` (default: the current)

        With both trees' signed heads. Check it with `first_tree_head.root_hash`
        (or the root of a head you kept) and `second_tree_head.root_hash`.
        """
        log = tlog()
        proof = log.consistency(args["first"], args.get("second"))
        key = signing_key()
        return {**proof, "first_tree_head": log.tree_head(key, proof["first"]),
                "second_tree_head": log.tree_head(key, proof["second"])}


def _league_result(league_events: list[dict[str, Any]], match_id: str) -> dict[str, Any] | None:
    """The league's (latest) result event for the match, if any."""
    for event in reversed(league_events):
        data = event.get("data") or {}
        if event.get("type") == "result" and data.get("match") == match_id:
            return {"seq": event["seq"], "match_seq": data.get("seq"), "match_head": data.get("head")}
    return None


@transparency.route("/leagues/<league_id>/matches/<match_id>/proof")
class LeagueMatchProof(MethodView):
    @transparency.response(200, LeagueMatchProofOut)
    @transparency.alt_response(409, schema=S.KroniekErrorResponse,
                               description="the log disagrees with the league's result or its own leaves")
    @_doc_errors(transparency, 404)
    def get(self, league_id, match_id):
        """An inclusion proof of a league match's final head, and of the league's latest head, under one signed root

        The match must be linked to a board of the league. Its head is the one
        the league's result names (seq and hash), or, before a result is
        entered, the match's latest logged head; 404 while the match has none
        (not finished, or not validated yet). 409 if the league's result names
        a head the log contradicts.
        """
        leagues = current_app.extensions["kroniek.leagues"]
        events = leagues.events(league_id)  # 404 for an unknown league
        state = leagues.replayed(league_id, events)
        if state.board_of(match_id) is None:
            raise NotFound(f"match {match_id} is not linked to a board of league {league_id}")
        result = _league_result(events, match_id)
        log = tlog()
        seq = result["match_seq"] if result and isinstance(result.get("match_seq"), int) else None
        match_index = log.index_of("m", match_id, seq)
        if match_index is None:
            raise _missing_leaf("m", match_id, seq)
        league_index = log.index_of("l", league_id)
        if league_index is None:
            raise _missing_leaf("l", league_id, None)
        size = log.sync()
        match_proof = log.inclusion(match_index, size)
        if result and match_proof["leaf"]["head"] != result["match_head"]:
            raise LogCorrupt(
                f"league {league_id} entered match {match_id}'s result at head {result['match_head']} (seq "
                f"{result['match_seq']}), but the log holds {match_proof['leaf']['head']} for that seq",
                leaf_index=match_index,
            )
        return {
            "tree_head": log.tree_head(signing_key(), size),
            "match": match_proof,
            "league": log.inclusion(league_index, size),
            "result": result,
        }
