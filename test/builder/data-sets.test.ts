/**
 * SEC's bulk data sets in `build`: the same filings give the same rows from a data set as from
 * their XML (docs/api.md §14), zipped or unpacked, recognised by content; a table that cannot be
 * read refuses its data set whole; tables and archives that are not SEC's are named and passed over.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSnapshot, type BuildResult } from '../../src/builder/build.js';
import { ROW_KINDS, type RowKind } from '../../src/rows/schemas.js';
import { SEC_DATA, secDataSkip as skip } from '../helpers/real-build.js';
import { exactCents } from '../helpers/raw-ownership.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/data-sets');
/** The 13 filings of the real 2024Q3 SUBMISSION table that sec-data also holds as XML. */
const XML_FILES = [
  'aapl_openbb/0000320193-24-000084', 'aapl_openbb/0000320193-24-000086', 'aapl_openbb/0000320193-24-000088',
  ...['0001062993-24-014684', '0001062993-24-016335', '0001062993-24-016587', '0001321655-24-000181', '0001415889-24-019064', '0001415889-24-020383',
    '0001628280-24-030951', '0001628280-24-031146', '0001628280-24-034864', '0001628280-24-038676'].map((a) => `datamule_paypal/${a}`),
].map((stem) => `ownership/${stem}.xml`);

type Rows = Record<RowKind, Record<string, any>[]>;

async function workspace(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-datasets-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Builds `from` as of 2024-12-31 over a window that holds every filing, and reads the rows back. */
async function build(from: string, out: string): Promise<{ result: BuildResult; rows: Rows; manifest: any; logged: string[] }> {
  const logged: string[] = [];
  const result = await buildSnapshot({
    from, out, asOf: '2024-12-31', windowDays: 365, filingsDays: 365, version: 'v', publish: false, workers: 0,
    now: () => new Date('2025-01-02T00:00:00Z'), log: (line) => logged.push(line), progress: false,
  });
  const rows = {} as Rows;
  for (const kind of ROW_KINDS) {
    const text = (await readFile(join(result.dir, `${kind}.ndjson`), 'utf8')).trim();
    rows[kind] = text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
  }
  return { result, rows, manifest: JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')), logged };
}

/** The XML side: the 13 ownership XMLs, with the real SUBMISSION table alone to give their filing dates. */
async function xmlSide(dir: string): Promise<string> {
  const from = join(dir, 'xml');
  for (const path of XML_FILES) await cp(join(SEC_DATA, path), join(from, path));
  await cp(join(FIXTURES, 'insider-2024q3/SUBMISSION.tsv'), join(from, 'listing/SUBMISSION.tsv'));
  await cp(join(SEC_DATA, 'tickers/company_tickers.json'), join(from, 'company_tickers.json'));
  return from;
}

async function dataSetSide(dir: string, submission: 'insider-2024q3' | 'insider-2024q3-aff10b5one'): Promise<string> {
  const from = join(dir, `data-set-${submission}`);
  await cp(join(FIXTURES, 'insider-2024q3'), join(from, 'quarter'), { recursive: true });
  await cp(join(FIXTURES, submission, 'SUBMISSION.tsv'), join(from, 'quarter/SUBMISSION.tsv'));
  await cp(join(SEC_DATA, 'tickers/company_tickers.json'), join(from, 'company_tickers.json'));
  return from;
}

const noPlanFlag = (rows: Rows): Rows => ({
  ...rows,
  insiders: rows.insiders.map((r) => ({ ...r, notable: r.notable.map((n: Record<string, unknown>) => ({ ...n, plan_10b5_1: null })) })),
  'insider-transactions': rows['insider-transactions'].map((r) => ({ ...r, plan_10b5_1: null })),
});

/** A figure as the data set's NUMBER(16,2) columns store it. */
const twoDecimals = (n: number | null): number | null => (n === null ? null : Math.round(n * 100) / 100);

/**
 * The rows without `from_data_set`, after checking that every notable trade and insider-transaction
 * row has it as `expected`: a trade read from a data set says so, since its table rounds shares and
 * prices to 2 decimals. Insider-transaction rows are compared on their figures as the data set
 * stores them (2 decimals; the value recomputed from those), without their summaries, which say
 * where a row was read.
 */
function withoutSource(rows: Rows, expected: boolean): Rows {
  for (const r of rows.insiders) for (const n of r.notable) assert.equal(n.from_data_set, expected, `${r.ticker} ${n.accession_no}`);
  for (const r of rows['insider-transactions']) assert.equal(r.from_data_set, expected, `${r.accession_no} ${r.code}`);
  return {
    ...rows,
    insiders: rows.insiders.map((r) => ({ ...r, notable: r.notable.map(({ from_data_set: _, ...n }: Record<string, unknown>) => n) })),
    'insider-transactions': rows['insider-transactions'].map(({ from_data_set: _, summary: _summary, ...r }) => {
      const [shares, price] = [twoDecimals(r.shares), twoDecimals(r.price_usd)];
      return {
        ...r, shares, price_usd: price, shares_owned_after: twoDecimals(r.shares_owned_after),
        value_usd: shares === null || price === null ? null : exactCents([[String(shares), String(price)]]),
      };
    }),
  };
}

test(skip ? `insider data set equals XML (${skip})` : 'an Insider Transactions Data Set gives the same rows as the same filings\' ownership XML', { skip }, async (t) => {
  const dir = await workspace(t);
  const fromXml = await build(await xmlSide(dir), join(dir, 'out-xml'));
  const withFlag = await build(await dataSetSide(dir, 'insider-2024q3-aff10b5one'), join(dir, 'out-aff'));
  const withoutFlag = await build(await dataSetSide(dir, 'insider-2024q3'), join(dir, 'out-plain'));

  // Not vacuous: Thiel's PLTR sales, Levchin's AFRM sales, Botha's SQ purchases, Apple's officers' sales.
  assert.deepEqual(fromXml.rows.insiders.map((r) => r.ticker).sort(), ['AAPL', 'AFRM', 'PLTR', 'XYZ']);
  assert.ok(fromXml.rows.insiders.some((r) => r.notable.some((n: { plan_10b5_1: boolean | null }) => n.plan_10b5_1 === true)));
  // Every field equal but from_data_set (these filings' prices have 2 decimals at most, so nothing was rounded).
  const [xmlRows, flagRows, plainRows] = [withoutSource(fromXml.rows, false), withoutSource(withFlag.rows, true), withoutSource(withoutFlag.rows, true)];
  for (const kind of ROW_KINDS) {
    // No 13F, 8-K or company facts among these inputs.
    assert.ok(fromXml.rows[kind].length > 0 || kind === 'whales' || kind === 'holders' || kind === 'earnings' || kind === 'financials', `${kind} rows`);
    assert.deepEqual(flagRows[kind], xmlRows[kind], `${kind}: with AFF10B5ONE, every field equal`);
  }
  // Without the column the data set cannot say whether a trade was under a 10b5-1 plan: null, the rest equal.
  assert.ok(withoutFlag.rows.insiders.every((r) => r.notable.every((n: { plan_10b5_1: boolean | null }) => n.plan_10b5_1 === null)));
  for (const kind of ROW_KINDS) assert.deepEqual(noPlanFlag(plainRows)[kind], noPlanFlag(xmlRows)[kind], `${kind} without AFF10B5ONE`);
  assert.equal(withFlag.manifest.build.notes.insider_transactions_from_data_set, withFlag.rows.insiders.reduce((n, r) => n + r.n_buys + r.n_sells, 0));
  assert.equal(fromXml.manifest.build.notes.insider_transactions_from_data_set, 0);
  // Every line of the 13 forms, Table II included (two grants of restricted stock units: the 224.048 units
  // of 0001062993-24-016335 the data set stores as 224.05), is a row either way.
  assert.equal(withFlag.manifest.build.notes.insider_transaction_rows_from_data_set, withFlag.rows['insider-transactions'].length);
  assert.deepEqual(fromXml.rows['insider-transactions'].filter((r) => r.table === 'derivative').map((r) => r.shares), [26.8, 224.048]);
  assert.deepEqual(withFlag.rows['insider-transactions'].filter((r) => r.table === 'derivative').map((r) => r.shares), [26.8, 224.05]);
  assert.match(withFlag.rows['insider-transactions'][0]!.summary, /Read from SEC's Insider Transactions Data Set, which stores shares and prices with 2 decimals/);

  const note = withFlag.manifest.build.notes.data_sets[0];
  assert.deepEqual([note.kind, note.tables, note.filings, note.rows], ['Insider Transactions Data Set', ['DERIV_TRANS', 'NONDERIV_TRANS', 'REPORTINGOWNER', 'SUBMISSION'], 13, 22]);
  assert.equal(withFlag.result.build.files_read, 5);
});

test(skip ? `zipped insider data set (${skip})` : 'a zipped data set gives what the same tables unpacked give', { skip }, async (t) => {
  const dir = await workspace(t);
  const zipped = join(dir, 'zipped');
  // Named like no data set: recognised by its content.
  await cp(join(FIXTURES, 'insider-2024q3.zip'), join(zipped, 'bulk-download.bin'));
  await cp(join(SEC_DATA, 'tickers/company_tickers.json'), join(zipped, 'company_tickers.json'));
  const [fromZip, unpacked] = await Promise.all([build(zipped, join(dir, 'out-zip')), build(await dataSetSide(dir, 'insider-2024q3'), join(dir, 'out-dir'))]);
  for (const kind of ROW_KINDS) assert.deepEqual(fromZip.rows[kind], unpacked.rows[kind], kind);
  assert.ok(fromZip.rows.insiders.length === 4);
});

test(skip ? `13F data set equals XML (${skip})` : 'a Form 13F Data Set gives the same whale and holder rows as the same filings\' cover page and information table XML', { skip }, async (t) => {
  const dir = await workspace(t);
  const xml = join(dir, 'xml');
  for (const accession of ['0001045810-24-000021', '0001045810-24-000108']) await cp(join(SEC_DATA, '13f/nvda', accession), join(xml, accession), { recursive: true });
  const dataSet = join(dir, 'data-set');
  await cp(join(FIXTURES, 'thirteenf-nvda'), join(dataSet, '2024q1_form13f'), { recursive: true });
  const [fromXml, fromDataSet] = await Promise.all([build(xml, join(dir, 'out-xml')), build(dataSet, join(dir, 'out-ds'))]);
  assert.equal(fromXml.rows.whales.length, 1);
  // The XML side has no SGML header or submissions JSON: its cover page's signature date (the same day) dates it, and it says so.
  const undated = ({ filed_at_source: _, summary: __, ...row }: Record<string, any>): Record<string, any> => row;
  assert.deepEqual([fromXml.rows.whales[0]!.filed_at_source, fromDataSet.rows.whales[0]!.filed_at_source], ['signature_date', 'edgar']);
  assert.deepEqual(fromDataSet.rows.whales.map(undated), fromXml.rows.whales.map(undated));
  assert.equal(fromDataSet.rows.holders.length, 4, 'NVIDIA\'s four positions of 2024-03-31');
  assert.deepEqual(fromDataSet.rows.holders.map(undated), fromXml.rows.holders.map(undated));
  // NVIDIA's 2024-03-31 report: tableValueTotal 332,688,337; TuSimple's 3,465,372 shares sold out.
  assert.equal(fromDataSet.rows.whales[0]!.total_value_usd, 332688337);
  assert.equal(fromDataSet.rows.whales[0]!.moves.find((m: { action: string }) => m.action === 'sold_out')?.change_shares, -3465372);
  assert.deepEqual(fromDataSet.rows.filings.map((r) => [r.form, r.accession_no, r.filed_at, r.primary_doc_url]), [
    ['13F-HR', '0001045810-24-000108', '2024-05-15', null], ['13F-HR', '0001045810-24-000021', '2024-02-14', null],
  ]);
});

test('a data set with a table that cannot be read is refused whole; other inputs still build', async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'in');
  await cp(join(FIXTURES, 'insider-2024q3'), join(from, 'broken'), { recursive: true });
  const owners = await readFile(join(from, 'broken/REPORTINGOWNER.tsv'), 'utf8');
  // An opening quote that never closes: the rest of the table would be one field.
  await writeFile(join(from, 'broken/REPORTINGOWNER.tsv'), owners.replace('Adams Katherine L.', '"Adams Katherine L.'));
  await cp(join(FIXTURES, 'thirteenf-nvda'), join(from, 'thirteenf'), { recursive: true });
  const { rows, manifest, logged } = await build(from, join(dir, 'out'));
  assert.equal(rows.insiders.length, 0, 'no row from the refused data set');
  assert.equal(rows.whales.length, 1, 'the 13F data set beside it is read');
  const reasons = Object.keys(manifest.build.skipped_reasons);
  assert.ok(reasons.some((r) => r.startsWith('malformed data set table') && r.includes('REPORTINGOWNER.tsv')), reasons.join('; '));
  assert.ok(logged.some((l) => l.includes('broken') && l.includes('malformed data set table')));
});

test('tables and archives that are none of SEC\'s are named and passed over; a data set without its transaction tables lists its filings only', async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'in');
  await mkdir(join(from, 'other'), { recursive: true });
  await writeFile(join(from, 'other/custom.tsv'), 'ACCESSION_NUMBER\tMY_COLUMN\tOTHER\n0000000000-24-000001\tx\ty\n');
  await writeFile(join(from, 'other/broken.zip'), Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]));
  await cp(join(FIXTURES, 'insider-2024q3/SUBMISSION.tsv'), join(from, 'listing/SUBMISSION.tsv'));
  const { rows, manifest } = await build(from, join(dir, 'out'));
  const skipped = manifest.build.skipped_files;
  assert.deepEqual(skipped['tab-separated table that is none of the Insider Transactions or Form 13F Data Sets tables'], ['other/custom.tsv']);
  assert.ok(Object.entries(skipped).some(([reason, files]) => reason.startsWith('malformed: not a readable zip archive') && (files as string[])[0] === 'other/broken.zip'), JSON.stringify(skipped));
  assert.equal(rows.insiders.length, 0);
  assert.equal(rows.filings.length, 13, 'the 13 filings are listed');
  assert.match(manifest.build.notes.data_sets[0].missing, /REPORTINGOWNER or NONDERIV_TRANS not among the tables/);
});

test('a zipped data set whose compressed bytes are damaged is refused whole, not half read', async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'in');
  await mkdir(from, { recursive: true });
  const zip = await readFile(join(FIXTURES, 'insider-2024q3.zip'));
  // A byte in the middle of the archive: inside an entry's compressed data (inflate or CRC-32 fails).
  const middle = Math.floor(zip.length / 2);
  zip.writeUInt8(zip.readUInt8(middle) ^ 0xff, middle);
  await writeFile(join(from, 'quarter.zip'), zip);
  const { rows, manifest } = await build(from, join(dir, 'out'));
  assert.equal(rows.insiders.length, 0);
  assert.equal(manifest.build.notes.data_sets.length, 0, 'no data set gave records');
  assert.ok(Object.keys(manifest.build.skipped_reasons).some((r) => /^malformed/.test(r)), JSON.stringify(manifest.build.skipped_reasons));
});
