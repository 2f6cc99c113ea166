/**
 * SEC's Insider Transactions Data Sets store shares and prices with 2 decimals (the data set's
 * readme: NUMBER(16,2)), so sums built from them can differ from the forms' own (issue 23, item 8).
 * The test writes such a data set of Musk's TSLA Forms 4 itself, from the raw XML, rounding as the
 * table does: where a filing is read both ways its XML wins, and rows built from the rounded table
 * say so. Expected sums are computed here from the raw files with the test's own code.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSnapshot } from '../../src/builder/build.js';
import { rawFiles, rawJson, rawText, SEC_DATA, secDataSkip as skip } from '../helpers/real-build.js';
import { exactCents, rawTrades } from '../helpers/raw-ownership.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/data-sets/insider-2024q3');
const TESLA = '0001318605';
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

async function workspace(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-precision-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A decimal text rounded half up to 2 decimals, as NUMBER(16,2) holds it. */
function twoDecimals(text: string): string {
  const [whole = '0', fraction = ''] = text.split('.');
  const hundredths = BigInt(whole + fraction.padEnd(2, '0').slice(0, 2)) + (Number(fraction[2] ?? '0') >= 5 ? 1n : 0n);
  const digits = hundredths.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** `YYYYMMDD` or `YYYY-MM-DD` as the data sets write dates, `DD-MON-YYYY`. */
const dataSetDate = (date: string): string => {
  const [, y, m, d] = /(\d{4})-?(\d\d)-?(\d\d)/.exec(date)!;
  return `${d}-${MONTHS[Number(m) - 1]}-${y}`;
};

/** A table with SEC's header row (from the fixtures, cut from the real 2024Q3 data set), the named columns filled. */
async function table(name: string, rows: Record<string, string>[]): Promise<string> {
  const header = (await readFile(join(FIXTURES, `${name}.tsv`), 'utf8')).split('\n', 1)[0]!.replace(/\r$/, '');
  const columns = header.split('\t');
  return [header, ...rows.map((row) => columns.map((c) => row[c] ?? '').join('\t'))].join('\n') + '\n';
}

/** Musk's TSLA Forms 4 of the test set: their XML, `.header.json` and the data set tables made of them. */
async function teslaForms(): Promise<{ xmls: string[]; tables: Record<string, string> }> {
  const xmls = rawFiles('ownership/datamule_paypal').filter((p) => p.endsWith('.xml') && rawText(p).includes(`<issuerCik>${TESLA}</issuerCik>`));
  const submission: Record<string, string>[] = [];
  const owners: Record<string, string>[] = [];
  for (const path of xmls) {
    const xml = rawText(path);
    const accession = /(\d{10}-\d\d-\d{6})/.exec(path)![1]!;
    const tag = (name: string): string => new RegExp(`<${name}>\\s*(?:<value>\\s*)?([^<]*?)\\s*<`).exec(xml)?.[1] ?? '';
    submission.push({
      ACCESSION_NUMBER: accession, FILING_DATE: dataSetDate(rawJson(path.replace('.xml', '.header.json')).submission['FILING-DATE']),
      PERIOD_OF_REPORT: dataSetDate(tag('periodOfReport')), DOCUMENT_TYPE: tag('documentType'), ISSUERCIK: TESLA,
      ISSUERNAME: tag('issuerName'), ISSUERTRADINGSYMBOL: tag('issuerTradingSymbol'),
    });
    owners.push({ ACCESSION_NUMBER: accession, RPTOWNERCIK: tag('rptOwnerCik'), RPTOWNERNAME: tag('rptOwnerName'), RPTOWNER_RELATIONSHIP: 'Director,TenPercentOwner,Officer', RPTOWNER_TITLE: tag('officerTitle') });
  }
  const accessions = new Set(submission.map((s) => s.ACCESSION_NUMBER));
  const trades = rawTrades().filter((t) => accessions.has(t.accession)).map((t, i) => ({
    ACCESSION_NUMBER: t.accession, NONDERIV_TRANS_SK: String(i + 1), TRANS_DATE: dataSetDate(t.date), TRANS_CODE: t.code,
    TRANS_SHARES: t.shares ? twoDecimals(t.shares) : '', TRANS_PRICEPERSHARE: t.price ? twoDecimals(t.price) : '',
  }));
  return { xmls, tables: { SUBMISSION: await table('SUBMISSION', submission), REPORTINGOWNER: await table('REPORTINGOWNER', owners), NONDERIV_TRANS: await table('NONDERIV_TRANS', trades) } };
}

async function build(from: string, out: string): Promise<{ rows: Record<string, any>[]; manifest: any }> {
  const result = await buildSnapshot({
    from, out, asOf: '2022-12-31', windowDays: 730, filingsDays: 365, version: 'v', publish: false, workers: 0,
    now: () => new Date('2023-01-02T00:00:00Z'), log: () => {}, progress: false,
  });
  const text = (await readFile(join(result.dir, 'insiders.ndjson'), 'utf8')).trim();
  return { rows: text === '' ? [] : text.split('\n').map((line) => JSON.parse(line)), manifest: JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) };
}

test(skip ? `data set precision (${skip})` : 'where a filing is read from its XML and a data set its XML wins; rows built from the 2-decimal table say so', { skip }, async (t) => {
  const dir = await workspace(t);
  const { xmls, tables } = await teslaForms();
  const dataSet = join(dir, 'data-set');
  await mkdir(join(dataSet, '2021q4_form345'), { recursive: true });
  for (const [name, text] of Object.entries(tables)) await writeFile(join(dataSet, '2021q4_form345', `${name}.tsv`), text);
  const both = join(dir, 'both');
  await cp(dataSet, both, { recursive: true });
  for (const path of xmls) {
    await cp(join(SEC_DATA, path), join(both, 'xml', path.split('/').pop()!));
    await cp(join(SEC_DATA, path.replace('.xml', '.header.json')), join(both, 'xml', path.split('/').pop()!.replace('.xml', '.header.json')));
  }
  const [fromBoth, fromTable] = await Promise.all([build(both, join(dir, 'out-both')), build(dataSet, join(dir, 'out-table'))]);

  const sales = rawTrades().filter((tr) => tr.issuerCik === TESLA && tr.code === 'S' && tr.documentType === '4' && tr.date >= '2021-01-01' && tr.date <= '2022-12-31' && tr.shares && tr.price);
  const exact = exactCents(sales.map((tr) => [tr.shares!, tr.price!]));
  const rounded = exactCents(sales.map((tr) => [twoDecimals(tr.shares!), twoDecimals(tr.price!)]));
  // The issue's figures: 39,363,414,290.67 from the XML, 39,363,448,748.32 from the 2-decimal table.
  assert.deepEqual([exact, rounded], [39363414290.67, 39363448748.32]);

  const xmlWins = fromBoth.rows.find((r) => r.cik === TESLA)!;
  assert.equal(xmlWins.sell_usd, exact, 'the XML wins over the data set');
  assert.ok(xmlWins.notable.length > 0 && xmlWins.notable.every((n: { from_data_set: boolean }) => n.from_data_set === false));
  assert.equal(fromBoth.manifest.build.notes.insider_transactions_from_data_set, 0);

  const tableOnly = fromTable.rows.find((r) => r.cik === TESLA)!;
  assert.equal(tableOnly.sell_usd, rounded, 'the sums of the values the table holds');
  assert.ok(tableOnly.notable.length > 0 && tableOnly.notable.every((n: { from_data_set: boolean }) => n.from_data_set === true));
  assert.equal(fromTable.manifest.build.notes.insider_transactions_from_data_set, tableOnly.n_buys + tableOnly.n_sells);
});
