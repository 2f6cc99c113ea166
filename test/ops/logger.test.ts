/**
 * The operational log: JSON lines on stderr with `time` (ISO 8601, UTC), `level` and `msg` plus
 * fields, or plain lines with `--log-format text`; every line `serve` writes while serving goes
 * through it, the worker's and the cluster primary's too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createLogger, jsonLine, textLine } from '../../src/ops/logger.js';
import { fixtureDir, startServe } from '../helpers/serve-process.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('a JSON line has time (ISO 8601, UTC), level and msg, then the fields; the line\'s own names cannot be overwritten', () => {
  const lines: string[] = [];
  const log = createLogger({ write: (text) => lines.push(text), now: () => Date.UTC(2026, 10, 21, 12), fields: { worker: 2 } });
  log('limits: Redis at redis://10.0.0.5:6379 connection lost', 'warn', { time: 'forged', msg: 'forged', level: 'error', fallback: 'local' });
  log('plain\nline "quoted" \u001b[31mred');
  assert.ok(lines.every((line) => line.endsWith('}\n') && !line.slice(0, -1).includes('\n')));
  assert.deepEqual(JSON.parse(lines[0]!), { time: '2026-11-21T12:00:00.000Z', level: 'warn', msg: 'limits: Redis at redis://10.0.0.5:6379 connection lost', worker: 2, fallback: 'local' });
  assert.deepEqual(JSON.parse(lines[1]!), { time: '2026-11-21T12:00:00.000Z', level: 'info', msg: 'plain\nline "quoted" \u001b[31mred', worker: 2 });
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.deepEqual(JSON.parse(jsonLine(0, 'error', 'x', { big: 10n, cycle, none: undefined })), { time: '1970-01-01T00:00:00.000Z', level: 'error', msg: 'x', big: '10', cycle: '[object Object]' });
});

test('a text line is time, level, msg and name=value, with control characters escaped and a stack on lines of its own', () => {
  assert.equal(textLine(0, 'warn', 'breaker: forced open', { worker: 1, where: 'a b' }), '1970-01-01T00:00:00.000Z warn  breaker: forced open worker=1 where="a b"');
  assert.equal(textLine(0, 'error', 'bad \u001b[2J\r path', { request_id: 'ab-1', stack: 'Error: x\n    at f (a.ts:1:1)' }),
    '1970-01-01T00:00:00.000Z error bad \\x1b[2J\\x0d path request_id=ab-1\nError: x\n    at f (a.ts:1:1)');
});

test('serve logs JSON lines on stderr, every one with time, level and msg; --log-format text gives plain lines; a bad format stops the start naming it', async (t) => {
  const fixture = await fixtureDir(t);
  const json = await startServe(t, fixture, ['--access-log', 'off', '--metrics-port', '0']);
  const text = await startServe(t, fixture, ['--access-log', 'off', '--log-format', 'text']);
  await (await request(`${json.url}/healthz`)).body.dump();
  json.child.kill('SIGUSR2');
  assert.equal(await json.stop(), 0);
  assert.equal(await text.stop(), 0);

  const entries = json.stderr.text.trimEnd().split('\n').map((line) => JSON.parse(line) as { time: string; level: string; msg: string });
  for (const entry of entries) {
    assert.match(entry.time, ISO_UTC);
    assert.ok(['info', 'warn', 'error'].includes(entry.level), entry.level);
    assert.equal(typeof entry.msg, 'string');
  }
  const find = (pattern: RegExp) => entries.find((entry) => pattern.test(entry.msg));
  assert.equal(find(/^snapshot: loaded version v1/)?.level, 'info');
  assert.equal(find(/no public base URL is set/)?.level, 'warn');
  assert.equal(find(/serving on http:\/\//)?.level, 'info');
  assert.equal(find(/breaker: forced open by SIGUSR2/)?.level, 'warn');
  assert.equal(find(/stopped: every request received was answered/)?.level, 'info');

  const lines = text.stderr.text.trimEnd().split('\n');
  assert.ok(lines.length >= 3);
  for (const line of lines) assert.match(line, /^\d{4}-\d{2}-\d{2}T\S+Z (info |warn |error) \S/);
  assert.ok(lines.some((line) => / info  equity-facts \S+ serving on http:\/\//.test(line)));

  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  for (const [args, env, name] of [[['--log-format', 'yaml'], {}, '--log-format'], [[], { EQF_LOG_FORMAT: 'JSON' }, 'EQF_LOG_FORMAT']] as const) {
    const bad = spawn(process.execPath, ['--import', 'tsx', main, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    bad.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    assert.equal((await once(bad, 'exit'))[0], 2);
    assert.match(stderr, new RegExp(`${name} must be json or text, got "`));
  }
});
