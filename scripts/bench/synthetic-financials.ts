/**
 * Synthetic financials rows for the benchmark snapshot (docs/api.md §16): every company's fiscal
 * quarters and years going back from the snapshot's last day, in the kind's order, with
 * made-up but consistent values and a written field of the real one's length (a plain template:
 * the real one's exact decimal rounding costs more than the rest of a row). Fiscal years end on a calendar
 * quarter's last day, drawn per company; Q4 rows exist for some years only, as where filings
 * state the fourth quarter.
 */
import { sortRows } from '../../src/data/snapshot-writer.js';
import { fiscalYearName } from '../../src/facts/fiscal-calendar.js';
import type { FinancialsRow } from '../../src/rows/types.js';
import { randomInt, type Company, type Random } from './synthetic-rows.js';

/** Share of fiscal years whose fourth quarter a filing states (a Q4 row). */
const Q4_SHARE = 0.3;

/** The last day of the calendar month `month` (1–12, may run past 12 or below 1) of `year`, `YYYY-MM-DD`. */
function monthEnd(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * `total` financials rows of `companies`, latest period first, in the kind's order: for each
 * calendar quarter's end going back from `through`, each company's quarter ending then, and its
 * fiscal year where that quarter ends it.
 *
 * @param through - the snapshot's last day, `YYYY-MM-DD`; periods end on or before it.
 */
export function* makeFinancials(random: Random, companies: readonly Company[], through: string, total: number): Generator<FinancialsRow> {
  // Each company's fiscal year ends in March, June, September or December.
  const yearEndMonth = companies.map(() => 3 * (1 + randomInt(random, 4)));
  // The latest calendar quarter's end on or before `through`.
  let year = Number(through.slice(0, 4));
  let month = 3 * Math.ceil(Number(through.slice(5, 7)) / 3);
  const back = (): void => {
    [year, month] = month === 3 ? [year - 1, 12] : [year, month - 3];
  };
  if (monthEnd(year, month) > through) back();
  let written = 0;
  let sequence = 0;
  while (written < total) {
    const end = monthEnd(year, month);
    const batch: FinancialsRow[] = [];
    companies.forEach((company, i) => {
      const before = ((yearEndMonth[i]! - month) % 12 + 12) % 12 / 3;
      if (before === 0) {
        batch.push(makeRow(random, company, 'FY', addDays(monthEnd(year - 1, month), 1), end, sequence++));
        if (random() < Q4_SHARE) batch.push(makeRow(random, company, 'Q4', addDays(monthEnd(year, month - 3), 1), end, sequence++));
      } else {
        batch.push(makeRow(random, company, `Q${4 - before}` as FinancialsRow['fiscal_period'], addDays(monthEnd(year, month - 3), 1), end, sequence++));
      }
    });
    for (const row of sortRows('financials', batch)) {
      if (written++ === total) return;
      yield row;
    }
    back();
  }
}

/** One row: a fiscal year (`FY`) or quarter from `start` to `end`. */
function makeRow(random: Random, company: Company, fiscalPeriod: FinancialsRow['fiscal_period'], start: string, end: string, sequence: number): FinancialsRow {
  const annual = fiscalPeriod === 'FY';
  const quarterOfYear = fiscalPeriod === 'Q4';
  const fiscalYear = fiscalYearName(annual || quarterOfYear ? end : yearEndAfter(end, fiscalPeriod));
  const revenue = Math.round((1e6 + random() * 5e9) * (annual ? 4 : 1));
  const operating = Math.round(revenue * (random() * 0.5 - 0.1));
  const net = Math.round(operating * 0.8);
  const shares = Math.round(1e6 + random() * 1e9);
  const eps = Math.round((net / shares) * 100) / 100;
  const assets = Math.round(revenue * (2 + random() * 4));
  const filedAt = addDays(end, annual || quarterOfYear ? 60 : 40);
  const cashFlow = fiscalPeriod === 'Q2' || fiscalPeriod === 'Q3' ? null : Math.round(revenue * random() * 0.3);
  const row: FinancialsRow = {
    type: 'financials', ticker: company.ticker, tickers: company.ticker ? [company.ticker] : [], cik: company.cik, company: company.name,
    fiscal_year: fiscalYear, fiscal_period: fiscalPeriod, period_start: start, period_end: end, form: annual || quarterOfYear ? '10-K' : '10-Q',
    accession_no: `${company.cik}-${filedAt.slice(2, 4)}-${String(sequence % 1_000_000).padStart(6, '0')}`, filed_at: filedAt,
    values: {
      revenue_usd: revenue, operating_income_usd: operating, net_income_usd: net, eps_basic: eps, eps_diluted: Math.round(eps * 98) / 100,
      total_assets_usd: assets, total_liabilities_usd: Math.round(assets * 0.6), stockholders_equity_usd: Math.round(assets * 0.4),
      cash_usd: Math.round(assets * 0.1), operating_cash_flow_usd: cashFlow, shares_outstanding: shares,
    },
    concepts: {
      revenue_usd: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', operating_income_usd: 'us-gaap:OperatingIncomeLoss',
      net_income_usd: 'us-gaap:NetIncomeLoss', eps_basic: 'us-gaap:EarningsPerShareBasic', eps_diluted: 'us-gaap:EarningsPerShareDiluted',
      total_assets_usd: 'us-gaap:Assets', total_liabilities_usd: 'us-gaap:Liabilities', stockholders_equity_usd: 'us-gaap:StockholdersEquity',
      cash_usd: 'us-gaap:CashAndCashEquivalentsAtCarryingValue',
      ...(cashFlow === null ? {} : { operating_cash_flow_usd: 'us-gaap:NetCashProvidedByUsedInOperatingActivities' }),
      shares_outstanding: 'us-gaap:CommonStockSharesOutstanding',
    },
  };
  const what = annual ? `fiscal year ${fiscalYear}` : `${fiscalPeriod} of fiscal year ${fiscalYear}`;
  return {
    ...row,
    summary: `${company.name}${company.ticker ? ` (${company.ticker})` : ''} first reported ${what}, ${start} to ${end}, on Form ${row.form} filed ${filedAt}. ` +
      `For the period: revenue of ${revenue} USD, operating income of ${operating} USD, net income of ${net} USD and diluted EPS of ${row.values.eps_diluted} USD. ` +
      `At ${end}: total assets of ${assets} USD, total liabilities of ${row.values.total_liabilities_usd} USD, stockholders' equity of ` +
      `${row.values.stockholders_equity_usd} USD and cash and cash equivalents of ${row.values.cash_usd} USD. Common shares outstanding at ${end}: ${shares}.`,
  };
}

/** The last day of the fiscal year that a quarter Q1–Q3 ending on `end` belongs to. */
function yearEndAfter(end: string, fiscalPeriod: FinancialsRow['fiscal_period']): string {
  const after = 4 - Number(fiscalPeriod.slice(1));
  return monthEnd(Number(end.slice(0, 4)), Number(end.slice(5, 7)) + 3 * after);
}
