/**
 * `equity-facts portal` as a process: its usage (every flag and `EQF_PORTAL_` variable, from the
 * settings table), usage errors with a suggestion, a start that refuses a short admin token or a
 * broken keys file, and a run that serves, reads its variables and stops on SIGTERM with 0.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { writeKeysFile } from '../../src/keys/keys-file-write.js';
import { PORTAL_ROWS } from '../../src/portal/portal-settings.js';
import { KEY_RECORDS } from '../helpers/harness.js';
import { CLI_MAIN as MAIN, runCli } from '../helpers/run-cli.js';

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(['portal', ...args], env);



async function folder(t: TestContext): Promise<{ keys: string; token: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-portal-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  await writeFile(join(dir, 'token'), 'short\n');
  return { keys: join(dir, 'keys.json'), token: join(dir, 'token') };
}

test('portal --help lists every flag and variable; a typo is a usage error with the nearest flag; --keys is required', async (t) => {
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  for (const { setting } of PORTAL_ROWS) {
    assert.ok(help.stdout.includes(`--${setting.flag!} `), setting.flag);
    assert.ok(help.stdout.includes(setting.env), setting.env);
  }
  const { keys } = await folder(t);
  const typo = await run(['--keys', keys, '--sigup', 'free']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Unknown option '--sigup'.*\(did you mean --signup\?\)/);
  const bad = await run(['--keys', keys, '--signup', 'paid']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--signup must be off or free, got "paid"/);
  const none = await run([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--keys FILE is required/);
});

test('portal refuses to start with a short admin token or a broken keys file (exit 1), and serves until SIGTERM (exit 0)', async (t) => {
  const { keys, token } = await folder(t);
  const short = await run(['--keys', keys, '--port', '0', '--admin-token-file', token]);
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 16 characters/);
  assert.ok(!short.stderr.includes('short'), 'the token itself is not echoed');
  await writeFile(`${keys}.broken`, '{');
  const broken = await run(['--keys', `${keys}.broken`, '--port', '0']);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /not JSON/);

  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'portal', '--keys', keys, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EQF_PORTAL_SIGNUP: 'free', EQF_PORTAL_API_URL: 'https://api.example.com/' },
  });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /portal serving on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const signup = await request(`${url}/signup`);
  assert.equal(signup.statusCode, 200, 'EQF_PORTAL_SIGNUP=free opened sign-up');
  assert.match(String(signup.headers['content-security-policy']), /connect-src 'self' https:\/\/api\.example\.com;/);
  assert.match(await signup.body.text(), /href="https:\/\/api\.example\.com\/docs"/);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  assert.equal((await exited)[0], 0);
});
