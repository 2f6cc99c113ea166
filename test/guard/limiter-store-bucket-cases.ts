/**
 * Contract cases on one key's two token buckets: minute capacity = per-minute limit, refilled at
 * limit/60 per second; day capacity = per-day limit, refilled at limit/86400 per second; a request
 * passes when both hold a whole token and takes one from each; a refused one takes none.
 */
import assert from 'node:assert/strict';
import type { LimitDecision } from '../../src/guard/limiter-store.js';
import { FREE, SIGNAL, plan, takeTimes, type CaseContext, type ContractCase } from './limiter-store-case.js';

/**
 * Takes from a free key until the day bucket refuses, moving the clock by `stepMs` after each
 * refusal of the minute bucket. Returns the refusal and how many requests passed before it.
 */
async function drainDay(c: CaseContext, keyId: string, stepMs: number): Promise<{ refused: LimitDecision; admitted: number }> {
  let admitted = 0;
  for (;;) {
    const decision = await c.store.take(keyId, FREE);
    if (decision.allowed) admitted++;
    else if (decision.code === 'rate_limited_day') return { refused: decision, admitted };
    else c.advance(stepMs);
    assert.ok(admitted < 1000, 'the day bucket never emptied');
  }
}

/** Takes, refusals, and the minute bucket refilling. */
export const TAKE_CASES: readonly ContractCase[] = [
  {
    name: 'a fresh key admits up to its per-minute limit, then refuses with rate_limited_minute and Retry-After 6 s (10 per minute)',
    async run(c) {
      for (let i = 0; i < 10; i++) assert.equal((await c.store.take(c.key(), FREE)).allowed, true, `request ${i + 1}`);
      assert.equal((await c.store.peek(c.key(), FREE)).minute.remaining, 0);
      const refused = await c.store.take(c.key(), FREE);
      assert.equal(refused.allowed, false);
      assert.equal(refused.code, 'rate_limited_minute');
      assert.equal(refused.retryAfterSeconds, 6, 'one token of 10 per minute comes back in 6 s');
      assert.equal(refused.day.remaining, 190);
    },
  },
  {
    name: 'remaining counts down by one per request in both buckets',
    async run(c) {
      const first = await c.store.take(c.key(), FREE);
      assert.equal(first.allowed, true);
      assert.equal(first.minute.remaining, 9);
      assert.equal(first.day.remaining, 199);
      const fourth = await takeTimes(c, c.key(), FREE, 3);
      assert.deepEqual([fourth.minute.remaining, fourth.day.remaining], [6, 196]);
      assert.equal(fourth.code, undefined);
      assert.equal(fourth.retryAfterSeconds, undefined);
    },
  },
  {
    name: 'a refused request consumes no token from either bucket',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      for (let i = 0; i < 5; i++) {
        const refused = await c.store.take(c.key(), FREE);
        assert.equal(refused.allowed, false);
        assert.equal(refused.day.remaining, 190);
      }
      const look = await c.store.peek(c.key(), FREE);
      assert.deepEqual([look.minute.remaining, look.day.remaining], [0, 190]);
    },
  },
  {
    name: 'six seconds after refusals of an emptied 10-per-minute bucket, exactly one request passes',
    needs: 'clock',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      for (let i = 0; i < 5; i++) assert.equal((await c.store.take(c.key(), FREE)).allowed, false);
      c.advance(6_000);
      assert.equal((await c.store.take(c.key(), FREE)).allowed, true);
      assert.equal((await c.store.take(c.key(), FREE)).allowed, false);
    },
  },
  {
    name: 'an empty 10-per-minute bucket gives Retry-After 6 s, less as time passes',
    needs: 'clock',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      assert.equal((await c.store.take(c.key(), FREE)).retryAfterSeconds, 6);
      c.advance(2_500);
      assert.equal((await c.store.take(c.key(), FREE)).retryAfterSeconds, 4);
      c.advance(3_499);
      assert.equal((await c.store.take(c.key(), FREE)).retryAfterSeconds, 1);
    },
  },
  {
    name: 'an empty 60-per-minute bucket holds one token one second later, not before',
    needs: 'clock',
    async run(c) {
      await takeTimes(c, c.key(), SIGNAL, 60);
      c.advance(999);
      assert.equal((await c.store.take(c.key(), SIGNAL)).allowed, false);
      c.advance(1);
      const refilled = await c.store.take(c.key(), SIGNAL);
      assert.equal(refilled.allowed, true);
      assert.equal(refilled.minute.remaining, 0);
      assert.equal((await c.store.take(c.key(), SIGNAL)).allowed, false);
    },
  },
  {
    name: 'an emptied minute bucket is full again one minute later',
    needs: 'clock',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      c.advance(60_000);
      assert.deepEqual((await c.store.peek(c.key(), FREE)).minute, { limit: 10, remaining: 10, resetSeconds: 0, nextTokenSeconds: 0 });
    },
  },
];

/** The day bucket, alone and together with the minute bucket. */
export const DAY_CASES: readonly ContractCase[] = [
  {
    name: 'an empty day bucket is refused with rate_limited_day and Retry-After until its next token',
    needs: 'anyPlan',
    async run(c) {
      const fivePerDay = plan(100, 5);
      await takeTimes(c, c.key(), fivePerDay, 5);
      const refused = await c.store.take(c.key(), fivePerDay);
      assert.equal(refused.allowed, false);
      assert.equal(refused.code, 'rate_limited_day');
      assert.equal(refused.retryAfterSeconds, 86_400 / 5);
      assert.equal(refused.minute.remaining, 95);
    },
  },
  {
    name: 'when both buckets are empty the day bucket decides the code and Retry-After',
    needs: 'anyPlan',
    async run(c) {
      const threeAndThree = plan(3, 3);
      await takeTimes(c, c.key(), threeAndThree, 3);
      const refused = await c.store.take(c.key(), threeAndThree);
      assert.equal(refused.code, 'rate_limited_day');
      assert.equal(refused.retryAfterSeconds, 28_800);
      assert.deepEqual([refused.minute.remaining, refused.day.remaining], [0, 0]);
    },
  },
  {
    name: 'an empty minute bucket with tokens left in the day bucket is rate_limited_minute',
    needs: 'anyPlan',
    async run(c) {
      await takeTimes(c, c.key(), plan(2, 3), 2);
      const refused = await c.store.take(c.key(), plan(2, 3));
      assert.equal(refused.code, 'rate_limited_minute');
      assert.equal(refused.retryAfterSeconds, 30);
      assert.equal(refused.day.remaining, 1);
    },
  },
  {
    name: 'a free key taking ten a minute empties its day bucket after 202: rate_limited_day while the minute bucket holds tokens',
    needs: 'clock',
    async run(c) {
      const { refused, admitted } = await drainDay(c, c.key(), 60_000);
      // 200, and the 2.78 tokens that 20 minutes refill at 200 per 86400 s.
      assert.equal(admitted, 202);
      assert.equal(refused.code, 'rate_limited_day');
      assert.equal(refused.day.remaining, 0);
      assert.ok(refused.minute.remaining > 0, `minute ${refused.minute.remaining}`);
      assert.ok(refused.retryAfterSeconds! >= 1 && refused.retryAfterSeconds! <= 432, `Retry-After ${refused.retryAfterSeconds}: one day token of 200 comes back in 432 s`);
    },
  },
  {
    name: 'a free key taking one request each 6 s empties both buckets at once: rate_limited_day with the day bucket\'s longer wait',
    needs: 'clock',
    async run(c) {
      const { refused } = await drainDay(c, c.key(), 6_000);
      assert.equal(refused.code, 'rate_limited_day');
      assert.deepEqual([refused.minute.remaining, refused.day.remaining], [0, 0]);
      assert.ok(refused.retryAfterSeconds! > 6 && refused.retryAfterSeconds! <= 432, `Retry-After ${refused.retryAfterSeconds}: the minute bucket's wait is 6 s`);
    },
  },
];
