import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Breaker, type BreakerOptions } from '../../src/guard/breaker.js';
import type { LoadSample } from '../../src/guard/load-sampler.js';

const CALM: LoadSample = { eventLoopDelayMs: 5, inFlight: 10, heapUsedBytes: 1_000 };
const THRESHOLDS = { maxEventLoopDelayMs: 100, maxInFlight: 50, maxHeapUsedBytes: 10_000 };
const COOL_DOWN_MS = 5_000;

/** A breaker on a manual clock with a load the test sets. */
function manualBreaker(options: Partial<BreakerOptions> = {}) {
  let nowMs = 1_000_000;
  let load: LoadSample = CALM;
  let samples = 0;
  const breaker = new Breaker({
    ...THRESHOLDS,
    coolDownMs: COOL_DOWN_MS,
    now: () => nowMs,
    sample: () => {
      samples++;
      return load;
    },
    ...options,
  });
  return {
    breaker,
    advance: (ms: number) => void (nowMs += ms),
    setLoad: (next: Partial<LoadSample>) => void (load = { ...CALM, ...next }),
    samples: () => samples,
  };
}

/** A breaker opened by load at the current instant. */
function openedBreaker() {
  const manual = manualBreaker();
  manual.setLoad({ inFlight: 51 });
  manual.breaker.sampleNow();
  assert.equal(manual.breaker.state, 'open');
  manual.setLoad({});
  return manual;
}

describe('Breaker', () => {
  test('starts closed and admits every request', () => {
    const { breaker } = manualBreaker();
    assert.equal(breaker.state, 'closed');
    for (let i = 0; i < 3; i++) assert.equal(breaker.admit(), true);
  });

  test('a sample under every threshold keeps it closed, also at exactly the threshold', () => {
    const { breaker, setLoad } = manualBreaker();
    setLoad({ eventLoopDelayMs: 100, inFlight: 50, heapUsedBytes: 10_000 });
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed');
  });

  for (const [name, over] of [
    ['event-loop delay', { eventLoopDelayMs: 100.5 }],
    ['requests in flight', { inFlight: 51 }],
    ['heap use', { heapUsedBytes: 10_001 }],
  ] as const) {
    test(`a sample with ${name} over its threshold opens it, and open admits nothing`, () => {
      const { breaker, setLoad } = manualBreaker();
      setLoad(over);
      breaker.sampleNow();
      assert.equal(breaker.state, 'open');
      assert.equal(breaker.admit(), false);
    });
  }

  test('open stays open until the cool-down has passed, whatever the samples say', () => {
    const { breaker, advance } = openedBreaker();
    advance(COOL_DOWN_MS - 1);
    breaker.sampleNow();
    assert.equal(breaker.state, 'open');
    assert.equal(breaker.admit(), false);
  });

  test('after the cool-down admit moves it to half_open and admits one trial at a time', () => {
    const { breaker, advance } = openedBreaker();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    assert.equal(breaker.state, 'half_open');
    assert.equal(breaker.admit(), false);
    assert.equal(breaker.admit(), false);
    breaker.trialDone();
    assert.equal(breaker.admit(), true);
    assert.equal(breaker.admit(), false);
  });

  test('half_open closes on a sample under every threshold', () => {
    const { breaker, advance } = openedBreaker();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    breaker.trialDone();
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.admit(), true);
    assert.equal(breaker.admit(), true);
  });

  test('half_open opens again on a sample over a threshold, with a new cool-down', () => {
    const { breaker, advance, setLoad } = openedBreaker();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    setLoad({ heapUsedBytes: 20_000 });
    breaker.sampleNow();
    assert.equal(breaker.state, 'open');
    breaker.trialDone();
    advance(COOL_DOWN_MS - 1);
    assert.equal(breaker.admit(), false);
    advance(1);
    assert.equal(breaker.admit(), true);
    assert.equal(breaker.state, 'half_open');
  });

  test('a calm sample after the cool-down moves open to half_open without a request, the next one closes it', () => {
    const { breaker, advance } = openedBreaker();
    advance(COOL_DOWN_MS);
    breaker.sampleNow();
    assert.equal(breaker.state, 'half_open');
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed');
  });

  test('an overloaded sample after the cool-down keeps it open for another cool-down', () => {
    const { breaker, advance, setLoad } = openedBreaker();
    advance(COOL_DOWN_MS);
    setLoad({ eventLoopDelayMs: 500 });
    breaker.sampleNow();
    assert.equal(breaker.state, 'open');
    advance(COOL_DOWN_MS - 1);
    assert.equal(breaker.admit(), false);
    advance(1);
    assert.equal(breaker.admit(), true);
  });

  test('a trial still in flight when half_open reopens and cools down again blocks a second trial', () => {
    const { breaker, advance, setLoad } = openedBreaker();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    setLoad({ inFlight: 51 });
    breaker.sampleNow();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), false);
    assert.equal(breaker.state, 'half_open');
    breaker.trialDone();
    assert.equal(breaker.admit(), true);
  });

  test('a trial never reported done does not block the trials of a later half_open', () => {
    const { breaker, advance, setLoad } = openedBreaker();
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed');
    setLoad({ inFlight: 51 });
    breaker.sampleNow();
    setLoad({});
    advance(COOL_DOWN_MS);
    assert.equal(breaker.admit(), true);
    assert.equal(breaker.state, 'half_open');
  });

  test('toggleForced opens it until the next toggle, ignoring samples meanwhile', () => {
    const { breaker, advance, samples } = manualBreaker();
    assert.equal(breaker.toggleForced(), 'forced_open');
    assert.equal(breaker.admit(), false);
    advance(COOL_DOWN_MS * 10);
    breaker.sampleNow();
    assert.equal(samples(), 0);
    assert.equal(breaker.state, 'forced_open');
    assert.equal(breaker.admit(), false);
    assert.equal(breaker.toggleForced(), 'closed');
    assert.equal(breaker.admit(), true);
  });

  test('after a forced open is toggled off the next sample judges the load', () => {
    const { breaker, setLoad } = manualBreaker();
    breaker.toggleForced();
    setLoad({ inFlight: 51 });
    breaker.toggleForced();
    assert.equal(breaker.state, 'closed');
    breaker.sampleNow();
    assert.equal(breaker.state, 'open');
  });

  test('toggleForced on a load-opened breaker forces it open, the second toggle closes it', () => {
    const { breaker } = openedBreaker();
    assert.equal(breaker.toggleForced(), 'forced_open');
    assert.equal(breaker.toggleForced(), 'closed');
  });

  test('retryAfterSeconds defaults to the cool-down in whole seconds, rounded up, at least 1', () => {
    assert.equal(manualBreaker().breaker.retryAfterSeconds, 5);
    assert.equal(manualBreaker({ coolDownMs: 2_500 }).breaker.retryAfterSeconds, 3);
    assert.equal(manualBreaker({ coolDownMs: 0 }).breaker.retryAfterSeconds, 1);
    assert.equal(manualBreaker({ retryAfterSeconds: 30 }).breaker.retryAfterSeconds, 30);
  });

  test('start samples every sampleIntervalMs on one timer; stop ends it', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const { breaker, samples } = manualBreaker({ sampleIntervalMs: 1_000 });
    breaker.start();
    breaker.start();
    t.mock.timers.tick(999);
    assert.equal(samples(), 0);
    t.mock.timers.tick(1);
    assert.equal(samples(), 1);
    t.mock.timers.tick(2_000);
    assert.equal(samples(), 3);
    breaker.stop();
    t.mock.timers.tick(5_000);
    assert.equal(samples(), 3);
  });
});

describe('Breaker options', () => {
  const sample = (): LoadSample => CALM;
  const cases: [Record<string, unknown>, string][] = [
    [{ maxEventLoopDelayMs: 0 }, 'maxEventLoopDelayMs must be a positive number'],
    [{ maxEventLoopDelayMs: Number.NaN }, 'maxEventLoopDelayMs must be a positive number'],
    [{ maxInFlight: 0 }, 'maxInFlight must be a positive integer'],
    [{ maxInFlight: 1.5 }, 'maxInFlight must be a positive integer'],
    [{ maxInFlight: '10' }, 'maxInFlight must be a positive integer'],
    [{ maxHeapUsedBytes: -1 }, 'maxHeapUsedBytes must be a positive number'],
    [{ maxHeapUsedBytes: Number.POSITIVE_INFINITY }, 'maxHeapUsedBytes must be a positive number'],
    [{ sampleIntervalMs: 0 }, 'sampleIntervalMs must be a positive integer'],
    [{ sampleIntervalMs: 10.5 }, 'sampleIntervalMs must be a positive integer'],
    [{ coolDownMs: -1 }, 'coolDownMs must be a non-negative number'],
    [{ retryAfterSeconds: 0 }, 'retryAfterSeconds must be a positive integer'],
    [{ retryAfterSeconds: 2.5 }, 'retryAfterSeconds must be a positive integer'],
    [{ now: 0 }, 'now must be a function'],
    [{ sample: undefined }, 'sample must be a function'],
  ];
  for (const [bad, message] of cases) {
    test(`${JSON.stringify(bad)} is refused with "${message}"`, () => {
      assert.throws(() => new Breaker({ sample, ...bad } as unknown as BreakerOptions), { name: 'TypeError', message });
    });
  }

  test('options that are not an object are refused', () => {
    assert.throws(() => new Breaker(undefined as unknown as BreakerOptions), {
      name: 'TypeError',
      message: 'options must be an object',
    });
  });

  test('the default heap threshold is below V8 heap_size_limit, so the breaker starts closed', () => {
    const breaker = new Breaker({ sample });
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed');
  });
});
