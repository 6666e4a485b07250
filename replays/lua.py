"""Server-side scripts. Each runs atomically, touches only keys of one match
(one hash slot, so Redis Cluster runs them too) and costs one round trip.

The append is on every move's path, so it does as little as it can: the
Idempotency-Key variant only runs when a client sends one, and snapshots
(a cache) are written apart.
"""

# KEYS: head, log, dirty[, idem]
# ARGV: expected_seq, expected_hash, status ('' if unchanged), result, n_events,
#       then seq, event text, hash per event[, then the idempotency record]
# Returns {'ok', queue_validation 0|1} | {'conflict', seq, hash} | {'missing'}
#       | {'dup', stored idempotency record}
_APPEND = """
{idem_check}
local head = redis.call('HMGET', KEYS[1], 'seq', 'hash')
if not head[1] then return {{'missing'}} end
if head[1] ~= ARGV[1] or head[2] ~= ARGV[2] then
  return {{'conflict', head[1], head[2]}}
end
local n = tonumber(ARGV[5])
local b = 6
for i = 1, n do
  redis.call('XADD', KEYS[2], ARGV[b] .. '-0', 'event', ARGV[b + 1], 'hash', ARGV[b + 2])
  b = b + 3
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'seq', ARGV[b - 3], 'hash', ARGV[b - 1], 'status', ARGV[3], 'result', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'seq', ARGV[b - 3], 'hash', ARGV[b - 1])
end
{idem_store}
if redis.call('SET', KEYS[3], ARGV[b - 3], 'NX', 'EX', 600) then return {{'ok', 1}} end
return {{'ok', 0}}
"""

APPEND = _APPEND.format(idem_check="", idem_store="")

APPEND_IDEMPOTENT = _APPEND.format(
    idem_check="""local prior = redis.call('GET', KEYS[4])
if prior then return {'dup', prior} end""",
    idem_store="""redis.call('SET', KEYS[4], ARGV[#ARGV], 'EX', 172800)""",
)

# KEYS: head, log, dirty
# ARGV: n_fields, n_events, head fields (name, value, ...), then events as in APPEND
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local nf = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local b = 3 + nf * 2
for i = 1, n do
  redis.call('XADD', KEYS[2], ARGV[b] .. '-0', 'event', ARGV[b + 1], 'hash', ARGV[b + 2])
  b = b + 3
end
for i = 0, nf - 1 do
  redis.call('HSET', KEYS[1], ARGV[3 + i * 2], ARGV[4 + i * 2])
end
redis.call('HSET', KEYS[1], 'seq', ARGV[b - 3], 'hash', ARGV[b - 1])
redis.call('SET', KEYS[3], ARGV[b - 3], 'EX', 600)
return {'ok'}
"""

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
local i = 3
while i <= #ARGV do  -- in chunks: unpack has a small stack limit
  local j = math.min(i + 999, #ARGV)
  redis.call('HSET', KEYS[2], unpack(ARGV, i, j))
  i = j + 1
end
return 1
"""
