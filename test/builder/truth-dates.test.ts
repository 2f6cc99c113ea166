/**
 * Filing dates of documents that arrive without any of EDGAR's own records of their filing
 * (issue 23, items 1 and 2): a Form 3/4/5 or 13F document is dated by its signature date, never
 * dropped for want of a filing date, and the rows and the manifest say so. Expected values are
 * read from the raw files with the test's own regular expressions.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot, type BuildOptions } from '../../src/builder/build.js';
import { ROW_KINDS, type RowKind } from '../../src/rows/schemas.js';
import { rawFiles, rawText, SEC_DATA, secDataSkip as skip } from '../helpers/real-build.js';
import { exactCents, rawTrades } from '../helpers/raw-ownership.js';

type Rows = Record<RowKind, Record<string, any>[]>;

async function workspace(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-dates-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Builds `from` and reads the rows and the manifest back. */
async function build(from: string, out: string, options: Pick<BuildOptions, 'asOf' | 'windowDays' | 'filingsDays'>): Promise<{ rows: Rows; manifest: any }> {
  const result = await buildSnapshot({
    ...options, from, out, version: 'v', publish: false, workers: 0, now: () => new Date('2026-12-31T12:00:00Z'), log: () => {}, progress: false,
  });
  const rows = {} as Rows;
  for (const kind of ROW_KINDS) {
    const text = (await readFile(join(result.dir, `${kind}.ndjson`), 'utf8')).trim();
    rows[kind] = text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
  }
  return { rows, manifest: JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) };
}

/** The latest `<signatureDate>` of an ownershipDocument (a joint filing has one per signer), `YYYY-MM-DD`. */
const ownershipSignatureDate = (xml: string): string => [...xml.matchAll(/<signatureDate>\s*(\d{4}-\d\d-\d\d)/g)].map((m) => m[1]!).sort().at(-1)!;

/** A 13F cover page's `<signatureDate>` (`MM-DD-YYYY`), as `YYYY-MM-DD`. */
function coverSignatureDate(xml: string): string {
  const [, month, day, year] = /<signatureDate>(\d\d)-(\d\d)-(\d{4})/.exec(xml)!;
  return `${year}-${month}-${day}`;
}

test(skip ? `bare Form 3/4/5 XML (${skip})` : 'a folder of bare Form 3/4/5 XMLs named by accession number builds every transaction, dated by signature date', { skip }, async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'flat');
  const xmls = rawFiles('ownership/datamule_paypal').filter((p) => p.endsWith('.xml'));
  for (const path of xmls) await cp(join(SEC_DATA, path), join(from, path.split('/').pop()!));
  assert.equal((await readdir(from)).filter((n) => n.endsWith('.json')).length, 0, 'no .header.json copied');
  // Transactions run from 2009 to 2025: a window of 7,000 days to 2026-12-31 holds them all.
  const { rows, manifest } = await build(from, join(dir, 'out'), { asOf: '2026-12-31', windowDays: 7000, filingsDays: 20_000 });

  const accessions = new Set(xmls.map((p) => /(\d{10}-\d\d-\d{6})/.exec(p)![1]!));
  assert.equal(manifest.build.files_skipped, 0, JSON.stringify(manifest.build.skipped_reasons));
  assert.equal(manifest.build.notes.filed_at_from_signature_date, xmls.length);

  // Every document is a filing, dated by its signature date, and says so.
  for (const path of xmls) {
    const accession = /(\d{10}-\d\d-\d{6})/.exec(path)![1]!;
    const xml = rawText(path);
    const row = rows.filings.find((r) => r.accession_no === accession);
    assert.ok(row, `${accession} has a filing row`);
    assert.deepEqual([row.filed_at, row.filed_at_source, row.form], [ownershipSignatureDate(xml), 'signature_date', /<documentType>\s*([^<\s]+)/.exec(xml)![1]], accession);
    assert.match(row.summary, new RegExp(`signed .*${row.filed_at}`), accession);
    assert.doesNotMatch(row.summary, /\bfiled\b/, accession);
  }
  assert.equal(rows.filings.length, accessions.size);

  // Every P and S transaction of the Forms 4 is counted, in the exact sums (no 4/A among them).
  const trades = rawTrades().filter((tr) => accessions.has(tr.accession) && (tr.code === 'P' || tr.code === 'S'));
  assert.ok(!trades.some((tr) => tr.documentType === '4/A'));
  const counted = trades.filter((tr) => tr.documentType === '4');
  assert.ok(counted.length > 1500, `${counted.length} trades`);
  assert.equal(manifest.build.notes.insider_issuers_without_ticker, 0);
  assert.deepEqual(rows.insiders.map((r) => r.cik).sort(), [...new Set(counted.map((tr) => tr.issuerCik))].sort());
  for (const row of rows.insiders) {
    const own = counted.filter((tr) => tr.issuerCik === row.cik);
    const priced = (code: string): [string, string][] => own.filter((tr) => tr.code === code && tr.shares && tr.price).map((tr) => [tr.shares!, tr.price!]);
    assert.deepEqual([row.n_buys, row.n_sells], [own.filter((tr) => tr.code === 'P').length, own.filter((tr) => tr.code === 'S').length], row.ticker);
    assert.equal(row.buy_usd, exactCents(priced('P')), `${row.ticker} buy_usd`);
    assert.equal(row.sell_usd, exactCents(priced('S')), `${row.ticker} sell_usd`);
  }
  // The example: Musk's TSLA sales of 2021-2022 (39,363,414,290.67 exact) are in it.
  assert.ok(rows.insiders.find((r) => r.cik === '0001318605')!.sell_usd > 39_363_414_290);
});

test(skip ? `13F dated by signature date (${skip})` : 'a 13F whose filing date no input gives is dated by its signature date, and its rows, summary and manifest say so', { skip }, async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'in');
  await cp(join(SEC_DATA, '13f/gfi_investment_counsel'), join(from, 'gfi'), { recursive: true });
  await cp(join(SEC_DATA, '13f/nvda'), join(from, 'nvda'), { recursive: true });
  const amendment = '0001688774-25-000011';
  const original = '0001688774-25-000001';
  const signed = coverSignatureDate(rawText(`13f/gfi_investment_counsel/${amendment}/primary_doc.xml`));
  assert.equal(signed, '2025-06-05');
  // As of 2025-06-07 the restatement (filed 2025-06-10 on EDGAR, a date no input gives) replaces the original.
  const { rows, manifest } = await build(from, join(dir, 'out'), { asOf: '2025-06-07', windowDays: 90, filingsDays: 365 });

  const gfi = rows.whales.find((r) => r.cik === '0001688774')!;
  assert.deepEqual([gfi.accession_no, gfi.filed_at, gfi.filed_at_source], [amendment, signed, 'signature_date']);
  assert.match(gfi.summary, new RegExp(`signed ${signed}`));
  assert.doesNotMatch(gfi.summary, /filed 2025-06-05/);
  const nvda = rows.whales.find((r) => r.cik === '0001045810')!;
  assert.deepEqual([nvda.filed_at, nvda.filed_at_source], ['2024-05-15', 'edgar'], 'NVIDIA\'s 13F is dated by its SGML header');
  assert.match(nvda.summary, /filed 2024-05-15/);

  for (const accession of [original, amendment]) {
    const row = rows.filings.find((r) => r.accession_no === accession);
    assert.ok(row, `${accession} has a filing row`);
    const date = coverSignatureDate(rawText(`13f/gfi_investment_counsel/${accession}/primary_doc.xml`));
    assert.deepEqual([row.filed_at, row.filed_at_source], [date, 'signature_date'], accession);
  }
  for (const row of rows.filings.filter((r) => r.cik === '0001045810')) assert.equal(row.filed_at_source, 'edgar', row.accession_no);
  assert.equal(manifest.build.notes.filed_at_from_signature_date, 2);
});

test(skip ? `real date wins (${skip})` : 'where another input gives the real filing date, it wins over the signature date', { skip }, async (t) => {
  const dir = await workspace(t);
  const from = join(dir, 'in');
  // Most forms are signed on the day they are filed: take one whose dates differ.
  const pairs = rawFiles('ownership/datamule_paypal').filter((p) => p.endsWith('.header.json')).map((p) => {
    const filed = /"FILING-DATE":\s*"(\d{4})(\d\d)(\d\d)"/.exec(rawText(p))!;
    return { header: p, xml: p.replace('.header.json', '.xml'), filed: `${filed[1]}-${filed[2]}-${filed[3]}` };
  });
  const differ = pairs.find((p) => ownershipSignatureDate(rawText(p.xml)) !== p.filed)!;
  await cp(join(SEC_DATA, differ.xml), join(from, 'xml', differ.xml.split('/').pop()!));
  // The header JSON in another folder than the XML: it dates the filing by accession number.
  await cp(join(SEC_DATA, differ.header), join(from, 'headers', differ.header.split('/').pop()!));
  const { rows, manifest } = await build(from, join(dir, 'out'), { asOf: '2026-12-31', windowDays: 7000, filingsDays: 20_000 });
  const accession = /(\d{10}-\d\d-\d{6})/.exec(differ.xml)![1]!;
  const row = rows.filings.find((r) => r.accession_no === accession)!;
  assert.deepEqual([row.filed_at, row.filed_at_source], [differ.filed, 'edgar']);
  assert.equal(manifest.build.notes.filed_at_from_signature_date, 0);
});
