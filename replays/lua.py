"""Server-side scripts: every append checks the stream's head and writes in
one atomic step. A stream may go back in time (Redis restarted from an
append-only file that lost its last writes, as ``appendfsync everysec``
allows after a crash), so an explicit entry id alone is not enough: Redis
refuses an id at or below the stream's last one, but takes ``5-0`` after
``2-0`` and leaves a hole. Each append script therefore checks, before its
XADD, that the stream's last entry is exactly the event the new one follows:
its id is ``<first seq - 1>-0`` and its hash is the new event's
``prev_hash``. A compacted match has no stream (``replays.compact``): its
last entry is the one the header of its block names, and a new event starts
a stream after it. Each script touches only keys of one match (one hash
slot, so Redis Cluster runs them too) and costs one round trip.
"""

def _top(missing: str) -> str:
    """Lua: ``top_id``, ``top_hash``: the id and hash of the match's last
    entry: the stream KEYS[1]'s last entry, or where there is no stream (a
    compacted match, ``replays.compact``), the seq and hash the header of
    its block KEYS[2] names; ``missing`` is returned if neither exists."""
    return "\n".join([
        "local top_id, top_hash",
        "local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]",
        "if top then",
        "  top_id = top[1]",
        "  local f = top[2]",
        "  for i = 1, #f, 2 do if f[i] == 'hash' then top_hash = f[i + 1] end end",
        "else",
        "  local packed = redis.call('GETRANGE', KEYS[2], 0, 88)",
        f"  if packed == '' then return {missing} end",
        "  local seq, h = string.match(packed, '^K1 (%d+) (%x+)\\n')",
        "  if not seq then return redis.error_reply('the compacted log of ' .. KEYS[2] .. ' has an unreadable header') end",
        "  top_id, top_hash = seq .. '-0', h",
        "end",
    ])


def _head_check(prev_seq: str, prev_hash: str, missing: str, conflict: str) -> str:
    """Lua: return ``conflict`` unless the match's last entry (``_top``) is
    seq ``prev_seq`` with hash ``prev_hash`` (Lua expressions); ``missing``
    if there is no such match. The hash is read by its field's name."""
    return "\n".join([
        _top(missing),
        f"if top_id ~= string.format('%d-0', {prev_seq}) then return {conflict} end",
        f"if top_hash ~= {prev_hash} then return {conflict} end",
    ])


#: Lua: XADD of an event whose seq follows the stream's last entry; Redis
#: refuses its id only if entries after that one were deleted (the stream's
#: last-generated id is above it): then return ``deleted``, nothing written;
#: any other error is the script's.
def _xadd(seq: str, text: str, hash_: str, deleted: str) -> str:
    return "\n".join([
        f"local added = redis.pcall('XADD', KEYS[1], {seq} .. '-0', 'event', {text}, 'hash', {hash_})",
        "if type(added) == 'table' and added.err then",
        f"  if string.find(added.err, 'equal or smaller', 1, true) then return {deleted} end",
        "  return added",
        "end",
    ])


# KEYS: log, packed
# ARGV: seq, event text, hash, prev_hash
# Returns 'ok' | 'conflict' | 'missing' | 'deleted' (one move: its answer is one word)
# (a compacted match has no stream: the move starts a new one after the block)
APPEND_ONE = "\n".join([
    _head_check("tonumber(ARGV[1]) - 1", "ARGV[4]", "'missing'", "'conflict'"),
    _xadd("ARGV[1]", "ARGV[2]", "ARGV[3]", "'deleted'"),
    "return 'ok'",
])

# KEYS: log, packed[, idem]
# ARGV: n_events, prev_hash, then seq, event text, hash per event[, then the idempotency record]
# Returns {'ok'} | {'conflict'} | {'missing'} | {'deleted'} | {'dup', stored idempotency record}
# (only the first XADD can be refused: the ids ascend)
_APPEND = "\n".join([
    "IDEM_CHECK",
    _head_check("tonumber(ARGV[3]) - 1", "ARGV[2]", "{'missing'}", "{'conflict'}"),
    """local n = tonumber(ARGV[1])
local b = 3
""" + _xadd("ARGV[3]", "ARGV[4]", "ARGV[5]", "{'deleted'}") + """
for i = 2, n do
  b = b + 3
  redis.call('XADD', KEYS[1], ARGV[b] .. '-0', 'event', ARGV[b + 1], 'hash', ARGV[b + 2])
end
IDEM_STORE
return {'ok'}
"""])

APPEND = _APPEND.replace("IDEM_CHECK", "").replace("IDEM_STORE", "")

APPEND_IDEMPOTENT = _APPEND.replace(
    "IDEM_CHECK", """local prior = redis.call('GET', KEYS[3])
if prior then return {'dup', prior} end""").replace(
    "IDEM_STORE", "redis.call('SET', KEYS[3], ARGV[#ARGV], 'EX', ARGV[#ARGV - 1])")

# KEYS: log, packed, idem
# Returns {'dup', stored idempotency record} | {'head', top id, top hash} | {'missing'}
# One atomic read for a request with an Idempotency-Key that cannot be
# appended as it stands (its expected_seq is not the cached head, or its move
# is refused by the cached state): the record first, so a copy of the same
# request that got in first (an outbox resending it while the first copy was
# being written) is answered with the first answer; only where there is no
# record is the head read, in the same step, to decide a conflict. Read
# apart, a copy could see the head the first copy wrote and no record yet
# (or a stale cache and a record it never looked for) and answer 409.
RECORD_OR_HEAD = "\n".join([
    """local prior = redis.call('GET', KEYS[3])
if prior then return {'dup', prior} end""",
    _top("{'missing'}"),
    "return {'head', top_id, top_hash or ''}",
])

# KEYS: head, log, acl
# ARGV: n_fields, n_events, n_acl, head fields (name, value, ...), events as in
# APPEND, then the roles on the new stream (user, roles json, ...): a match or
# league never exists, even for a moment, without whoever may write to it
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local nf = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local na = tonumber(ARGV[3])
local b = 4 + nf * 2
for i = 1, n do
  redis.call('XADD', KEYS[2], ARGV[b] .. '-0', 'event', ARGV[b + 1], 'hash', ARGV[b + 2])
  b = b + 3
end
for i = 0, nf - 1 do
  redis.call('HSET', KEYS[1], ARGV[4 + i * 2], ARGV[5 + i * 2])
end
for i = 0, na - 1 do
  redis.call('HSET', KEYS[3], ARGV[b + i * 2], ARGV[b + 1 + i * 2])
end
INDEX
return {'ok'}
"""

#: CREATE with the new stream listed in the same step (KEYS[4]: the index,
#: a sorted set; the last two ARGV: the stream's id and its score), so a
#: stream never exists unlisted: the script and a ZADD after it, apart, left
#: a match unlisted when Redis ran the script after its client had given up
#: waiting (a frozen Redis runs, as it wakes, what it was sent). The index is
#: in another slot than the stream's keys: on a Cluster the two stay apart.
CREATE_INDEXED = CREATE.replace("INDEX", "redis.call('ZADD', KEYS[4], ARGV[#ARGV], ARGV[#ARGV - 1])")
CREATE = CREATE.replace("INDEX\n", "")

#: Lua: HSET the field, value pairs ARGV[first..] into ``key``, in chunks
#: (unpack has a small stack limit)
HSET_PAIRS = """local i = {first}
while i <= #ARGV do
  local j = math.min(i + 999, #ARGV)
  redis.call('HSET', {key}, unpack(ARGV, i, j))
  i = j + 1
end"""

# KEYS: verdict, auto[, keys to delete with the old annotations (a
# compacted match's ``autoz``)]
# ARGV: seq, verdict json, then field/value pairs of annotations
# A verdict for a shorter log never replaces one for a longer log (jobs may
# finish out of order).
#: returns 0 (nothing written) when KEYS[1] holds a record of a longer log than ARGV[1]
UNLESS_LONGER_STORED = """
local current = redis.call('GET', KEYS[1])
if current then
  local seq = tonumber(cjson.decode(current)['seq'])
  if seq and seq > tonumber(ARGV[1]) then return 0 end
end
"""
SAVE_VERDICT = UNLESS_LONGER_STORED + """
redis.call('SET', KEYS[1], ARGV[2])
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
""" + HSET_PAIRS.format(key="KEYS[2]", first=3) + """
return 1
"""

# KEYS: analysis, deep, evaluation
# ARGV: seq, record json, evaluation json ("" for none), then field/value pairs of the annotations
# SAVE_VERDICT's rule for the analysis job: a record, its annotations and its evaluation replace the
# old ones together, unless the stored record is of a longer log.
SAVE_ANALYSIS = UNLESS_LONGER_STORED + """
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3]) end
""" + HSET_PAIRS.format(key="KEYS[2]", first=4) + """
return 1
"""

# KEYS: verdict, auto, autoz
# ARGV: seq, verdict json, since, then field/value pairs of the annotations
# of the events after ``since``
# A verdict that continues one at ``since`` or later (the worker replayed
# only the events after it): the annotations stored for the events up to
# ``since`` stay, the new ones are added. -1 when the stored annotations
# cannot be kept (no verdict, one before ``since``: the store went back;
# compacted ones): the caller saves them all with SAVE_VERDICT.
ADD_TO_VERDICT = """
local current = redis.call('GET', KEYS[1])
if not current or redis.call('EXISTS', KEYS[3]) == 1 then return -1 end
local seq = tonumber(cjson.decode(current)['seq'])
if not seq or seq < tonumber(ARGV[3]) then return -1 end
if seq > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
""" + HSET_PAIRS.format(key="KEYS[2]", first=4) + """
return 1
"""

#: Lua: ``marks``: the names of the consumer groups of the stream KEYS[1]
#: (a stream of ours has none but the worker's mark, ``MARK_LOG``)
_MARKS = """local marks = {}
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  for i = 1, #group, 2 do
    if group[i] == 'name' then marks[#marks + 1] = group[i + 1] end
  end
end"""

#: Lua: ``last_id``: the stream KEYS[1]'s last-generated id
_LAST_ID = """local last_id
local info = redis.call('XINFO', 'STREAM', KEYS[1])
for i = 1, #info, 2 do
  if info[i] == 'last-generated-id' then last_id = info[i + 1] end
end"""

# KEYS: log, packed
# ARGV: the marks' prefix, the name of a new mark
# The worker's mark on a match's stream, made if it has none: a consumer
# group, never read from, that lives inside the stream itself. Entries of a
# stream are never changed in place, and Redis takes no id at or below the
# last one, so the events of a stream can be changed only by deleting
# entries (its length shows that) or by writing the stream again, which
# leaves it without its groups. So a stream that still carries the mark it
# had before a log was read and checked still holds those events, except
# any deleted since. Returns {mark, last-generated id}, or false for a
# match with no stream or a compacted part (not marked: its next verdict is
# from seq 1).
MARK_LOG = "\n".join([
    "if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 0 then return false end",
    _MARKS,
    """local mark
for _, name in ipairs(marks) do
  if string.sub(name, 1, #ARGV[1]) == ARGV[1] then mark = name end
end
if not mark then
  mark = ARGV[2]
  redis.call('XGROUP', 'CREATE', KEYS[1], mark, '$')
end""",
    _LAST_ID,
    "return {mark, last_id}",
])

# KEYS: log, packed
# ARGV: mark, the first entry's id, the most entries to return
# In one atomic step, for a verdict that continues a checkpoint: false unless
# the stream still carries the mark (``MARK_LOG``) and has no compacted
# part; else {its length, its last-generated id, its last entry's id, its
# entries from the given id on (at most so many)}.
LOG_AFTER = "\n".join([
    "if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 0 then return false end",
    _MARKS,
    """local marked = false
for _, name in ipairs(marks) do
  if name == ARGV[1] then marked = true end
end
if not marked then return false end""",
    _LAST_ID,
    """local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
return {redis.call('XLEN', KEYS[1]), last_id, top and top[1] or '', redis.call('XRANGE', KEYS[1], ARGV[2], '+', 'COUNT', ARGV[3])}""",
])

#: Lua: ``drop(seq)``: delete the snapshot at ``seq`` (a string) from the
#: index KEYS[1] and its body from KEYS[2], unless it is at a multiple of
#: ``every`` or one of ``newest`` (a set of seqs)
_DROP_SNAPSHOT = """local function drop(s, newest, every)
  if not newest[s] and tonumber(s) % every ~= 0 then
    redis.call('ZREM', KEYS[1], s)
    redis.call('HDEL', KEYS[2], s)
  end
end"""

# KEYS: snapi, snapz
# ARGV: seq, snapshot (format, head hash and body: ``EventStore.save_snapshot``), keep_last, keep_every
# Writes the snapshot at seq (replacing one there: a stream that went back in
# time gets new events, and so new states, at a seq it held before), then
# keeps the newest ``keep_last`` and those at a multiple of ``keep_every``.
# The index (KEYS[1], a sorted set of the seqs, each scored by itself) says
# which; the bodies (KEYS[2], a hash by seq) are never read here. Every
# snapshot that was to go went as the one before was written, so only the
# newest keep_last + 1 and this one can have to go now: a few members of the
# index read, whatever the number of snapshots (before issue 36 every
# snapshot, body and all, was read into the script to prune them).
SAVE_SNAPSHOT = _DROP_SNAPSHOT + """
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local keep_last, every = tonumber(ARGV[3]), tonumber(ARGV[4])
local top = redis.call('ZREVRANGE', KEYS[1], 0, keep_last)
local newest = {}
for i = 1, math.min(#top, keep_last) do newest[top[i]] = true end
for i = keep_last + 1, #top do drop(top[i], newest, every) end
drop(ARGV[1], newest, every)
return 1
"""

# KEYS: snapi, snapz, snap
# ARGV: seq
# The snapshot nearest at or before seq: {'z2', its seq, its body} from the
# index and bodies, or {'z1', its seq, the member} from the sorted set of
# the format before issue 36 (KEYS[3]: members of format z1 held their
# bodies), whichever is nearer; false if neither has one. A z1 member is
# read only when it is the one returned.
READ_SNAPSHOT = """
local new = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'LIMIT', 0, 1)[1]
if redis.call('ZCOUNT', KEYS[3], new and ('(' .. new) or '-inf', ARGV[1]) > 0 then
  local old = redis.call('ZREVRANGEBYSCORE', KEYS[3], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
  return {'z1', old[2], old[1]}
end
if not new then return false end
return {'z2', new, redis.call('HGET', KEYS[2], new) or ''}
"""

# KEYS: snapi, snapz, log, head, packed
# ARGV: verdict seq, keep_every, keep_last
# A finished match whose verdict covers its whole log keeps only the
# snapshots at a multiple of ``keep_every``: of the others only the newest
# ``keep_last`` are left (SAVE_SNAPSHOT), so only they are looked at.
# Returns how many it removed. (Snapshots of the format before issue 36, in
# the match's ``snap`` set, are left as they are: read, never written again.)
PRUNE_FINISHED_SNAPSHOTS = _DROP_SNAPSHOT + """
if redis.call('HGET', KEYS[4], 'status') ~= 'finished' then return 0 end
local top = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)[1]
local top_id = top and top[1]
if not top then
  local seq = string.match(redis.call('GETRANGE', KEYS[5], 0, 88), '^K1 (%d+) ')
  top_id = seq and (seq .. '-0')
end
if top_id ~= string.format('%d-0', tonumber(ARGV[1])) then return 0 end
local before = redis.call('ZCARD', KEYS[1])
for _, s in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)) do drop(s, {}, tonumber(ARGV[2])) end
return before - redis.call('ZCARD', KEYS[1])
"""

# KEYS: log, packed, verdict, auto, autoz
# ARGV: the new block, the old block's length (-1: none), the verdict it was
# made under ('' for none), the worker's annotations compressed ('' to leave
# them as they are), then the id and hash of each stream entry the block was
# made from, in order
# Compaction (``EventStore.compact``): the block replaces the stream, only if
# the stream (and the block before it) are still exactly what it was made
# from: no append came in between (it would be lost), no entry went, and the
# stream's last-generated id is its last entry (Redis keeps it, and the
# audit reads it: a stream whose newest entries were deleted is not
# compacted, so that gap is never hidden). The verdict must still be the
# one read (the annotations are written with it only), and the annotations
# are folded into ``autoz`` with the block. Returns 'ok' or 'moved'.
COMPACT = """
if redis.call('STRLEN', KEYS[2]) ~= math.max(tonumber(ARGV[2]), 0) then return 'moved' end
if tonumber(ARGV[2]) < 0 and redis.call('EXISTS', KEYS[2]) == 1 then return 'moved' end
if (redis.call('GET', KEYS[3]) or '') ~= ARGV[3] then return 'moved' end
local n = (#ARGV - 4) / 2
local entries = redis.call('XRANGE', KEYS[1], '-', '+')
if #entries ~= n or n == 0 then return 'moved' end
for i = 1, n do
  local e = entries[i]
  local h
  for j = 1, #e[2], 2 do if e[2][j] == 'hash' then h = e[2][j + 1] end end
  if e[1] ~= ARGV[3 + 2 * i] or h ~= ARGV[4 + 2 * i] then return 'moved' end
end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
for i = 1, #info, 2 do
  if info[i] == 'last-generated-id' and info[i + 1] ~= entries[n][1] then return 'moved' end
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[5], ARGV[4])
  redis.call('DEL', KEYS[4])
end
return 'ok'
"""
