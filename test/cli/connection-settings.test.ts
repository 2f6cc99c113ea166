/**
 * The settings that bound what a connection holds: `--unsent-high-water-bytes` and
 * `--send-timeout-ms` (flags, EQF_ variables, listen() options), checked like the other
 * connection settings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readServeConfig } from '../../src/cli/serve-config.js';
import { CONNECTION_DEFAULTS, resolveConnectionOptions } from '../../src/http/connection-options.js';

test('serve reads the unsent high-water mark and the send timeout from flags first, then EQF_ variables', () => {
  assert.deepEqual(readServeConfig(['--unsent-high-water-bytes', '4096'], { EQF_UNSENT_HIGH_WATER_BYTES: '9', EQF_SEND_TIMEOUT_MS: '2500' }),
    { unsentHighWaterBytes: 4096, sendTimeoutMs: 2500 });
  for (const bad of ['0', '-1', '1.5', 'lots', '2147483648']) {
    assert.throws(() => readServeConfig([`--send-timeout-ms=${bad}`], {}), /--send-timeout-ms must be a whole number from 1 to 2147483647/);
    assert.throws(() => readServeConfig([], { EQF_UNSENT_HIGH_WATER_BYTES: bad }), /EQF_UNSENT_HIGH_WATER_BYTES must be a whole number/);
  }
});

test('listen() options: defaults of 64 KiB and 30 s, a check every tenth of the timeout, and a TypeError naming a bad value', () => {
  const resolved = resolveConnectionOptions({});
  assert.equal(resolved.unsentHighWaterBytes, CONNECTION_DEFAULTS.unsentHighWaterBytes);
  assert.equal(resolved.unsentHighWaterBytes, 65_536);
  assert.equal(resolved.sendTimeoutMs, 30_000);
  assert.equal(resolved.sendCheckIntervalMs, 1_000);
  assert.equal(resolveConnectionOptions({ sendTimeoutMs: 50 }).sendCheckIntervalMs, 10);
  assert.throws(() => resolveConnectionOptions({ unsentHighWaterBytes: 0 }), /unsentHighWaterBytes must be a whole number from 1 to 2147483647, got 0/);
  assert.throws(() => resolveConnectionOptions({ sendTimeoutMs: Number.NaN }), /sendTimeoutMs must be a whole number/);
});
