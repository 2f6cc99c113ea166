/**
 * The end-to-end promise of decisions §14: `fetch` against the replay server, then `build --from`
 * the fetched folder, gives the same snapshot rows as `build` on the sec-data files the replay
 * served, read in their own layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../../src/builder/build.js';
import { runFetch } from '../../src/fetch/fetch-run.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { EdgarReplay, SEC_DATA } from '../helpers/edgar-replay.js';
import { replayTime } from '../helpers/replay-time.js';

const skip = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

/** Tesla, Apple, NVIDIA, Microsoft and Katherine Adams (Apple's general counsel, a reporting owner). */
const CIKS = ['1318605', '320193', '1045810', '789019', '1462356'];

test(skip ? `fetch then build equals build on sec-data (${skip})` : 'fetch then build gives the same rows as build on the sec-data files the replay served', { skip }, async (t) => {
  const replay = await EdgarReplay.start();
  const dir = await mkdtemp(join(tmpdir(), 'eqf-fetch-build-'));
  t.after(async () => {
    await replay.close();
    await rm(dir, { recursive: true, force: true });
  });
  const time = replayTime(replay);
  const fetched = join(dir, 'fetched');
  const result = await runFetch({
    userAgent: 'equity-facts tests tests@example.com', out: fetched, ciks: CIKS, since: '2012-01-01', baseUrl: replay.url,
    ...time, log: () => {}, progress: null, concurrency: 4,
  });
  assert.equal(result.exitCode, 0);
  assert.ok(result.tally.fetched > 100, `fetched ${result.tally.fetched}`);
  // Thousands of requests (most of them 404s: sec-data holds few of the listed documents), and
  // still no second of the server's clock with more than 10.
  const at = replay.requests.map((r) => r.at).sort((x, y) => x - y);
  assert.ok(at.length > 1000);
  for (let i = 10; i < at.length; i++) assert.ok(at[i]! - at[i - 10]! >= 1000, `requests ${i - 10}..${i}`);

  // The direct side: exactly the sec-data files behind the 200s, in sec-data's own layout.
  const direct = join(dir, 'direct');
  const sources = new Set([...replay.served.values()].filter((s) => !s.startsWith('synthesized:')));
  for (const source of sources) await cp(join(SEC_DATA, source), join(direct, source));

  const build = (from: string, out: string) => buildSnapshot({
    from, out, asOf: '2026-06-30', windowDays: 36_600, filingsDays: 36_600, version: 'v', publish: false,
    now: () => new Date('2026-11-21T12:00:00Z'), log: () => {}, progress: false,
  });
  const [a, b] = await Promise.all([build(fetched, join(dir, 'snap-fetched')), build(direct, join(dir, 'snap-direct'))]);
  for (const kind of ROW_KINDS) {
    const rows = async (root: string) => (await readFile(join(root, 'v', `${kind}.ndjson`), 'utf8')).split('\n');
    const [fromFetch, fromDirect] = await Promise.all([rows(join(dir, 'snap-fetched')), rows(join(dir, 'snap-direct'))]);
    assert.deepEqual(fromFetch, fromDirect, `${kind} rows`);
  }
  assert.deepEqual(a.rows, b.rows);
  for (const kind of ROW_KINDS) assert.ok(a.rows[kind] > 0, `${kind} rows built`);
  // What the replay could give was given: the Form 4 XMLs of Musk (datamule), Apple's officers
  // (OpenBB) and Katherine Adams (a complete submission), and NVIDIA's two 13F-HRs.
  const held = (prefix: string) => [...sources].filter((s) => s.startsWith(prefix)).length;
  assert.ok(held('ownership/datamule_paypal/') >= 100, `datamule XMLs: ${held('ownership/datamule_paypal/')}`);
  assert.equal(held('ownership/aapl_openbb/'), 9);
  assert.equal(held('ownership/complete_submissions/0000320193-22-000061.txt'), 1);
  assert.equal(held('13f/nvda/'), 4);
  const insiders = (await readFile(join(dir, 'snap-fetched', 'v', 'insiders.ndjson'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const tsla = insiders.find((r) => r.ticker === 'TSLA');
  assert.ok(tsla.notable.some((n: { accession_no: string }) => n.accession_no === '0000899243-22-035394'), 'Musk\'s sale of 2022-11-08 is built from the fetched XML');
});
