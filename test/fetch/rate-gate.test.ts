import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateGate, realSleep } from '../../src/fetch/rate-gate.js';

/** A clock that moves only when the gate sleeps. */
function manual(): { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void>; sleeps: number[] } {
  let ms = 0;
  const sleeps: number[] = [];
  return {
    now: () => ms,
    sleeps,
    sleep: async (wait, signal) => {
      sleeps.push(wait);
      signal?.throwIfAborted();
      ms += wait;
    },
  };
}

test('starts are spaced 1000/rate ms apart, however many wait at once', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  const starts: number[] = [];
  await Promise.all(Array.from({ length: 25 }, () => gate.acquire().then(() => starts.push(clock.now()))));
  assert.equal(starts.length, 25);
  for (let i = 1; i < starts.length; i++) assert.equal(starts[i]! - starts[i - 1]!, 100);
  // No window of one second holds more than 10 starts.
  for (let i = 10; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 10]! >= 1000);
});

test('the first request goes at once, and a request after a quiet spell does not wait', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  await gate.acquire();
  assert.deepEqual(clock.sleeps, []);
  await clock.sleep(5000);
  await gate.acquire();
  assert.deepEqual(clock.sleeps, [5000]);
});

test('a pause holds every waiter until it ends, and a later pause extends it', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  await gate.acquire();
  gate.pauseUntil(clock.now() + 7000);
  gate.pauseUntil(clock.now() + 3000);
  const starts: number[] = [];
  await Promise.all([gate.acquire(), gate.acquire()].map((p) => p.then(() => starts.push(clock.now()))));
  assert.deepEqual(starts, [7000, 7100]);
});

test('an aborted waiter rejects with the reason and does not hold up the ones behind it', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  await gate.acquire();
  const stop = new AbortController();
  stop.abort(new Error('stop'));
  await assert.rejects(gate.acquire(stop.signal), /stop/);
  await gate.acquire();
  assert.equal(clock.now(), 100);
});

test('the gate refuses a rate that is not a positive number', () => {
  for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => new RateGate({ requestsPerSecond: rate, now: () => 0, sleep: realSleep }), /requestsPerSecond/);
  }
});

test('realSleep waits, and rejects at once on an aborted signal or when aborted while waiting', async () => {
  await realSleep(1);
  const aborted = new AbortController();
  aborted.abort(new Error('before'));
  await assert.rejects(realSleep(60_000, aborted.signal), /before/);
  const later = new AbortController();
  const waiting = realSleep(60_000, later.signal);
  later.abort(new Error('during'));
  await assert.rejects(waiting, /during/);
});
