/**
 * Holder rows against the raw 13F files (issue 26): every information-table row of each filer's
 * latest period, read and summed here with the test's own code, is in exactly one holder row
 * with the figures computed from it; and a position has the same figures in its holder row as in
 * the filer's whale row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HolderRow } from '../../src/rows/types.js';
import { HAND_CHECKED_13F_TICKERS } from '../fixtures/thirteenf-tickers.js';
import { RAW_13F_IN_THOUSANDS, raw13fFilings, type Raw13fFiling } from '../helpers/raw-thirteenf.js';
import { rawCiksOfTicker, rawTickers } from '../helpers/raw-tickers.js';
import { realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });

/** One position of a period as the test sums it: the rows of one CUSIP and put/call. */
interface RawPosition {
  issuer: string;
  titleOfClass: string;
  cusip: string;
  putCall: string | null;
  shares: bigint;
  /** USD. */
  value: bigint;
  sharesType: string;
}

/** A filer's period after its amendments: the filing that last shaped it and its positions. */
interface RawPeriod {
  filing: Raw13fFiling;
  positions: Map<string, RawPosition>;
}

/** `numerator / denominator` rounded half away from zero to `digits` decimals, as a number. */
function rounded(numerator: bigint, denominator: bigint, digits: number): number {
  const scaled = numerator * 10n ** BigInt(digits);
  const negative = scaled < 0n !== denominator < 0n;
  const [n, d] = [scaled < 0n ? -scaled : scaled, denominator < 0n ? -denominator : denominator];
  const units = (2n * n + d) / (2n * d);
  return Number(negative ? -units : units) / 10 ** digits;
}

/**
 * Each filer's periods, oldest first, from the raw filings: per period, in the order filed, a
 * NEW HOLDINGS amendment adds its rows and any other report replaces what came before (Form 13F
 * General Instructions, "Amendments"); values in USD.
 */
function rawPeriods(): Map<string, RawPeriod[]> {
  const filings = raw13fFilings().filter((f) => f.rows.length > 0)
    .sort((a, b) => ((a.filedAt ?? a.signedAt) + a.accession < (b.filedAt ?? b.signedAt) + b.accession ? -1 : 1));
  const periods = new Map<string, RawPeriod>();
  for (const filing of filings) {
    const id = `${filing.filer} ${filing.period}`;
    const known = periods.get(id);
    const period: RawPeriod = known && filing.amendmentType === 'NEW HOLDINGS' ? { filing, positions: known.positions } : { filing, positions: new Map() };
    for (const row of filing.rows) {
      assert.ok(Number.isInteger(row.shares) && Number.isInteger(row.value), `${filing.accession} ${row.cusip}: whole shares and values in the test set`);
      const key = `${row.cusip} ${row.putCall ?? ''}`;
      const value = BigInt(row.value) * (RAW_13F_IN_THOUSANDS.has(filing.accession) ? 1000n : 1n);
      const position = period.positions.get(key);
      if (position) {
        position.shares += BigInt(row.shares);
        position.value += value;
      } else {
        period.positions.set(key, {
          issuer: row.issuer, titleOfClass: row.titleOfClass, cusip: row.cusip, putCall: row.putCall, shares: BigInt(row.shares), value,
          sharesType: row.sharesType,
        });
      }
    }
    periods.set(id, period);
  }
  const byFiler = new Map<string, RawPeriod[]>();
  for (const period of periods.values()) byFiler.set(period.filing.filer, [...(byFiler.get(period.filing.filer) ?? []), period]);
  for (const list of byFiler.values()) list.sort((a, b) => (a.filing.period < b.filing.period ? -1 : 1));
  return byFiler;
}

/** The holder row of each position of each filer's latest period, as the raw files give it (ticker and summary aside). */
function expectedRows(): Omit<HolderRow, 'ticker' | 'tickers' | 'summary'>[] {
  const rows: Omit<HolderRow, 'ticker' | 'tickers' | 'summary'>[] = [];
  for (const list of rawPeriods().values()) {
    const latest = list[list.length - 1]!;
    const previous = list.length > 1 ? list[list.length - 2]! : null;
    const total = [...latest.positions.values()].reduce((sum, p) => sum + p.value, 0n);
    for (const [key, p] of latest.positions) {
      const before = previous?.positions.get(key)?.shares ?? 0n;
      const change = p.shares - before;
      rows.push({
        type: 'holder', cusip: p.cusip, issuer: p.issuer, title_of_class: p.titleOfClass, put_call: p.putCall as HolderRow['put_call'],
        filer_cik: latest.filing.filer, filer: latest.filing.filerName, period_of_report: latest.filing.period,
        filed_at: latest.filing.filedAt ?? latest.filing.signedAt, filed_at_source: latest.filing.filedAt ? 'edgar' : 'signature_date',
        accession_no: latest.filing.accession, shares: Number(p.shares), value_usd: Number(p.value), weight: rounded(p.value, total, 6),
        change_shares: previous ? Number(change) : null,
        change_pct: previous && before > 0n ? rounded(change * 100n, before, 2) : null,
        action: !previous ? null : before === 0n ? 'new' : change > 0n ? 'added' : change < 0n ? 'reduced' : 'unchanged',
      });
    }
  }
  return rows;
}

const positionId = (r: { filer_cik: string; cusip: string; put_call: string | null }): string => `${r.filer_cik} ${r.cusip} ${r.put_call ?? ''}`;

test(skip ? `holders against the raw 13F files (${skip})` : 'every information-table row of each filer\'s latest period is in one holder row, with the figures the raw files give', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const expected = expectedRows();
  const built = new Map(rows.holders.map((r) => [positionId(r), r]));
  assert.equal(built.size, rows.holders.length, 'one row per filer and position');
  assert.deepEqual([...built.keys()].sort(), expected.map(positionId).sort(), 'the positions of each filer\'s latest period, no more');
  for (const want of expected) {
    const { ticker: _ticker, tickers: _tickers, summary: _summary, ...got } = built.get(positionId(want))!;
    assert.deepEqual(got, want, positionId(want));
  }
  // The test set's corners: a restated period (GFI), options (four Put lines), thousands of USD, and moves since a previous period.
  assert.ok(expected.some((r) => r.accession_no === '0001688774-25-000011'), 'GFI\'s restatement replaces its original report');
  assert.ok(!rows.holders.some((r) => r.accession_no === '0001688774-25-000001'));
  assert.ok(expected.some((r) => r.put_call === 'Put'), 'put options are positions of their own');
  assert.ok(expected.some((r) => r.accession_no === '0001790837-23-000002'), 'Bull Street reported thousands of USD');
  for (const action of ['new', 'added', 'reduced', 'unchanged', null] as const) assert.ok(expected.some((r) => r.action === action), `a row with action ${action}`);
  assert.ok(expected.some((r) => r.filed_at_source === 'signature_date') && expected.some((r) => r.filed_at_source === 'edgar'));
  assert.ok(expected.length >= 250, `${expected.length} positions`);
});

test(skip ? `holder tickers (${skip})` : 'a holder row\'s ticker is the hand-checked one of its CUSIP, and tickers are every ticker of that company', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const tickersOf = rawTickers();
  const ciksOf = rawCiksOfTicker();
  let resolved = 0;
  for (const row of rows.holders) {
    if (row.ticker === null) {
      // No certain class: the company's tickers where the issuer resolves, else none; never tickers of two companies.
      assert.ok(new Set(row.tickers.flatMap(ciksOf)).size <= 1, `${positionId(row)}: ${row.tickers.join(', ')}`);
      continue;
    }
    resolved++;
    assert.equal(row.ticker, HAND_CHECKED_13F_TICKERS[row.cusip], `${positionId(row)} ${row.issuer}`);
    const [company, ...others] = ciksOf(row.ticker);
    assert.equal(others.length, 0, `${row.ticker} names one company`);
    assert.deepEqual(row.tickers, tickersOf(company!), `${positionId(row)}: the tickers of ${company}`);
  }
  assert.ok(resolved >= 150, `${resolved} of ${rows.holders.length} holder rows have a ticker`);
  const alphabet = rows.holders.filter((r) => r.cusip === '02079K305' || r.cusip === '02079K107');
  assert.ok(alphabet.length >= 2 && alphabet.every((r) => r.tickers.join() === 'GOOGL,GOOG'), 'both Alphabet classes are found by GOOG and GOOGL');
});

test(skip ? `holders and whales (${skip})` : 'a position has the same figures in its holder row as in the filer\'s whale row', { skip }, async () => {
  const { rows } = await realBuild(EVERYTHING);
  const holders = new Map(rows.holders.map((r) => [positionId(r), r]));
  let compared = 0;
  for (const whale of rows.whales) {
    assert.equal(rows.holders.filter((r) => r.filer_cik === whale.cik).length, whale.n_positions, `${whale.cik}: one holder row per position`);
    for (const h of [...whale.top_holdings, ...whale.moves.filter((m) => m.action !== 'sold_out')]) {
      const row = holders.get(positionId({ filer_cik: whale.cik, cusip: h.cusip, put_call: h.put_call }))!;
      assert.ok(row, `${whale.cik} ${h.cusip}: a holder row`);
      const { issuer, cusip, ticker, title_of_class, put_call, shares, value_usd, weight, change_shares, change_pct, action } = row;
      assert.deepEqual({ issuer, cusip, ticker, title_of_class, put_call, shares, value_usd, weight, change_shares, change_pct, action }, h, `${whale.cik} ${h.cusip}`);
      assert.deepEqual([row.filer, row.period_of_report, row.filed_at, row.filed_at_source, row.accession_no],
        [whale.filer, whale.period_of_report, whale.filed_at, whale.filed_at_source, whale.accession_no]);
      compared++;
    }
    for (const sold of whale.moves.filter((m) => m.action === 'sold_out')) {
      assert.ok(!holders.has(positionId({ filer_cik: whale.cik, cusip: sold.cusip, put_call: sold.put_call })), `${whale.cik} ${sold.cusip} sold out: no holder row`);
    }
  }
  assert.ok(compared >= 60, `${compared} positions compared`);
});
