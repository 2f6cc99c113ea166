/**
 * A fetch run against the replay server serving the hand-written fixture EDGAR: what is asked,
 * how, at what pace, where it lands, and what the summary says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runFetch, FetchSelectionError } from '../../src/fetch/fetch-run.js';
import { FIXTURE_DOCUMENTS, FIXTURE_MISSING } from '../fixtures/fetch-edgar.js';
import { USER_AGENT, filesUnder, fixtureRun } from '../helpers/fixture-run.js';

test('fetch mirrors EDGAR\'s paths: ticker files, submissions and their page, company facts, and each filing\'s documents', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  const result = await runFetch(options());
  assert.equal(result.exitCode, 0);
  const expected = [...Object.keys(FIXTURE_DOCUMENTS).map((p) => p.slice(1)), '.equity-facts-fetch.json'].sort();
  assert.deepEqual(await filesUnder(out), expected);
  for (const [path, body] of Object.entries(FIXTURE_DOCUMENTS)) assert.equal(await readFile(join(out, path), 'utf8'), body, path);
  // Never asked: the 8-K with item 5.02, the 10-K, the Form 4 before the window, the 8-K's graphic.
  for (const name of ['eqfx-20240601.htm', 'eqfx-20231231.htm', 'form4e.xml', 'logo.jpg']) assert.ok(!replay.requests.some((r) => r.path.endsWith(name)), name);
});

test('every request declares the User-Agent and asks for gzip or deflate; gzipped answers are stored decoded', async (t) => {
  const { replay, options } = await fixtureRun(t);
  await runFetch(options());
  assert.equal(replay.requests.length, 15);
  for (const request of replay.requests) {
    assert.equal(request.userAgent, USER_AGENT, request.path);
    assert.equal(request.acceptEncoding, 'gzip, deflate', request.path);
  }
});

test('no second, by the server\'s clock, holds more than 10 requests, with 4 downloads in flight', async (t) => {
  const { replay, options, time } = await fixtureRun(t);
  await runFetch(options({ concurrency: 4 }));
  const at = replay.requests.map((r) => r.at).sort((a, b) => a - b);
  assert.ok(at.length > 11);
  for (let i = 10; i < at.length; i++) assert.ok(at[i]! - at[i - 10]! >= 1000, `requests ${i - 10}..${i} within ${at[i]! - at[i - 10]!} ms`);
  // A sliding window, no more: the first ten go as soon as they are asked for, and the last five
  // when the first have left the window, 1 s after the first request.
  assert.equal(at.at(-1)! - at[0]!, 1000);
  assert.ok(time.sleeps.length > 0);
});

test('a 404 is counted, named in the summary and the summary file, and the run still exits 0', async (t) => {
  const { replay, out, options, logs } = await fixtureRun(t);
  const result = await runFetch(options());
  const missing = `${replay.url}${FIXTURE_MISSING}`;
  assert.deepEqual(result.tally.missing, [missing]);
  assert.equal(result.exitCode, 0);
  assert.match(logs.join('\n'), /15 files: 14 fetched \([\d.]+ kB\), 0 already held, 1 not on EDGAR \(404\), 0 failed; 15 requests, 0 retries/);
  assert.ok(logs.some((l) => l.startsWith('not on EDGAR (404): ') && l.includes(missing)));
  const summary = JSON.parse(await readFile(result.summaryFile, 'utf8'));
  assert.equal(result.summaryFile, join(out, '.equity-facts-fetch.json'));
  assert.deepEqual([summary.format, summary.end, summary.fetched, summary.missing], ['equity-facts-fetch/1', 'complete', 14, [missing]]);
});

test('a second run fetches nothing it holds; filing documents stay held for good, in-place files refresh once old', async (t) => {
  const { replay, options, time } = await fixtureRun(t);
  await runFetch(options());
  const first = replay.requests.length;
  const again = await runFetch(options());
  // Only the 404 is asked again.
  assert.deepEqual(replay.requests.slice(first).map((r) => r.path), [FIXTURE_MISSING]);
  assert.deepEqual([again.tally.held, again.tally.fetched], [14, 0]);
  // 13 hours later, the ticker files, submissions, its page and company facts are fetched again.
  await time.sleep(13 * 3_600_000);
  const second = replay.requests.length;
  const later = await runFetch(options());
  assert.deepEqual(replay.requests.slice(second).map((r) => r.path).sort(), [
    '/api/xbrl/companyfacts/CIK0001234567.json', '/files/company_tickers.json', '/files/company_tickers_exchange.json',
    '/submissions/CIK0001234567-submissions-001.json', '/submissions/CIK0001234567.json', FIXTURE_MISSING,
  ].sort());
  assert.equal(later.tally.fetched, 5);
  const always = await runFetch(options({ refreshAfterHours: 0 }));
  assert.equal(always.tally.fetched, 5, 'refresh-after 0 fetches in-place files every run');
});

test('an interrupted run leaves only whole files, and the next run fetches just what is missing', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  const stop = new AbortController();
  const interrupted = runFetch(options({ signal: stop.signal, concurrency: 1 }));
  await replay.arrivals(8);
  stop.abort(new Error('SIGINT'));
  const first = await interrupted;
  assert.equal(first.end, 'interrupted');
  assert.equal(first.exitCode, 130);
  const held = (await filesUnder(out)).filter((f) => !f.startsWith('.'));
  assert.ok(held.length >= 6 && held.length < 14, `held after the interruption: ${held.length}`);
  for (const file of held) assert.equal(await readFile(join(out, file), 'utf8'), FIXTURE_DOCUMENTS[`/${file}`], file);
  assert.ok(!(await readdir(out, { recursive: true })).some((f) => f.endsWith('.part')), 'no temporary file is left');

  const before = replay.requests.length;
  const resumed = await runFetch(options());
  assert.equal(resumed.exitCode, 0);
  const asked = replay.requests.slice(before).map((r) => r.path.slice(1));
  for (const file of held) assert.ok(!asked.includes(file), `${file} was held and not asked again`);
  assert.equal(resumed.tally.fetched + resumed.tally.held, 14);
  assert.deepEqual(await filesUnder(out), [...Object.keys(FIXTURE_DOCUMENTS).map((p) => p.slice(1)), '.equity-facts-fetch.json'].sort());
});

test('a ticker EDGAR does not list is refused by name; CIKs need no ticker; every company takes --all', async (t) => {
  const { replay, options } = await fixtureRun(t);
  await assert.rejects(runFetch(options({ tickers: ['EQFX', 'FB', 'nope'] })), (error: unknown) => error instanceof FetchSelectionError && /FB, NOPE/.test(error.message));
  const byCik = await runFetch(options({ tickers: undefined, ciks: ['0001234567'] }));
  assert.equal(byCik.exitCode, 0);
  const before = replay.requests.length;
  const all = await runFetch(options({ tickers: undefined, all: true }));
  const asked = replay.requests.slice(before).map((r) => r.path);
  assert.ok(asked.includes('/submissions/CIK0007654321.json'), 'the second company of company_tickers.json is fetched too');
  assert.deepEqual(all.tally.missing.map((u) => new URL(u).pathname).sort(), ['/submissions/CIK0007654321.json', FIXTURE_MISSING].sort());
});

test('a run without company_tickers.json cannot resolve tickers: it stops, says why and exits 1', async (t) => {
  const { replay, options } = await fixtureRun(t);
  replay.fail('/files/company_tickers.json', { status: 404 });
  const result = await runFetch(options());
  assert.equal(result.exitCode, 1);
  assert.equal(result.end, 'stopped');
  assert.match(result.tally.failed[0]!.reason, /company_tickers\.json could not be fetched/);
  assert.ok(!replay.requests.some((r) => r.path.startsWith('/submissions/')));
});

test('the progress line shows the phase, the files settled and the request rate, and is cleared at the end', async (t) => {
  const { options } = await fixtureRun(t);
  const lines: string[] = [];
  await runFetch(options({ progress: (line) => lines.push(line) }));
  assert.ok(lines.some((l) => /^fetch: 1 company: \d+\/2 files · /.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /^fetch: 6 filings since 2024-01-01: \d+\/\d+ files · \d+ fetched, \d+ held, \d+ not on EDGAR, 0 failed · [\d.]+ req\/s$/.test(l)), lines.join('\n'));
  assert.equal(lines.at(-1), '');
});

test('EDGAR\'s quirks are named, not fatal: an error page instead of JSON, JSON that is not a submissions file, a 13F-HR index without an information table', async (t) => {
  const { replay, options } = await fixtureRun(t);
  replay.set('/submissions/CIK0007654321.json', '{"note": "not a submissions file"}');
  replay.set('/submissions/CIK0001111111.json', '<html><body>Service Unavailable</body></html>');
  replay.set('/Archives/edgar/data/1234567/000123456724000004/0001234567-24-000004-index.htm', '<table class="tableFile"><tr><td>1</td><td>13F-HR</td><td><a href="/x/primary_doc.xml">primary_doc.xml</a></td><td>13F-HR</td></tr></table>');
  const result = await runFetch(options({ tickers: undefined, ciks: ['1234567', '7654321', '1111111'] }));
  assert.equal(result.exitCode, 1);
  assert.deepEqual(result.tally.failed.map((f) => [new URL(f.url).pathname, f.reason.replace(/:.*/, '')]), [['/submissions/CIK0001111111.json', 'unusable answer']]);
  assert.deepEqual(result.tally.passedOver.map((p) => [p.what.replace(replay.url, ''), p.reason]), [
    ['/submissions/CIK0007654321.json', 'not a submissions JSON'],
    ['0001234567-24-000004 (Form 13F-HR)', 'its index lists no INFORMATION TABLE XML'],
  ]);
  assert.ok(!replay.requests.some((r) => r.path.endsWith('/holdings.xml')));
});
