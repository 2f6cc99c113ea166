import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DAY_WINDOW_MS,
  MINUTE_WINDOW_MS,
  bucketFigures,
  msUntilFull,
  refill,
  secondsUntil,
} from '../../src/guard/token-bucket.js';

describe('refill', () => {
  test('an empty 60-per-minute bucket holds exactly one token one second later', () => {
    assert.equal(refill(0, 1_000, 2_000, 60, MINUTE_WINDOW_MS), 1);
  });

  test('refill is continuous: half a token after half the time per token', () => {
    assert.equal(refill(0, 0, 3_000, 10, MINUTE_WINDOW_MS), 0.5);
  });

  test('an empty day bucket of 200 holds one token after 432 s', () => {
    assert.equal(refill(0, 0, 431_999, 200, DAY_WINDOW_MS) < 1, true);
    assert.equal(refill(0, 0, 432_000, 200, DAY_WINDOW_MS), 1);
  });

  test('a bucket never refills above its capacity', () => {
    assert.equal(refill(5, 0, 10 * MINUTE_WINDOW_MS, 10, MINUTE_WINDOW_MS), 10);
  });

  test('tokens above a smaller capacity are clamped to it', () => {
    assert.equal(refill(59, 0, 0, 10, MINUTE_WINDOW_MS), 10);
  });

  test('a clock that went backwards adds no tokens and removes none', () => {
    assert.equal(refill(3.25, 10_000, 4_000, 10, MINUTE_WINDOW_MS), 3.25);
  });

  test('a sum within rounding error of a whole token counts as that whole token', () => {
    // Ten refills of 0.1 token each sum to 0.9999999999999999 in binary floating point.
    let tokens = 0;
    for (let ms = 0; ms < 1_000; ms += 100) tokens = refill(tokens, ms, ms + 100, 60, MINUTE_WINDOW_MS);
    assert.equal(tokens, 1);
    assert.equal(bucketFigures(tokens, 10, MINUTE_WINDOW_MS).remaining, 1);
  });
});

describe('secondsUntil', () => {
  test('an empty 10-per-minute bucket needs 6 s for one token', () => {
    assert.equal(secondsUntil(0, 1, 10, MINUTE_WINDOW_MS), 6);
  });

  test('a partial second is rounded up', () => {
    assert.equal(secondsUntil(0.5, 1, 10, MINUTE_WINDOW_MS), 3);
    assert.equal(secondsUntil(0.99, 1, 10, MINUTE_WINDOW_MS), 1);
  });

  test('a wait of a whole second plus rounding error is that whole second', () => {
    // (1 - 0.7) × 60000 / 3 is 6000.000000000001 ms in binary floating point.
    assert.equal(secondsUntil(0.7, 1, 3, MINUTE_WINDOW_MS), 6);
  });

  test('a bucket that already holds the target needs 0 s', () => {
    assert.equal(secondsUntil(1, 1, 10, MINUTE_WINDOW_MS), 0);
    assert.equal(secondsUntil(10, 10, 10, MINUTE_WINDOW_MS), 0);
  });

  test('a wait far below a second is reported as 1 s, never 0', () => {
    assert.equal(secondsUntil(0.9999999, 1, 200_000, DAY_WINDOW_MS), 1);
  });
});

describe('bucketFigures', () => {
  test('a full bucket reports remaining = limit and 0 s to reset and to the next token', () => {
    assert.deepEqual(bucketFigures(60, 60, MINUTE_WINDOW_MS), {
      limit: 60,
      remaining: 60,
      resetSeconds: 0,
      nextTokenSeconds: 0,
    });
  });

  test('remaining is the whole tokens held; reset and next token are rounded up', () => {
    // 4999 of 5000 day tokens: one token is 17.28 s away; full again in 17.28 s.
    assert.deepEqual(bucketFigures(4999, 5000, DAY_WINDOW_MS), {
      limit: 5000,
      remaining: 4999,
      resetSeconds: 18,
      nextTokenSeconds: 18,
    });
    assert.deepEqual(bucketFigures(2.5, 10, MINUTE_WINDOW_MS), {
      limit: 10,
      remaining: 2,
      resetSeconds: 45,
      nextTokenSeconds: 3,
    });
  });

  test('an empty bucket reports remaining 0 and the time to its first token', () => {
    assert.deepEqual(bucketFigures(0, 10, MINUTE_WINDOW_MS), {
      limit: 10,
      remaining: 0,
      resetSeconds: 60,
      nextTokenSeconds: 6,
    });
  });
});

describe('msUntilFull', () => {
  test('is the exact wait until capacity, and 0 when full', () => {
    assert.equal(msUntilFull(7, 10, MINUTE_WINDOW_MS), 18_000);
    assert.equal(msUntilFull(10, 10, MINUTE_WINDOW_MS), 0);
  });
});
