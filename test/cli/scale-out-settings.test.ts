/**
 * The settings of issue 12 (Redis, workers, access log, metrics): read from flags and the
 * environment by `serve`, and checked once by the handler's options, each refusal naming the
 * setting at fault.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SERVE_USAGE, readServeConfig } from '../../src/cli/serve-config.js';
import { Limiter } from '../../src/guard/limiter.js';
import { resolveOptions } from '../../src/options.js';

test('serve reads the scale-out settings from flags first, then EQF_ variables', () => {
  assert.deepEqual(readServeConfig(
    ['--redis-url', 'redis://:pw@10.0.0.5:6379/2', '--redis-timeout-ms', '100', '--workers', '4', '--access-log', '/var/log/eqf.log', '--metrics-port', '9464'],
    { EQF_REDIS_FALLBACK: 'closed', EQF_METRICS_HOST: '10.0.0.11', EQF_WORKERS: '2' },
  ), {
    redisUrl: 'redis://:pw@10.0.0.5:6379/2', redisTimeoutMs: 100, redisFallback: 'closed', workers: 4,
    accessLogTarget: '/var/log/eqf.log', metricsPort: 9464, metricsHost: '10.0.0.11',
  });
  assert.deepEqual(readServeConfig([], { EQF_REDIS_URL: 'rediss://cache.internal', EQF_ACCESS_LOG: 'off' }), { redisUrl: 'rediss://cache.internal', accessLogTarget: 'off' });
});

test('serve refuses a bad scale-out setting, naming the flag or the variable', () => {
  const refusals: [string[], NodeJS.ProcessEnv, RegExp][] = [
    [['--workers', '0'], {}, /--workers must be a whole number from 1 to 256, got "0"/],
    [['--workers', '1000'], {}, /--workers must be a whole number from 1 to 256/],
    [[], { EQF_WORKERS: 'two' }, /EQF_WORKERS must be a whole number/],
    [['--redis-fallback', 'open'], {}, /--redis-fallback must be local or closed, got "open"/],
    [['--redis-url', 'http://10.0.0.5:6379'], {}, /--redis-url must be a redis:\/\/ or rediss:\/\/ URL/],
    [['--redis-timeout-ms', '0'], {}, /--redis-timeout-ms must be a whole number from 1/],
    [['--redis-timeout-ms', '1.5'], {}, /--redis-timeout-ms must be a whole number/],
    [['--metrics-port', '70000'], {}, /--metrics-port must be a port number from 0 to 65535, got "70000"/],
  ];
  for (const [argv, env, message] of refusals) assert.throws(() => readServeConfig(argv, env), message);
});

test('the handler options of issue 12 are checked once, each TypeError naming the option', () => {
  const resolved = resolveOptions({});
  assert.deepEqual([resolved.redisUrl, resolved.redisTimeoutMs, resolved.redisFallback, resolved.accessLog, resolved.metrics], [undefined, 250, 'local', undefined, false]);
  const refusals: [object, RegExp][] = [
    [{ redisUrl: 'localhost:6379' }, /redisUrl must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ redisUrl: 'redis://localhost', limiterStore: new Limiter({ sweepIntervalMs: 0 }) }, /limiterStore and redisUrl cannot both be given/],
    [{ redisTimeoutMs: 0 }, /redisTimeoutMs must be a whole number, 1 or more/],
    [{ redisFallback: 'open' }, /redisFallback must be "local" or "closed", got "open"/],
    [{ limiterStore: {} }, /limiterStore must have take and peek methods/],
    [{ accessLog: 'stdout' }, /accessLog must be a function/],
    [{ metrics: 'yes' }, /metrics must be true or false/],
  ];
  for (const [options, message] of refusals) assert.throws(() => resolveOptions(options as never), (error: Error) => error instanceof TypeError && message.test(error.message));
});

test('--redis-fallback-share (EQF_REDIS_FALLBACK_SHARE) is read as a whole number of 1 or more, and refused otherwise, naming the flag or variable', () => {
  assert.deepEqual(readServeConfig(['--redis-fallback-share', '3'], {}), { redisFallbackShare: 3 });
  assert.deepEqual(readServeConfig([], { EQF_REDIS_FALLBACK_SHARE: '6' }), { redisFallbackShare: 6 });
  assert.deepEqual(readServeConfig(['--redis-fallback-share', '2'], { EQF_REDIS_FALLBACK_SHARE: '6' }), { redisFallbackShare: 2 });
  for (const bad of ['0', '-1', '1.5', 'three', '99999999999']) {
    assert.throws(() => readServeConfig([`--redis-fallback-share=${bad}`], {}), new RegExp(`--redis-fallback-share must be a whole number from 1 to \\d+, got "${bad}"`));
  }
  assert.throws(() => readServeConfig([], { EQF_REDIS_FALLBACK_SHARE: '0' }), /EQF_REDIS_FALLBACK_SHARE must be a whole number from 1/);
  assert.match(SERVE_USAGE, /--redis-fallback-share N\s+EQF_REDIS_FALLBACK_SHARE\s+.*default 1/);
  assert.equal(resolveOptions({}).redisFallbackShare, 1);
  assert.equal(resolveOptions({ redisFallbackShare: 4 }).redisFallbackShare, 4);
  for (const bad of [0, 2.5, '3', -1]) {
    assert.throws(() => resolveOptions({ redisFallbackShare: bad } as never), (error: Error) => error instanceof TypeError && /redisFallbackShare must be a whole number, 1 or more/.test(error.message));
  }
});
