"""Server-side scripts, for the appends that must write more than one thing
atomically: a move with the chance outcomes the server drew for it, and a
request with an Idempotency-Key. A plain single move needs no script: its
XADD with the explicit id ``<seq>-0`` is itself the compare-and-set (see
``EventStore.append``), sent with the ZADD of its owed mark in one round
trip. Each script touches only keys of one match (one hash slot, so Redis
Cluster runs them too) and costs one round trip.
"""

# KEYS: log[, idem]
# ARGV: n_events, then seq, event text, hash per event[, then the idempotency record]
# Returns {'ok'} | {'conflict'} | {'missing'} | {'dup', stored idempotency record}
_APPEND = """
{idem_check}
if redis.call('EXISTS', KEYS[1]) == 0 then return {{'missing'}} end
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local first = tonumber(ARGV[2])
if top[1] and tonumber(string.match(top[1][1], '^(%d+)')) ~= first - 1 then
  return {{'conflict'}}
end
local n = tonumber(ARGV[1])
local b = 2
for i = 1, n do
  redis.call('XADD', KEYS[1], ARGV[b] .. '-0', 'event', ARGV[b + 1], 'hash', ARGV[b + 2])
  b = b + 3
end
{idem_store}
return {{'ok'}}
"""

APPEND = _APPEND.format(idem_check="", idem_store="")

APPEND_IDEMPOTENT = _APPEND.format(
    idem_check="""local prior = redis.call('GET', KEYS[2])
if prior then return {'dup', prior} end""",
    idem_store="""redis.call('SET', KEYS[2], ARGV[#ARGV], 'EX', 172800)""",
)

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
return {'ok'}
"""

#: Lua: HSET the field, value pairs ARGV[first..] into ``key``, in chunks
#: (unpack has a small stack limit)
HSET_PAIRS = """local i = {first}
while i <= #ARGV do
  local j = math.min(i + 999, #ARGV)
  redis.call('HSET', {key}, unpack(ARGV, i, j))
  i = j + 1
end"""

# KEYS: verdict, auto
# ARGV: seq, verdict json, then field/value pairs of annotations
# A verdict for a shorter log never replaces one for a longer log (jobs may
# finish out of order).
SAVE_VERDICT = """
local current = redis.call('GET', KEYS[1])
if current then
  local seq = tonumber(cjson.decode(current)['seq'])
  if seq and seq > tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2])
""" + HSET_PAIRS.format(key="KEYS[2]", first=3) + """
return 1
"""
