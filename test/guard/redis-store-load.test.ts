/**
 * Limits shared through Redis stay exact while the API processes are busy (docs/api.md §11: a busy
 * API process, its own event loop late, is not an unreachable Redis): real processes on one
 * real Redis, bursts of concurrent requests for one key; and Redis stopped (SIGSTOP) and resumed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bucketKeys } from '../../src/guard/redis-script.js';
import { KEYS, withKey } from '../helpers/harness.js';
import { NO_REDIS_REASON, startRedis } from '../helpers/redis-server.js';
import { burst, fixtureDir, startServe } from '../helpers/serve-process.js';

const skip = NO_REDIS_REASON ? { skip: NO_REDIS_REASON } : {};
const named = (name: string): string => (NO_REDIS_REASON ? `${name} (skipped: ${NO_REDIS_REASON})` : name);
const FILINGS = '/api/v1/finance/filings?limit=1';
/** Bursts in CI (the issue's target, run by hand, is 40). */
const BURSTS = Number(process.env.EQF_LOAD_BURSTS ?? 6);
const BURST = 1000;
/**
 * The default `--redis-timeout-ms`. Lower ones make the processes' own lateness trip the old
 * per-command timer more often (20 ms: every run), but on a machine at load 10 Redis itself,
 * starved of CPU, then sometimes leaves replies for that long, and the fallback is right. The
 * deterministic reproduction is the stall test of `redis-store.test.ts`.
 */
const TIMEOUT_MS = Number(process.env.EQF_LOAD_TIMEOUT_MS ?? 250);

test(named(`three processes on one Redis, ${BURSTS} bursts of ${BURST} concurrent requests for a free key with --redis-timeout-ms ${TIMEOUT_MS}: never more than its 10 per minute admitted, no fallback`), skip, async (t) => {
  const redis = await startRedis(t);
  const fixture = await fixtureDir(t);
  const flags = ['--redis-url', redis.url, '--redis-timeout-ms', String(TIMEOUT_MS), '--access-log', 'off'];
  const servers = await Promise.all([0, 1, 2].map(() => startServe(t, fixture, flags)));
  const urls = servers.map((s) => s.url);
  const client = await redis.client();
  const admitted: number[] = [];
  for (let i = 0; i < BURSTS; i++) {
    await client.sendCommand(['DEL', ...bucketKeys('k_free')]); // a full bucket again
    const { answers, sentAt } = await burst(urls, FILINGS, withKey(KEYS.free), BURST);
    const ok = answers.filter((a) => a.status === 200).length;
    // One token of 10 per minute comes back every 6 s: a burst longer than that may earn one.
    const refilled = Math.floor((Math.max(...answers.map((a) => a.at)) - sentAt) / 6000);
    // The breaker may shed some of a burst on a busy machine (503 service_busy): they take no token.
    const shed = answers.filter((a) => a.status === 503 && a.error === 'service_busy').length;
    assert.deepEqual(answers.filter((a) => a.status !== 200 && a.status !== 429 && a.error !== 'service_busy'), [], 'only 200, 429 and the breaker\'s 503');
    if (shed === 0) assert.ok(ok >= 10, `burst ${i + 1}: ${ok} answered 200; expected 10`);
    assert.ok(ok <= 10 + refilled, `burst ${i + 1}: ${ok} answered 200; expected 10${refilled ? ` (+${refilled} refilled)` : ''}; admitted so far ${admitted.join(', ')}\n${servers.map((s) => s.stderr.text).join('')}`);
    admitted.push(ok);
  }
  for (const server of servers) assert.doesNotMatch(server.stderr.text, /did not answer|answering from this process's own buckets/);
});
