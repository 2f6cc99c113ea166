/**
 * Holder rows at 13F scale for the benchmark's synthetic snapshot (`gen-snapshot --holders N`):
 * EDGAR has about 5,000 13F-HR filers a quarter with a few hundred positions each, some 3
 * million positions in all, far more than the ten top holdings a whale row lists.
 */
import type { HolderRow, WhaleRow } from '../../src/rows/types.js';
import { randomInt, type Company, type Random } from './synthetic-rows.js';

/**
 * `count` holder rows, streamed in the kind's order (value_usd descending, then filer_cik, cusip,
 * put_call: src/data/order-key.ts) without holding them: row j's value is a decreasing function
 * of j plus `count - j`, so values are distinct and already in order. Each row is a position of
 * one of `filers` (its filer fields are the whale row's) in the CUSIP of a company of `issuers`
 * drawn by `pick` (a Zipf draw: popular stocks have many holders), 3% of them calls or puts. No
 * filer holds the same CUSIP and put/call twice. The figures are not the whale rows' top
 * holdings (a synthetic snapshot: only the shape and the counts matter).
 *
 * @param pick - index into `issuers` from a random draw.
 * @throws Error when the filers hold every company already (`count` near filers × issuers).
 */
export function* makeManyHolders(random: Random, filers: readonly WhaleRow[], issuers: readonly Company[],
  pick: (random: Random) => number, count: number): Generator<HolderRow> {
  const taken = new Set<string>();
  for (let j = 0; j < count; j++) {
    const first = randomInt(random, filers.length);
    let filer = filers[first]!;
    const putCall = random() < 0.03 ? (random() < 0.5 ? 'Call' : 'Put') : null;
    let company = issuers[pick(random)]!;
    // A position taken already: other draws, then every company of this filer and the next ones in turn.
    for (let i = 0; taken.has(`${filer.cik}${company.cik}${putCall}`); i++) {
      if (i < 20) {
        company = issuers[pick(random)]!;
        continue;
      }
      const turn = Math.floor((i - 20) / issuers.length);
      if (turn >= filers.length) throw new Error(`--holders ${count}: every filer holds every company already`);
      filer = filers[(first + turn) % filers.length]!;
      company = issuers[(i - 20) % issuers.length]!;
    }
    taken.add(`${filer.cik}${company.cik}${putCall}`);
    const value = Math.round(2e10 * ((count - j) / count) ** 6) + (count - j);
    const shares = Math.max(1, Math.round(value / (5 + randomInt(random, 500))));
    const roll = random();
    const action = roll < 0.15 ? 'new' : roll < 0.5 ? 'added' : roll < 0.85 ? 'reduced' : 'unchanged';
    const change = action === 'new' ? shares : action === 'added' ? Math.ceil(shares / 4) : action === 'reduced' ? -Math.ceil(shares / 5) : 0;
    const issuer = company.name.toUpperCase();
    yield {
      type: 'holder', ticker: company.ticker, tickers: company.ticker === null ? [] : [company.ticker],
      cusip: company.cik.slice(1), issuer, title_of_class: putCall === null ? 'COM' : putCall.toUpperCase(), put_call: putCall,
      filer_cik: filer.cik, filer: filer.filer, period_of_report: filer.period_of_report, filed_at: filer.filed_at, filed_at_source: 'edgar',
      accession_no: filer.accession_no, shares, value_usd: value, weight: Math.min(1, value / filer.total_value_usd),
      change_shares: change, change_pct: action === 'new' ? null : Math.round((change / (shares - change)) * 1000) / 10, action,
      summary: `${filer.filer} reported ${shares} shares of ${issuer} worth ${value} USD for the period ending ${filer.period_of_report}.`,
    };
  }
}
