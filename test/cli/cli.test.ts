/**
 * The `equity-facts` command through real child processes: usage errors, start-up refusal,
 * SIGHUP, and `npm start -- <flags>` running the compiled JavaScript with plain node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { request } from 'undici';
import { KEYS, KEY_RECORDS, writeFixtureSnapshot } from '../helpers/harness.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { readServeConfig } from '../../src/cli/serve-config.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');


async function fixtureDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  return dir;
}

/** Resolves with the URL once the child prints it; collects stderr in `log.text`. */
function serving(child: ChildProcess, log: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      log.text += chunk;
      const match = /serving on (http:\/\/\S+)/.exec(log.text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${log.text}`)));
  });
}

test('--version prints the package version; no command prints usage and exits 2; an unknown one exits 2', async () => {
  assert.deepEqual((await runCli(['--version'])).stdout.trim(), PACKAGE_VERSION);
  const bare = await runCli([]);
  assert.equal(bare.code, 2);
  assert.match(bare.stdout, /usage:/);
  const unknown = await runCli(['launch']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "launch"/);
  assert.equal((await runCli(['help'])).code, 0);
});

test('serve refuses a bad port (exit 2) and a broken snapshot (exit 1), naming the cause', async (t) => {
  const bad = await runCli(['serve', '--port', 'eighty']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--port must be a port number/);
  const env = await runCli(['serve'], { EQF_PORT: '99999' });
  assert.match(env.stderr, /EQF_PORT must be a port number/);
  const dir = await fixtureDir(t);
  const broken = await runCli(['serve', '--port', '0', '--snapshots', join(dir, 'none'), '--keys', join(dir, 'keys.json')]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /cannot start: .*none\/CURRENT: cannot read: ENOENT/);
  const noKeys = await runCli(['serve', '--port', '0', '--keys', join(dir, 'missing-keys.json')]);
  assert.equal(noKeys.code, 1);
  assert.match(noKeys.stderr, /missing-keys\.json: cannot read: ENOENT \(no such file; `equity-facts keys add --file .*missing-keys\.json --plan PLAN --account ACCOUNT` makes one\)/);
});

test('flags win over EQF_* variables, which win over defaults', () => {
  assert.deepEqual(readServeConfig(['--port', '9000'], { EQF_PORT: '7000', EQF_HOST: '0.0.0.0', EQF_BASE_URL: 'https://api.example.test' }),
    { port: 9000, host: '0.0.0.0', baseUrl: 'https://api.example.test' });
  assert.deepEqual(readServeConfig([], {}), {});
  assert.throws(() => readServeConfig(['--nope'], {}), /Unknown option '--nope'/);
  assert.deepEqual(readServeConfig(['--max-connections', '500', '--shutdown-timeout-ms=2500'], { EQF_MAX_CONNECTIONS: '9', EQF_HEADERS_TIMEOUT_MS: '4000', EQF_REQUEST_TIMEOUT_MS: '8000', EQF_KEEP_ALIVE_TIMEOUT_MS: '3000' }),
    { maxConnections: 500, shutdownTimeoutMs: 2500, headersTimeoutMs: 4000, requestTimeoutMs: 8000, keepAliveTimeoutMs: 3000 });
  for (const bad of ['0', '-1', '1.5', '10s', '99999999999']) {
    assert.throws(() => readServeConfig([`--shutdown-timeout-ms=${bad}`], {}), new RegExp(`--shutdown-timeout-ms must be a whole number from 1 to 2147483647, got "${bad}"`));
  }
  assert.throws(() => readServeConfig([], { EQF_MAX_CONNECTIONS: 'lots' }), /EQF_MAX_CONNECTIONS must be a whole number/);
  assert.throws(() => readServeConfig(['--prot', '80'], {}), /Unknown option '--prot'.*\(did you mean --port\?\)/);
  assert.equal(readServeConfig(['--port', '1', '--help'], {}), 'help');
});

test('every command and subcommand takes --help: usage on stdout, exit 0; a mistyped command suggests the right one', { timeout: 60_000 }, async () => {
  const cases: [string[], RegExp][] = [
    [['--help'], /usage:\n  equity-facts serve/], [['help'], /Every command and subcommand takes --help/],
    [['serve', '--help'], /usage: equity-facts serve[\s\S]*--max-connections N[\s\S]*EQF_SHUTDOWN_TIMEOUT_MS/], [['serve', '-h'], /usage: equity-facts serve/],
    [['keys', '--help'], /equity-facts keys SUBCOMMAND --help/], [['keys', 'add', '--help'], /usage: equity-facts keys add --file F --plan P/],
    [['keys', 'list', '-h'], /usage: equity-facts keys list --file F/], [['keys', 'set-status', '--help'], /usage: equity-facts keys set-status --file F ID STATUS/],
    [['build', '--help'], /usage: equity-facts build[\s\S]*--allow-empty/],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args)));
  results.forEach((result, i) => {
    const [args, usage] = cases[i]!;
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stdout, usage, args.join(' '));
  });
  const typo = await runCli(['srve']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown command "srve" \(did you mean serve\?\)/);
});

test('serve refuses settings listen() cannot honour with exit 2, naming them', async () => {
  const result = await runCli(['serve', '--port', '0', '--headers-timeout-ms', '5000', '--request-timeout-ms', '1000']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /headersTimeoutMs \(5000\) must not be above requestTimeoutMs \(1000\)/);
});

test('SIGHUP reloads the snapshot and keys of a running server', { timeout: 60_000 }, async (t) => {
  const dir = await fixtureDir(t);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json')],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => { child.kill('SIGKILL'); });
  const log = { text: '' };
  await serving(child, log);
  child.kill('SIGHUP');
  // CURRENT still names v1, so the snapshot is not read again; the keys file is.
  while (!(log.text.includes('snapshot: still version v1') && log.text.includes('keys: reloaded'))) await once(child.stderr!, 'data');
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  assert.equal((await exited)[0], 0, 'SIGINT stops gracefully with exit 0');
});

test('npm start -- <flags> serves with the compiled JavaScript and forwards the flags', { timeout: 60_000 }, async (t) => {
  const dir = await fixtureDir(t);
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json')],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  t.after(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } });
  const log = { text: '' };
  const url = await serving(child, log);
  const reply = await request(`${url}/api/v1/finance/insiders?ticker=TSLA`, { headers: { 'x-api-key': KEYS.signal } });
  assert.equal(reply.statusCode, 200);
  assert.equal(((await reply.body.json()) as { data: { ticker: string }[] }).data[0]!.ticker, 'TSLA');
  const pid = Number(/\(pid (\d+)\)/.exec(log.text)![1]);
  const ps = spawn('ps', ['-o', 'args=', '-p', String(pid)]);
  let args = '';
  ps.stdout.on('data', (chunk) => { args += chunk; });
  await once(ps, 'exit');
  assert.match(args, /node .*dist\/cli\/main\.js serve/, 'plain node runs the compiled JavaScript, no tsx');
  assert.doesNotMatch(args, /tsx/);
  const serverGone = once(spawn('sh', ['-c', `while kill -0 ${pid} 2>/dev/null; do sleep 0.05; done`]), 'exit');
  const npmGone = once(child, 'exit'); // npm re-raises the forwarded signal on itself, so its own code is null
  child.kill('SIGTERM');
  await Promise.all([serverGone, npmGone]);
  assert.match(log.text, /SIGTERM: stopping; answering the requests received/, 'npm forwarded SIGTERM to the server, which stopped gracefully');
  assert.match(log.text, /stopped: every request received was answered/);
});

/** The lines of a JSON operational log. */
const entries = (text: string): { level: string; msg: string }[] => text.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));

test('npm start with the demo keys names the docs page and a curl whose URL and header answer 200', { timeout: 60_000 }, async (t) => {
  const child = spawn('npm', ['start', '--silent', '--', '--port', '0', '--access-log', 'off'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  t.after(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } });
  const log = { text: '' };
  const url = await serving(child, log);
  while (!log.text.includes('curl ')) await once(child.stderr!, 'data');
  const said = entries(log.text).map((entry) => entry.msg);
  const docsLine = said.find((msg) => msg.includes(`${url}/docs`));
  assert.ok(docsLine, `a line names ${url}/docs`);
  assert.equal((await request(`${url}/docs`)).statusCode, 200, 'the docs page it names answers');
  const curl = /curl -s -H "([^":]+): ([^"]+)" "([^"]+)"/.exec(said.find((msg) => msg.includes('curl ')) ?? '');
  assert.ok(curl, 'a ready-to-paste curl');
  const [, header, key, target] = curl;
  assert.ok(target!.startsWith(`${url}/api/v1/`), target);
  const reply = await request(target!, { headers: { [header!]: key! } });
  assert.equal(reply.statusCode, 200);
  assert.equal(((await reply.body.json()) as { data: unknown[] }).data.length, 1);
  assert.ok(said.indexOf(docsLine) > said.findIndex((msg) => msg.includes('serving on')), 'after "serving on"');
});

test('serve prints no key in a curl when the keys file does not hold the demo key, even one named keys.demo.json', { timeout: 60_000 }, async (t) => {
  const dir = await fixtureDir(t);
  await writeKeysFile(join(dir, 'keys.demo.json'), KEY_RECORDS);
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'serve', '--port', '0', '--access-log', 'off', '--log-format', 'text',
    '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.demo.json')], { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => { child.kill('SIGKILL'); });
  const log = { text: '' };
  const url = await serving(child, log);
  while (!log.text.includes(`${url}/docs`)) await once(child.stderr!, 'data');
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
  assert.doesNotMatch(log.text, /curl|eqf_|X-API-Key/, 'no curl and no key');
  for (const key of Object.values(KEYS)) assert.ok(!log.text.includes(key), 'no key of the file served');
});
