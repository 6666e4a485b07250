"""Server-side scripts. Each runs atomically, touches only keys of one match
(one hash slot, so Redis Cluster runs them too) and costs one round trip."""

# KEYS: head, log, idem, snap, dirty
# ARGV: expected_seq, expected_hash, idem_ttl, idem_value, snap_seq, snap_blob,
#       status, result, n_events, then 8 fields per event:
#       seq, type, seat, data, recorded_at, recorded_by, prev_hash, hash
# Returns {'ok', queue_validation(0|1)} | {'conflict', current_seq, current_hash}
#       | {'dup', stored_idem_value} | {'missing'}
APPEND = """
if ARGV[4] ~= '' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'dup', prior} end
end
local head = redis.call('HMGET', KEYS[1], 'seq', 'hash')
if not head[1] then return {'missing'} end
if head[1] ~= ARGV[1] or head[2] ~= ARGV[2] then
  return {'conflict', head[1], head[2]}
end
local n = tonumber(ARGV[9])
local last_seq, last_hash
for i = 0, n - 1 do
  local b = 10 + i * 8
  redis.call('XADD', KEYS[2], ARGV[b] .. '-0',
    'seq', ARGV[b], 'type', ARGV[b + 1], 'seat', ARGV[b + 2], 'data', ARGV[b + 3],
    'recorded_at', ARGV[b + 4], 'recorded_by', ARGV[b + 5],
    'prev_hash', ARGV[b + 6], 'hash', ARGV[b + 7])
  last_seq = ARGV[b]
  last_hash = ARGV[b + 7]
end
redis.call('HSET', KEYS[1], 'seq', last_seq, 'hash', last_hash, 'status', ARGV[7], 'result', ARGV[8])
if ARGV[4] ~= '' then
  redis.call('SET', KEYS[3], ARGV[4], 'EX', tonumber(ARGV[3]))
end
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[4], tonumber(ARGV[5]), ARGV[6])
end
local queued = redis.call('SET', KEYS[5], last_seq, 'NX', 'EX', 600)
if queued then return {'ok', 1} end
return {'ok', 0}
"""

# KEYS: head, log, dirty
# ARGV: head fields as a flat list (name, value, ...), n_fields, n_events, events as in APPEND
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local nf = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local base = 3 + nf * 2
local last_seq, last_hash
for i = 0, n - 1 do
  local b = base + i * 8
  redis.call('XADD', KEYS[2], ARGV[b] .. '-0',
    'seq', ARGV[b], 'type', ARGV[b + 1], 'seat', ARGV[b + 2], 'data', ARGV[b + 3],
    'recorded_at', ARGV[b + 4], 'recorded_by', ARGV[b + 5],
    'prev_hash', ARGV[b + 6], 'hash', ARGV[b + 7])
  last_seq = ARGV[b]
  last_hash = ARGV[b + 7]
end
for i = 0, nf - 1 do
  redis.call('HSET', KEYS[1], ARGV[3 + i * 2], ARGV[4 + i * 2])
end
redis.call('HSET', KEYS[1], 'seq', last_seq, 'hash', last_hash)
redis.call('SET', KEYS[3], last_seq, 'EX', 600)
return {'ok'}
"""
