import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ADVICE_WORDS, ROW_KINDS, WRITTEN_FIELD, type RowKind } from '../../src/rows/schemas.js';
import type { RowsByKind } from '../../src/rows/types.js';
import { buildSnapshot } from '../../src/builder/build.js';
import { runBuildCommand } from '../../src/builder/command.js';

const SEC_DATA = process.env.EQF_SEC_DATA ?? resolve(import.meta.dirname, '../../../shared/sec-data');
const skip = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

test('build command refuses bad usage with exit code 2 and names the option', async (t) => {
  const errors: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string) => { errors.push(String(chunk)); return true; });
  assert.equal(await runBuildCommand(['--out', '/tmp/x']), 2);
  assert.match(errors.join(''), /--from is required/);
  assert.equal(await runBuildCommand(['--from', 'a', '--out', 'b', '--as-of', '2022-02-30']), 2);
  assert.match(errors.join(''), /--as-of must be a date/);
  assert.equal(await runBuildCommand(['--from', 'a', '--out', 'b', '--window-days', '1.5']), 2);
  assert.match(errors.join(''), /--window-days must be a whole number/);
  assert.equal(await runBuildCommand(['--from', 'a', '--out', 'b', '--bogus']), 2);
});

test(skip ? `real EDGAR build (${skip})` : 'a build from the real EDGAR test set gives figures checked by hand against the filings', { skip }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'eqf-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const logged: string[] = [];
  const result = await buildSnapshot({
    from: SEC_DATA, out, asOf: '2022-12-31', windowDays: 730, filingsDays: 365, version: 'test', log: (l) => logged.push(l), progress: false,
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'test');
  const read = <K extends RowKind>(kind: K): RowsByKind[K][] =>
    readFileSync(join(out, 'test', `${kind}.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowsByKind[K]);
  const rows = { insiders: read('insiders'), whales: read('whales'), earnings: read('earnings') };
  for (const kind of ROW_KINDS) assert.ok(read(kind).length > 0, `${kind} has rows`);

  // ownership/datamule_paypal/0000899243-22-035394.xml (filed 2022-11-08): Musk Elon, code S,
  // 3,107,623 shares at $191.467 on 2022-11-08 = $595,007,252.94, the largest TSLA trade of 2021-2022.
  const tsla = rows.insiders.find((r) => r.ticker === 'TSLA')!;
  assert.deepEqual(tsla.notable[0], {
    insider: 'Musk Elon', role: 'CEO, Director, 10% Owner', code: 'S', value_usd: 595007252.94, date: '2022-11-08',
    shares: 3107623, price_usd: 191.467, plan_10b5_1: null, accession_no: '0000899243-22-035394', price_in_footnote: false, from_data_set: false,
  });
  assert.ok(tsla.sell_usd > 1e10 && tsla.net_usd < 0);

  // A snapshot as of 2022-12-31 holds no 13F filed later; the rest of the figures need one as of 2026.
  assert.ok(rows.whales.every((r) => r.filed_at <= '2022-12-31'));
  const late = await buildSnapshot({
    from: SEC_DATA, out, asOf: '2026-12-31', windowDays: 730, filingsDays: 365, version: 'late', log: () => {}, progress: false,
    now: () => new Date('2027-01-01T00:00:00Z'),
  });
  const readLate = <K extends RowKind>(kind: K): RowsByKind[K][] =>
    readFileSync(join(late.dir, `${kind}.ndjson`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RowsByKind[K]);
  rows.whales = readLate('whales');
  rows.earnings = readLate('earnings');

  // 13f/nvda: tableValueTotal 332,688,337 (2024-03-31, primary_doc.xml of 0001045810-24-000108);
  // TuSimple's 3,465,372 shares of 2023-12-31 (information_table.xml of -24-000021) are gone.
  const nvda = rows.whales.find((r) => r.cik === '0001045810')!;
  assert.equal(nvda.total_value_usd, 332688337);
  assert.equal(nvda.previous_period, '2023-12-31');
  const tusimple = nvda.moves.find((m) => m.action === 'sold_out');
  assert.equal(tusimple?.change_shares, -3465372);

  // 13f/other_filers/0001790837-23-000002: Bull Street filed 2023-02-28 still in thousands (3M: 2,397 sh -> 287).
  const bull = rows.whales.find((r) => r.cik === '0001790837')!;
  assert.deepEqual([bull.value_unit, bull.value_unit_inferred], ['thousands', true]);
  // 13f/gfi_investment_counsel: the RESTATEMENT (0001688774-25-000011, tableValueTotal 871,072,606 USD) replaces the original in thousands.
  const gfi = rows.whales.find((r) => r.cik === '0001688774')!;
  assert.deepEqual([gfi.accession_no, gfi.total_value_usd, gfi.value_unit], ['0001688774-25-000011', 871072606, 'usd']);

  // companyfacts/CIK0000320193.json: RevenueFromContractWithCustomerExcludingAssessedTax
  // 2022-09-25..2022-12-31 = 117,154,000,000 (10-Q fy 2023 Q1); the 8-K 2.02 was filed 2023-02-02.
  const aapl = rows.earnings.find((r) => r.ticker === 'AAPL' && r.filed_at === '2023-02-02')!;
  assert.deepEqual([aapl.fiscal_year, aapl.fiscal_period, aapl.figures.revenue_usd], [2023, 'Q1', 117154000000]);
  // 8k/adobe_2023-03-15_item2.02/0000796343-23-000044.txt names EX-99.1 adbeex991q123.htm.
  const adobe = rows.earnings.find((r) => r.accession_no === '0000796343-23-000044')!;
  assert.equal(adobe.release_url, 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm');

  const manifest = JSON.parse(readFileSync(join(out, 'test', 'manifest.json'), 'utf8'));
  assert.equal(manifest.build.options.as_of, '2022-12-31');
  assert.equal(manifest.build.files_skipped, result.build.files_skipped);
  assert.ok(logged.some((l) => l.includes('bard_financial_2021Q3') && l.includes('accession number')));
});

test(skip ? `advice-word scan (${skip})` : 'no written field of a built snapshot contains an advice word', { skip }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'eqf-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  await buildSnapshot({ from: SEC_DATA, out, asOf: '2022-12-31', windowDays: 730, filingsDays: 3650, version: 'scan', log: () => {}, progress: false });
  let written = 0;
  for (const kind of ROW_KINDS) {
    for (const line of readFileSync(join(out, 'scan', `${kind}.ndjson`), 'utf8').trim().split('\n')) {
      const text = (JSON.parse(line) as Record<string, unknown>)[WRITTEN_FIELD[kind]];
      if (typeof text !== 'string') continue;
      written++;
      // Whole words from their start (docs/api.md §6): "rating" and "ratings", not the end of "operating".
      for (const word of ADVICE_WORDS) assert.ok(!new RegExp(`\\b${word.replace(/ /g, '\\s+')}`, 'i').test(text), `${kind}: "${word}" in ${text}`);
    }
  }
  assert.ok(written > 1000);
});

test(skip ? `default as-of (${skip})` : 'without --as-of, a build is as of the latest filing date read, and holds everything read up to it', { skip }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'eqf-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const result = await buildSnapshot({ from: SEC_DATA, out, version: 'default', log: () => {}, progress: false, now: () => new Date('2026-12-01T00:00:00Z') });
  const manifest = JSON.parse(readFileSync(join(result.dir, 'manifest.json'), 'utf8'));
  const options = manifest.build.options;
  assert.equal(options.as_of_source, 'latest filing date read');
  // The latest filing date of any submissions JSON in the test set is a lower bound of it.
  let latest = '';
  for (const name of readdirSync(join(SEC_DATA, 'submissions'))) {
    const json = JSON.parse(readFileSync(join(SEC_DATA, 'submissions', name), 'utf8'));
    for (const date of (json.filings?.recent ?? json).filingDate as string[]) if (date > latest) latest = date;
  }
  assert.ok(options.as_of >= latest && options.as_of <= '2026-12-01', options.as_of);
  assert.equal(manifest.data_through, options.as_of);
  assert.ok(result.rows.whales >= 9, 'every 13F filer placed is a whale');
  const early = await buildSnapshot({ from: SEC_DATA, out, version: 'capped', log: () => {}, progress: false, now: () => new Date('2024-06-30T12:00:00Z') });
  assert.equal(early.build.options && (early.build.options as { as_of: string }).as_of <= '2024-06-30', true, 'never after the build date');
});
