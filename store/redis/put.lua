-- Put: store ARGV[2] under KEYS[1] if its version is still ARGV[1] ("0":
-- the key holds nothing), to expire after ARGV[3] milliseconds, and
-- return the new version; return 0 and change nothing otherwise.
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then
	current = '0'
end
if current ~= ARGV[1] then
	return 0
end
local version
if current == '0' then
	-- A new value starts at Redis's clock, in microseconds, so that a key
	-- made again after it expired never repeats a version.
	local now = redis.call('TIME')
	version = tonumber(now[1]) * 1000000 + tonumber(now[2])
else
	version = tonumber(current) + 1
end
redis.call('HSET', KEYS[1], 'v', string.format('%.0f', version), 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return version
