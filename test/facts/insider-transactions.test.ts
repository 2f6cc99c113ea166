/**
 * The insider-transaction rows from ownership records (docs/api.md §16), and their summaries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeInsiderTransactionRows } from '../../src/facts/insider-transactions.js';
import { containsAdviceWord, insiderTransactionSummary } from '../../src/facts/summaries.js';
import type { OwnershipFiling, OwnershipTransaction, ReportingOwner } from '../../src/edgar/records.js';
import type { InsiderTransactionRow } from '../../src/rows/types.js';

const owner = (cik: string, extra: Partial<ReportingOwner> = {}): ReportingOwner => ({
  cik, name: `Owner ${cik.slice(-1)}`, isDirector: true, isOfficer: false, isTenPercentOwner: false, isOther: false, officerTitle: null, ...extra,
});
const line = (code: string, date: string, shares: string | null, price: string | null, extra: Partial<OwnershipTransaction> = {}): OwnershipTransaction => ({
  code, date, shares: shares === null ? null : Number(shares), price: price === null ? null : Number(price), sharesText: shares, priceText: price,
  priceInFootnote: false, securityTitle: 'Common Stock', acquiredDisposed: code === 'S' ? 'D' : 'A', sharesOwnedAfter: 100, directIndirect: 'D', ...extra,
});
const form = (accessionNo: string, transactions: OwnershipTransaction[], extra: Partial<OwnershipFiling> = {}): OwnershipFiling => ({
  accessionNo, filedAt: '2024-03-05', documentType: '4', periodOfReport: '2024-03-01', issuerCik: '0000000123', issuerName: 'Example Corp as filed',
  issuerTradingSymbol: 'EXA', owners: [owner('0000000001')], plan10b51: null, transactions, derivativeTransactions: [], ...extra,
});
const options = { asOf: '2024-03-31', windowDays: 90, issuer: () => ({ ticker: 'EXA', tickers: ['EXA', 'EXA-B'], name: 'Example Corp' }) };

test('value_usd is the exact product rounded once to the cent, halves up; null without shares or price', () => {
  const { rows } = computeInsiderTransactionRows([form('0000000001-24-000001', [
    line('S', '2024-03-01', '3107623', '191.467'), line('P', '2024-03-01', '0.5', '0.01'), line('S', '2024-03-01', '10', null), line('J', '2024-03-01', null, '5'),
  ])], options);
  assert.deepEqual(rows.map((r) => r.value_usd), [595007252.94, 0.01, null, null]);
  assert.deepEqual(rows.map((r) => r.shares), [3107623, 0.5, 10, null]);
});

test('a joint filing\'s lines are credited to its first owner and name the others; Table II follows Table I', () => {
  const { rows } = computeInsiderTransactionRows([form('0000000001-24-000002', [line('P', '2024-03-01', '10', '2')], {
    owners: [owner('0000000003', { isOfficer: true, officerTitle: 'CEO' }), owner('0000000004'), owner('0000000005')], plan10b51: true,
    derivativeTransactions: [line('M', '2024-03-01', '5', '1', { securityTitle: 'Stock Option (right to buy)', acquiredDisposed: 'D' })],
  })], options);
  assert.deepEqual(rows.map((r) => [r.table, r.owner_cik, r.owner_name, r.role, r.joint_owner_ciks, r.plan_10b5_1]), [
    ['non_derivative', '0000000003', 'Owner 3', 'CEO, Director', ['0000000004', '0000000005'], true],
    ['derivative', '0000000003', 'Owner 3', 'CEO, Director', ['0000000004', '0000000005'], true],
  ]);
  assert.deepEqual([rows[0]!.ticker, rows[0]!.tickers, rows[0]!.company], ['EXA', ['EXA', 'EXA-B'], 'Example Corp']);
});

test('lines outside the window, of other forms or of a form a 4/A replaced are no rows; lines without required cells are counted apart', () => {
  const result = computeInsiderTransactionRows([
    form('0000000001-24-000003', [line('S', '2023-12-01', '1', '1'), line('S', '2024-03-01', '1', '1', { directIndirect: null })]),
    form('0000000001-24-000004', [line('S', '2024-03-01', '1', '1')], { documentType: '5' }),
    form('0000000001-24-000005', [line('S', '2024-03-02', '1', '1', { acquiredDisposed: null })], { owners: [owner('')] }),
    form('0000000001-24-000006', [line('S', '2024-03-02', '1', '1')], { owners: [owner('0000000009')], periodOfReport: '2024-03-02' }),
    form('0000000001-24-000007', [line('A', '2024-03-02', '1', '0')], { owners: [owner('0000000009')], periodOfReport: '2024-03-02', documentType: '4/A', filedAt: '2024-03-09' }),
  ], { ...options, issuer: () => undefined });
  assert.deepEqual(result.rows.map((r) => [r.accession_no, r.code, r.ticker, r.tickers, r.company]), [['0000000001-24-000007', 'A', null, [], 'Example Corp as filed']]);
  assert.equal(result.linesInWindow, 3);
  assert.deepEqual(result.linesLeftOut, { 'line without directOrIndirectOwnership D or I': 1, 'first reporting owner without a CIK': 1 });
});

const row = (extra: Partial<InsiderTransactionRow> = {}): InsiderTransactionRow => ({
  type: 'insider_transaction', ticker: 'EXA', tickers: ['EXA'], cik: '0000000123', company: 'Example Corp', owner_cik: '0000000001', owner_name: 'Doe Jane',
  role: 'CFO', joint_owner_ciks: [], form: '4', accession_no: '0000000001-24-000001', filed_at: '2024-03-05', filed_at_source: 'edgar',
  transaction_date: '2024-03-01', table: 'non_derivative', security_title: 'Common Stock', code: 'S', acquired_disposed: 'D', shares: 1500,
  price_usd: 10.5, value_usd: 15750, shares_owned_after: 3000, direct_indirect: 'D', plan_10b5_1: true, price_in_footnote: false, from_data_set: false, ...extra,
});

test('a summary states the line in words: who, what, the code in SEC\'s words, price and value, form, table, holdings after', () => {
  assert.equal(insiderTransactionSummary(row()),
    'On 2024-03-01, Doe Jane (CFO) disposed of 1,500 shares of Common Stock of Example Corp (EXA) in an open market or private sale (code S), ' +
    'at $10.50 per share, worth $15,750. Reported in Table I (non-derivative securities) of Form 4, filed 2024-03-05. ' +
    '3,000 shares owned directly after the transaction. The form\'s Rule 10b5-1(c) box is checked.');
  const exercise = insiderTransactionSummary(row({
    table: 'derivative', code: 'M', security_title: 'Stock Option (right to buy)', form: '4/A', joint_owner_ciks: ['0000000002'],
    price_usd: null, value_usd: null, price_in_footnote: true, shares_owned_after: null, direct_indirect: 'I', plan_10b5_1: null, from_data_set: true,
  }))!;
  assert.match(exercise, /disposed of 1,500 units of Stock Option \(right to buy\) of Example Corp \(EXA\) in an exercise or conversion of a derivative security exempted under Rule 16b-3 \(code M\); its price is stated in a footnote, not in the price column\./);
  assert.match(exercise, /Table II \(derivative securities\) of Form 4\/A \(an amendment\), filed 2024-03-05, jointly with 1 other reporting owner\. Owned indirectly\./);
  assert.match(exercise, /Read from SEC's Insider Transactions Data Set, which stores shares and prices with 2 decimals\.$/);
  assert.doesNotMatch(exercise, /\$0|10b5-1/);
  const unpriced = insiderTransactionSummary(row({ price_usd: null, value_usd: null, shares: null, ticker: null, tickers: [], filed_at_source: 'signature_date', code: 'Q' }))!;
  assert.match(unpriced, /disposed of Common Stock of Example Corp in a transaction \(code Q\); the form reports no price\./);
  assert.match(unpriced, /signed 2024-03-05 \(no input gives its filing date\)/);
  for (const text of [exercise, unpriced]) assert.ok(!containsAdviceWord(text));
  assert.doesNotMatch(insiderTransactionSummary(row({ company: 'Strong Buy Rating Corp' }))!, /Rating/, 'a sentence with an advice word is dropped');
});
