/**
 * Limits that stay exact across processes (decisions §11), through real processes: three
 * `serve` processes sharing one real Redis, and `serve --workers 2` without Redis, each taking
 * a burst of 1,000 concurrent requests for one key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashKey, type KeyRecord } from '../../src/keys/keys-file.js';
import { bucketKeys } from '../../src/guard/redis-script.js';
import { KEYS, withKey } from '../helpers/harness.js';
import { NO_REDIS_REASON, startRedis } from '../helpers/redis-server.js';
import { burst, fixtureDir, startServe, type BurstAnswer } from '../helpers/serve-process.js';

const FILINGS = '/api/v1/finance/filings?limit=1';
const BURST = 1000;

/** A second free-plan key, for the day bucket (the first one's minute bucket is spent by then). */
const SECOND_FREE = 'test-free-key-two';
const EXTRA_KEYS: KeyRecord[] = [{ id: 'k_free2', sha256: hashKey(SECOND_FREE), account: 'acct-free2', plan: 'free', status: 'active', created_at: '2026-11-01T00:00:00Z' }];

/**
 * Checks a burst against one bucket of `capacity` tokens refilled over `windowS` seconds that
 * was full (or held `capacity` tokens) when the burst began: exactly `capacity` answers 200 plus
 * the whole tokens that refilled while the burst ran (none when it ran shorter than one token's
 * time), and every other answer 429 with `code` and a `Retry-After` equal to the wait for the
 * next token at that moment: at most one token's time, at least that minus the burst's duration.
 */
function assertExact(answers: readonly BurstAnswer[], sentAt: number, capacity: number, perTokenS: number, code: string): void {
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const ok = statuses.get(200) ?? 0;
  const elapsedS = (Math.max(...answers.map((a) => a.at)) - sentAt) / 1000;
  const refilled = Math.floor(elapsedS / perTokenS);
  assert.deepEqual([...statuses.keys()].sort(), [200, 429], `only 200 and 429: ${JSON.stringify([...statuses])}`);
  assert.ok(ok >= capacity && ok <= capacity + refilled, `${ok} answered 200; expected ${capacity}${refilled ? ` to ${capacity + refilled} (${refilled} refilled in ${elapsedS.toFixed(2)} s)` : ''}`);
  for (const answer of answers.filter((a) => a.status === 429)) {
    assert.equal(answer.error, code);
    assert.ok(answer.retryAfter !== undefined && answer.retryAfter <= Math.ceil(perTokenS) && answer.retryAfter >= Math.max(1, Math.floor(perTokenS - elapsedS - 1)),
      `Retry-After ${answer.retryAfter} for a token every ${perTokenS} s, burst of ${elapsedS.toFixed(2)} s`);
  }
}

test(`three processes sharing one Redis admit exactly a free key's 10, a Signal key's 60 and a day bucket's 5 of ${BURST} concurrent requests${NO_REDIS_REASON ? ` (skipped: ${NO_REDIS_REASON})` : ''}`, { skip: NO_REDIS_REASON || false }, async (t) => {
  const redis = await startRedis(t);
  const fixture = await fixtureDir(t, EXTRA_KEYS);
  const servers = await Promise.all([0, 1, 2].map(() => startServe(t, fixture, ['--redis-url', redis.url, '--access-log', 'off'])));
  const urls = servers.map((s) => s.url);

  const free = await burst(urls, FILINGS, withKey(KEYS.free), BURST);
  assertExact(free.answers, free.sentAt, 10, 6, 'rate_limited_minute');

  const signal = await burst(urls, FILINGS, withKey(KEYS.signal), BURST);
  assertExact(signal.answers, signal.sentAt, 60, 1, 'rate_limited_minute');

  // The day bucket: 5 tokens left (seeded in Redis on its own clock), the minute bucket full.
  const client = await redis.client();
  const [seconds, micros] = await client.sendCommand<[string, string]>(['TIME']);
  const nowMs = Number(seconds) * 1000 + Number(micros) / 1000;
  await client.sendCommand(['HSET', bucketKeys('k_free2')[1], 't', '5', 'u', String(nowMs)]);
  const day = await burst(urls, FILINGS, withKey(SECOND_FREE), BURST);
  assertExact(day.answers, day.sentAt, 5, 86_400 / 200, 'rate_limited_day');

  for (const server of servers) {
    assert.doesNotMatch(server.stderr.text, /answering from this process's own buckets|did not answer within/, 'the bursts never tripped the Redis timeout');
  }
});

test(`serve --workers 2 without Redis admits exactly a free key's 10 of ${BURST} concurrent requests (the primary holds the buckets)`, async (t) => {
  const fixture = await fixtureDir(t);
  const server = await startServe(t, fixture, ['--workers', '2', '--access-log', 'off']);
  assert.match(server.stderr.text, /with 2 workers, limits held by the primary/);
  const free = await burst([server.url], FILINGS, withKey(KEYS.free), BURST);
  assertExact(free.answers, free.sentAt, 10, 6, 'rate_limited_minute');
  // Both workers answered some of them: the port is shared.
  assert.equal((server.stderr.text.match(/worker \d+ \(pid \d+\) serving/g) ?? []).length, 2);
  assert.equal(await server.stop(), 0);
});
