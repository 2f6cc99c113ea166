/**
 * Financials rows against the raw company facts of the test set (issue 26: "the company-facts
 * values of each period, checked against the 10-K/10-Q accession named"). Every expected value
 * is read here from the raw JSON with code of the test's own; only the documented concept lists
 * are taken from the source, as the contract they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipFolder } from '../../scripts/bench/build-inputs.js';
import { buildSnapshot } from '../../src/builder/build.js';
import { FINANCIAL_CONCEPTS, type FinancialValueKey } from '../../src/facts/financials-concepts.js';
import type { FinancialsRow } from '../../src/rows/types.js';
import { AS_OF_2022, SEC_DATA, rawFiles, rawJson, realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });
const FORMS = new Set(['10-K', '10-Q', '10-K/A', '10-Q/A']);

interface RawFact { concept: string; start?: string; end: string; val: number; accn: string; form: string; filed: string }

/** Every fact of a 10-K, 10-Q or amendment in the raw file, with its qualified concept, in USD, USD per share or shares. */
function rawFacts(cik: string): RawFact[] {
  const json = rawJson(`companyfacts/CIK${cik}.json`);
  const out: RawFact[] = [];
  for (const [taxonomy, concepts] of Object.entries<any>(json.facts)) {
    for (const [name, concept] of Object.entries<any>(concepts)) {
      const unit = ['USD', 'USD/shares', 'shares'].find((u) => concept.units[u]);
      if (!unit) continue;
      for (const f of concept.units[unit]) if (FORMS.has(f.form)) out.push({ concept: `${taxonomy}:${name}`, ...f });
    }
  }
  return out;
}

const days = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / 86_400_000;
const byFiling = (a: RawFact, b: RawFact): number => (a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : a.accn < b.accn ? -1 : a.accn > b.accn ? 1 : 0);
const durationKeys = (Object.keys(FINANCIAL_CONCEPTS) as FinancialValueKey[]).filter((k) => FINANCIAL_CONCEPTS[k].dated === 'duration');
const ciks = (): string[] => rawFiles('companyfacts').map((p) => /CIK(\d{10})\.json$/.exec(p)![1]!);

test(skip ? `financials against the raw company facts (${skip})` : 'every financials value is the first-reported fact of its concept and period, and the row names the filing that first reported the period', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  assert.deepEqual(new Set(rows.financials.map((r) => r.cik)), new Set(ciks()), 'a row for every company of the test set');
  const facts = new Map(ciks().map((cik) => [cik, rawFacts(cik)]));
  let checked = 0;
  for (const row of rows.financials) {
    const own = facts.get(row.cik)!;
    const stated = (concepts: readonly string[], instant: boolean): RawFact[] => own.filter((f) => concepts.includes(f.concept) && f.end === row.period_end &&
      (instant ? f.start === undefined : f.start === row.period_start)).sort(byFiling);
    // The filing that first reported the period: the earliest stating a duration value of exactly it.
    const first = stated(durationKeys.flatMap((k) => FINANCIAL_CONCEPTS[k].concepts), false)[0]!;
    assert.deepEqual([row.accession_no, row.filed_at, row.form], [first.accn, first.filed, first.form], `${row.cik} ${row.period_start}..${row.period_end}`);
    for (const key of Object.keys(FINANCIAL_CONCEPTS) as FinancialValueKey[]) {
      const spec = FINANCIAL_CONCEPTS[key];
      const candidates = stated(spec.concepts, spec.dated === 'instant');
      const where = `${row.cik} ${row.fiscal_year} ${row.fiscal_period} ${key}`;
      const value = row.values[key];
      const concept = row.concepts[key];
      if (value === null) {
        assert.equal(candidates.length, 0, `${where}: null although ${candidates[0]?.concept} was stated`);
        assert.equal(concept, undefined, where);
        continue;
      }
      if (concept!.startsWith('dei:')) {
        // The cover page of the filing that first reported the period, where no balance-sheet count exists.
        assert.equal(candidates.length, 0, where);
        const cover = own.find((f) => f.concept === concept && f.accn === row.accession_no);
        assert.equal(value, cover?.val, where);
        continue;
      }
      // Earliest filing first; within it, the first concept of the documented list it states.
      const earliest = candidates.filter((f) => byFiling(f, candidates[0]!) === 0);
      const expected = spec.concepts.map((c) => earliest.find((f) => f.concept === c)).find((f) => f !== undefined)!;
      assert.deepEqual([value, concept], [expected.val, expected.concept], where);
      checked++;
    }
  }
  assert.ok(checked > 2000, `${checked} values checked`);
});

test(skip ? `fiscal calendar against the raw company facts (${skip})` : "fiscal years follow each company's own calendar: Apple's FY2024 is the 52 weeks ending 2024-09-28, and quarters sit inside their year in order", { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const apple = rows.financials.filter((r) => r.cik === '0000320193');
  const fy2024 = apple.find((r) => r.fiscal_year === 2024 && r.fiscal_period === 'FY')!;
  assert.deepEqual([fy2024.period_start, fy2024.period_end, fy2024.accession_no, fy2024.values.revenue_usd], ['2023-10-01', '2024-09-28', '0000320193-24-000123', 391_035_000_000]);
  for (const r of apple.filter((x) => x.fiscal_period === 'FY')) {
    assert.match(r.period_end, /-09-(2[4-9]|30)$/, `Apple's fiscal year ${r.fiscal_year} ends on the last Saturday of September`);
    assert.equal(Number(r.period_end.slice(0, 4)), r.fiscal_year);
  }
  const q1 = apple.find((r) => r.fiscal_year === 2025 && r.fiscal_period === 'Q1')!;
  assert.deepEqual([q1.period_start, q1.period_end], ['2024-09-29', '2024-12-28'], 'the quarter ending in December is Q1 of the next fiscal year');
  for (const cik of ciks()) {
    const own = rows.financials.filter((r) => r.cik === cik);
    for (const year of own.filter((r) => r.fiscal_period === 'FY')) {
      assert.ok(days(year.period_start, year.period_end) >= 350 && days(year.period_start, year.period_end) <= 380, `${cik} FY${year.fiscal_year}`);
      const quarters = own.filter((r) => r.fiscal_year === year.fiscal_year && r.fiscal_period !== 'FY').sort((a, b) => (a.period_end < b.period_end ? -1 : 1));
      assert.deepEqual(quarters.map((q) => q.fiscal_period), [...quarters.map((q) => q.fiscal_period)].sort(), `${cik} FY${year.fiscal_year}: quarters in order`);
      for (const q of quarters) {
        assert.ok(q.period_start >= year.period_start && q.period_end <= year.period_end, `${cik} ${q.fiscal_year} ${q.fiscal_period} inside its year`);
        assert.ok(days(q.period_start, q.period_end) >= 80 && days(q.period_start, q.period_end) <= 100);
        if (q.fiscal_period === 'Q1') assert.equal(q.period_start, year.period_start, `${cik} ${q.fiscal_year} Q1 starts the year`);
        if (q.fiscal_period === 'Q4') assert.equal(q.period_end, year.period_end, `${cik} ${q.fiscal_year} Q4 ends the year`);
      }
    }
  }
});

test(skip ? `Q4 rows against the raw company facts (${skip})` : 'a Q4 row exists exactly where a filing states a three-month value ending at the fiscal year end, and quarters carry three-month values only', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const durationConcepts = durationKeys.flatMap((k) => FINANCIAL_CONCEPTS[k].concepts);
  for (const cik of ciks()) {
    const own = rows.financials.filter((r) => r.cik === cik);
    const facts = rawFacts(cik).filter((f) => durationConcepts.includes(f.concept) && f.start !== undefined);
    for (const year of own.filter((r) => r.fiscal_period === 'FY')) {
      const stated = facts.some((f) => f.end === year.period_end && days(f.start!, f.end) >= 80 && days(f.start!, f.end) <= 100);
      const q4 = own.find((r) => r.fiscal_year === year.fiscal_year && r.fiscal_period === 'Q4');
      assert.equal(q4 !== undefined, stated, `${cik} FY${year.fiscal_year}: Q4 row ${q4 ? 'without' : 'missing for'} a stated three-month fourth quarter`);
    }
  }
  // Apple's 10-Ks stated the fourth quarter in their quarterly notes up to fiscal 2020, not since; Alphabet never.
  const appleQ4 = rows.financials.filter((r) => r.cik === '0000320193' && r.fiscal_period === 'Q4').map((r) => r.fiscal_year).sort();
  assert.deepEqual(appleQ4, Array.from({ length: 12 }, (_, i) => 2009 + i));
  assert.equal(rows.financials.filter((r) => r.cik === '0001652044' && r.fiscal_period === 'Q4').length, 0);
  // Apple states Q2 and Q3 cash flows year-to-date only: never a quarter's value.
  for (const r of rows.financials.filter((x) => x.cik === '0000320193' && (x.fiscal_period === 'Q2' || x.fiscal_period === 'Q3'))) {
    assert.equal(r.values.operating_cash_flow_usd, null, `${r.fiscal_year} ${r.fiscal_period}`);
  }
  // NVIDIA's Q2 of fiscal 2017: its 10-Q stated six months (493,000,000), a later 10-Q the three months (201,000,000).
  const nvidia = rows.financials.find((r) => r.cik === '0001045810' && r.fiscal_year === 2017 && r.fiscal_period === 'Q2')!;
  assert.deepEqual([nvidia.accession_no, nvidia.values.operating_cash_flow_usd], ['0001045810-16-000300', 201_000_000]);
});

test(skip ? `every period is a row (${skip})` : 'every quarter and year the filings stated is a row, and as of a date only what was filed by then', { skip }, async () => {
  const { rows, manifest } = await realBuild(EVERYTHING);
  const durationConcepts = durationKeys.flatMap((k) => FINANCIAL_CONCEPTS[k].concepts);
  let missing = 0;
  for (const cik of ciks()) {
    const periods = new Set(rows.financials.filter((r) => r.cik === cik).map((r) => `${r.period_start}/${r.period_end}`));
    const stated = new Set(rawFacts(cik).filter((f) => durationConcepts.includes(f.concept) && f.start !== undefined).filter((f) => {
      const d = days(f.start!, f.end);
      return (d >= 80 && d <= 100) || (d >= 350 && d <= 380 && f.form.startsWith('10-K'));
    }).map((f) => `${f.start}/${f.end}`));
    for (const p of stated) if (!periods.has(p)) missing++;
  }
  // NVIDIA's 10-Q for its second quarter of fiscal 2011 ended it on 2010-08-01 in some facts and 2010-07-31 in others: one row.
  assert.equal(missing, manifest.build.notes.financials.same_fiscal_period_reported_later);
  assert.ok(missing <= 1);

  const old = await realBuild(AS_OF_2022);
  assert.ok(old.rows.financials.length > 100 && old.rows.financials.every((r: FinancialsRow) => r.filed_at <= '2022-12-31'));
  const later = new Map(rows.financials.map((r) => [`${r.cik}/${r.period_start}/${r.period_end}`, r]));
  for (const r of old.rows.financials) {
    const now = later.get(`${r.cik}/${r.period_start}/${r.period_end}`)!;
    assert.deepEqual([r.accession_no, r.fiscal_year, r.fiscal_period], [now.accession_no, now.fiscal_year, now.fiscal_period], 'first reported stays first reported');
    for (const key of Object.keys(r.values) as FinancialValueKey[]) if (r.values[key] !== null) assert.equal(r.values[key], now.values[key], `${r.cik} ${r.period_end} ${key}`);
  }
});

test(skip ? `companyfacts.zip (${skip})` : 'companyfacts.zip, as SEC ships it, gives the same financials rows as the company facts JSON files', { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'eqf-facts-zip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const names = rawFiles('companyfacts').map((path) => path.slice('companyfacts/'.length));
  for (const side of ['json', 'zip']) {
    mkdirSync(join(dir, side, 'files'), { recursive: true });
    cpSync(join(SEC_DATA, 'tickers'), join(dir, side, 'files'), { recursive: true });
  }
  cpSync(join(SEC_DATA, 'companyfacts'), join(dir, 'json', 'companyfacts'), { recursive: true });
  await zipFolder(join(SEC_DATA, 'companyfacts'), names, join(dir, 'zip', 'companyfacts.zip'));
  const built: string[] = [];
  for (const side of ['json', 'zip']) {
    const result = await buildSnapshot({ ...EVERYTHING, from: join(dir, side), out: join(dir, `out-${side}`), version: side, log: () => {}, progress: false, workers: 0 });
    built.push(readFileSync(join(result.dir, 'financials.ndjson'), 'utf8'));
  }
  assert.equal(built[1], built[0]);
  assert.equal(built[0]!.trim().split('\n').length, (await realBuild(EVERYTHING)).rows.financials.length, 'the rows of the whole test set');
});
