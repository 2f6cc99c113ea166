/**
 * Report rows (docs/api.md §6): one factual profile per company with a ticker and at least one
 * known filing, combining its profile (companies.ts), its latest filing and latest 10-K, 10-Q
 * and 8-K (known-filings.ts), its insider row, its latest earnings row and the holdings that
 * the 13F filers in the snapshot reported in any of its share classes, each filer's latest
 * period, totalled per period of report.
 */
import type { EarningsRow, InsiderRow, LatestFiling, ReportRow } from '../rows/types.js';
import { fromNumber, sumDecimals, toNumber } from './decimal.js';
import type { PositionIssuer } from './issuer-tickers.js';
import { knownFilingUrl, latestFiling, type KnownFiling } from './known-filings.js';
import type { Company } from '../edgar/records.js';
import type { Period, Position } from './whales.js';
import { pushTo } from './group.js';

/** The company a 13F position's issuer resolves to (issuer-tickers.ts). */
export type IssuerOf = (position: Position) => PositionIssuer | null;

/** What the report rows are made from; everything already cut at the as-of date. */
export interface ReportInputs {
  company: (cik: string) => Company | undefined;
  /** Known filings per CIK (known-filings.ts). */
  known: ReadonlyMap<string, readonly KnownFiling[]>;
  insiders: readonly InsiderRow[];
  earnings: readonly EarningsRow[];
  periods: ReadonlyMap<string, Period[]>;
  issuerOf: IssuerOf;
}

const LATEST_FORMS = ['10-K', '10-Q', '8-K'] as const;

/**
 * Computes the report rows.
 *
 * @returns rows, and how many CIKs with known filings had no ticker.
 */
export function computeReportRows(input: ReportInputs): { rows: ReportRow[]; withoutTicker: number } {
  const holders = holdersByIssuer(input.periods, input.issuerOf);
  const rows: ReportRow[] = [];
  let withoutTicker = 0;
  for (const [cik, own] of input.known) {
    const company = input.company(cik);
    const ticker = company?.tickers[0];
    if (!company || !ticker || own.length === 0) {
      withoutTicker++;
      continue;
    }
    const latest = Object.fromEntries(LATEST_FORMS.map((form) => [form, latestOf(cik, own, form)])) as ReportRow['latest'];
    const insider = input.insiders.find((r) => r.cik === cik);
    const earning = input.earnings.filter((r) => r.cik === cik).sort((a, b) => (a.filed_at < b.filed_at ? 1 : a.filed_at > b.filed_at ? -1 : 0))[0];
    const held = holders.get(cik) ?? [];
    rows.push({
      type: 'report', ticker, tickers: company.tickers, cik, company: company.name, exchange: company.exchange, sic: company.sic,
      sic_description: company.sicDescription, state_of_incorporation: company.stateOfIncorporation,
      fiscal_year_end: company.fiscalYearEnd, latest_filing_at: latestFiling(own)!.filedAt, latest,
      insiders: insider ? {
        window_start: insider.window_start, window_end: insider.window_end, net_usd: insider.net_usd, buy_usd: insider.buy_usd,
        sell_usd: insider.sell_usd, n_buys: insider.n_buys, n_sells: insider.n_sells,
        n_insiders_buying: insider.n_insiders_buying, cluster_buying: insider.cluster_buying,
      } : null,
      earnings: earning ? { filed_at: earning.filed_at, fiscal_year: earning.fiscal_year, fiscal_period: earning.fiscal_period, figures: earning.figures } : null,
      institutional: held.length > 0 ? {
        n_filers: held.length,
        total_value_usd: toNumber(sumDecimals(held.map((h) => fromNumber(h.value_usd)))),
        periods: byPeriod(held),
        top_filers: [...held].sort((a, b) => b.value_usd - a.value_usd || (a.cik < b.cik ? -1 : 1)).slice(0, 10),
      } : null,
    });
  }
  return { rows, withoutTicker };
}

/** The latest filing of a form; an 8-K only from inputs that list every 8-K (not company facts). */
function latestOf(cik: string, filings: readonly KnownFiling[], form: string): LatestFiling | null {
  const f = latestFiling(filings, (r) => r.form === form && (form !== '8-K' || r.source !== 'company-facts'));
  return f ? { accession_no: f.accessionNo, filed_at: f.filedAt, url: knownFilingUrl(cik, f) } : null;
}

type Holder = { cik: string; filer: string; period_of_report: string; shares: number; value_usd: number };

/**
 * The holders totalled per period of report, latest period first: filers report on different
 * quarters (each filer's latest period is used), and a sum across quarters is no holding at any
 * date, so each period is stated apart.
 */
function byPeriod(held: readonly Holder[]): NonNullable<ReportRow['institutional']>['periods'] {
  const periods = new Map<string, Holder[]>();
  for (const h of held) pushTo(periods, h.period_of_report, h);
  return [...periods].sort(([a], [b]) => (a < b ? 1 : -1)).map(([period, list]) => ({
    period_of_report: period, n_filers: list.length, total_value_usd: toNumber(sumDecimals(list.map((h) => fromNumber(h.value_usd)))),
  }));
}

/**
 * Per issuer CIK, each filer's holding in its latest period: the shares and value of every
 * position in the issuer's securities that resolve to it (any share class; options left out).
 */
function holdersByIssuer(periods: ReadonlyMap<string, Period[]>, issuerOf: IssuerOf): Map<string, Holder[]> {
  const out = new Map<string, Holder[]>();
  for (const list of periods.values()) {
    const latest = list[list.length - 1]!;
    const sums = new Map<string, Position[]>();
    for (const p of latest.positions.values()) {
      const issuer = p.putCall === null ? issuerOf(p) : null;
      if (issuer) pushTo(sums, issuer.cik, p);
    }
    for (const [issuerCik, positions] of sums) {
      pushTo(out, issuerCik, {
        cik: latest.filerCik, filer: latest.filer, period_of_report: latest.periodOfReport,
        shares: toNumber(sumDecimals(positions.map((p) => fromNumber(p.shares)))),
        value_usd: toNumber(sumDecimals(positions.map((p) => fromNumber(p.valueUsd)))),
      });
    }
  }
  return out;
}
