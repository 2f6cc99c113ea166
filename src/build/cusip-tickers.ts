/**
 * Tickers for 13F positions, only where confident. The inputs hold no CUSIP table, so a
 * position's issuer name (as filed in the information table) is compared with the company
 * names of the ticker files after normalising case, punctuation and corporate suffixes. A
 * ticker is given only when exactly one company has that name, the company has exactly one
 * ticker (so share classes such as GOOGL/GOOG are never guessed) and the position is in
 * shares (`SH`) of a common class; otherwise null.
 */
import type { Position } from './whales.js';
import type { TickerMap } from './tickers.js';

const SUFFIXES: Record<string, string> = { CORPORATION: 'CORP', INCORPORATED: 'INC', COMPANY: 'CO', LIMITED: 'LTD', HOLDINGS: 'HLDGS' };

/** Upper case, `&` kept, other punctuation dropped, corporate suffixes shortened. */
export function normaliseIssuerName(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9& ]+/g, ' ').split(/\s+/).filter(Boolean)
    .map((word) => SUFFIXES[word] ?? word).join(' ');
}

const NOT_COMMON = /\b(PFD|PREF|NOTE|NOTES|BOND|WARRANT|WTS?|RIGHTS?|UNITS?|DEB|CONV)\b/i;

/**
 * Builds the lookup.
 *
 * @param tickers - the ticker files.
 * @returns a function giving the ticker of a position, or null.
 */
export function cusipTickerLookup(tickers: TickerMap): (position: Pick<Position, 'issuer' | 'titleOfClass'>) => { ticker: string; cik: string } | null {
  const byName = new Map<string, { ticker: string; cik: string } | null>();
  for (const [cik, company] of tickers.entries()) {
    const name = normaliseIssuerName(company.name);
    const ticker = company.tickers.length === 1 ? { ticker: company.tickers[0]!, cik } : null;
    byName.set(name, byName.has(name) ? null : ticker);
  }
  return (position) => {
    if (NOT_COMMON.test(position.titleOfClass)) return null;
    return byName.get(normaliseIssuerName(position.issuer)) ?? null;
  };
}
