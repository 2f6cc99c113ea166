/**
 * Contract cases across keys, plans, looks and concurrent requests: two keys never share buckets,
 * a plan change keeps a key's tokens (clamped to the new capacities), a look spends and writes
 * nothing, and concurrent takes admit exactly the limit.
 */
import assert from 'node:assert/strict';
import { Limiter } from '../../src/guard/limiter.js';
import { PLANS } from '../../src/plans.js';
import { FOUNDERS, FREE, SIGNAL, plan, takeTimes, type ContractCase } from './limiter-store-case.js';

/** An in-process limiter standing still at one instant: what one process decides with no time passing. */
function referenceLimiter(): Limiter {
  return new Limiter({ now: () => 1_700_000_000_000, sweepIntervalMs: 0 });
}

/** Keys apart, and a key's plan changing. */
export const KEY_CASES: readonly ContractCase[] = [
  {
    name: 'keys have separate buckets',
    async run(c) {
      await takeTimes(c, c.key('a'), FREE, 10);
      assert.equal((await c.store.take(c.key('a'), FREE)).allowed, false);
      assert.equal((await c.store.peek(c.key('b'), FREE)).minute.remaining, 10);
      assert.equal((await c.store.take(c.key('b'), FREE)).minute.remaining, 9);
      assert.equal((await c.store.peek(c.key('a'), FREE)).minute.remaining, 0);
    },
  },
  {
    name: 'a plan downgrade clamps the tokens to the new capacity',
    async run(c) {
      await c.store.take(c.key(), SIGNAL);
      const after = await c.store.take(c.key(), FREE);
      assert.deepEqual([after.minute.limit, after.minute.remaining], [10, 9]);
      assert.deepEqual([after.day.limit, after.day.remaining], [200, 199]);
    },
  },
  {
    name: 'a plan change keeps tokens that are below the new capacity',
    async run(c) {
      await takeTimes(c, c.key(), SIGNAL, 55);
      const after = await c.store.take(c.key(), FREE);
      assert.equal(after.minute.remaining, 4);
      assert.equal(after.day.remaining, 199);
    },
  },
  {
    name: 'a plan upgrade resets no bucket: an emptied free key is still empty as a Signal key',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      const after = await c.store.take(c.key(), SIGNAL);
      assert.equal(after.allowed, false);
      assert.equal(after.code, 'rate_limited_minute');
      assert.equal(after.retryAfterSeconds, 1, 'one token of 60 per minute comes back in 1 s');
      assert.deepEqual([after.minute.limit, after.minute.remaining, after.day.limit, after.day.remaining], [60, 0, 5000, 190]);
    },
  },
  {
    name: 'works with every row of the plan table',
    async run(c) {
      for (const p of PLANS) {
        const decision = await c.store.take(c.key(p.id), p);
        assert.deepEqual([decision.minute.limit, decision.minute.remaining], [p.perMinute, p.perMinute - 1]);
        assert.deepEqual([decision.day.limit, decision.day.remaining], [p.perDay, p.perDay - 1]);
      }
    },
  },
];

/** Looks (`peek`, as the meta row reads usage). */
export const LOOK_CASES: readonly ContractCase[] = [
  {
    name: 'peek: a key without buckets is reported full and allowed, and gets no buckets',
    async run(c) {
      const before = await c.held();
      assert.deepEqual(await c.store.peek(c.key(), FREE), {
        allowed: true,
        minute: { limit: 10, remaining: 10, resetSeconds: 0, nextTokenSeconds: 0 },
        day: { limit: 200, remaining: 200, resetSeconds: 0, nextTokenSeconds: 0 },
      });
      assert.equal(await c.held(), before);
    },
  },
  {
    name: 'peeking any number of times consumes nothing',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 3);
      for (let i = 0; i < 20; i++) assert.equal((await c.store.peek(c.key(), FREE)).minute.remaining, 7);
      assert.equal((await c.store.take(c.key(), FREE)).minute.remaining, 6);
    },
  },
  {
    name: 'peeking an empty bucket reports remaining 0 and the refusal a request would get',
    async run(c) {
      await takeTimes(c, c.key(), FREE, 10);
      const decision = await c.store.peek(c.key(), FREE);
      assert.equal(decision.allowed, false);
      assert.equal(decision.code, 'rate_limited_minute');
      assert.equal(decision.retryAfterSeconds, 6);
      assert.equal(decision.minute.remaining, 0);
    },
  },
  {
    name: 'a refused take gives a key no buckets',
    needs: 'anyPlan',
    async run(c) {
      const before = await c.held();
      // A plan whose buckets can never hold a whole token refuses the key's first request.
      assert.equal((await c.store.take(c.key(), plan(0.5, 200))).allowed, false);
      assert.equal(await c.held(), before);
    },
  },
];

/** Concurrent requests, and what the store says of itself. */
export const CONCURRENT_CASES: readonly ContractCase[] = [
  {
    name: '12 concurrent takes and a look: the decisions, in order, are one in-process limiter\'s, and one key has buckets',
    async run(c) {
      const before = await c.held();
      const reference = referenceLimiter();
      const taken = await Promise.all(Array.from({ length: 12 }, () => c.store.take(c.key(), FREE)));
      assert.deepEqual(taken, Array.from({ length: 12 }, () => reference.take(c.key(), FREE)));
      assert.deepEqual(await c.store.peek(c.key(), FREE), reference.peek(c.key(), FREE));
      assert.equal(await c.held(), before + 1);
    },
  },
  {
    name: '400 concurrent takes for a Founders key (300 per minute) admit exactly 300',
    async run(c) {
      const decisions = await Promise.all(Array.from({ length: 400 }, () => c.store.take(c.key(), FOUNDERS)));
      assert.equal(decisions.filter((d) => d.allowed).length, 300);
      assert.deepEqual(new Set(decisions.filter((d) => !d.allowed).map((d) => d.code)), new Set(['rate_limited_minute']));
      assert.equal((await c.store.peek(c.key(), FOUNDERS)).day.remaining, 200_000 - 300);
    },
  },
  {
    name: 'state() names where the buckets are, shared',
    async run(c) {
      const { store, mode } = c.store.state();
      assert.deepEqual({ store, mode }, { store: c.where, mode: 'shared' });
    },
  },
];
