import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CLUSTER_RULE, isClusterBuying } from '../../src/facts/cluster.js';
import type { CompanyFacts, Fact } from '../../src/edgar/company/company-facts-json.js';
import { matchReleasePeriod } from '../../src/facts/fiscal-periods.js';
import { applyAmendments, computeInsiderRows } from '../../src/facts/insiders.js';
import type { InfoTableEntry, OwnershipFiling, OwnershipTransaction, ThirteenFFiling } from '../../src/edgar/records.js';
import { decideValueUnit } from '../../src/facts/value-unit.js';
import { computeWhaleRows, foldPeriods } from '../../src/facts/whales.js';
import { computeHolderRows } from '../../src/facts/holders.js';
import { containsAdviceWord, holderSummary } from '../../src/facts/summaries.js';

const owner = (cik: string) => ({ cik, name: `Owner ${cik}`, isDirector: true, isOfficer: false, isTenPercentOwner: false, isOther: false, officerTitle: null });
const form4 = (accessionNo: string, ownerCik: string, transactions: OwnershipTransaction[], extra: Partial<OwnershipFiling> = {}): OwnershipFiling => ({
  accessionNo, filedAt: '2024-03-05', documentType: '4', periodOfReport: '2024-03-01', issuerCik: '0000000123', issuerName: 'Example Corp',
  issuerTradingSymbol: 'EXA', owners: [owner(ownerCik)], plan10b51: null, transactions, derivativeTransactions: [], ...extra,
});
const tx = (code: string, date: string, shares: number, price: number | null): OwnershipTransaction => ({
  code, date, shares, price, sharesText: String(shares), priceText: price === null ? null : String(price), priceInFootnote: false,
  securityTitle: 'Common Stock', acquiredDisposed: code === 'S' ? 'D' : 'A', sharesOwnedAfter: null, directIndirect: 'D',
});
const insiderOptions = { asOf: '2024-03-31', windowDays: 90, issuer: () => ({ ticker: 'EXA', tickers: ['EXA'], name: 'Example Corp' }) };

test('P/S sums count an unpriced sale in n_sells but add nothing for it', () => {
  const { rows } = computeInsiderRows([form4('0000000001-24-000001', '1', [tx('S', '2024-03-01', 100, 10.5), tx('S', '2024-03-01', 50, null), tx('P', '2024-02-20', 20, 9), tx('M', '2024-02-21', 1000, 1)])], insiderOptions);
  const row = rows[0]!;
  assert.equal(row.n_sells, 2);
  assert.equal(row.n_buys, 1);
  assert.equal(row.sell_usd, 1050);
  assert.equal(row.buy_usd, 180);
  assert.equal(row.net_usd, -870);
  assert.deepEqual(row.notable.map((t) => t.value_usd), [1050, 180], 'only priced trades are notable');
  assert.equal(row.window_start, '2024-01-02');
});

test('trades outside the window are left out', () => {
  const { rows } = computeInsiderRows([form4('0000000001-24-000001', '1', [tx('S', '2024-01-01', 100, 10), tx('S', '2024-04-01', 100, 10)])], insiderOptions);
  assert.equal(rows.length, 0);
});

test('cluster buying needs 3 distinct owners, not 2', () => {
  assert.equal(isClusterBuying([{ ownerCik: 'a', date: '2024-03-01' }, { ownerCik: 'b', date: '2024-03-02' }, { ownerCik: 'b', date: '2024-03-03' }]), false);
  assert.equal(isClusterBuying([{ ownerCik: 'a', date: '2024-03-01' }, { ownerCik: 'b', date: '2024-03-02' }, { ownerCik: 'c', date: '2024-03-03' }]), true);
});

test('a 30-day span holds day 0 and day 29 but not day 30', () => {
  const base = [{ ownerCik: 'a', date: '2024-03-01' }, { ownerCik: 'b', date: '2024-03-10' }];
  assert.equal(isClusterBuying([...base, { ownerCik: 'c', date: '2024-03-30' }], DEFAULT_CLUSTER_RULE), true);
  assert.equal(isClusterBuying([...base, { ownerCik: 'c', date: '2024-03-31' }], DEFAULT_CLUSTER_RULE), false);
});

test('a 4/A with transactions replaces the original of the same owner, issuer and period', () => {
  const original = form4('0000000001-24-000001', '1', [tx('S', '2024-03-01', 100, 10)]);
  const amendment = form4('0000000001-24-000002', '1', [tx('S', '2024-03-01', 80, 10)], { documentType: '4/A', filedAt: '2024-03-08' });
  const other = form4('0000000002-24-000001', '2', [tx('S', '2024-03-01', 5, 10)]);
  const { kept, replaced } = applyAmendments([original, amendment, other]);
  assert.deepEqual(kept.map((f) => f.accessionNo).sort(), ['0000000001-24-000002', '0000000002-24-000001']);
  assert.equal(replaced, 1);
  assert.equal(computeInsiderRows([original, amendment, other], insiderOptions).rows[0]!.sell_usd, 850);
});

test('a 4/A without transactions changes nothing', () => {
  const original = form4('0000000001-24-000001', '1', [tx('S', '2024-03-01', 100, 10)]);
  const amendment = form4('0000000001-24-000002', '1', [], { documentType: '4/A', filedAt: '2024-03-08' });
  assert.equal(computeInsiderRows([original, amendment], insiderOptions).rows[0]!.sell_usd, 1000);
});

const entry = (cusip: string, shares: number, value: number, putCall: InfoTableEntry['putCall'] = null): InfoTableEntry => ({
  issuer: `ISSUER ${cusip}`, titleOfClass: 'COM', cusip, value, shares, sharesType: 'SH', putCall,
});
const thirteenF = (period: string, filedAt: string, entries: InfoTableEntry[], extra: Partial<ThirteenFFiling> = {}): ThirteenFFiling => ({
  accessionNo: `0000000999-${filedAt.slice(2, 4)}-${filedAt.slice(5, 7)}${filedAt.slice(8)}00`, filerCik: '0000000999', filer: 'Example Capital',
  periodOfReport: period, filedAt, filedAtSource: 'edgar', form: '13F-HR', amendmentType: null, entries, ...extra,
});

test('positions are new, added, reduced, unchanged or sold out against the previous period', () => {
  const q1 = thirteenF('2024-03-31', '2024-05-10', [entry('AAAAAAAA1', 100, 10_000), entry('BBBBBBBB2', 100, 10_000), entry('CCCCCCCC3', 100, 10_000), entry('DDDDDDDD4', 100, 10_000)]);
  const q2 = thirteenF('2024-06-30', '2024-08-10', [entry('AAAAAAAA1', 150, 15_000), entry('BBBBBBBB2', 50, 5_000), entry('CCCCCCCC3', 100, 12_000), entry('EEEEEEEE5', 10, 1_000), entry('AAAAAAAA1', 10, 500, 'Put')]);
  const [row] = computeWhaleRows(foldPeriods([q1, q2]), () => null);
  const byKey = new Map(row!.top_holdings.map((h) => [`${h.cusip}${h.put_call ?? ''}`, h]));
  assert.equal(byKey.get('AAAAAAAA1')!.action, 'added');
  assert.equal(byKey.get('AAAAAAAA1')!.change_pct, 50);
  assert.equal(byKey.get('BBBBBBBB2')!.action, 'reduced');
  assert.equal(byKey.get('CCCCCCCC3')!.action, 'unchanged');
  assert.equal(byKey.get('EEEEEEEE5')!.action, 'new');
  assert.equal(byKey.get('EEEEEEEE5')!.change_pct, null);
  assert.equal(byKey.get('AAAAAAAA1Put')!.action, 'new', 'a put is matched apart from the shares');
  const soldOut = row!.moves.find((m) => m.action === 'sold_out')!;
  assert.deepEqual([soldOut.cusip, soldOut.shares, soldOut.value_usd, soldOut.weight, soldOut.change_shares, soldOut.change_pct], ['DDDDDDDD4', 0, 0, 0, -100, -100]);
  const unchanged = row!.moves.find((m) => m.cusip === 'CCCCCCCC3');
  assert.equal(unchanged?.action, 'unchanged', 'same shares, value 10,000 → 12,000: a value move');
  assert.deepEqual(row!.moves.map((m) => m.cusip).slice(0, 3), ['DDDDDDDD4', 'AAAAAAAA1', 'BBBBBBBB2'], 'largest absolute value change first (10,000, then 5,000 twice, tie by CUSIP)');
  assert.equal(row!.previous_period, '2024-03-31');
});

test('holder rows: one per held position with the whale row\'s figures, none for a position sold out, summaries in words', () => {
  const q1 = thirteenF('2024-03-31', '2024-05-10', [entry('AAAAAAAA1', 100, 10_000), entry('DDDDDDDD4', 100, 10_000), entry('BBBBBBBB2', 100, 10_000)]);
  const q2 = thirteenF('2024-06-30', '2024-08-10', [entry('AAAAAAAA1', 150, 15_000), entry('AAAAAAAA1', 10, 500, 'Put'), entry('BBBBBBBB2', 50, 5_000),
    { ...entry('CCCCCCCC3', 1_000_000, 90_000), sharesType: 'PRN', titleOfClass: 'NOTE 1.5% 2030' }]);
  const periods = foldPeriods([q1, q2]);
  const ticker = (p: { cusip: string }): string | null => (p.cusip === 'AAAAAAAA1' ? 'AAA' : null);
  const [whale] = computeWhaleRows(periods, ticker);
  const rows = computeHolderRows(periods, {
    ticker, tickers: (p) => (p.cusip === 'AAAAAAAA1' ? ['AAA', 'AAA-B'] : []), summary: (row, p) => holderSummary(row, p.sharesType),
  });
  assert.deepEqual(rows.map((r) => `${r.cusip}${r.put_call ?? ''}`).sort(), ['AAAAAAAA1', 'AAAAAAAA1Put', 'BBBBBBBB2', 'CCCCCCCC3'], 'DDDDDDDD4 was sold out');
  for (const h of whale!.top_holdings) {
    const row = rows.find((r) => r.cusip === h.cusip && r.put_call === h.put_call)!;
    const { issuer, cusip, ticker: t, title_of_class, put_call, shares, value_usd, weight, change_shares, change_pct, action } = row;
    assert.deepEqual({ issuer, cusip, ticker: t, title_of_class, put_call, shares, value_usd, weight, change_shares, change_pct, action }, h);
  }
  const byKey = new Map(rows.map((r) => [`${r.cusip}${r.put_call ?? ''}`, r]));
  assert.deepEqual(byKey.get('AAAAAAAA1')!.tickers, ['AAA', 'AAA-B']);
  assert.deepEqual([byKey.get('CCCCCCCC3')!.ticker, byKey.get('CCCCCCCC3')!.tickers], [null, []]);
  assert.equal(byKey.get('AAAAAAAA1')!.summary, 'Example Capital reported 150 shares of ISSUER AAAAAAAA1 (AAA) worth $15,000 on Form 13F for the period ending ' +
    '2024-06-30, filed 2024-08-10: 13.6% of its reported value. That is 50 more shares than in its previous report (+50%).');
  assert.match(byKey.get('AAAAAAAA1Put')!.summary!, /reported put options on 10 shares of ISSUER AAAAAAAA1 \(AAA\) worth \$500 .* The position was not in its previous report\.$/);
  assert.match(byKey.get('BBBBBBBB2')!.summary!, /That is 50 fewer shares than in its previous report \(-50%\)\.$/);
  assert.match(byKey.get('CCCCCCCC3')!.summary!, /reported a principal amount of 1,000,000 of ISSUER CCCCCCCC3 worth \$90,000 /);
  assert.ok(rows.every((r) => !containsAdviceWord(r.summary!)));
  // The first period alone: no previous report, no move.
  const first = computeHolderRows(foldPeriods([q1]), { ticker, tickers: () => [] });
  assert.ok(first.every((r) => r.action === null && r.change_shares === null && r.change_pct === null && !('summary' in r)));
});

test('a restatement replaces its period and a new-holdings amendment adds to it', () => {
  const original = thirteenF('2024-12-31', '2025-02-12', [entry('AAAAAAAA1', 1000, 200)]);
  const restated = thirteenF('2024-12-31', '2025-06-10', [entry('AAAAAAAA1', 1000, 200_000)], { amendmentType: 'RESTATEMENT', form: '13F-HR/A' });
  const added = thirteenF('2024-12-31', '2025-06-11', [entry('BBBBBBBB2', 10, 1_000)], { amendmentType: 'NEW HOLDINGS', form: '13F-HR/A' });
  const [row] = computeWhaleRows(foldPeriods([original, restated, added]), () => null);
  assert.equal(row!.total_value_usd, 201_000);
  assert.equal(row!.n_positions, 2);
  assert.equal(row!.previous_period, null);
  assert.equal(row!.top_holdings[0]!.action, null);
});

test('values in thousands are recognised from implied prices, even after the 2023 switch', () => {
  // Bull Street Advisors, filed 2023-02-28: 3M 2,397 sh with value 287 (thousands).
  const thousands = decideValueUnit('2023-02-28', [entry('88579Y101', 2397, 287), entry('037833100', 1733, 230)]);
  assert.deepEqual([thousands.unit, thousands.inferred], ['thousands', true]);
  const usd = decideValueUnit('2024-02-14', [entry('042068205', 1_960_784, 147_343_114)]);
  assert.deepEqual([usd.unit, usd.inferred], ['usd', false]);
  const before = decideValueUnit('2021-02-12', [entry('037833100', 1_733_777, 230_054), entry('02079K305', 100, 175)]);
  assert.deepEqual([before.unit, before.inferred], ['thousands', false], 'pre-split GOOGL at $1,750 does not outvote the date rule');
  const thousandsTotal = computeWhaleRows(foldPeriods([thirteenF('2022-12-31', '2023-02-28', [entry('88579Y101', 2397, 287)])]), () => null)[0]!;
  assert.equal(thousandsTotal.total_value_usd, 287_000);
});

const fact = (start: string, end: string, val: number, accn: string, fy: number, fp: string, form = '10-Q'): Fact => ({ start, end, val, accn, fy, fp, form, filed: '' });
const facts: CompanyFacts = {
  cik: '0000000123', name: 'Example', concepts: new Map([
    ['us-gaap:Revenues', [
      fact('2022-09-25', '2022-12-31', 117, 'q1', 2023, 'Q1'),
      fact('2021-09-26', '2022-09-24', 394, 'fy', 2022, 'FY', '10-K'),
      fact('2022-06-26', '2022-09-24', 90, 'fy', 2022, 'FY', '10-K'),
    ]],
    ['us-gaap:EarningsPerShareDiluted', [fact('2022-09-25', '2022-12-31', 1.88, 'q1', 2023, 'Q1')]],
  ]),
  filings: new Map(),
};

test('a release is matched to the latest fiscal period that ended before it was filed', () => {
  const q1 = matchReleasePeriod(facts, '2023-02-02')!;
  assert.deepEqual([q1.fiscalYear, q1.fiscalPeriod, q1.figures.revenue_usd, q1.figures.eps_diluted, q1.figures.net_income_usd], [2023, 'Q1', 117, 1.88, null]);
  const fy = matchReleasePeriod(facts, '2022-10-27')!;
  assert.deepEqual([fy.fiscalPeriod, fy.figures.revenue_usd], ['FY', 394], 'a 10-K period takes the annual figure, not the quarter');
  assert.equal(matchReleasePeriod(facts, '2023-06-30'), null, 'nothing ended within 100 days');
});
