/**
 * What only the in-process store does: answer synchronously, forget full buckets (the sweep),
 * check its options. What every store does is the limiter store contract, which
 * `limiter-store-local.test.ts` runs on this store.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Limiter } from '../../src/guard/limiter.js';
import type { LimitDecision } from '../../src/guard/limiter-store.js';
import type { Plan } from '../../src/plans.js';

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

describe('Limiter as the in-process store', () => {
  test('answers take and peek synchronously, without a promise, so the pipeline stays synchronous', () => {
    const { limiter } = manualLimiter();
    const taken: unknown = limiter.take('k1', plan(10, 200));
    const looked: unknown = limiter.peek('k1', plan(10, 200));
    assert.equal(typeof (taken as { then?: unknown }).then, 'undefined');
    assert.equal(typeof (looked as { then?: unknown }).then, 'undefined');
    assert.equal((taken as LimitDecision).minute.remaining, 9);
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
