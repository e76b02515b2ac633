-- Append: add ARGV[1] to the log whose counter is KEYS[1] and whose
-- entries ("seq payload") are the list KEYS[2], keep its last ARGV[2]
-- entries, make both expire after ARGV[3] milliseconds, and return the
-- entry's sequence number.
local seq = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], seq .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return seq
