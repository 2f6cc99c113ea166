/**
 * The end-to-end promise of docs/api.md §14: `fetch` against the replay server, then `build --from`
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
import { fixtureRun } from '../helpers/fixture-run.js';
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

/** EDGAR's "Filing Detail" page for the fixture's 8-K 2.02, in EDGAR's own template (as sec-data's Adobe index page). */
const EQFX_8K_INDEX = `<html><body><div id="contentDiv"><div class="formDiv">
<div id="formHeader"><div id="formName"><strong>Form 8-K</strong> - Current report: </div>
<div id="secNum"><strong><acronym title="Securities and Exchange Commission">SEC</acronym> Accession <acronym title="Number">No.</acronym></strong> 0001234567-24-000005</div></div>
<div class="formContent"><div class="formGrouping"><div class="infoHead">Filing Date</div>
<div class="info">2024-04-25</div>
<div class="infoHead">Accepted</div>
<div class="info">2024-04-25 16:05:00</div></div>
<div class="formGrouping"><div class="infoHead">Items</div>
<div class="info">Item 2.02: Results of Operations and Financial Condition<br />Item 9.01: Financial Statements and Exhibits</div></div></div>
<table class="tableFile" summary="Document Format Files">
<tr><th scope="col">Seq</th><th scope="col">Description</th><th scope="col">Document</th><th scope="col">Type</th><th scope="col">Size</th></tr>
<tr><td scope="row">1</td><td scope="row">8-K</td><td scope="row"><a href="/ix?doc=/Archives/edgar/data/1234567/000123456724000005/eqfx-20240425.htm">eqfx-20240425.htm</a> &nbsp;&nbsp;<span style="color: green">iXBRL</span></td><td scope="row">8-K</td><td scope="row">100</td></tr>
<tr class="blueRow"><td scope="row">2</td><td scope="row">PRESS RELEASE</td><td scope="row"><a href="/Archives/edgar/data/1234567/000123456724000005/eqfx-ex991.htm">eqfx-ex991.htm</a></td><td scope="row">EX-99.1</td><td scope="row">200</td></tr>
</table>
<div class="companyInfo"><span class="companyName">Equity Facts Example Corp (Filer)
 <acronym title="Central Index Key">CIK</acronym>: <a href="/cgi-bin/browse-edgar?CIK=0001234567&amp;action=getcompany">0001234567 (see all company filings)</a></span>
<p class="identInfo">State of Incorp.: <strong>DE</strong> | Fiscal Year End: <strong>1231</strong><br />Type: <strong>8-K</strong></p></div>
</div></div></body></html>
`;

test('after fetch, an 8-K 2.02\'s release_url is the EX-99.1 that its -index.htm page names, not the primary document', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.set('/Archives/edgar/data/1234567/000123456724000005/0001234567-24-000005-index.htm', EQFX_8K_INDEX);
  await runFetch(options());
  const index = join(out, 'Archives/edgar/data/1234567/000123456724000005/0001234567-24-000005-index.htm');
  assert.ok(existsSync(index));
  const snapshots = await mkdtemp(join(tmpdir(), 'eqf-fetch-snap-'));
  t.after(() => rm(snapshots, { recursive: true, force: true }));
  const earnings = async (version: string) => {
    const result = await buildSnapshot({
      from: out, out: snapshots, asOf: '2024-12-31', windowDays: 36_600, filingsDays: 36_600, version, publish: false,
      now: () => new Date('2025-01-02T00:00:00Z'), log: () => {}, progress: false,
    });
    return (await readFile(join(result.dir, 'earnings.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { accession_no: string; release_url: string });
  };
  const [row] = await earnings('with-index');
  assert.deepEqual([row?.accession_no, row?.release_url], ['0001234567-24-000005', 'https://www.sec.gov/Archives/edgar/data/1234567/000123456724000005/eqfx-ex991.htm']);
  // The index page is what tells: without it the release falls back to the primary document.
  await rm(index);
  const [fallback] = await earnings('without-index');
  assert.equal(fallback?.release_url, 'https://www.sec.gov/Archives/edgar/data/1234567/000123456724000005/eqfx-20240425.htm');
});

test('a release typed EX-99.01 is downloaded by fetch and linked by build, one rule for both', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.set('/Archives/edgar/data/1234567/000123456724000005/0001234567-24-000005-index.htm', EQFX_8K_INDEX.replace('>EX-99.1<', '>EX-99.01<'));
  await runFetch(options());
  assert.ok(existsSync(join(out, 'Archives/edgar/data/1234567/000123456724000005/eqfx-ex991.htm')), 'fetch downloads the EX-99.01');
  const snapshots = await mkdtemp(join(tmpdir(), 'eqf-fetch-snap-'));
  t.after(() => rm(snapshots, { recursive: true, force: true }));
  const result = await buildSnapshot({
    from: out, out: snapshots, asOf: '2024-12-31', windowDays: 36_600, filingsDays: 36_600, version: 'ex-99-01', publish: false,
    now: () => new Date('2025-01-02T00:00:00Z'), log: () => {}, progress: false,
  });
  const [row] = (await readFile(join(result.dir, 'earnings.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { release_url: string });
  assert.equal(row?.release_url, 'https://www.sec.gov/Archives/edgar/data/1234567/000123456724000005/eqfx-ex991.htm');
});
