/**
 * Financials rows from hand-written company facts (docs/api.md §16): which filing and concept
 * give each value, which periods are rows, and how they are labelled.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompanyFacts, Fact } from '../../src/edgar/company/company-facts-json.js';
import { computeFinancialsRows, type FinancialsCompany } from '../../src/facts/financials.js';
import { financialsSummary } from '../../src/facts/financials-summary.js';
import { containsAdviceWord } from '../../src/facts/summaries.js';
import type { FinancialsRow } from '../../src/rows/types.js';

/** A filing: accession number, form and filing date. */
type Filing = readonly [accn: string, form: string, filed: string];
const Q1_10Q: Filing = ['0000000123-24-000001', '10-Q', '2024-02-01'];
const Q2_10Q: Filing = ['0000000123-24-000002', '10-Q', '2024-05-01'];
const K_2024: Filing = ['0000000123-24-000009', '10-K', '2024-11-01'];
const K_2025: Filing = ['0000000123-25-000009', '10-K', '2025-11-01'];

const fact = (filing: Filing, start: string | null, end: string, val: number): Fact =>
  ({ start, end, val, accn: filing[0], form: filing[1], filed: filing[2], fy: 2099, fp: 'Q9' });

function companyFacts(concepts: Record<string, Fact[]>): Map<string, CompanyFacts> {
  return new Map([['0000000123', { cik: '0000000123', name: 'EXAMPLE CORP', concepts: new Map(Object.entries(concepts)), filings: new Map() }]]);
}

const WHO: FinancialsCompany = { tickers: ['EXA', 'EXA-B'], name: 'Example Corp', fiscalYearEnd: '0928' };

/** The rows of one company; `who` null for a company no input names. */
function rows(concepts: Record<string, Fact[]>, who: FinancialsCompany | null = WHO) {
  const result = computeFinancialsRows(companyFacts(concepts), () => who ?? undefined);
  const find = (fy: number, fp: FinancialsRow['fiscal_period']): FinancialsRow | undefined => result.rows.find((r) => r.fiscal_year === fy && r.fiscal_period === fp);
  return { ...result, find };
}

test('each value is the earliest filing\'s, and within one filing the first concept of its list; a later restatement changes nothing', () => {
  const { find } = rows({
    'us-gaap:SalesRevenueNet': [fact(Q1_10Q, '2023-10-01', '2023-12-30', 100)],
    // A later 10-K restates the quarter under the list's first concept: the 10-Q's value stays.
    'us-gaap:Revenues': [fact(K_2024, '2023-10-01', '2023-12-30', 101), fact(K_2024, '2023-10-01', '2024-09-28', 400)],
    'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax': [fact(K_2024, '2023-10-01', '2024-09-28', 390)],
    'us-gaap:NetIncomeLoss': [fact(K_2025, '2023-10-01', '2024-09-28', 55), fact(K_2024, '2023-10-01', '2024-09-28', 50)],
  });
  const q1 = find(2024, 'Q1')!;
  assert.deepEqual([q1.values.revenue_usd, q1.concepts.revenue_usd, q1.accession_no, q1.form], [100, 'us-gaap:SalesRevenueNet', Q1_10Q[0], '10-Q']);
  const fy = find(2024, 'FY')!;
  assert.deepEqual([fy.values.revenue_usd, fy.concepts.revenue_usd], [400, 'us-gaap:Revenues'], 'the same filing states both: the first of the list');
  assert.deepEqual([fy.values.net_income_usd, fy.accession_no, fy.filed_at], [50, K_2024[0], K_2024[2]], 'the 10-K of 2025 restated it');
});

test('a quarter takes three-month values only: the six-month cash flow of Q2 is left out, Q1\'s three months are kept', () => {
  const cashFlow = 'us-gaap:NetCashProvidedByUsedInOperatingActivities';
  const { find } = rows({
    'us-gaap:Revenues': [fact(Q1_10Q, '2023-10-01', '2023-12-30', 100), fact(Q2_10Q, '2023-12-31', '2024-03-30', 90), fact(Q2_10Q, '2023-10-01', '2024-03-30', 190)],
    [cashFlow]: [fact(Q1_10Q, '2023-10-01', '2023-12-30', 30), fact(Q2_10Q, '2023-10-01', '2024-03-30', 70)],
    'us-gaap:Assets': [fact(Q2_10Q, null, '2024-03-30', 1000), fact(Q2_10Q, null, '2023-09-30', 900)],
  });
  assert.deepEqual([find(2024, 'Q1')!.values.operating_cash_flow_usd, find(2024, 'Q1')!.concepts.operating_cash_flow_usd], [30, cashFlow]);
  const q2 = find(2024, 'Q2')!;
  assert.deepEqual([q2.values.operating_cash_flow_usd, 'operating_cash_flow_usd' in q2.concepts], [null, false]);
  assert.deepEqual([q2.period_start, q2.period_end, q2.values.revenue_usd, q2.values.total_assets_usd], ['2023-12-31', '2024-03-30', 90, 1000]);
  assert.equal(find(2024, 'Q1')!.values.total_assets_usd, null, 'no balance at the quarter\'s end was stated');
});

test('a Q4 row exists only where a filing states the three-month fourth quarter; it is never the year less nine months', () => {
  const quarters = [fact(Q1_10Q, '2023-10-01', '2023-12-30', 100), fact(Q2_10Q, '2023-12-31', '2024-03-30', 90), fact(Q2_10Q, '2024-03-31', '2024-06-29', 80)];
  const without = rows({ 'us-gaap:Revenues': [...quarters, fact(K_2024, '2023-10-01', '2024-09-28', 400)] });
  assert.deepEqual(without.rows.map((r) => r.fiscal_period).sort(), ['FY', 'Q1', 'Q2', 'Q3']);
  const stated = rows({ 'us-gaap:Revenues': [...quarters, fact(K_2024, '2023-10-01', '2024-09-28', 400), fact(K_2024, '2024-06-30', '2024-09-28', 131)] });
  const q4 = stated.find(2024, 'Q4')!;
  assert.deepEqual([q4.values.revenue_usd, q4.period_end, q4.form], [131, '2024-09-28', '10-K']);
  // FY and Q4 end the same day: the year comes first.
  assert.deepEqual(stated.rows.slice(0, 2).map((r) => r.fiscal_period), ['FY', 'Q4']);
});

test('only 10-K, 10-Q and their amendments count; a year that only a 10-Q states is no fiscal year', () => {
  const eightK: Filing = ['0000000123-24-000005', '8-K', '2024-01-20'];
  const { rows: found, find, notes } = rows({
    'us-gaap:Revenues': [fact(eightK, '2023-10-01', '2023-12-30', 99), fact(Q1_10Q, '2023-10-01', '2023-12-30', 100), fact(Q1_10Q, '2023-01-01', '2023-12-30', 370)],
  });
  assert.deepEqual([find(2024, 'Q1')!.values.revenue_usd, find(2024, 'Q1')!.accession_no], [100, Q1_10Q[0]], 'the earlier 8-K is not a 10-Q');
  assert.equal(found.length, 1, 'the trailing twelve months of the 10-Q is no row');
  assert.equal(notes.yearsNotInAnnualReports, 1);
});

test('shares outstanding: the balance-sheet count at period end, else the cover page of the filing whose own period it is', () => {
  const cover = 'dei:EntityCommonStockSharesOutstanding';
  const { find } = rows({
    'us-gaap:Revenues': [fact(Q1_10Q, '2023-10-01', '2023-12-30', 100), fact(Q2_10Q, '2023-12-31', '2024-03-30', 90), fact(Q2_10Q, '2022-12-31', '2023-04-01', 85)],
    'us-gaap:CommonStockSharesOutstanding': [fact(Q1_10Q, null, '2023-12-30', 5000)],
    [cover]: [fact(Q1_10Q, null, '2024-01-19', 4990), fact(Q2_10Q, null, '2024-04-19', 4980)],
  });
  assert.deepEqual([find(2024, 'Q1')!.values.shares_outstanding, find(2024, 'Q1')!.concepts.shares_outstanding], [5000, 'us-gaap:CommonStockSharesOutstanding']);
  assert.deepEqual([find(2024, 'Q2')!.values.shares_outstanding, find(2024, 'Q2')!.concepts.shares_outstanding], [4980, cover]);
  // The prior-year quarter is first reported as a comparative of the same 10-Q: that cover speaks of 2024, not of 2023.
  assert.equal(find(2023, 'Q2')!.values.shares_outstanding, null);
});

test('a row names the company as the directory knows it, without a ticker where it has none, and its summary says the facts', () => {
  const concepts = { 'us-gaap:Revenues': [fact(K_2024, '2023-10-01', '2024-09-28', 391_035_000_000)], 'us-gaap:NetIncomeLoss': [fact(K_2024, '2023-10-01', '2024-09-28', -5_000_000)] };
  const named = rows(concepts).rows[0]!;
  assert.deepEqual([named.ticker, named.tickers, named.company, named.cik], ['EXA', ['EXA', 'EXA-B'], 'Example Corp', '0000000123']);
  const unknown = rows(concepts, null).rows[0]!;
  assert.deepEqual([unknown.ticker, unknown.tickers, unknown.company], [null, [], 'EXAMPLE CORP']);
  const summary = financialsSummary(named)!;
  assert.equal(summary, 'Example Corp (EXA) first reported fiscal year 2024, 2023-10-01 to 2024-09-28, on Form 10-K filed 2024-11-01. ' +
    'For the period: revenue of $391.04 billion and net loss of $5.0 million.');
  assert.ok(!containsAdviceWord(summary));
});

test('two periods of one fiscal quarter (a filing that ended it a day apart): the first reported is the row, and the other is counted', () => {
  const { rows: found, notes } = rows({
    'us-gaap:Revenues': [fact(Q2_10Q, '2023-10-01', '2023-12-31', 101), fact(Q1_10Q, '2023-10-01', '2023-12-30', 100)],
  });
  assert.deepEqual(found.map((r) => [r.period_end, r.values.revenue_usd]), [['2023-12-30', 100]]);
  assert.equal(notes.samePeriodReportedLater, 1);
});

test('quarters of a company without a known fiscal year end are no rows, and counted, not taken for a loss of data', () => {
  const only10Q = { 'us-gaap:Revenues': [fact(Q1_10Q, '2023-10-01', '2023-12-30', 100)] };
  const unknown = rows(only10Q, { ...WHO, fiscalYearEnd: null });
  assert.deepEqual([unknown.rows.length, unknown.notes.quartersWithoutCalendar, unknown.periodsPlaceable], [0, 1, 0]);
  const known = rows(only10Q);
  assert.deepEqual([known.rows.length, known.periodsPlaceable, known.find(2024, 'Q1')?.period_end], [1, 1, '2023-12-30'], 'EDGAR\'s fiscal year end 0928 places it');
});
