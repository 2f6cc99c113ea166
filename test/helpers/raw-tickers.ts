/**
 * The tickers of the EDGAR test set read with the tests' own code: each submissions JSON's
 * `tickers`, then company_tickers.json and company_tickers_exchange.json, in file order.
 */
import { rawFiles, rawJson } from './real-build.js';

/** A ticker in EDGAR's form, as the tests read it: upper case, `.` and `/` as `-`. */
const edgarTicker = (t: string): string => t.toUpperCase().replace(/[./]/g, '-');

/** Every (CIK, ticker) pair the raw files give, in the order above, CIKs zero-padded to 10 digits. */
function rawTickerPairs(): [cik: string, ticker: string][] {
  const pairs: [string, string][] = [];
  for (const path of rawFiles('submissions').filter((p) => /CIK\d{10}\.json$/.test(p))) {
    const json = rawJson(path);
    for (const t of json.tickers ?? []) pairs.push([String(json.cik).padStart(10, '0'), edgarTicker(t)]);
  }
  for (const entry of Object.values(rawJson('tickers/company_tickers.json')) as { cik_str: number; ticker: string }[]) {
    pairs.push([String(entry.cik_str).padStart(10, '0'), edgarTicker(entry.ticker)]);
  }
  for (const [cik, , ticker] of rawJson('tickers/company_tickers_exchange.json').data as [number, string, string][]) {
    pairs.push([String(cik).padStart(10, '0'), edgarTicker(ticker)]);
  }
  return pairs;
}

/** Every ticker of a CIK: its submissions JSON's list first, then company_tickers.json and the exchange file, in file order. */
export function rawTickers(): (cik: string) => string[] {
  const byCik = new Map<string, string[]>();
  for (const [cik, ticker] of rawTickerPairs()) {
    const list = byCik.get(cik) ?? [];
    if (!list.includes(ticker)) list.push(ticker);
    byCik.set(cik, list);
  }
  return (cik) => byCik.get(cik) ?? [];
}

/** The CIKs that the raw files give a ticker to (one, unless a ticker moved between companies). */
export function rawCiksOfTicker(): (ticker: string) => string[] {
  const byTicker = new Map<string, Set<string>>();
  for (const [cik, ticker] of rawTickerPairs()) byTicker.set(ticker, (byTicker.get(ticker) ?? new Set()).add(cik));
  return (ticker) => [...(byTicker.get(ticker) ?? [])];
}
