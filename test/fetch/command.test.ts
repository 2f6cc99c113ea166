/**
 * `equity-facts fetch` on the command line: usage errors (exit 2, naming the flag), the
 * User-Agent rule, a real run in a child process against the replay server, and SIGINT.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFetchArgs, runFetchCommand } from '../../src/fetch/command.js';
import { resolveFetchOptions, userAgentProblem } from '../../src/fetch/fetch-options.js';
import { FIXTURE_DOCUMENTS, FIXTURE_SINCE } from '../fixtures/fetch-edgar.js';
import { USER_AGENT, fixtureRun } from '../helpers/fixture-run.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'fetch', ...args], { env: { ...process.env, EQF_USER_AGENT: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => { output.stdout += chunk; });
  child.stderr.on('data', (chunk) => { output.stderr += chunk; });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, ...output }));
  return { child, output, exited };
}

test('a User-Agent must carry a contact email and a name, on one printable line (SEC fair access)', () => {
  assert.equal(userAgentProblem('Acme Research ops@acme.example'), null);
  assert.equal(userAgentProblem('Jane Doe jane.doe+edgar@mail.example.co.uk'), null);
  assert.match(userAgentProblem('Acme Research')!, /contact email/);
  assert.match(userAgentProblem('python-requests/2.31')!, /contact email/);
  assert.match(userAgentProblem('ops@acme.example')!, /name the company or person/);
  assert.match(userAgentProblem('Acme ops@acme.example\r\nX-Evil: 1')!, /printable ASCII on one line/);
  assert.throws(() => resolveFetchOptions({ userAgent: 'Mozilla/5.0', out: 'x', all: true }), /userAgent must carry a contact email/);
});

test('fetch refuses to run without a User-Agent, and takes EQF_USER_AGENT when the flag is absent', async (t) => {
  const errors: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => { errors.push(String(chunk)); return true; });
  assert.equal(await runFetchCommand(['--out', '/tmp/x', '--all'], {}), 2);
  assert.match(errors.join(''), /--user-agent is required: SEC asks every automated client to declare who it is/);
  assert.equal(parseFetchArgs(['--out', 'o', '--all'], { EQF_USER_AGENT: 'Env Name env@example.com' }).userAgent, 'Env Name env@example.com');
  assert.equal(parseFetchArgs(['--out', 'o', '--all', '--user-agent', 'Flag Name f@example.com'], { EQF_USER_AGENT: 'Env Name env@example.com' }).userAgent, 'Flag Name f@example.com');
  errors.length = 0;
  assert.equal(await runFetchCommand(['--user-agent', 'curl/8.0', '--out', '/tmp/x', '--all'], {}), 2);
  assert.match(errors.join(''), /^equity-facts fetch: --user-agent must carry a contact email address/);
});

test('usage mistakes exit 2 and name the flag', async (t) => {
  const errors: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => { errors.push(String(chunk)); return true; });
  const ua = ['--user-agent', USER_AGENT];
  const cases: [string[], RegExp][] = [
    [[...ua, '--all'], /--out is required/],
    [[...ua, '--out', 'o'], /say what to fetch: --tickers, --ciks or --all/],
    [[...ua, '--out', 'o', '--all', '--tickers', 'AAPL'], /--tickers and --all cannot be combined/],
    [[...ua, '--out', 'o', '--tickers', 'AAPL', '--bulk'], /--bulk fetches SEC's whole-market products: give --all with it/],
    [[...ua, '--out', 'o', '--all', '--since', '2024-02-30'], /--since must be a date YYYY-MM-DD/],
    [[...ua, '--out', 'o', '--all', '--max-rate', '20'], /--max-rate must be more than 0 and at most 10 \(SEC fair-access limit\)/],
    [[...ua, '--out', 'o', '--all', '--max-rate', 'fast'], /--max-rate must be a number of requests per second/],
    [[...ua, '--out', 'o', '--all', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 16/],
    [[...ua, '--out', 'o', '--all', '--base-url', 'ftp://x'], /--base-url must be an http\(s\) URL/],
    [[...ua, '--out', 'o', '--tickers', 'AA PL!'], /--tickers has "PL!", which is not a ticker/],
    [[...ua, '--out', 'o', '--ciks', '320193,12345678901'], /--ciks has "12345678901", which is not a CIK/],
    [[...ua, '--out', 'o', '--all', '--bogus'], /Unknown option '--bogus'/],
    [[...ua, '--out', '', '--all'], /--out needs a value/],
  ];
  for (const [args, message] of cases) {
    errors.length = 0;
    assert.equal(await runFetchCommand(args, {}), 2, args.join(' '));
    assert.match(errors.join(''), message, args.join(' '));
  }
  // A mirror that is not sec.gov may be asked faster.
  assert.equal(resolveFetchOptions({ ...parseFetchArgs([...ua, '--out', 'o', '--all', '--max-rate', '200', '--base-url', 'http://127.0.0.1:1'], {}) }).requestsPerSecond, 200);
  assert.throws(() => resolveFetchOptions({ userAgent: USER_AGENT, out: 'o', all: true, requestsPerSecond: 11, baseUrl: 'https://edgar.sec.gov' }), /at most 10/);
});

test('--help prints the usage with exit 0', async (t) => {
  const out: string[] = [];
  t.mock.method(process.stdout, 'write', (chunk: string) => { out.push(String(chunk)); return true; });
  assert.equal(await runFetchCommand(['--help']), 0);
  assert.match(out.join(''), /^usage: equity-facts fetch --user-agent "Name email" --out DIR/);
});

test('equity-facts fetch in a child process: fetches the fixture EDGAR, logs the summary, draws no progress line off a TTY', async (t) => {
  const { replay, out } = await fixtureRun(t);
  const run = cli(['--user-agent', USER_AGENT, '--out', out, '--tickers', 'eqfx', '--since', FIXTURE_SINCE, '--base-url', replay.url, '--max-rate', '200']);
  const { code, stderr, stdout } = await run.exited;
  assert.equal(code, 0, stderr);
  assert.equal(stdout, '');
  assert.match(stderr, /^fetch done: 15 files: 14 fetched \([\d.]+ kB\), 0 already held, 1 not on EDGAR \(404\), 0 failed; 15 requests, 0 retries, [\d.]+ s\n/);
  assert.ok(!stderr.includes('\r'), 'no progress line');
  for (const [path, body] of Object.entries(FIXTURE_DOCUMENTS)) assert.equal(await readFile(join(out, path), 'utf8'), body, path);
  assert.ok(replay.requests.every((r) => r.userAgent === USER_AGENT));
});

test('an unknown ticker exits 2 and names it', async (t) => {
  const { replay, out } = await fixtureRun(t);
  const { code, stderr } = await cli(['--user-agent', USER_AGENT, '--out', out, '--tickers', 'EQFX,ZZZZ', '--base-url', replay.url, '--max-rate', '200']).exited;
  assert.equal(code, 2);
  assert.match(stderr, /not in company_tickers\.json: ZZZZ/);
});

test('SIGINT stops a run: the summary says interrupted, exit 130, and the next run resumes', async (t) => {
  const { replay, out } = await fixtureRun(t);
  const stalled = '/Archives/edgar/data/1234567/000123456724000001/form4a.xml';
  replay.fail(stalled, { stall: true });
  const args = ['--user-agent', USER_AGENT, '--out', out, '--tickers', 'EQFX', '--since', FIXTURE_SINCE, '--base-url', replay.url, '--max-rate', '200', '--concurrency', '1'];
  const run = cli(args);
  for (let n = 1; !replay.requests.some((r) => r.path === stalled); n++) await replay.arrivals(n);
  run.child.kill('SIGINT');
  const { code, stderr } = await run.exited;
  assert.equal(code, 130, stderr);
  assert.match(stderr, /SIGINT: stopping; held files stay, the next run resumes/);
  assert.match(stderr, /^fetch interrupted: /m);
  const summary = JSON.parse(await readFile(join(out, '.equity-facts-fetch.json'), 'utf8'));
  assert.equal(summary.end, 'interrupted');
  const resumed = await cli(args).exited;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /fetch done: 15 files: \d+ fetched .*, [1-9]\d* already held/);
});
