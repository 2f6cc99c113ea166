/**
 * Insider-transaction rows against the raw EDGAR files (issue 26): every transaction line of every
 * Form 4 and 4/A of the test set in the window is a row, field by field as the test's own reader
 * (test/helpers/raw-form4.ts) reads it from the XML, values computed exactly in BigInt, in the
 * documented order; and every company's Table I P and S rows agree with its insider row
 * (docs/api.md §16). Over the embedded snapshot's options, and a cut inside the sample.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AS_OF_2022, rawFiles, rawJson, realBuild, secDataSkip as skip } from '../helpers/real-build.js';
import { exactCents } from '../helpers/raw-ownership.js';
import { rawOwnershipFilings, type RawFiling, type RawLine } from '../helpers/raw-form4.js';
import type { InsiderTransactionRow } from '../../src/rows/types.js';

/** The options of the embedded snapshot (package.json `build:snapshot`): every Form 4 of the sample is in the window. */
const EMBEDDED = Object.freeze({ asOf: '2026-09-04', windowDays: 5909, filingsDays: 11103 });

const yes = (text: string | undefined): boolean => text === '1' || text?.toLowerCase() === 'true';
const amount = (text: string | undefined): string | null => (text === undefined ? null : text.replace(/,/g, ''));
const pad = (cik: string | undefined): string => (cik ?? '').padStart(10, '0');
const dayBefore = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The officer title, Director, 10% Owner, in that order and joined; Other where no box is checked (Form 4 box 5). */
function role(owner: Map<string, string>): string {
  const parts = [
    yes(owner.get('isOfficer')) ? owner.get('officerTitle') ?? 'Officer' : null,
    yes(owner.get('isDirector')) ? 'Director' : null,
    yes(owner.get('isTenPercentOwner')) ? '10% Owner' : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : 'Other';
}

/**
 * The test's own reading of the no-price rule: the price cell is empty and a footnote of the line
 * gives a dollar amount per share or unit, or as "a price of", that is no exercise or conversion
 * price and no aggregate or total.
 */
function priceInFootnote(filing: RawFiling, line: RawLine): boolean {
  if (line.cells.has('transactionAmounts/transactionPricePerShare/value')) return false;
  return line.footnoteIds.some((id) => {
    const note = (filing.footnotes.get(id) ?? '').replace(/\s+/g, ' ');
    return [...note.matchAll(/\$\s?\d[\d,]*(?:\.\d+)?/g)].some((m) => {
      const before = note.slice(Math.max(0, m.index - 60), m.index);
      const after = note.slice(m.index + m[0].length, m.index + m[0].length + 40);
      if (/(?:exercise|conversion|strike) price[^$.;]{0,30}$|exercisable[^$.;]{0,30}at[^$.;]{0,10}$/i.test(before)) return false;
      return /^\s*(?:per|for each|a|an) (?:share|unit|ads)/i.test(after) || (/\bprices?d?\b[^$.;]{0,30}$/i.test(before) && !/\b(?:aggregate|total)\b[^$.;]{0,30}$/i.test(before));
    });
  });
}

/** Forms 4 and 4/A filed by the as-of date, less those a later 4/A with Table I lines replaced (same first owner, issuer and period). */
function standingForms(asOf: string): { forms: RawFiling[]; replaced: number } {
  const forms = rawOwnershipFilings().filter((f) => ['4', '4/A'].includes(f.top.get('documentType')!) && f.filedAt <= asOf);
  const key = (f: RawFiling): string => `${pad(f.owners[0]?.get('rptOwnerCik'))}|${pad(f.top.get('issuerCik'))}|${f.top.get('periodOfReport')}`;
  const order = (f: RawFiling): string => `${f.filedAt}|${f.accession}`;
  const latest = new Map<string, RawFiling>();
  for (const f of forms) {
    if (f.top.get('documentType') !== '4/A' || !f.lines.some((l) => l.table === 'non_derivative')) continue;
    if (!latest.has(key(f)) || order(f) > order(latest.get(key(f))!)) latest.set(key(f), f);
  }
  const standing = forms.filter((f) => !latest.has(key(f)) || order(f) >= order(latest.get(key(f))!));
  return { forms: standing, replaced: forms.length - standing.length };
}

type Facts = Omit<InsiderTransactionRow, 'ticker' | 'tickers' | 'company' | 'summary'>;

/** Every expected row, in the documented order: transaction date, filing date and accession number descending, then the line's place. */
function expectedRows(options: { asOf: string; windowDays: number }): { rows: Facts[]; replaced: number } {
  const start = dayBefore(options.asOf, options.windowDays - 1);
  const { forms, replaced } = standingForms(options.asOf);
  const rows: (Facts & { place: number })[] = [];
  for (const f of forms) {
    const [owner, ...joint] = f.owners;
    f.lines.forEach((line, place) => {
      const c = (path: string): string | undefined => line.cells.get(path);
      const date = c('transactionDate/value')?.slice(0, 10);
      if (!date || date < start || date > options.asOf) return;
      const shares = amount(c('transactionAmounts/transactionShares/value'));
      const price = amount(c('transactionAmounts/transactionPricePerShare/value'));
      const after = amount(c('postTransactionAmounts/sharesOwnedFollowingTransaction/value'));
      const plan = f.top.get('aff10b5One');
      rows.push({
        type: 'insider_transaction', cik: pad(f.top.get('issuerCik')), owner_cik: pad(owner!.get('rptOwnerCik')), owner_name: owner!.get('rptOwnerName')!,
        role: role(owner!), joint_owner_ciks: joint.map((o) => pad(o.get('rptOwnerCik'))), form: f.top.get('documentType') as '4' | '4/A',
        accession_no: f.accession, filed_at: f.filedAt, filed_at_source: f.signatureDated ? 'signature_date' : 'edgar', transaction_date: date,
        table: line.table, security_title: c('securityTitle/value') ?? '', code: c('transactionCoding/transactionCode')!,
        acquired_disposed: c('transactionAmounts/transactionAcquiredDisposedCode/value') as 'A' | 'D',
        shares: shares === null ? null : Number(shares), price_usd: price === null ? null : Number(price),
        value_usd: shares === null || price === null ? null : exactCents([[shares, price]]), shares_owned_after: after === null ? null : Number(after),
        direct_indirect: c('ownershipNature/directOrIndirectOwnership/value') as 'D' | 'I',
        plan_10b5_1: plan === undefined ? null : yes(plan), price_in_footnote: priceInFootnote(f, line), from_data_set: false, place,
      });
    });
  }
  const desc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
  rows.sort((a, b) => desc(a.transaction_date, b.transaction_date) || desc(a.filed_at, b.filed_at) || desc(a.accession_no, b.accession_no) || a.place - b.place);
  return { rows: rows.map(({ place: _place, ...row }) => row), replaced };
}

for (const [name, options] of [['the embedded snapshot\'s options', EMBEDDED], ['as of 2022-12-31', AS_OF_2022]] as const) {
  test(skip ? `insider transactions against the raw XML, ${name} (${skip})` : `every line of every Form 4 in the window is a row, field by field from the raw XML, in order (${name})`, { skip }, async () => {
    const built = await realBuild(options);
    const rows = built.rows['insider-transactions'];
    const expected = expectedRows(options);
    assert.equal(built.manifest.build.notes.filings_replaced_by_4a, expected.replaced, 'filings replaced by a 4/A');
    assert.ok(expected.rows.length > (options === EMBEDDED ? 2500 : 300), `${expected.rows.length} lines`);
    assert.ok(expected.rows.some((r) => r.table === 'derivative') && expected.rows.some((r) => r.joint_owner_ciks.length > 0), 'Table II lines and joint filings among them');
    assert.equal(rows.length, expected.rows.length, 'one row per line');
    for (const [i, row] of rows.entries()) {
      const { ticker: _t, tickers: _ts, company: _c, summary: _s, ...facts } = row;
      assert.deepEqual(facts, expected.rows[i], `row ${i + 1}: ${row.accession_no} ${row.table} ${row.code} ${row.transaction_date}`);
    }
  });
}

test(skip ? `insider-transaction tickers (${skip})` : 'a row\'s ticker is one its issuer trades under (ticker files, submissions JSON) or, for an issuer without one, the form\'s symbol', { skip }, async () => {
  const { rows } = await realBuild(EMBEDDED);
  const known = new Map<string, Set<string>>();
  const add = (cik: string, ticker: string): void => { known.set(cik, (known.get(cik) ?? new Set()).add(ticker.toUpperCase().replace(/[./]/g, '-'))); };
  for (const path of rawFiles('tickers')) {
    const json = rawJson(path);
    if (Array.isArray(json.data)) for (const [cik, , ticker] of json.data) add(pad(String(cik)), ticker);
    else for (const entry of Object.values(json) as { cik_str: number; ticker: string }[]) add(pad(String(entry.cik_str)), entry.ticker);
  }
  for (const path of rawFiles('submissions')) for (const ticker of rawJson(path).tickers ?? []) add(pad(String(rawJson(path).cik)), ticker);
  const symbols = new Map(rawOwnershipFilings().map((f) => [f.accession, f.top.get('issuerTradingSymbol')?.toUpperCase().replace(/[./]/g, '-')]));
  for (const row of rows['insider-transactions']) {
    assert.equal(row.tickers[0] ?? null, row.ticker, row.accession_no);
    if (row.ticker === null) continue;
    const own = known.get(row.cik);
    assert.ok(own ? own.has(row.ticker) : symbols.get(row.accession_no) === row.ticker, `${row.accession_no}: ${row.ticker} for ${row.cik}`);
  }
});

/** USD as whole cents. */
const cents = (usd: number): bigint => BigInt(Math.round(usd * 100));

for (const [name, options] of [['the embedded snapshot\'s options', EMBEDDED], ['as of 2022-12-31', AS_OF_2022]] as const) {
  test(skip ? `insiders agree with transactions, ${name} (${skip})` : `every company's Table I P and S rows give its insider row's counts exactly and its sums within each row's rounding (${name})`, { skip }, async () => {
    const { rows } = await realBuild(options);
    const trades = rows['insider-transactions'].filter((r) => r.table === 'non_derivative' && (r.code === 'P' || r.code === 'S'));
    const withTicker = new Set(trades.filter((r) => r.ticker !== null).map((r) => r.cik));
    assert.deepEqual(rows.insiders.map((r) => r.cik).sort(), [...withTicker].sort(), 'an insider row for every company with P or S rows and a ticker');
    for (const insider of rows.insiders) {
      const own = trades.filter((r) => r.cik === insider.cik);
      assert.ok(own.every((r) => r.ticker === insider.ticker && r.company === insider.company), `${insider.ticker}: same company`);
      for (const [code, n, withoutPrice, inFootnote, usd] of [
        ['P', insider.n_buys, insider.n_buys_without_price, insider.n_buys_price_in_footnote, insider.buy_usd],
        ['S', insider.n_sells, insider.n_sells_without_price, insider.n_sells_price_in_footnote, insider.sell_usd],
      ] as const) {
        const side = own.filter((r) => r.code === code);
        const priced = side.filter((r) => r.value_usd !== null);
        assert.equal(side.length, n, `${insider.ticker} ${code}: count`);
        assert.equal(side.length - priced.length, withoutPrice, `${insider.ticker} ${code}: without price`);
        assert.equal(side.filter((r) => r.price_in_footnote).length, inFootnote, `${insider.ticker} ${code}: price in a footnote`);
        // Each row rounds its exact value once (at most half a cent off), and the insider row its exact sum once.
        const off = cents(usd) - priced.reduce((sum, r) => sum + cents(r.value_usd!), 0n);
        const bound = BigInt(Math.floor((priced.length + 1) / 2));
        assert.ok(off <= bound && -off <= bound, `${insider.ticker} ${code}: ${usd} vs rows ${priced.length}, off by ${off} cents`);
      }
    }
  });
}
