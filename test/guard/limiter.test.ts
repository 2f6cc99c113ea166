import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Limiter } from '../../src/guard/limiter.js';
import type { LimitDecision } from '../../src/guard/limiter-store.js';
import { PLANS, type Plan } from '../../src/plans.js';

/** A plan with these limits; the rest of the row does not matter to the limiter. */
function plan(perMinute: number, perDay: number): Plan {
  return { id: 'free', label: 'Test', perMinute, perDay, maxPageSize: 10, summaries: false };
}

/** A limiter on a manual clock, without a sweep timer. */
function manualLimiter(): { limiter: Limiter; advance: (ms: number) => void } {
  let nowMs = 1_700_000_000_000;
  const limiter = new Limiter({ now: () => nowMs, sweepIntervalMs: 0 });
  return { limiter, advance: (ms) => void (nowMs += ms) };
}

function takeTimes(limiter: Limiter, keyId: string, p: Plan, times: number): LimitDecision {
  let decision: LimitDecision | undefined;
  for (let i = 0; i < times; i++) decision = limiter.take(keyId, p);
  assert.ok(decision);
  return decision;
}

describe('Limiter.take', () => {
  test('remaining counts down by one per request in both buckets', () => {
    const { limiter } = manualLimiter();
    const tenPerMinute = plan(10, 200);
    const first = limiter.take('k1', tenPerMinute);
    assert.equal(first.allowed, true);
    assert.equal(first.minute.remaining, 9);
    assert.equal(first.day.remaining, 199);
    const fourth = takeTimes(limiter, 'k1', tenPerMinute, 3);
    assert.deepEqual([fourth.minute.remaining, fourth.day.remaining], [6, 196]);
    assert.equal(fourth.code, undefined);
    assert.equal(fourth.retryAfterSeconds, undefined);
  });

  test('keys have separate buckets', () => {
    const { limiter } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 10);
    assert.equal(limiter.take('k1', plan(10, 200)).allowed, false);
    assert.equal(limiter.take('k2', plan(10, 200)).minute.remaining, 9);
  });

  test('the request after the minute limit is refused with rate_limited_minute', () => {
    const { limiter } = manualLimiter();
    const last = takeTimes(limiter, 'k1', plan(10, 200), 10);
    assert.equal(last.allowed, true);
    assert.equal(last.minute.remaining, 0);
    const refused = limiter.take('k1', plan(10, 200));
    assert.equal(refused.allowed, false);
    assert.equal(refused.code, 'rate_limited_minute');
  });

  test('an empty 10-per-minute bucket gives Retry-After 6 s, less as time passes', () => {
    const { limiter, advance } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 10);
    assert.equal(limiter.take('k1', plan(10, 200)).retryAfterSeconds, 6);
    advance(2_500);
    assert.equal(limiter.take('k1', plan(10, 200)).retryAfterSeconds, 4);
    advance(3_499);
    assert.equal(limiter.take('k1', plan(10, 200)).retryAfterSeconds, 1);
  });

  test('an empty 60-per-minute bucket holds one token one second later, not before', () => {
    const { limiter, advance } = manualLimiter();
    const sixtyPerMinute = plan(60, 5000);
    takeTimes(limiter, 'k1', sixtyPerMinute, 60);
    advance(999);
    assert.equal(limiter.take('k1', sixtyPerMinute).allowed, false);
    advance(1);
    const refilled = limiter.take('k1', sixtyPerMinute);
    assert.equal(refilled.allowed, true);
    assert.equal(refilled.minute.remaining, 0);
    assert.equal(limiter.take('k1', sixtyPerMinute).allowed, false);
  });

  test('an emptied minute bucket is full again one minute later', () => {
    const { limiter, advance } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 10);
    advance(60_000);
    assert.deepEqual(limiter.peek('k1', plan(10, 200)).minute, {
      limit: 10,
      remaining: 10,
      resetSeconds: 0,
      nextTokenSeconds: 0,
    });
  });

  test('an empty day bucket is refused with rate_limited_day and Retry-After until its next token', () => {
    const { limiter } = manualLimiter();
    const fivePerDay = plan(100, 5);
    takeTimes(limiter, 'k1', fivePerDay, 5);
    const refused = limiter.take('k1', fivePerDay);
    assert.equal(refused.allowed, false);
    assert.equal(refused.code, 'rate_limited_day');
    assert.equal(refused.retryAfterSeconds, 86_400 / 5);
    assert.equal(refused.minute.remaining, 95);
  });

  test('when both buckets are empty the day bucket decides the code and Retry-After', () => {
    const { limiter } = manualLimiter();
    const threeAndThree = plan(3, 3);
    takeTimes(limiter, 'k1', threeAndThree, 3);
    const refused = limiter.take('k1', threeAndThree);
    assert.equal(refused.code, 'rate_limited_day');
    assert.equal(refused.retryAfterSeconds, 28_800);
    assert.deepEqual([refused.minute.remaining, refused.day.remaining], [0, 0]);
  });

  test('an empty minute bucket with tokens left in the day bucket is rate_limited_minute', () => {
    const { limiter } = manualLimiter();
    takeTimes(limiter, 'k1', plan(2, 3), 2);
    const refused = limiter.take('k1', plan(2, 3));
    assert.equal(refused.code, 'rate_limited_minute');
    assert.equal(refused.retryAfterSeconds, 30);
    assert.equal(refused.day.remaining, 1);
  });

  test('a refused request consumes no token from either bucket', () => {
    const { limiter, advance } = manualLimiter();
    const tenPerMinute = plan(10, 200);
    takeTimes(limiter, 'k1', tenPerMinute, 10);
    for (let i = 0; i < 5; i++) {
      const refused = limiter.take('k1', tenPerMinute);
      assert.equal(refused.allowed, false);
      assert.equal(refused.day.remaining, 190);
    }
    advance(6_000);
    assert.equal(limiter.take('k1', tenPerMinute).allowed, true);
    assert.equal(limiter.take('k1', tenPerMinute).allowed, false);
  });

  test('a plan downgrade clamps the tokens to the new capacity', () => {
    const { limiter } = manualLimiter();
    limiter.take('k1', plan(60, 5000));
    const after = limiter.take('k1', plan(10, 200));
    assert.deepEqual([after.minute.limit, after.minute.remaining], [10, 9]);
    assert.deepEqual([after.day.limit, after.day.remaining], [200, 199]);
  });

  test('a plan change keeps tokens that are below the new capacity', () => {
    const { limiter } = manualLimiter();
    takeTimes(limiter, 'k1', plan(60, 5000), 55);
    const after = limiter.take('k1', plan(10, 200));
    assert.equal(after.minute.remaining, 4);
    assert.equal(after.day.remaining, 199);
  });

  test('works with every row of the plan table', () => {
    const { limiter } = manualLimiter();
    for (const p of PLANS) {
      const decision = limiter.take(`key-${p.id}`, p);
      assert.deepEqual([decision.minute.limit, decision.minute.remaining], [p.perMinute, p.perMinute - 1]);
      assert.deepEqual([decision.day.limit, decision.day.remaining], [p.perDay, p.perDay - 1]);
    }
  });
});

describe('Limiter.peek', () => {
  test('a key without state is reported full, allowed, and gets no state', () => {
    const { limiter } = manualLimiter();
    const decision = limiter.peek('k1', plan(10, 200));
    assert.deepEqual(decision, {
      allowed: true,
      minute: { limit: 10, remaining: 10, resetSeconds: 0, nextTokenSeconds: 0 },
      day: { limit: 200, remaining: 200, resetSeconds: 0, nextTokenSeconds: 0 },
    });
    assert.equal(limiter.size, 0);
  });

  test('peeking any number of times consumes nothing', () => {
    const { limiter } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 3);
    for (let i = 0; i < 20; i++) assert.equal(limiter.peek('k1', plan(10, 200)).minute.remaining, 7);
    assert.equal(limiter.take('k1', plan(10, 200)).minute.remaining, 6);
  });

  test('peeking an empty bucket reports remaining 0 and the refusal a request would get', () => {
    const { limiter } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 10);
    const decision = limiter.peek('k1', plan(10, 200));
    assert.equal(decision.allowed, false);
    assert.equal(decision.code, 'rate_limited_minute');
    assert.equal(decision.retryAfterSeconds, 6);
    assert.equal(decision.minute.remaining, 0);
  });

  test('a refused take creates no state for a key', () => {
    const { limiter } = manualLimiter();
    // A plan whose buckets can never hold a whole token refuses the key's first request.
    assert.equal(limiter.take('k1', plan(0.5, 200)).allowed, false);
    assert.equal(limiter.size, 0);
  });
});

describe('Limiter.sweep', () => {
  test('forgets keys whose buckets are both full again and keeps the others', () => {
    const { limiter, advance } = manualLimiter();
    const tenAndTwoHundred = plan(10, 200);
    limiter.take('idle', tenAndTwoHundred);
    takeTimes(limiter, 'busy', tenAndTwoHundred, 2);
    assert.equal(limiter.size, 2);

    // One day token takes 86400 s / 200 = 432 s: 'idle' is full again, 'busy' is one token short.
    advance(432_000);
    limiter.sweep();
    assert.equal(limiter.size, 1);
    assert.equal(limiter.peek('busy', tenAndTwoHundred).day.remaining, 199);
    assert.equal(limiter.peek('idle', tenAndTwoHundred).day.remaining, 200);

    advance(432_000);
    limiter.sweep();
    assert.equal(limiter.size, 0);
  });

  test('keeps a key whose minute bucket is full but whose day bucket is not', () => {
    const { limiter, advance } = manualLimiter();
    limiter.take('k1', plan(10, 200));
    advance(60_000);
    limiter.sweep();
    assert.equal(limiter.size, 1);
    assert.equal(limiter.peek('k1', plan(10, 200)).day.remaining, 199);
  });

  test('a forgotten key starts again from full buckets', () => {
    const { limiter, advance } = manualLimiter();
    takeTimes(limiter, 'k1', plan(10, 200), 10);
    advance(86_400_000);
    limiter.sweep();
    assert.equal(limiter.size, 0);
    assert.equal(limiter.take('k1', plan(10, 200)).minute.remaining, 9);
    assert.equal(limiter.size, 1);
  });

  test('the sweep timer forgets full buckets every sweepIntervalMs', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let nowMs = 0;
    const limiter = new Limiter({ now: () => nowMs, sweepIntervalMs: 1_000 });
    t.after(() => limiter.close());
    limiter.take('k1', plan(100_000, 86_400_000));
    nowMs = 1_000;
    t.mock.timers.tick(999);
    assert.equal(limiter.size, 1);
    t.mock.timers.tick(1);
    assert.equal(limiter.size, 0);
  });

  test('close stops the sweep timer', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    let nowMs = 0;
    const limiter = new Limiter({ now: () => nowMs, sweepIntervalMs: 1_000 });
    limiter.take('k1', plan(100_000, 86_400_000));
    limiter.close();
    nowMs = 5_000;
    t.mock.timers.tick(5_000);
    assert.equal(limiter.size, 1);
  });
});

describe('Limiter options', () => {
  test('sweepIntervalMs must be a non-negative integer', () => {
    for (const sweepIntervalMs of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => new Limiter({ sweepIntervalMs }), {
        name: 'TypeError',
        message: 'sweepIntervalMs must be a non-negative integer',
      });
    }
  });

  test('now must be a function', () => {
    assert.throws(() => new Limiter({ now: 5 as unknown as () => number }), {
      name: 'TypeError',
      message: 'now must be a function',
    });
  });
});
