/**
 * Holder rows (docs/api.md §16): one row per 13F filer and position of the filer's latest period
 * of report, so that the holders of a security can be listed across filers. A position is what
 * whale rows call one (CUSIP plus put/call, the rows of several managers or discretion types
 * summed, amendments applied: whales.ts), and its figures (value, weight in the filer's
 * portfolio, change since the period before) come from the same computation as the filer's whale
 * row, so the two never disagree. Positions sold out since the period before are in no latest
 * period and have no holder row; the whale row's `moves` lists them.
 */
import type { HolderRow } from '../rows/types.js';
import { latestPeriodOf, type Period, type Position } from './whales.js';

/** How a position's security and written field are found. */
export interface HolderLookups {
  /** The ticker of the class held, null where not certain: the lookup whale rows use. */
  ticker: (p: Position) => string | null;
  /** Every ticker of the company that issued the security, primary first; [] where the issuer is not resolved. */
  tickers: (p: Position) => readonly string[];
  /** The row's summary, or undefined for none (the row is then written without one). */
  summary?: (row: HolderRow, p: Position) => string | undefined;
}

/**
 * Computes the holder rows, unsorted (`ROW_ORDER.holders` sorts them).
 *
 * @param periods - every filer's periods, from `foldPeriods` (whales.ts).
 * @param lookups - ticker, tickers and summary of a position.
 */
export function computeHolderRows(periods: ReadonlyMap<string, Period[]>, lookups: HolderLookups): HolderRow[] {
  const rows: HolderRow[] = [];
  for (const list of periods.values()) {
    const { latest, held, holding } = latestPeriodOf(list, lookups.ticker);
    for (const p of held) {
      const h = holding(p);
      // A held position is never sold out; the check narrows the type for the row.
      if (h.action === 'sold_out') throw new Error(`position ${p.key} of ${latest.accessionNo} is held and sold out`);
      const tickers = lookups.tickers(p);
      const row: HolderRow = {
        type: 'holder', ticker: h.ticker,
        tickers: h.ticker === null || tickers.includes(h.ticker) ? [...tickers] : [h.ticker, ...tickers],
        cusip: h.cusip, issuer: h.issuer, title_of_class: h.title_of_class, put_call: h.put_call,
        filer_cik: latest.filerCik, filer: latest.filer, period_of_report: latest.periodOfReport,
        filed_at: latest.filedAt, filed_at_source: latest.filedAtSource, accession_no: latest.accessionNo,
        shares: h.shares, value_usd: h.value_usd, weight: h.weight,
        change_shares: h.change_shares, change_pct: h.change_pct, action: h.action,
      };
      // Added last, so that it is the row's last member as the snapshot's facts variant wants it.
      const summary = lookups.summary?.(row, p);
      if (summary !== undefined) row.summary = summary;
      rows.push(row);
    }
  }
  return rows;
}
