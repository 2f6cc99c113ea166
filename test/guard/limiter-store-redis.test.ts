/**
 * The Redis store through the limiter store contract, against a real redis-server (started by the
 * test). Redis counts on its own clock (`TIME`, inside the script), which a test cannot move: the
 * cases that need time to pass are skipped, and every other case runs, the ones on plans outside
 * the plan table included (the script is given the plan's limits, not its id). What only this
 * store does (expiry, NOSCRIPT, the fallback, a stopped Redis) is in `redis-store.test.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter } from '../../src/guard/limiter.js';
import { openRedisStore } from '../../src/guard/redis-store.js';
import { NO_REDIS_REASON, startRedis } from '../helpers/redis-server.js';
import { limiterStoreContract } from './limiter-store-contract.js';

const skip = NO_REDIS_REASON ? { skip: NO_REDIS_REASON } : {};

test(`the Redis store keeps the limiter store contract${NO_REDIS_REASON ? ` (skipped: ${NO_REDIS_REASON})` : ''}`, { ...skip, timeout: 60_000 }, async (t) => {
  const redis = await startRedis(t);
  const client = await redis.client();
  const logs: string[] = [];
  // closed, and a timeout far above any reply: a decision that is not Redis's fails its case
  // (503 service_busy) instead of passing on this process's own buckets.
  const store = await openRedisStore({
    url: redis.url, timeoutMs: 5_000, fallback: 'closed', local: new Limiter({ sweepIntervalMs: 0 }), log: (line) => logs.push(line),
  });
  t.after(() => store.close());
  await limiterStoreContract(t, {
    where: 'redis',
    store,
    anyPlan: true,
    // Each key with buckets has two Redis keys, its minute and day buckets (and nothing else is stored).
    held: async () => Number(await client.sendCommand(['DBSIZE'])) / 2,
  });
  assert.deepEqual({ ...store.counters }, { fallbacks: 0, fallbackAnswers: 0 }, logs.join('\n'));
});
