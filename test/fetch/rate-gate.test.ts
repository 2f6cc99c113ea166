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

/** Whether some window of `windowMs` holds more than `max` of `starts` (sorted). */
function overfull(starts: readonly number[], max: number, windowMs = 1000): boolean {
  return starts.some((s, i) => i + max < starts.length && starts[i + max]! - s < windowMs);
}

test('no window of 1,000 ms holds more than 10 starts, however many wait at once', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  const starts: number[] = [];
  await Promise.all(Array.from({ length: 35 }, () => gate.acquire().then(() => starts.push(clock.now()))));
  assert.equal(starts.length, 35);
  assert.equal(overfull(starts, 10), false);
  // Each start waits for the start ten before it to leave the window, no longer.
  for (let i = 10; i < starts.length; i++) assert.equal(starts[i]! - starts[i - 10]!, 1000, `start ${i}`);
});

test('after a quiet spell ten go at once and the eleventh waits until the first leaves the window, not one more', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  const starts: number[] = [];
  for (let i = 0; i < 10; i++) await gate.acquire().then(() => starts.push(clock.now()));
  await clock.sleep(5000);
  // A bucket refilled by the quiet spell would let 20 through within one second here.
  await Promise.all(Array.from({ length: 20 }, () => gate.acquire().then(() => starts.push(clock.now()))));
  assert.deepEqual(starts.slice(10, 20), Array(10).fill(5000));
  assert.deepEqual(starts.slice(20), Array(10).fill(6000));
  assert.equal(overfull(starts, 10), false);
});

test('a pause after a 429 pushes every later start, and the starts before it still count in the window', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  const starts: number[] = [];
  for (let i = 0; i < 6; i++) await gate.acquire().then(() => starts.push(clock.now()));
  // EDGAR asked for a pause of 500 ms at 0 ms: nothing starts before 500 ms, and there the six
  // starts at 0 ms leave room for four.
  gate.pauseUntil(500);
  await Promise.all(Array.from({ length: 15 }, () => gate.acquire().then(() => starts.push(clock.now()))));
  assert.deepEqual(starts.slice(6), [...Array(4).fill(500), ...Array(6).fill(1000), ...Array(4).fill(1500), 2000]);
  assert.equal(overfull(starts, 10), false);
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
  assert.deepEqual(starts, [7000, 7000]);
});

test('an aborted waiter rejects with the reason and does not hold up the ones behind it', async () => {
  const clock = manual();
  const gate = new RateGate({ requestsPerSecond: 10, ...clock });
  await gate.acquire();
  const stop = new AbortController();
  stop.abort(new Error('stop'));
  await assert.rejects(gate.acquire(stop.signal), /stop/);
  await gate.acquire();
  assert.equal(clock.now(), 0, 'the aborted waiter took no place in the window');
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
