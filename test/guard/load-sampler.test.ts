import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapStatistics } from 'node:v8';
import { createLoadSampler } from '../../src/guard/load-sampler.js';

test('a sample reports the injected in-flight count, the V8 heap in use and a non-negative delay', (t) => {
  let inFlight = 7;
  const sampler = createLoadSampler({ inFlight: () => inFlight });
  t.after(() => sampler.stop());
  const first = sampler.sample();
  assert.equal(first.inFlight, 7);
  assert.ok(first.eventLoopDelayMs >= 0 && Number.isFinite(first.eventLoopDelayMs));
  assert.ok(first.heapUsedBytes > 0 && first.heapUsedBytes <= getHeapStatistics().heap_size_limit);
  inFlight = 8;
  assert.equal(sampler.sample().inFlight, 8);
});

test('resolutionMs must be a positive integer', () => {
  for (const resolutionMs of [0, -5, 2.5]) {
    assert.throws(() => createLoadSampler({ inFlight: () => 0, resolutionMs }), {
      name: 'TypeError',
      message: 'resolutionMs must be a positive integer',
    });
  }
});

test('inFlight must be a function', () => {
  assert.throws(() => createLoadSampler({ inFlight: 3 as unknown as () => number }), {
    name: 'TypeError',
    message: 'inFlight must be a function',
  });
});
