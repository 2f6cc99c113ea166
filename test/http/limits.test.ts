/**
 * Token buckets through the real server, with the clock moved by hand (docs/api.md §3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';

const PATH = '/api/v1/finance/filings?limit=1';

test('free plan: 10 requests a minute, then 429 rate_limited_minute with Retry-After 6', async (t) => {
  const h = await startHarness(t);
  for (let i = 9; i >= 0; i--) {
    const reply = await h.get(PATH, withKey(KEYS.free));
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['x-ratelimit-remaining-minute'], String(i));
    assert.equal(reply.headers['x-ratelimit-limit-minute'], '10');
    assert.equal(reply.headers['x-ratelimit-limit-day'], '200');
  }
  const limited = await h.get(PATH, withKey(KEYS.free));
  assert.equal(limited.status, 429);
  assert.equal(limited.json.error, 'rate_limited_minute');
  assert.equal(limited.headers['retry-after'], '6', '60 s / 10 tokens');
  assert.equal(limited.headers['x-ratelimit-remaining-minute'], '0');
  assert.equal(limited.headers['ratelimit-policy'], '"minute";q=10;w=60, "day";q=200;w=86400');
  assert.equal(limited.headers.ratelimit, '"minute";r=0;t=6, "day";r=190;t=432');
});

test('a 429 consumes nothing, and the bucket refills continuously', async (t) => {
  const h = await startHarness(t);
  for (let i = 0; i < 10; i++) await h.get(PATH, withKey(KEYS.free));
  for (let i = 0; i < 5; i++) assert.equal((await h.get(PATH, withKey(KEYS.free))).status, 429);
  h.clock.advance(5_999);
  assert.equal((await h.get(PATH, withKey(KEYS.free))).headers['retry-after'], '1');
  h.clock.advance(1);
  const refilled = await h.get(PATH, withKey(KEYS.free));
  assert.equal(refilled.status, 200, 'one token after 6 s, the 429s took none');
  assert.equal(refilled.headers['x-ratelimit-remaining-day'], '189');
  h.clock.advance(60_000);
  assert.equal((await h.get(PATH, withKey(KEYS.free))).headers['x-ratelimit-remaining-minute'], '9', 'full again, less this one');
});

test('day bucket: when it is empty the answer is rate_limited_day even if the minute bucket is empty too', async (t) => {
  const h = await startHarness(t);
  for (let i = 0; i < 200; i++) {
    const reply = await h.get(PATH, withKey(KEYS.free));
    assert.equal(reply.status, 200, `request ${i}`);
    h.clock.advance(6_000);
  }
  // 200 × 6 s = 1200 s: the day bucket has refilled 200 × 1200 / 86400 = 2.78 tokens by now.
  let last;
  for (let i = 0; i < 3; i++) last = await h.get(PATH, withKey(KEYS.free));
  assert.equal(last!.status, 429);
  assert.equal(last!.json.error, 'rate_limited_day');
  const retry = Number(last!.headers['retry-after']);
  assert.ok(retry >= 1 && retry <= 432, `Retry-After ${retry} is until the day bucket holds a token (432 s per token)`);
});

test('different keys have separate buckets; meta takes no token and answers 200 with remaining 0', async (t) => {
  const h = await startHarness(t);
  for (let i = 0; i < 10; i++) await h.get(PATH, withKey(KEYS.free));
  assert.equal((await h.get(PATH, withKey(KEYS.free))).status, 429);
  assert.equal((await h.get(PATH, withKey(KEYS.signal))).status, 200);
  const meta = await h.get('/api/v1/meta', withKey(KEYS.free));
  assert.equal(meta.status, 200);
  assert.equal(meta.json.data[0].usage.minute.remaining, 0);
  assert.equal(meta.json.data[0].usage.minute.used, 10);
  assert.equal(meta.json.data[0].usage.minute.reset_seconds, 60);
  assert.equal(meta.headers['x-ratelimit-remaining-minute'], '0');
});

test('errors before the limiter (401, 402, 403, 404, 405) consume no token', async (t) => {
  const h = await startHarness(t);
  await h.get('/api/v1/finance/filings', withKey(KEYS.signal), 'POST');
  await h.get('/api/v1/finance/nope', withKey(KEYS.signal));
  const reply = await h.get(PATH, withKey(KEYS.signal));
  assert.equal(reply.headers['x-ratelimit-remaining-minute'], '59');
});
