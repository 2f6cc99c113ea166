/**
 * The in-process store (`Limiter`, the `local` store) through the limiter store contract, on a
 * manual clock: every case runs. Its own behaviour (the sweep, options) is in `limiter.test.ts`.
 */
import { test } from 'node:test';
import { Limiter } from '../../src/guard/limiter.js';
import { limiterStoreContract } from './limiter-store-contract.js';

test('the in-process store keeps the limiter store contract', async (t) => {
  let nowMs = 1_700_000_000_000;
  const limiter = new Limiter({ now: () => nowMs, sweepIntervalMs: 0 });
  await limiterStoreContract(t, {
    where: 'local',
    store: limiter,
    advance: (ms) => void (nowMs += ms),
    anyPlan: true,
    held: () => limiter.size,
  });
});
