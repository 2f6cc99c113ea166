/**
 * Report rows (decisions §6): one factual profile per company with a ticker, combining its
 * submissions JSON facts, latest 10-K/10-Q/8-K, its insider row, its latest earnings row and
 * the holdings of the 13F filers in the snapshot.
 */
import type { EarningsRow, InsiderRow, LatestFiling, ReportRow } from '../rows/types.js';
import { documentUrl, indexUrl } from './edgar.js';
import type { Company, FilingRecord } from './model.js';
import type { Period, Position } from './whales.js';

/** What the report rows are made from. */
export interface ReportInputs {
  /** CIKs to profile. */
  ciks: Iterable<string>;
  company: (cik: string) => Company | undefined;
  filings: readonly FilingRecord[];
  insiders: readonly InsiderRow[];
  earnings: readonly EarningsRow[];
  periods: Map<string, Period[]>;
  ticker: (position: Position) => string | null;
}

const LATEST_FORMS = ['10-K', '10-Q', '8-K'] as const;

/**
 * Computes the report rows.
 *
 * @returns rows, and how many CIKs had no ticker.
 */
export function computeReportRows(input: ReportInputs): { rows: ReportRow[]; withoutTicker: number } {
  const filingsByCik = new Map<string, FilingRecord[]>();
  for (const f of input.filings) filingsByCik.set(f.cik, [...(filingsByCik.get(f.cik) ?? []), f]);
  const holders = holdersByTicker(input.periods, input.ticker);
  const rows: ReportRow[] = [];
  let withoutTicker = 0;
  for (const cik of new Set(input.ciks)) {
    const company = input.company(cik);
    const ticker = company?.tickers[0];
    if (!company || !ticker) {
      withoutTicker++;
      continue;
    }
    const own = (filingsByCik.get(cik) ?? []).sort((a, b) => (a.filedAt + a.accessionNo < b.filedAt + b.accessionNo ? 1 : -1));
    const latest = Object.fromEntries(LATEST_FORMS.map((form) => [form, latestOf(own, form)])) as ReportRow['latest'];
    const insider = input.insiders.find((r) => r.cik === cik);
    const earning = input.earnings.filter((r) => r.cik === cik).sort((a, b) => (a.filed_at < b.filed_at ? 1 : -1))[0];
    const held = holders.get(ticker) ?? [];
    rows.push({
      type: 'report', ticker, cik, company: company.name, exchange: company.exchange, sic: company.sic,
      sic_description: company.sicDescription, state_of_incorporation: company.stateOfIncorporation,
      fiscal_year_end: company.fiscalYearEnd, latest_filing_at: own[0]?.filedAt ?? null, latest,
      insiders: insider ? {
        window_start: insider.window_start, window_end: insider.window_end, net_usd: insider.net_usd, buy_usd: insider.buy_usd,
        sell_usd: insider.sell_usd, n_buys: insider.n_buys, n_sells: insider.n_sells,
        n_insiders_buying: insider.n_insiders_buying, cluster_buying: insider.cluster_buying,
      } : null,
      earnings: earning ? { filed_at: earning.filed_at, fiscal_year: earning.fiscal_year, fiscal_period: earning.fiscal_period, figures: earning.figures } : null,
      institutional: held.length > 0 ? {
        n_filers: held.length,
        total_value_usd: Math.round(held.reduce((s, h) => s + h.value_usd, 0) * 100) / 100,
        top_filers: [...held].sort((a, b) => b.value_usd - a.value_usd || (a.cik < b.cik ? -1 : 1)).slice(0, 10),
      } : null,
    });
  }
  return { rows, withoutTicker };
}

function latestOf(filings: readonly FilingRecord[], form: string): LatestFiling | null {
  const f = filings.find((r) => r.form === form);
  if (!f) return null;
  return { accession_no: f.accessionNo, filed_at: f.filedAt, url: f.primaryDocument ? documentUrl(f.cik, f.accessionNo, f.primaryDocument) : indexUrl(f.cik, f.accessionNo) };
}

type Holder = { cik: string; filer: string; period_of_report: string; shares: number; value_usd: number };

/** Per ticker, each filer's holding in its latest period (options left out). */
function holdersByTicker(periods: Map<string, Period[]>, ticker: (p: Position) => string | null): Map<string, Holder[]> {
  const out = new Map<string, Holder[]>();
  for (const list of periods.values()) {
    const latest = list[list.length - 1]!;
    const sums = new Map<string, Holder>();
    for (const p of latest.positions.values()) {
      const t = p.putCall === null ? ticker(p) : null;
      if (!t) continue;
      const h = sums.get(t) ?? { cik: latest.filerCik, filer: latest.filer, period_of_report: latest.periodOfReport, shares: 0, value_usd: 0 };
      h.shares += p.shares;
      h.value_usd = Math.round((h.value_usd + p.valueUsd) * 100) / 100;
      sums.set(t, h);
    }
    for (const [t, h] of sums) out.set(t, [...(out.get(t) ?? []), h]);
  }
  return out;
}
