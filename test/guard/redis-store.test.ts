/**
 * The Redis store against a real redis-server (started by the test): the same headers as the
 * in-process store, expiry of idle buckets, the script reloaded after NOSCRIPT, and the failure
 * policy while Redis is unreachable (Redis killed, paused, restarted). What every store does is
 * the limiter store contract, which `limiter-store-redis.test.ts` runs on this store.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Limiter } from '../../src/guard/limiter.js';
import { bucketKeys } from '../../src/guard/redis-script.js';
import { openRedisStore, type RedisStore } from '../../src/guard/redis-store.js';
import { findPlan } from '../../src/plans.js';
import { RATE_LIMIT_HEADER_NAMES } from '../../src/guard/rate-limit-headers.js';
import { KEYS, startHarness, withKey, type Harness, type Reply } from '../helpers/harness.js';
import { NO_REDIS_REASON, startRedis } from '../helpers/redis-server.js';

const skip = NO_REDIS_REASON ? { skip: NO_REDIS_REASON } : {};
const named = (name: string): string => (NO_REDIS_REASON ? `${name} (skipped: ${NO_REDIS_REASON})` : name);
const FILINGS = '/api/v1/finance/filings?limit=1';

/** The rate-limit fields of a reply, by name. */
function limitFields(reply: Reply): Record<string, unknown> {
  return Object.fromEntries(RATE_LIMIT_HEADER_NAMES.map((name) => [name, reply.headers[name.toLowerCase()]]));
}

/** A sequence of requests touching every figure: takes, 400s, meta, 429s. */
async function sequence(h: Harness, key: string, takes: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  const record = (reply: Reply): void => { seen.push({ status: reply.status, fields: limitFields(reply), usage: reply.json?.data?.[0]?.usage }); };
  record(await h.get('/api/v1/meta', withKey(key)));
  for (let i = 0; i < takes; i++) {
    record(await h.get(i === 2 ? '/api/v1/finance/filings?limit=0' : FILINGS, withKey(key)));
    if (i === 4) record(await h.get('/api/v1/meta', withKey(key)));
  }
  record(await h.get('/api/v1/meta', withKey(key)));
  return seen;
}

/** Polls `/readyz` until its `limits.mode` is `mode`; fails after `ms`. */
async function waitForMode(h: Harness, mode: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    const reply = await h.get('/readyz');
    if (reply.json?.limits?.mode === mode) return;
    if (performance.now() > deadline) assert.fail(`limits.mode still ${JSON.stringify(reply.json?.limits)} after ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test(named('the Redis store gives the same rate-limit headers and meta usage as the in-process store for the same sequence'), skip, async (t) => {
  const redis = await startRedis(t);
  const local = await startHarness(t);
  const shared = await startHarness(t, { redisUrl: redis.url });
  for (const [key, takes] of [[KEYS.free, 13], [KEYS.signal, 8]] as const) {
    const expected = await sequence(local, key, takes);
    assert.deepEqual(await sequence(shared, key, takes), expected);
  }
  assert.deepEqual((await shared.get('/readyz')).json.limits, { store: 'redis', mode: 'shared' });
  assert.equal(shared.server.handler.limiter.size, 0, 'no bucket was kept in the process');
});

test(named('bucket keys in Redis expire when they would be full again, and meta leaves none'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url });
  const client = await redis.client();
  await h.get('/api/v1/meta', withKey(KEYS.free));
  assert.equal(await client.sendCommand(['EXISTS', ...bucketKeys('k_free')]), 0, 'a look writes nothing');
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).status, 200);
  const [minute, day] = bucketKeys('k_free');
  const minuteTtl = Number(await client.sendCommand(['PTTL', minute!]));
  const dayTtl = Number(await client.sendCommand(['PTTL', day!]));
  // One token of 10 per minute is back in 6 s; one of 200 per day in 432 s.
  assert.ok(minuteTtl > 5_000 && minuteTtl <= 6_000, `minute TTL ${minuteTtl} ms`);
  assert.ok(dayTtl > 431_000 && dayTtl <= 432_000, `day TTL ${dayTtl} ms`);
});

test(named('a script flushed from Redis (NOSCRIPT) is loaded again and the request is still counted there'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url });
  const client = await redis.client();
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).headers['x-ratelimit-remaining-minute'], '9');
  await client.sendCommand(['SCRIPT', 'FLUSH']);
  const after = await h.get(FILINGS, withKey(KEYS.free));
  assert.equal(after.status, 200);
  assert.equal(after.headers['x-ratelimit-remaining-minute'], '8');
  assert.doesNotMatch(h.logs.join('\n'), /answering from/, 'no fallback');
});

test(named('Redis killed: the local fallback answers with its own buckets and no 5xx, logged once; restarted: shared again'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url, redisTimeoutMs: 100 });
  assert.equal((await h.get(FILINGS, withKey(KEYS.signal))).status, 200);
  await redis.kill();
  await waitForMode(h, 'fallback_local');
  for (let i = 0; i < 12; i++) {
    const reply = await h.get(FILINGS, withKey(KEYS.free));
    assert.equal(reply.status, i < 10 ? 200 : 429);
    assert.ok(reply.headers['x-ratelimit-remaining-minute'] !== undefined);
  }
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.free))).status, 200);
  assert.equal(h.server.handler.limiter.size, 1, `the fallback counted in this process: ${h.logs.join("\n")}`);
  assert.equal(h.logs.filter((line) => line.includes("answering from this process's own buckets")).length, 1, h.logs.join('\n'));

  await redis.restart();
  await waitForMode(h, 'shared');
  assert.equal(h.logs.filter((line) => line.includes('limits are shared again')).length, 1, h.logs.join('\n'));
  // Counted in Redis again: the restarted Redis is empty, so the Signal key starts full there.
  assert.equal((await h.get(FILINGS, withKey(KEYS.signal))).headers['x-ratelimit-remaining-minute'], '59');
  const client = await redis.client();
  assert.equal(await client.sendCommand(['EXISTS', ...bucketKeys('k_signal')]), 2);
});

test(named('--redis-fallback closed: while Redis is away every limited request is 503 service_busy with Retry-After: 1'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url, redisFallback: 'closed', redisTimeoutMs: 100 });
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).status, 200);
  await redis.kill();
  await waitForMode(h, 'unavailable');
  for (const path of [FILINGS, '/api/v1/meta']) {
    const reply = await h.get(path, withKey(KEYS.free));
    assert.equal(reply.status, 503);
    assert.equal(reply.json.error, 'service_busy');
    assert.equal(reply.headers['retry-after'], '1');
    assert.equal(reply.headers['x-ratelimit-remaining-minute'], undefined);
    assert.equal(reply.headers['x-snapshot-version'], 'v1');
    assert.equal(reply.headers['cache-control'], 'no-store');
  }
  assert.equal((await h.get('/api/v1/openapi.json')).status, 200, 'what needs no limiter still answers');
  assert.equal(h.logs.filter((line) => line.includes('answering 503 service_busy until it is back')).length, 1);
});

test(named('Redis slower than --redis-timeout-ms (CLIENT PAUSE): the request is answered by the fallback, then Redis is used again'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url, redisTimeoutMs: 50 });
  const client = await redis.client();
  await client.sendCommand(['CLIENT', 'PAUSE', '400', 'ALL']);
  const reply = await h.get(FILINGS, withKey(KEYS.free));
  assert.equal(reply.status, 200);
  assert.match(h.logs.join('\n'), /did not answer within 50 ms; answering from this process's own buckets/);
  await waitForMode(h, 'shared');
  assert.equal((await h.get(FILINGS, withKey(KEYS.founders))).headers['x-ratelimit-remaining-minute'], '299');
});

test(named('Redis down at start: the server starts on its fallback, says why once, and shares limits when Redis comes'), skip, async (t) => {
  const redis = await startRedis(t);
  await redis.kill();
  const h = await startHarness(t, { redisUrl: redis.url });
  assert.match(h.logs.join('\n'), /limits: Redis at redis:\/\/127\.0\.0\.1:\d+ not answering within 2000 ms \(connect ECONNREFUSED [^)]+\) at start; answering from this process's own buckets/);
  assert.deepEqual((await h.get('/readyz')).json.limits, { store: 'redis', mode: 'fallback_local' });
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).status, 200);
  await redis.restart();
  await waitForMode(h, 'shared');
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).headers['x-ratelimit-remaining-minute'], '9', 'counted afresh in Redis');
});

test(named('through Redis a conditional request answers 304 with the current limits and takes no token, as in the process'), skip, async (t) => {
  const redis = await startRedis(t);
  const local = await startHarness(t);
  const shared = await startHarness(t, { redisUrl: redis.url });
  const conditional = async (h: Harness): Promise<unknown[]> => {
    const first = await h.get(FILINGS, withKey(KEYS.free));
    const again = await h.get(FILINGS, { ...withKey(KEYS.free), 'if-none-match': String(first.headers.etag) });
    const meta = await h.get('/api/v1/meta', withKey(KEYS.free));
    return [first.status, again.status, limitFields(first), limitFields(again), meta.json.data[0].usage.minute];
  };
  const expected = await conditional(local);
  assert.deepEqual(expected.slice(0, 2), [200, 304]);
  assert.equal((expected[4] as { used: number }).used, 1, 'the 304 took no token');
  assert.deepEqual(await conditional(shared), expected);
});

/** Keeps this process's event loop busy for `ms` of real time: the injected stall of a busy API process. */
function stallEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy, as a process answering a burst is */ }
}

/** A Redis store on `url` with its log lines, closed after the test. */
async function openStore(t: TestContext, url: string, timeoutMs: number): Promise<{ store: RedisStore; logs: string[] }> {
  const logs: string[] = [];
  const store = await openRedisStore({ url, timeoutMs, fallback: 'local', local: new Limiter({ sweepIntervalMs: 0 }), log: (line) => logs.push(line) });
  t.after(() => store.close());
  return { store, logs };
}

test(named('an event-loop stall longer than --redis-timeout-ms before or after a script is written is not Redis\'s slowness: Redis answers, no fallback'), skip, async (t) => {
  const redis = await startRedis(t);
  const { store, logs } = await openStore(t, redis.url, 100);
  const free = findPlan('free')!;
  // Before the write: the client writes what was sent in one turn of the event loop in its next
  // check phase; a script sent from a check phase and followed by a stall is written only after
  // the loop has been late by far more than the timeout (as a burst of requests makes it).
  const beforeWrite = await new Promise<unknown>((resolve) => setImmediate(() => {
    resolve(store.take('k_free', free));
    stallEventLoop(250);
  }));
  // After the write: the answer sits in the socket while the loop is busy.
  const afterWrite = store.take('k_free', free);
  setImmediate(stallEventLoop, 250);
  const decisions = [await beforeWrite, await afterWrite] as { minute: { remaining: number } }[];
  assert.deepEqual(decisions.map((d) => d.minute.remaining), [9, 8]);
  const [minute] = bucketKeys('k_free');
  const stored = await (await redis.client()).sendCommand<string>(['GET', minute!]);
  assert.equal(Math.floor(Number(stored.split(' ')[0])), 8, 'both counted in Redis');
  assert.deepEqual(logs.filter((line) => !line.includes('shared through Redis')), [], 'no switch to the fallback');
  assert.equal(store.state().mode, 'shared');
  assert.equal(store.counters.fallbackAnswers, 0);
});

test(named('Redis stopped (SIGSTOP): the waiting request is answered by the local fallback after --redis-timeout-ms, logged once; resumed (SIGCONT): shared again'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url, redisTimeoutMs: 100 });
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).headers['x-ratelimit-remaining-minute'], '9');
  redis.stop();
  t.after(() => redis.resume()); // so that nothing waits on a frozen Redis if an assertion fails
  // Redis still accepts the script (the connection is open) and never answers it.
  const waiting = await h.get(FILINGS, withKey(KEYS.free));
  assert.equal(waiting.status, 200);
  assert.equal(waiting.headers['x-ratelimit-remaining-minute'], '9', "this process's own full buckets answered");
  assert.deepEqual((await h.get('/readyz')).json.limits, { store: 'redis', mode: 'fallback_local' });
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).headers['x-ratelimit-remaining-minute'], '8');
  const switches = h.logs.filter((line) => /did not answer within 100 ms; answering from this process's own buckets/.test(line));
  assert.equal(switches.length, 1, h.logs.join('\n'));

  redis.resume();
  await waitForMode(h, 'shared');
  assert.equal(h.logs.filter((line) => line.includes('answers again; limits are shared again')).length, 1, h.logs.join('\n'));
  const after = await h.get(FILINGS, withKey(KEYS.free));
  const stored = await (await redis.client()).sendCommand<string>(['GET', bucketKeys('k_free')[0]!]);
  assert.equal(after.headers['x-ratelimit-remaining-minute'], String(Math.floor(Number(stored.split(' ')[0]))), 'counted in Redis again');
  assert.equal(h.logs.filter((line) => line.includes('did not answer')).length, 1, 'one switch only');
});

test(named('--redis-fallback-share 3: while Redis is away each process answers a free key from buckets of 3 per minute (10 / 3, rounded down), and says so'), skip, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { redisUrl: redis.url, redisTimeoutMs: 100, redisFallbackShare: 3 });
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).headers['x-ratelimit-limit-minute'], '10', 'shared: the whole plan');
  await redis.kill();
  await waitForMode(h, 'fallback_local');
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const reply = await h.get(FILINGS, withKey(KEYS.free));
    statuses.push(reply.status);
    assert.equal(reply.headers['x-ratelimit-limit-minute'], '3');
    assert.equal(reply.headers['x-ratelimit-limit-day'], '66', '200 / 3, rounded down');
  }
  assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  assert.match(h.logs.join('\n'), /each process admits up to 1\/3 of each key's limits \(--redis-fallback-share 3\) meanwhile/);
});
