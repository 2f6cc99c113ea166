/**
 * Whether a 13F information table reports `value` in thousands of USD or in USD. Since the
 * SEC's 2022 amendments to Form 13F (Release 34-95148, effective for filings from
 * 2023-01-03), values are rounded to the nearest dollar; before, to the nearest thousand. Some
 * filers kept reporting thousands after the switch (and one filed a late report in dollars), so
 * the filing date rule is checked against the implied prices per share of the table.
 */
import type { InfoTableEntry } from '../edgar/records.js';

/** First filing date from which values are in whole USD. */
export const USD_VALUES_FROM = '2023-01-03';

/**
 * Prices per share, in USD, that a listed security plausibly trades at. A table in thousands
 * read as USD shows prices 1,000 times too small (AAPL at $0.13); a table in USD read as
 * thousands shows them 1,000 times too large (a $49 stock at $49,000).
 */
export const PLAUSIBLE_PRICE_USD = Object.freeze({ min: 1, max: 5000 });

/** The decision and which rule made it. */
export interface ValueUnit {
  unit: 'usd' | 'thousands';
  /** True where the implied-price heuristic overruled the filing date rule. */
  inferred: boolean;
  /** Median implied price per share read as USD, or null without share rows. */
  medianImpliedPrice: number | null;
}

/**
 * Decides the value unit of one 13F filing: each share row (not options) votes for the
 * readings under which its implied price per share is plausible; the reading with more votes
 * wins, and a tie keeps the filing date rule. A median alone fails on tables of a few
 * high-priced shares (pre-split GOOGL at $1,750 reads as $1.75 in thousands).
 *
 * @param filedAt - filing date, `YYYY-MM-DD`.
 * @param entries - the information table.
 */
export function decideValueUnit(filedAt: string, entries: readonly InfoTableEntry[]): ValueUnit {
  const byDate: ValueUnit['unit'] = filedAt >= USD_VALUES_FROM ? 'usd' : 'thousands';
  const prices = entries
    .filter((e) => e.sharesType === 'SH' && e.putCall === null && e.shares > 0 && e.value > 0)
    .map((e) => e.value / e.shares)
    .sort((a, b) => a - b);
  if (prices.length === 0) return { unit: byDate, inferred: false, medianImpliedPrice: null };
  const mid = prices.length >> 1;
  const median = prices.length % 2 === 1 ? prices[mid]! : (prices[mid - 1]! + prices[mid]!) / 2;
  const plausible = (price: number): boolean => price >= PLAUSIBLE_PRICE_USD.min && price <= PLAUSIBLE_PRICE_USD.max;
  const usdVotes = prices.filter(plausible).length;
  const thousandsVotes = prices.filter((p) => plausible(p * 1000)).length;
  const byPrice: ValueUnit['unit'] = usdVotes === thousandsVotes ? byDate : usdVotes > thousandsVotes ? 'usd' : 'thousands';
  return { unit: byPrice, inferred: byPrice !== byDate, medianImpliedPrice: median };
}
