/**
 * How fetch answers EDGAR's refusals and broken connections, against the replay server serving
 * the fixture EDGAR: 429 with Retry-After, 5xx, dropped connections, a silent server, SEC's 403
 * pages, and giving up after the last retry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageError } from '../../src/fetch/edgar-client.js';
import { runFetch } from '../../src/fetch/fetch-run.js';
import { RATE_THRESHOLD_PAUSE_MS } from '../../src/fetch/retry-policy.js';
import { RATE_THRESHOLD_PAGE, type ReplayRequest } from '../helpers/edgar-replay.js';
import { FIXTURE_DOCUMENTS } from '../fixtures/fetch-edgar.js';
import { fixtureRun } from '../helpers/fixture-run.js';

const SUBMISSIONS = '/submissions/CIK0001234567.json';
const FORM_4 = '/Archives/edgar/data/1234567/000123456724000001/form4a.xml';
const RELEASE = '/Archives/edgar/data/1234567/000123456724000005/eqfx-ex991.htm';

/**
 * Requests that arrived during a pause that began with the request at `index`: only those the
 * gate had let through before the answer came back, at most one per other download in flight.
 */
function arrivedDuringPause(requests: readonly ReplayRequest[], index: number, pauseMs: number): number {
  const at = requests[index]!.at;
  return requests.filter((r, i) => i > index && r.at < at + pauseMs).length;
}

test('429 with Retry-After: every request waits that long, then the document is fetched', async (t) => {
  const { replay, out, options, logs } = await fixtureRun(t);
  replay.fail(SUBMISSIONS, { status: 429, retryAfter: '7' });
  const result = await runFetch(options({ concurrency: 4 }));
  assert.equal(result.exitCode, 0);
  const limited = replay.requests.findIndex((r) => r.status === 429);
  assert.ok(arrivedDuringPause(replay.requests, limited, 7000) <= 3);
  assert.equal(replay.requestsFor(SUBMISSIONS).length, 2);
  assert.equal(await readFile(join(out, SUBMISSIONS), 'utf8'), FIXTURE_DOCUMENTS[SUBMISSIONS]);
  assert.equal(result.tally.retries, 1);
  assert.ok(logs.some((l) => l.includes('HTTP 429, Retry-After 7 s; all requests wait 7.0 s (retry 1 of 4)')), logs.join('\n'));
});

test('503 is retried with a growing, jittered back-off', async (t) => {
  const { replay, out, options, time } = await fixtureRun(t);
  replay.fail(FORM_4, { status: 503 }, 2);
  const result = await runFetch(options({ random: () => 0.5 }));
  assert.equal(result.exitCode, 0);
  assert.deepEqual(replay.requestsFor(FORM_4).map((r) => r.status), [503, 503, 200]);
  assert.ok(time.sleeps.includes(750) && time.sleeps.includes(1500), `back-offs ${time.sleeps}`);
  assert.equal(await readFile(join(out, FORM_4), 'utf8'), FIXTURE_DOCUMENTS[FORM_4]);
});

test('a connection dropped before the answer, or halfway through the body, is retried and the file is whole', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.fail(FORM_4, { drop: 'before-headers' });
  replay.fail(RELEASE, { drop: 'mid-body' });
  const result = await runFetch(options());
  assert.equal(result.exitCode, 0);
  assert.deepEqual(replay.requestsFor(FORM_4).map((r) => r.status), ['dropped', 200]);
  assert.deepEqual(replay.requestsFor(RELEASE).map((r) => r.status), ['dropped', 200]);
  assert.equal(await readFile(join(out, RELEASE), 'utf8'), FIXTURE_DOCUMENTS[RELEASE]);
  assert.equal(result.tally.retries, 2);
});

test('a server that sends nothing is abandoned after the idle timeout and asked again', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.fail(FORM_4, { stall: true });
  const result = await runFetch(options({ idleTimeoutMs: 100 }));
  assert.equal(result.exitCode, 0);
  assert.deepEqual(replay.requestsFor(FORM_4).map((r) => r.status), ['stalled', 200]);
  assert.equal(await readFile(join(out, FORM_4), 'utf8'), FIXTURE_DOCUMENTS[FORM_4]);
});

test('after its last retry a document is given up: named with its reason, no file or temporary left, exit 1', async (t) => {
  const { replay, out, options, logs } = await fixtureRun(t);
  replay.fail(FORM_4, { status: 503 }, 3);
  replay.fail(RELEASE, { drop: 'mid-body' }, 3);
  const result = await runFetch(options({ retries: 2 }));
  assert.equal(result.exitCode, 1);
  assert.equal(replay.requestsFor(FORM_4).length, 3);
  assert.deepEqual(result.tally.failed.map((f) => [new URL(f.url).pathname, f.reason.replace(/: .*(?= \(gave)/, ': …')]), [
    [FORM_4, 'HTTP 503 (gave up after 3 attempts)'],
    [RELEASE, 'connection failed: … (gave up after 3 attempts)'],
  ]);
  await assert.rejects(stat(join(out, FORM_4)), { code: 'ENOENT' });
  await assert.rejects(stat(join(out, RELEASE)), { code: 'ENOENT' });
  assert.ok(!(await readdir(out, { recursive: true })).some((f) => f.endsWith('.part')));
  assert.ok(logs.some((l) => l.startsWith('failed: ') && l.includes(FORM_4) && l.includes('HTTP 503')));
  assert.equal(result.tally.fetched, 12, 'everything else was fetched');
});

test('SEC\'s 403 "Request Rate Threshold Exceeded" page holds every request for 10 minutes, then the run goes on', async (t) => {
  const { replay, options } = await fixtureRun(t);
  replay.fail(FORM_4, { status: 403, body: RATE_THRESHOLD_PAGE });
  const result = await runFetch(options({ concurrency: 1 }));
  assert.equal(result.exitCode, 0);
  const blocked = replay.requests.findIndex((r) => r.status === 403);
  assert.ok(replay.requests[blocked + 1]!.at - replay.requests[blocked]!.at >= RATE_THRESHOLD_PAUSE_MS);
  assert.deepEqual(replay.requestsFor(FORM_4).map((r) => r.status), [403, 200]);

  const again = await fixtureRun(t);
  again.replay.fail(FORM_4, { status: 403, body: RATE_THRESHOLD_PAGE });
  await runFetch(again.options({ concurrency: 4 }));
  const index = again.replay.requests.findIndex((r) => r.status === 403);
  assert.ok(arrivedDuringPause(again.replay.requests, index, RATE_THRESHOLD_PAUSE_MS) <= 3, 'with 4 in flight, only those already under way');
});

test('SEC\'s 403 for an undeclared automated tool stops the run at once with a message about the User-Agent', async (t) => {
  const { replay, options, logs } = await fixtureRun(t);
  replay.fail(SUBMISSIONS, { status: 403, body: 'SEC reserves the right to limit requests originating from undeclared automated tools.' });
  const result = await runFetch(options({ concurrency: 1 }));
  assert.equal(result.end, 'stopped');
  assert.equal(result.exitCode, 1);
  assert.equal(replay.requests.at(-1)!.path, SUBMISSIONS, 'no request after the refusal');
  assert.ok(logs.some((l) => /undeclared automated tool: declare a company or name and a contact email with --user-agent/.test(l)), logs.join('\n'));
});

test('other refusals (a plain 403, a 400) fail the document without retries', async (t) => {
  const { replay, options } = await fixtureRun(t);
  replay.fail(FORM_4, { status: 403 });
  const result = await runFetch(options());
  assert.equal(replay.requestsFor(FORM_4).length, 1);
  assert.deepEqual(result.tally.failed.map((f) => f.reason), ['HTTP 403']);
  assert.equal(result.exitCode, 1);
});

test('an output folder that cannot be written stops the run with a message naming the file, never a stack trace', async (t) => {
  const { replay, out, options, logs } = await fixtureRun(t);
  // A file where EDGAR's submissions folder must go.
  await writeFile(join(out, 'submissions'), 'not a folder');
  const result = await runFetch(options({ concurrency: 1 }));
  assert.equal(result.end, 'stopped');
  assert.equal(result.exitCode, 1);
  assert.match(result.tally.failed[0]!.reason, /^cannot write .*submissions\/CIK0001234567\.json: /);
  assert.ok(!replay.requests.some((r) => r.path.startsWith('/Archives/')), 'nothing more is asked');
  assert.ok(logs.some((l) => l.startsWith('fetch stopped: ')));
  await assert.rejects(runFetch(options({ out: join(out, 'submissions', 'deeper') })), (error: unknown) => error instanceof StorageError && /cannot create the output folder/.test(error.message));
});
