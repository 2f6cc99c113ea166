/**
 * The Lua script that makes one request's decision on a key's two token buckets inside Redis,
 * atomically, on Redis's own clock (docs/api.md §3, §11). Redis runs a script as one step: no other
 * command runs between its read and its write, so no number of processes or concurrent requests
 * can both read a bucket's last token (the read-then-write race of letsencrypt/boulder#7780).
 *
 * The arithmetic is {@link refill} of `token-bucket.ts` written in Lua: Lua numbers are IEEE
 * doubles like JavaScript's, with the same multiply-before-divide and the same whole-token
 * tolerance, so the same tokens at the same instants give the same answers as the in-process
 * store. The script returns the buckets' token counts as exact decimal strings (`%.17g`
 * round-trips a double; Redis would truncate a Lua number reply to an integer), and the caller
 * derives every header figure from them with the same function as the in-process store.
 */
import { createHash } from 'node:crypto';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS } from './token-bucket.js';

/**
 * KEYS[1], KEYS[2]: the minute and day buckets, each a string `"<tokens> <updated>"` (tokens, and
 * the instant they were counted in ms on Redis's clock, both `%.17g`). ARGV[1], ARGV[2]: the
 * plan's per-minute and per-day capacities; ARGV[3]: `1` to take a token, `0` to look only.
 *
 * Reply: `{refused, minute, day}`: refused is `d` when the day bucket holds no whole token
 * (also when both are empty, docs/api.md §2), `m` when only the minute one does not, else empty;
 * minute and day are the tokens after the take (before it when refused or only looking).
 * A bucket that is written expires when it would be full again (`SET … PX`), so an idle key
 * leaves nothing behind; a missing bucket is a full one. Four calls into Redis per run (TIME,
 * one MGET, and a SET per bucket when a token is taken): each call is most of a script's cost.
 */
export const BUCKETS_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local stored = redis.call('MGET', KEYS[1], KEYS[2])
local function level(value, capacity, window)
  if not value then return capacity end
  local tokens, updated = string.match(value, '^(%S+) (%S+)$')
  tokens, updated = tonumber(tokens), tonumber(updated)
  if tokens == nil or updated == nil then return capacity end
  local elapsed = now - updated
  if elapsed < 0 then elapsed = 0 end
  local refilled = tokens + (elapsed * capacity) / window
  if refilled >= capacity then return capacity end
  local whole = math.floor(refilled + 0.5)
  if math.abs(refilled - whole) < 1e-9 then return whole end
  return refilled
end
local function store(key, tokens, capacity, window)
  local fullInMs = math.ceil((capacity - tokens) * window / capacity)
  redis.call('SET', key, string.format('%.17g %.17g', tokens, now), 'PX', fullInMs)
end
local minuteCapacity, dayCapacity = tonumber(ARGV[1]), tonumber(ARGV[2])
local minute = level(stored[1], minuteCapacity, ${MINUTE_WINDOW_MS})
local day = level(stored[2], dayCapacity, ${DAY_WINDOW_MS})
local refused = ''
if day < 1 then refused = 'd' elseif minute < 1 then refused = 'm' end
if refused == '' and ARGV[3] == '1' then
  minute = minute - 1
  day = day - 1
  store(KEYS[1], minute, minuteCapacity, ${MINUTE_WINDOW_MS})
  store(KEYS[2], day, dayCapacity, ${DAY_WINDOW_MS})
end
return {refused, string.format('%.17g', minute), string.format('%.17g', day)}
`;

/** SHA-1 of {@link BUCKETS_SCRIPT}, the name EVALSHA calls it by (Redis `SCRIPT LOAD`). */
export const BUCKETS_SCRIPT_SHA1 = createHash('sha1').update(BUCKETS_SCRIPT).digest('hex');

/**
 * Names of a key's two buckets: `eqf:{<key_id>}:m` and `eqf:{<key_id>}:d` (docs/api.md §11). The
 * braces are a Redis Cluster hash tag: both names hash to the slot of `key_id`, so one script
 * may touch both.
 *
 * @param keyId - the key's id from the keys file (never the key itself).
 */
export function bucketKeys(keyId: string): [minute: string, day: string] {
  return [`eqf:{${keyId}}:m`, `eqf:{${keyId}}:d`];
}
