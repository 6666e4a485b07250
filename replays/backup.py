"""``kroniek backup FILE`` and ``kroniek restore FILE``: everything a Kroniek keeps in Redis, in one file,
and back.

The file is JSON lines: a ``header`` (format, version, the key prefix, when, the Redis it came from, the
signing key's public half), one ``keys`` record per group of keys, and a ``footer``. A group is every key of
one match or league (the keys of one hash tag, ``{m:<id>}``, ``{l:<id>}``: one slot on a Redis Cluster),
read at one instant by one script (a consistent cut of that match, whatever is appended meanwhile), or one
key of its own (the accounts, the indexes, the transparency log, the data documents, the queues'
bookkeeping). Each key is kept as its type, its time to live and its value in plain terms (a hash's fields, a
stream's entries with their ids, its last id and its consumer groups, which are the verdicts' marks), each
stored string as its text where it is UTF-8, else in base64: a restore writes back exactly the bytes it held,
into any Redis from 6.2 on (version 1 files kept Redis's own ``DUMP``, which only a Redis of the same or a
later version reads: the embedded 6.2 could not restore a backup of a Redis 7).

The file holds itself together: each record carries the SHA-256 of the one before it (``prev``), the footer
counts them and is signed with the service's Ed25519 key (``replays.signing``). ``restore`` reads the whole
file and checks that chain, that signature (against the key you pin, else the one the header carries, which
it says) and the form of every record before it writes one key, and refuses a file that does not hold, with
the reason; it writes only into a Redis that holds no key of the prefix; then it audits every match and league
it wrote.

Version 2 of the file also carries each match's log in a form other programs can read without Redis: its raw
events as stored (salts included: the file is the operator's, as its keys are) up to the cut's chain head, and
its notation. The header carries the data format (``replays.format``) and a signed tree head of the
transparency log as the backup began; a match whose head the log holds carries its leaf and the inclusion
proof against that tree head. After a restore, every match's events are compared with its log in the file.

Memory stays bounded: a group at a time is held (a match's keys and log), whatever the number of events.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import IO, Any, Callable, Iterator

import orjson

FORMAT = "kroniek-backup"
VERSION = 2
#: the file versions ``read_backup`` reads
READS = (1, 2)
#: what a ``keys`` record's group is named after: the hash tag of the keys of one match or league
KINDS = {"m": "match", "l": "league"}


class BackupRefused(Exception):
    """A backup file that does not hold (its chain, its signature, its form), or a target that is not empty."""


def _tag(key: str) -> str | None:
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1:end] if start >= 0 and end > start + 1 else None


def _line(record: dict[str, Any]) -> bytes:
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


def _digest(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def groups(r: Any, prefix: str, batch: int = 1000) -> Iterator[tuple[str | None, list[str]]]:
    """The keys of ``prefix``, a hash tag's keys together (sorted, so two backups of the same data match)."""
    keys = sorted(k.decode() if isinstance(k, bytes) else k for k in r.scan_iter(match=f"{prefix}:*", count=batch))
    # (names are text: Kroniek's keys are its prefix, an id and a part)
    tagged: dict[str, list[str]] = {}
    for key in keys:
        tag = _tag(key)
        if tag is None:
            yield None, [key]
        else:
            tagged.setdefault(tag, []).append(key)
    for tag in sorted(tagged):
        yield tag, tagged[tag]


def _decoding(r: Any, decode: bool) -> Any:
    """A client to the same Redis that answers text (``decode``: the store's readers want it) or bytes (what a
    key holds need not be text: a packed log is zstandard)."""
    import redis

    kwargs = getattr(getattr(r, "connection_pool", None), "connection_kwargs", None)
    if kwargs is None or bool(kwargs.get("decode_responses")) == decode:
        return r
    if isinstance(r, redis.Redis):
        pool = r.connection_pool
        return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                                **{**kwargs, "decode_responses": decode}))
    raise BackupRefused(f"a backup needs a client that answers {'text' if decode else 'bytes'}")  # pragma: no cover


class _Clients:
    """The clients a backup or a restore talks through: text for the store's readers, bytes for the keys
    read and written; on a Redis Cluster, the node that holds a group's slot (a group is one hash tag: one slot,
    so its script runs on that node, a consistent cut as on a single server)."""

    def __init__(self, r: Any) -> None:
        from redis.cluster import RedisCluster

        self.cluster = isinstance(r, RedisCluster)
        if self.cluster:
            if not r.get_connection_kwargs().get("decode_responses"):
                raise BackupRefused("a backup of a Redis Cluster needs a client made with decode_responses=True")
            self.text = r
            self._nodes: dict[str, Any] = {}
        else:
            self.text, self.raw = _decoding(r, True), _decoding(r, False)

    def raw_for(self, key: str) -> Any:
        if not self.cluster:
            return self.raw
        node = self.text.get_node_from_key(key)
        if node.name not in self._nodes:
            self._nodes[node.name] = _decoding(node.redis_connection, False)
        return self._nodes[node.name]

    def redis_version(self) -> str | None:
        node = self.text.get_default_node().redis_connection if self.cluster else self.raw
        return _as_text(node.info("server").get("redis_version"))


def _as_text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


#: one group's keys read at one instant (a script runs alone: a consistent cut of them, whatever is appended
#: meanwhile), each as its type, time to live and value in the plain terms every Redis since 6.2 reads and writes
READ_GROUP = """
local out = {}
for i, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key)['ok']
  local value = ''
  if kind == 'string' then value = redis.call('GET', key)
  elseif kind == 'hash' then value = redis.call('HGETALL', key)
  elseif kind == 'list' then value = redis.call('LRANGE', key, 0, -1)
  elseif kind == 'set' then value = redis.call('SMEMBERS', key)
  elseif kind == 'zset' then value = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  elseif kind == 'stream' then
    local info = redis.call('XINFO', 'STREAM', key)
    local last = '0-0'
    for j = 1, #info, 2 do
      if info[j] == 'last-generated-id' then last = info[j + 1] end
    end
    local groups = {}
    for _, group in ipairs(redis.call('XINFO', 'GROUPS', key)) do
      local name, delivered, busy = '', '0-0', false
      for j = 1, #group, 2 do
        if group[j] == 'name' then name = group[j + 1]
        elseif group[j] == 'last-delivered-id' then delivered = group[j + 1]
        elseif (group[j] == 'consumers' or group[j] == 'pending') and group[j + 1] ~= 0 then busy = true end
      end
      if busy then
        return redis.error_reply('BACKUP ' .. key .. "'s consumer group " .. name .. ' has consumers or pending ' ..
          'entries, which Kroniek never makes and a backup does not keep')
      end
      groups[#groups + 1] = {name, delivered}
    end
    value = {last, groups, redis.call('XRANGE', key, '-', '+')}
  elseif kind ~= 'none' then
    return redis.error_reply('BACKUP ' .. key .. ' is a ' .. kind .. ', a type Kroniek does not keep')
  end
  out[i] = {kind, redis.call('PTTL', key), value}
end
return out
"""

#: how many items one write command of a restore carries (a big hash or index goes back in several)
CHUNK = 500


def _text(value: bytes) -> Any:
    """A stored value as the file holds it: its text where it is UTF-8 (nearly all Kroniek writes is JSON or
    hex), else ``{"b64": ...}`` (a packed log is zstandard); ``_bytes`` gives back the very bytes."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return {"b64": base64.b64encode(value).decode()}


def _bytes(value: Any) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else base64.b64decode(value["b64"], validate=True)


def _pairs(flat: list[bytes]) -> list[list[Any]]:
    return [[_text(flat[i]), _text(flat[i + 1])] for i in range(0, len(flat), 2)]


def _value(kind: str, raw: Any, key: str) -> Any:
    """A key's value in the file's terms (a hash's fields and a set's members sorted: two backups of the same
    data are the same file)."""
    if kind == "string":
        return _text(raw)
    if kind == "hash":
        return _pairs([b for pair in sorted(zip(raw[::2], raw[1::2])) for b in pair])
    if kind in ("list", "set"):
        return [_text(v) for v in (sorted(raw) if kind == "set" else raw)]
    if kind == "zset":  # scores as Redis wrote them (17 significant digits: they parse back to the same double)
        return [[_text(raw[i]), raw[i + 1].decode()] for i in range(0, len(raw), 2)]
    last, groups, entries = raw  # the groups: the verdicts' marks (replays.store.MARK_PREFIX), read from by none
    return {"last_id": last.decode(), "entries": [[entry_id.decode(), _pairs(fields)] for entry_id, fields in entries],
            "groups": sorted([_text(name), delivered.decode()] for name, delivered in groups)}


def _read_group(r: Any, keys: list[str], log_key: str | None = None,
                head_key: str | None = None) -> tuple[list[dict[str, Any]], Any]:
    """The keys' types, times to live and values, read at one instant; with ``log_key`` and ``head_key``, a
    match's log entries (those of its stream, in the file's terms) and its head's result at that instant."""
    import redis

    try:
        replies = r.register_script(READ_GROUP)(keys=keys)  # EVALSHA: the script's text goes once to a server
    except redis.ResponseError as e:
        if "BACKUP " in str(e):
            raise BackupRefused(str(e).split("BACKUP ", 1)[1]) from None
        raise
    out, log_entries, result = [], [], None
    for key, (kind, ttl, raw) in zip(keys, replies):
        kind = kind.decode()
        if kind == "none":  # gone between the scan and the read (a key that expired, a job done)
            continue
        out.append({"key": key, "ttl_ms": ttl if ttl > 0 else 0, "type": kind, "value": _value(kind, raw, key)})
        if key == log_key and kind == "stream":
            log_entries = out[-1]["value"]["entries"]
        elif key == head_key and kind == "hash":
            result = dict(out[-1]["value"]).get("result")
    return out, ([log_entries, result] if log_key is not None else None)


def _write_key(pipe: Any, entry: dict[str, Any]) -> None:
    """The commands that make ``entry``'s key again, into an empty database."""
    key, kind, value = entry["key"], entry["type"], entry["value"]
    if kind == "string":
        pipe.execute_command("SET", key, _bytes(value))
    elif kind == "stream":
        entries = value["entries"]
        if not entries:  # an emptied stream: made with an entry at once taken away, so it exists as it did
            pipe.execute_command("XADD", key, "0-1", "", "")
            pipe.execute_command("XDEL", key, "0-1")
        for entry_id, fields in entries:
            pipe.execute_command("XADD", key, entry_id, *(_bytes(b) for pair in fields for b in pair))
        if value["last_id"] != "0-0":
            pipe.execute_command("XSETID", key, value["last_id"])
        for name, delivered in value["groups"]:
            pipe.execute_command("XGROUP", "CREATE", key, _bytes(name), delivered)
    else:
        command = {"hash": "HSET", "list": "RPUSH", "set": "SADD", "zset": "ZADD"}[kind]
        for start in range(0, len(value), CHUNK):
            chunk = value[start:start + CHUNK]
            if kind == "hash":
                args = [_bytes(b) for pair in chunk for b in pair]
            elif kind == "zset":
                args = [a for member, score in chunk for a in (score, _bytes(member))]
            else:
                args = [_bytes(v) for v in chunk]
            pipe.execute_command(command, key, *args)
    if entry["ttl_ms"] > 0:
        pipe.execute_command("PEXPIRE", key, entry["ttl_ms"])


def _cut_seq(entries: list[list[Any]]) -> int | None:
    """The seq of a log's last entry at the cut (its entry id is ``<seq>-0``)."""
    return int(entries[-1][0].split("-", 1)[0]) if entries else None


def digest_events(events: list[dict[str, Any]]) -> str:
    """What a restore compares a match's events by: the SHA-256 of their canonical JSON."""
    return hashlib.sha256(orjson.dumps(events, option=orjson.OPT_SORT_KEYS)).hexdigest()


#: what the footer's signature covers, besides the file's last hash: a message no tree head can be (they are
#: JSON objects), so the key that signs tree heads signs nothing a tree head could be mistaken for
SIGNED_AS = b"kroniek backup footer v1\n"


def _signed(footer: dict[str, Any]) -> bytes:
    """The bytes the footer's signature covers: all of the footer but the signature (its ``prev``, the hash of
    the file before it, covers the rest)."""
    return SIGNED_AS + _line({k: v for k, v in footer.items() if k != "signature"})


def _sign(key: Any, footer: dict[str, Any]) -> str:
    return base64.b64encode(key.sign(_signed(footer))).decode()


def _verifies(public_b64: str, footer: dict[str, Any], signature: str) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(public_b64)).verify(base64.b64decode(signature),
                                                                                _signed(footer))
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


def write_backup(r: Any, prefix: str, out: IO[bytes], signing_key: Any,
                 progress: Callable[[int, int], None] | None = None,
                 notation: Callable[[str, list[dict[str, Any]], dict[str, Any] | None], str] | None = None
                 ) -> dict[str, Any]:
    """Write the backup of ``prefix`` to ``out``; the footer's figures. ``notation``: a match's notation from
    its id, events and result at the cut (the service's; without it the logs carry their events only)."""
    from . import EventStore
    from . import format as data_format
    from .hashing import utc_now
    from .signing import public_key_b64
    from .translog import TransparencyLog

    clients = _Clients(r)
    text = clients.text
    store, log = EventStore(text, prefix), TransparencyLog(text, prefix)
    tree_head = log.tree_head(signing_key)
    header = {"kind": "header", "format": FORMAT, "version": VERSION, "prefix": prefix, "created_at": utc_now(),
              "data_format": data_format.stored(text, prefix), "tree_head": tree_head,
              "redis_version": clients.redis_version(), "cluster": clients.cluster,
              "public_key": public_key_b64(signing_key), "prev": None}
    line = _line(header)
    out.write(line)
    prev, records, keys_written, groups_done = _digest(line), 1, 0, 0
    all_groups = list(groups(text, prefix))
    counted = {"match": 0, "league": 0}
    for tag, keys in all_groups:
        kind = KINDS.get(tag.split(":", 1)[0]) if tag else None
        match_id = tag.split(":", 1)[1] if kind == "match" else None
        entries, cut = _read_group(clients.raw_for(keys[0]), keys, *((store.key(match_id, "log"),
                                                                      store.key(match_id, "head")) if match_id else ()))
        if not entries:
            continue
        if kind:
            counted[kind] += 1
        record = {"kind": "keys", "group": tag, "of": kind, "keys": entries, "prev": prev}
        if match_id is not None:
            log_entries, result = cut
            result = json.loads(result) if result else None
            packed = any(entry["key"] == store.key(match_id, "packed") for entry in entries)
            record["log"] = _match_log(store, log, tree_head["tree_size"], match_id, log_entries, packed, result,
                                       notation)
        line = _line(record)
        out.write(line)
        prev, records, keys_written = _digest(line), records + 1, keys_written + len(entries)
        groups_done += 1
        if progress is not None:
            progress(groups_done, len(all_groups))
    footer = {"kind": "footer", "records": records, "keys": keys_written, "matches": counted["match"],
              "leagues": counted["league"], "prev": prev}
    footer["signature"] = _sign(signing_key, footer)
    out.write(_line(footer))
    return footer


def _match_log(store: Any, log: Any, size: int, match_id: str, entries: list[list[Any]], packed: bool,
               result: dict[str, Any] | None,
               notation: Callable[[str, list[dict[str, Any]], dict[str, Any] | None], str] | None
               ) -> dict[str, Any] | None:
    """A match's log at the cut: its events, its chain head, its notation, and its transparency-log leaf with
    the inclusion proof in the header's tree, where the log holds one. The events are the stream's ``entries``
    the group's read gave, where they are the whole log; a log with a packed part (replays.compact) is read
    again up to the cut's seq (an event is never changed, so those read now are the cut's)."""
    from .store import decode_entry

    seq = _cut_seq(entries)
    if not packed and seq is not None and all(isinstance(text, str) for _, fields in entries
                                              for pair in fields for text in pair):
        events = [decode_entry(dict(fields)) for _, fields in entries]
    else:
        if seq is None:
            seq = (store.head_seq(match_id) or (None,))[0]  # a log packed whole has no entry left
            if seq is None:
                return None
        events = store.events(match_id, 1, seq)
    found = {"head": {"seq": seq, "hash": events[-1]["hash"]}, "events": events}
    if notation is not None:
        found["notation"] = notation(match_id, events, result)
    index = log.index_of("m", match_id)
    if index is not None and index < size:
        proof = log.inclusion(index, size)
        found["logged"] = {k: proof[k] for k in ("leaf_index", "leaf", "leaf_hash", "audit_path")}
    return found


def _is_text(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if not (isinstance(value, dict) and len(value) == 1 and isinstance(value.get("b64"), str)):
        return False
    try:
        _bytes(value)
        return True
    except ValueError:  # binascii.Error is one
        return False


def _is_pair(item: Any) -> bool:
    return isinstance(item, list) and len(item) == 2 and _is_text(item[0]) and _is_text(item[1])


#: a score as Redis writes one (and reads back: Python's float() takes more, "1_0" or " 1", which ZADD refuses)
_SCORE = re.compile(r"[-+]?(inf|(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)\Z")
_STREAM_ID = re.compile(r"(\d{1,20})-(\d{1,20})\Z")
_ID_MAX = 2 ** 64 - 1


def _stream_id(text: Any) -> tuple[int, int] | None:
    found = _STREAM_ID.match(text) if isinstance(text, str) else None
    if found is None:
        return None
    ms, seq = int(found[1]), int(found[2])
    return (ms, seq) if ms <= _ID_MAX and seq <= _ID_MAX else None


def _fine_stream(value: Any) -> bool:
    """A stream's entries ascend from above 0-0 to its last id at most, each with fields (XADD takes them in
    that order only)."""
    if not (isinstance(value, dict) and isinstance(value.get("entries"), list) and isinstance(value.get("groups"), list)):
        return False
    last = _stream_id(value.get("last_id"))
    before = (0, 0)
    for entry in value["entries"]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list) and entry[1]
                and all(_is_pair(p) for p in entry[1])):
            return False
        at = _stream_id(entry[0])
        if at is None or at <= before:
            return False
        before = at
    return (last is not None and last >= before
            and all(isinstance(g, list) and len(g) == 2 and _is_text(g[0]) and _stream_id(g[1]) is not None
                    for g in value["groups"]))


def _fine_value(kind: Any, value: Any) -> bool:
    """A key's value (version 2) has the form its type's commands take (a hash, list, set or sorted set holds
    something: Redis keeps no empty one)."""
    if kind == "string":
        return _is_text(value)
    if kind == "stream":
        return _fine_stream(value)
    if not (isinstance(value, list) and value):
        return False
    if kind == "hash":
        return all(_is_pair(p) for p in value)
    if kind in ("list", "set"):
        return all(_is_text(v) for v in value)
    if kind == "zset":
        return all(isinstance(p, list) and len(p) == 2 and _is_text(p[0]) and isinstance(p[1], str)
                   and _SCORE.match(p[1]) is not None for p in value)
    return False


def _fine_entry(entry: Any, version: int, prefix: str, seen: set[str]) -> bool:
    """A key of the prefix, met once in the file (a second would be written over the first, or refused halfway),
    with its time to live and a value of its type's form."""
    if not (isinstance(entry, dict) and isinstance(entry.get("key"), str) and entry["key"].startswith(f"{prefix}:")
            and entry["key"] not in seen and type(entry.get("ttl_ms")) is int and entry["ttl_ms"] >= 0):
        return False
    seen.add(entry["key"])
    if version == 1:
        return isinstance(entry.get("dump"), str)
    return _fine_value(entry.get("type"), entry.get("value"))


def _check_keys_record(record: dict[str, Any], n: int, header: dict[str, Any], seen: set[str]) -> None:
    """A group's record has the form a restore reads (a file can hold together and still be made wrong, by a
    program with the key): refused before anything is written, not halfway."""
    keys, log = record.get("keys"), record.get("log")
    fine = (isinstance(record.get("group"), (str, type(None))) and record.get("of") in (*KINDS.values(), None)
            and isinstance(keys, list) and keys
            and all(_fine_entry(e, header["version"], header["prefix"], seen) for e in keys)
            and (log is None or (isinstance(log, dict) and isinstance(log.get("events"), list)
                                 and isinstance(log.get("head"), dict) and type(log["head"].get("seq")) is int)))
    if not fine:
        raise BackupRefused(f"line {n}: a group of keys not in the form this Kroniek writes")


def read_backup(source: IO[bytes], public_key: str | None = None) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """Check the whole file (its chain, the footer's count and signature) and return its header and a reader
    of its ``keys`` records (which reads the file again). Raises ``BackupRefused`` with the reason."""
    source.seek(0)
    prev = None
    header = footer = None
    records = 0
    seen: set[str] = set()  # the keys met so far: each once
    for n, line in enumerate(source, start=1):
        try:
            record = orjson.loads(line)
        except ValueError:
            raise BackupRefused(f"line {n}: not JSON") from None
        if not isinstance(record, dict):
            raise BackupRefused(f"line {n}: not a record of a Kroniek backup")
        if record.get("prev") != prev:
            raise BackupRefused(f"line {n}: it does not follow the line before it (its hash chain is broken: "
                                "a line was changed, added, removed or moved)")
        kind = record.get("kind")
        if n == 1:
            if kind != "header" or record.get("format") != FORMAT:
                raise BackupRefused("line 1: not a Kroniek backup")
            if record.get("version") not in READS:
                raise BackupRefused(f"a backup of version {record.get('version')}; this Kroniek reads versions "
                                    f"{', '.join(map(str, READS))}")
            if not (isinstance(record.get("prefix"), str) and record["prefix"]):
                raise BackupRefused("line 1: a header without its key prefix")
            header = record
        elif kind == "footer":
            footer = record
            if records != record.get("records"):
                raise BackupRefused(f"the footer counts {record.get('records')} records, the file holds {records}")
        elif kind != "keys" or footer is not None:
            raise BackupRefused(f"line {n}: a {kind!r} record where a group of keys or the footer belongs")
        else:
            _check_keys_record(record, n, header, seen)
        prev = _digest(line if line.endswith(b"\n") else line + b"\n")
        if kind != "footer":
            records += 1
    if header is None:
        raise BackupRefused("the file is empty")
    if footer is None:
        raise BackupRefused("the footer is missing: the file was cut short")
    if public_key is not None and not public_key.strip():
        raise BackupRefused("the public key given is empty (a shell variable not set?): give the service's, or none "
                            "to check the file against the key it carries")
    key = public_key or header["public_key"]
    if not isinstance(footer.get("signature"), str) or not _verifies(key, footer, footer["signature"]):
        raise BackupRefused("the footer's signature does not verify" + (
            f" with the given key (the file names {str(header.get('public_key'))[:16]}… as its signer: compare that "
            "with the key the service publishes, GET /api/log/public-key)" if public_key else ""))

    def keys() -> Iterator[dict[str, Any]]:
        source.seek(0)
        for line in source:
            record = orjson.loads(line)
            if record.get("kind") == "keys":
                yield record
    return {**header, "footer": footer}, keys()


def restore(r: Any, source: IO[bytes], public_key: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Check the file whole, then write its keys into ``r``, which must hold no key of its prefix."""
    from .format import FORMAT as DATA_FORMAT

    header, records = read_backup(source, public_key)
    prefix = header["prefix"]
    if isinstance(header.get("data_format"), int) and header["data_format"] > DATA_FORMAT:
        raise BackupRefused(f"the backup holds data of format {header['data_format']}, written by a newer Kroniek; "
                            f"this one knows formats up to {DATA_FORMAT}")
    clients = _Clients(r)
    if next(iter(clients.text.scan_iter(match=f"{prefix}:*", count=1000)), None) is not None:
        raise BackupRefused(f"the target Redis holds keys of {prefix!r} already: restore writes into an empty one")
    done, total = 0, header["footer"]["records"] - 1
    matches, leagues, logs = [], [], {}
    for record in records:
        client = clients.raw_for(record["keys"][0]["key"])
        if done == 0 and header["version"] == 1:
            _readable_dumps(client, record["keys"][0], header)
        pipe = client.pipeline(transaction=record["group"] is not None)
        for entry in record["keys"]:
            if header["version"] == 1:
                pipe.restore(entry["key"], entry["ttl_ms"], base64.b64decode(entry["dump"]))
            else:
                _write_key(pipe, entry)
        pipe.execute()
        if record["of"] == "match":
            matches.append(record["group"].split(":", 1)[1])
            if record.get("log"):
                logs[matches[-1]] = (record["log"]["head"]["seq"], digest_events(record["log"]["events"]))
        elif record["of"] == "league":
            leagues.append(record["group"].split(":", 1)[1])
        done += 1
        if progress is not None:
            progress(done, total)
    return {"prefix": prefix, "keys": header["footer"]["keys"], "matches": matches, "leagues": leagues,
            "public_key": header["public_key"], "pinned": public_key is not None, "logs": logs,
            "version": header["version"], "data_format": header.get("data_format", 1)}


def _readable_dumps(client: Any, entry: dict[str, Any], header: dict[str, Any]) -> None:
    """A version-1 file holds each key as Redis's ``DUMP``, which only a Redis of the same or a later version
    reads: its first key is tried alone, so a Redis that cannot read them refuses the file before a key of it
    is written."""
    import redis

    payload = base64.b64decode(entry["dump"])
    try:
        client.restore(entry["key"], 0, payload)
    except redis.ResponseError as e:
        rdb = int.from_bytes(payload[-10:-8], "little") if len(payload) >= 10 else None
        raise BackupRefused(
            f"this Redis ({_as_text(client.info('server').get('redis_version'))}) cannot read the file's keys: a "
            f"version-1 file holds them as Redis DUMPs (RDB version {rdb}, from Redis "
            f"{header.get('redis_version')}), which only a Redis of the same or a later version reads ({e})"
        ) from None
    client.delete(entry["key"])


def audit_restored(r: Any, prefix: str, matches: list[str], leagues: list[str],
                   logs: dict[str, tuple[int, str]] | None = None) -> list[str]:
    """Every match and league written back, audited as ``GET …/audit`` does, and each match's events compared
    with its log in the file (``logs``: id -> its cut's seq and ``digest_events``): the problems found."""
    from . import EventStore, audit_match

    r = _Clients(r).text
    problems = []
    for kind, ids in (("m", matches), ("l", leagues)):
        store = EventStore(r, prefix, kind=kind)
        for stream_id in ids:
            report = audit_match(store, stream_id)
            if not report.valid:
                problems.append(f"{KINDS[kind]} {stream_id}: {report.reason}")
            elif kind == "m" and logs and stream_id in logs:
                seq, digest = logs[stream_id]
                if digest_events(store.events(stream_id, 1, seq)) != digest:
                    problems.append(f"match {stream_id}: its events differ from its log in the file")
    return problems
