/**
 * The settings table walked whole: every entry is complete for the ways it is given, every
 * default passes its own check, and code and the command line apply one check per kind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readServeConfig, ServeUsageError } from '../../src/cli/serve-config.js';
import { resolveOptions } from '../../src/options.js';
import { DEFAULT_BASE_URL, LISTEN_SETTINGS, LOOPBACK, SERVE_ROWS, SETTINGS } from '../../src/settings/table.js';

test('every setting with an EQF_ variable can be read from text and has its help; flags and variables are unique', () => {
  for (const { option, setting } of SERVE_ROWS) {
    assert.match(setting.env, /^EQF_[A-Z_]+$/, option);
    assert.equal(typeof setting.kind.read, 'function', `${option} can be read from text`);
    assert.ok(setting.help.length > 0, `${option} has help`);
  }
  const envs = SERVE_ROWS.map(({ setting }) => setting.env);
  const flags = SERVE_ROWS.flatMap(({ setting }) => (setting.flag ? [setting.flag] : []));
  assert.equal(new Set(envs).size, envs.length);
  assert.equal(new Set(flags).size, flags.length);
});

test('every default passes its own check, and a literal default written as text reads back as itself', () => {
  for (const { option, setting } of SETTINGS) {
    if (setting.default === undefined) continue;
    assert.deepEqual(setting.kind.check(setting.default, option), setting.default, option);
    if (setting.kind.read && (typeof setting.default === 'number' || typeof setting.default === 'string')) {
      assert.equal(setting.kind.read(String(setting.default), option), setting.default, option);
    }
  }
});

test('every docs row is one table cell: no | and no line break', () => {
  for (const { option, setting } of SETTINGS) assert.doesNotMatch(`${setting.doc}${setting.shown ?? ''}`, /[|\n]/, option);
});

test('a Redis URL is judged by one check, from code and from the command line alike', () => {
  const urls = ['redis://10.0.0.5:6379/2', 'rediss://:pw@cache.internal', 'http://10.0.0.5:6379', 'localhost:6379', 'redis:host', 'redis://'];
  for (const url of urls) {
    const fromCode = (() => { try { resolveOptions({ redisUrl: url }); return true; } catch { return false; } })();
    const fromText = (() => { try { readServeConfig([], { EQF_REDIS_URL: url }); return true; } catch (error) { assert.ok(error instanceof ServeUsageError); return false; } })();
    assert.equal(fromCode, fromText, url);
  }
});

test('the loopback address is stated once: listen, its metrics listener and the embedded base address use it', () => {
  assert.equal(LISTEN_SETTINGS.host.default, LOOPBACK);
  assert.equal(LISTEN_SETTINGS.metricsHost.default, LOOPBACK);
  assert.equal(DEFAULT_BASE_URL, `http://${LOOPBACK}:${LISTEN_SETTINGS.port.default}`);
});

test('a base address from the environment is checked as in code, naming the variable', () => {
  assert.deepEqual(readServeConfig([], { EQF_BASE_URL: 'https://api.example.test/' }), { baseUrl: 'https://api.example.test' });
  assert.throws(() => readServeConfig([], { EQF_BASE_URL: 'api.example.test' }), /EQF_BASE_URL must be an absolute http or https URL/);
});
