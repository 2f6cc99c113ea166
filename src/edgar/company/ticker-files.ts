/**
 * company_tickers.json (`{"0":{"cik_str","ticker","title"},…}`) and
 * company_tickers_exchange.json (`{"fields":[…],"data":[[cik,name,ticker,exchange],…]}`), as
 * published at https://www.sec.gov/files/. A company's primary ticker is its first entry.
 */
import { normaliseTicker, padCik } from '../conventions.js';

/** One ticker entry. */
export interface TickerEntry {
  cik: string;
  name: string;
  ticker: string;
  exchange: string | null;
}

/** Whether parsed JSON is one of the two ticker files. */
export function isTickerFile(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.fields) && Array.isArray(record.data)) return record.fields.includes('ticker') && record.fields.includes('cik');
  const first = record['0'] as Record<string, unknown> | undefined;
  return typeof first === 'object' && first !== null && 'cik_str' in first && 'ticker' in first;
}

/**
 * Reads the entries of either ticker file, in file order.
 *
 * @param value - the parsed JSON (see {@link isTickerFile}).
 */
export function parseTickerFile(value: unknown): TickerEntry[] {
  const record = value as Record<string, unknown>;
  const entries: TickerEntry[] = [];
  const push = (cik: unknown, name: unknown, ticker: unknown, exchange: unknown): void => {
    const padded = padCik(typeof cik === 'number' || typeof cik === 'string' ? String(cik) : undefined);
    const symbol = normaliseTicker(typeof ticker === 'string' ? ticker : undefined);
    if (!padded || !symbol) return;
    entries.push({ cik: padded, name: typeof name === 'string' ? name : '', ticker: symbol, exchange: typeof exchange === 'string' ? exchange : null });
  };
  if (Array.isArray(record.fields) && Array.isArray(record.data)) {
    const fields = record.fields as string[];
    const at = (name: string): number => fields.indexOf(name);
    for (const row of record.data as unknown[][]) push(row[at('cik')], row[at('name')], row[at('ticker')], row[at('exchange')]);
  } else {
    for (const item of Object.values(record) as Record<string, unknown>[]) push(item.cik_str, item.title, item.ticker, undefined);
  }
  return entries;
}

/** Tickers of every company, merged from the ticker files. */
export class TickerMap {
  readonly #byCik = new Map<string, { name: string; tickers: string[]; exchange: string | null }>();
  readonly #cikByTicker = new Map<string, string>();
  readonly #exchangeByTicker = new Map<string, string>();

  /** Adds entries; the first ticker seen for a CIK stays its primary ticker. */
  add(entries: readonly TickerEntry[]): void {
    for (const entry of entries) {
      let company = this.#byCik.get(entry.cik);
      if (!company) {
        company = { name: entry.name, tickers: [], exchange: entry.exchange };
        this.#byCik.set(entry.cik, company);
      }
      if (!company.tickers.includes(entry.ticker)) company.tickers.push(entry.ticker);
      company.exchange ??= entry.exchange;
      if (!this.#cikByTicker.has(entry.ticker)) this.#cikByTicker.set(entry.ticker, entry.cik);
      if (entry.exchange !== null && !this.#exchangeByTicker.has(entry.ticker)) this.#exchangeByTicker.set(entry.ticker, entry.exchange);
    }
  }

  /** The company behind a CIK, or undefined. */
  byCik(cik: string): { name: string; tickers: readonly string[]; exchange: string | null } | undefined {
    return this.#byCik.get(cik);
  }

  /** The CIK behind a ticker (EDGAR form), or undefined. */
  cikOf(ticker: string): string | undefined {
    return this.#cikByTicker.get(ticker);
  }

  /** The exchange a ticker trades on (company_tickers_exchange.json: `Nasdaq`, `NYSE`, `CBOE`, `OTC`), or undefined where no file says. */
  exchangeOf(ticker: string): string | undefined {
    return this.#exchangeByTicker.get(ticker);
  }

  /** Every company, in insertion order. */
  entries(): IterableIterator<[string, { name: string; tickers: readonly string[]; exchange: string | null }]> {
    return this.#byCik.entries();
  }
}
