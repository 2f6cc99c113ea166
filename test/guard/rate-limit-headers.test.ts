import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Limiter } from '../../src/guard/limiter.js';
import type { LimitDecision } from '../../src/guard/limiter-store.js';
import { RATE_LIMIT_HEADER_NAMES, rateLimitHeaders } from '../../src/guard/rate-limit-headers.js';
import type { Plan } from '../../src/plans.js';

function plan(perMinute: number, perDay: number): Plan {
  return { id: 'signal', label: 'Test', perMinute, perDay, maxPageSize: 50, summaries: true };
}

test('an allowed decision gives the six headers in order, without Retry-After', () => {
  const decision: LimitDecision = {
    allowed: true,
    minute: { limit: 60, remaining: 41, resetSeconds: 19, nextTokenSeconds: 1 },
    day: { limit: 5000, remaining: 4711, resetSeconds: 5000, nextTokenSeconds: 18 },
  };
  assert.deepEqual(rateLimitHeaders(decision), [
    ['X-RateLimit-Limit-Minute', '60'],
    ['X-RateLimit-Remaining-Minute', '41'],
    ['X-RateLimit-Limit-Day', '5000'],
    ['X-RateLimit-Remaining-Day', '4711'],
    ['RateLimit-Policy', '"minute";q=60;w=60, "day";q=5000;w=86400'],
    ['RateLimit', '"minute";r=41;t=1, "day";r=4711;t=18'],
  ]);
});

test('a refused decision adds Retry-After last', () => {
  const decision: LimitDecision = {
    allowed: false,
    code: 'rate_limited_minute',
    retryAfterSeconds: 6,
    minute: { limit: 10, remaining: 0, resetSeconds: 60, nextTokenSeconds: 6 },
    day: { limit: 200, remaining: 190, resetSeconds: 4320, nextTokenSeconds: 432 },
  };
  assert.deepEqual(rateLimitHeaders(decision), [
    ['X-RateLimit-Limit-Minute', '10'],
    ['X-RateLimit-Remaining-Minute', '0'],
    ['X-RateLimit-Limit-Day', '200'],
    ['X-RateLimit-Remaining-Day', '190'],
    ['RateLimit-Policy', '"minute";q=10;w=60, "day";q=200;w=86400'],
    ['RateLimit', '"minute";r=0;t=6, "day";r=190;t=432'],
    ['Retry-After', '6'],
  ]);
});

test('after the first request on a 60/5000 plan the next tokens are 1 s and 18 s away', () => {
  const limiter = new Limiter({ now: () => 0, sweepIntervalMs: 0 });
  const headers = new Map(rateLimitHeaders(limiter.take('k1', plan(60, 5000))));
  // One minute token per 1 s; one day token per 86400 / 5000 = 17.28 s, rounded up.
  assert.equal(headers.get('RateLimit'), '"minute";r=59;t=1, "day";r=4999;t=18');
});

test('a full bucket (meta for a key without state) shows t=0', () => {
  const limiter = new Limiter({ now: () => 0, sweepIntervalMs: 0 });
  const headers = new Map(rateLimitHeaders(limiter.peek('k1', plan(60, 5000))));
  assert.equal(headers.get('RateLimit'), '"minute";r=60;t=0, "day";r=5000;t=0');
  assert.equal(headers.has('Retry-After'), false);
});

test('RATE_LIMIT_HEADER_NAMES lists every header of a refused decision, in order', () => {
  const limiter = new Limiter({ now: () => 0, sweepIntervalMs: 0 });
  limiter.take('k1', plan(1, 1));
  const refused = limiter.take('k1', plan(1, 1));
  assert.equal(refused.allowed, false);
  assert.deepEqual(
    rateLimitHeaders(refused).map(([name]) => name),
    [...RATE_LIMIT_HEADER_NAMES],
  );
});
