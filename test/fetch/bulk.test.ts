/**
 * `fetch --all --bulk`: SEC's nightly zips and the data-set zips named on SEC's catalog pages,
 * against the replay server serving catalog pages written in SEC's link style and empty zips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FORM_13F, INSIDER_TRANSACTIONS, parseCatalog, periodOf } from '../../src/fetch/bulk-products.js';
import { runFetch } from '../../src/fetch/fetch-run.js';
import { filesUnder, fixtureRun } from '../helpers/fixture-run.js';

/** The smallest valid zip: an end-of-central-directory record of an empty archive. */
const EMPTY_ZIP = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);

const INSIDER = '/files/structureddata/data/insider-transactions-data-sets';
const THIRTEEN_F = '/files/structureddata/data/form-13f-data-sets';
const NEWER_13F = '/files/datastandardsinnovation/data/form-13f-data-sets';

const INSIDER_PAGE = `<html><body><table>
<tr><td><a href="${INSIDER}/2024q3_form345.zip">2024 Q3</a></td></tr>
<tr><td><a href="${INSIDER}/2024q2_form345.zip">2024 Q2</a></td></tr>
<tr><td><a href="${INSIDER}/2024q1_form345.zip">2024 Q1</a></td></tr>
<tr><td><a href="${INSIDER}/2024q3_form345.zip">2024 Q3 again</a></td></tr>
<tr><td><a href="${INSIDER}/special_form345.zip">special</a></td></tr>
<tr><td><a href="/files/other/data/financial-statement-data-sets/2024q3.zip">not ours</a></td></tr>
</table></body></html>`;

const THIRTEEN_F_PAGE = `<html><body>
<a href="https://www.sec.gov${NEWER_13F}/01sep2024-30nov2024_form13f.zip">Sep-Nov 2024</a>
<a href="${THIRTEEN_F}/01jun2024-31aug2024_form13f.zip">Jun-Aug 2024</a>
<a href="${THIRTEEN_F}/2023q4_form13f.zip">2023 Q4</a>
</body></html>`;

test('catalog pages give each data-set zip once with the period its name covers', () => {
  const insider = parseCatalog(INSIDER_PAGE, INSIDER_TRANSACTIONS);
  assert.deepEqual(insider.map((z) => [z.name, z.from, z.to]), [
    ['2024q3_form345.zip', '2024-07-01', '2024-09-30'], ['2024q2_form345.zip', '2024-04-01', '2024-06-30'],
    ['2024q1_form345.zip', '2024-01-01', '2024-03-31'], ['special_form345.zip', null, null],
  ]);
  const thirteenF = parseCatalog(THIRTEEN_F_PAGE, FORM_13F);
  assert.deepEqual(thirteenF.map((z) => [z.location.path, z.from, z.to]), [
    [`${NEWER_13F}/01sep2024-30nov2024_form13f.zip`, '2024-09-01', '2024-11-30'],
    [`${THIRTEEN_F}/01jun2024-31aug2024_form13f.zip`, '2024-06-01', '2024-08-31'],
    [`${THIRTEEN_F}/2023q4_form13f.zip`, '2023-10-01', '2023-12-31'],
  ]);
  assert.deepEqual(periodOf('01xyz2024-31aug2024_form13f.zip'), { from: null, to: '2024-08-31' });
  assert.deepEqual(parseCatalog('<html>moved</html>', FORM_13F), []);
});

test('--all --bulk fetches the ticker files, the two nightly zips and the data sets reaching into the window', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.set(INSIDER_TRANSACTIONS.catalog.path, INSIDER_PAGE);
  replay.set(FORM_13F.catalog.path, THIRTEEN_F_PAGE);
  for (const path of [
    '/Archives/edgar/daily-index/bulkdata/submissions.zip', '/Archives/edgar/daily-index/xbrl/companyfacts.zip',
    `${INSIDER}/2024q3_form345.zip`, `${INSIDER}/2024q2_form345.zip`, `${INSIDER}/2024q1_form345.zip`,
    `${NEWER_13F}/01sep2024-30nov2024_form13f.zip`, `${THIRTEEN_F}/01jun2024-31aug2024_form13f.zip`, `${THIRTEEN_F}/2023q4_form13f.zip`,
  ]) replay.set(path, EMPTY_ZIP);
  const result = await runFetch(options({ tickers: undefined, all: true, bulk: true, since: '2024-06-15' }));
  assert.equal(result.exitCode, 0);
  assert.deepEqual(await filesUnder(out), [
    '.equity-facts-fetch.json',
    'Archives/edgar/daily-index/bulkdata/submissions.zip',
    'Archives/edgar/daily-index/xbrl/companyfacts.zip',
    'files/company_tickers.json',
    'files/company_tickers_exchange.json',
    'files/datastandardsinnovation/data/form-13f-data-sets/01sep2024-30nov2024_form13f.zip',
    'files/structureddata/data/form-13f-data-sets/01jun2024-31aug2024_form13f.zip',
    'files/structureddata/data/insider-transactions-data-sets/2024q2_form345.zip',
    'files/structureddata/data/insider-transactions-data-sets/2024q3_form345.zip',
  ]);
  assert.ok(!replay.requests.some((r) => r.path.startsWith('/submissions/')), 'no per-company requests');
  assert.deepEqual(result.tally.passedOver.map((p) => [new URL(p.what).pathname, p.reason]), [[`${INSIDER}/special_form345.zip`, 'its name does not say which period it covers']]);
  assert.deepEqual(await readFile(join(out, 'Archives/edgar/daily-index/xbrl/companyfacts.zip')), EMPTY_ZIP);

  const before = replay.requests.length;
  const again = await runFetch(options({ tickers: undefined, all: true, bulk: true, since: '2024-06-15' }));
  assert.deepEqual(replay.requests.slice(before).map((r) => r.path).sort(), [FORM_13F.catalog.path, INSIDER_TRANSACTIONS.catalog.path].sort(), 'only the catalog pages are read again');
  assert.equal(again.tally.held, 8);
});

test('a data set that is not a zip is refused whole, and a catalog without links is reported', async (t) => {
  const { replay, out, options } = await fixtureRun(t);
  replay.set(INSIDER_TRANSACTIONS.catalog.path, `<a href="${INSIDER}/2024q3_form345.zip">x</a>`);
  replay.set(FORM_13F.catalog.path, '<html>This page has moved</html>');
  replay.set(`${INSIDER}/2024q3_form345.zip`, '<html>Page Not Found</html>');
  replay.set('/Archives/edgar/daily-index/bulkdata/submissions.zip', EMPTY_ZIP);
  const result = await runFetch(options({ tickers: undefined, all: true, bulk: true, since: '2024-01-01' }));
  assert.equal(result.exitCode, 1);
  const failed = result.tally.failed.map((f) => [new URL(f.url).pathname, f.reason]);
  assert.deepEqual(failed, [
    [FORM_13F.catalog.path, 'the Form 13F Data Sets catalog page links to no zip (has its layout changed?)'],
    [`${INSIDER}/2024q3_form345.zip`, 'unusable answer: not a zip file'],
  ]);
  assert.deepEqual(result.tally.missing.map((u) => new URL(u).pathname), ['/Archives/edgar/daily-index/xbrl/companyfacts.zip']);
  assert.ok(!(await filesUnder(out)).some((f) => f.includes('form345')));
});
