/**
 * One fully populated row of every kind (nested objects filled, not null) and a set of
 * mutations that each break one rule of the row schemas, for comparing validators.
 */
import type { EarningsRow, FilingRow, FinancialsRow, HolderRow, InsiderRow, InsiderTransactionRow, ReportRow, WhaleRow } from '../../src/rows/types.js';
import type { RowKind } from '../../src/rows/schemas.js';

const insider: InsiderRow = {
  type: 'insider', ticker: 'NTRA', cik: '0001604821', company: 'Natera, Inc.', window_days: 90,
  window_start: '2025-02-01', window_end: '2025-04-30', net_usd: -1_250_000.5, buy_usd: 250_000, sell_usd: 1_500_000.5,
  n_buys: 2, n_sells: 4, n_insiders_buying: 2, cluster_buying: false,
  cluster_rule: { codes: ['P'], min_insiders: 3, span_days: 30 },
  notable: [
    { insider: 'Doe Jane', role: 'Chief Executive Officer, Director', code: 'S', value_usd: 900_000, date: '2025-03-03',
      shares: 6000, price_usd: 150, plan_10b5_1: true, accession_no: '0001604821-25-000031', price_in_footnote: false, from_data_set: false },
    { insider: 'Roe Richard', role: 'Director', code: 'P', value_usd: 150_000, date: '2024-02-29',
      shares: 1000, price_usd: 150, plan_10b5_1: null, accession_no: '0001604821-25-000012', price_in_footnote: false, from_data_set: true },
  ],
  summary: 'Two insiders bought shares worth 250,000 USD; four sales totalled 1,500,000.50 USD.',
};

const holding = {
  issuer: 'APPLE INC', cusip: '037833100', ticker: 'AAPL', title_of_class: 'COM', put_call: null, shares: 1000, value_usd: 200_000,
  weight: 0.25, change_shares: -50, change_pct: -4.76, action: 'reduced',
} as const;

const whale: WhaleRow = {
  type: 'whale', cik: '0001045810', filer: 'NVIDIA CORP', period_of_report: '2025-03-31', filed_at: '2025-05-15', filed_at_source: 'edgar',
  accession_no: '0001045810-25-000100', previous_period: '2024-12-31', total_value_usd: 800_000, n_positions: 4,
  value_unit: 'thousands', value_unit_inferred: true,
  top_holdings: [{ ...holding }, { ...holding, cusip: '88160R101', ticker: null, put_call: 'Call', action: 'new', change_pct: null }],
  moves: [{ ...holding, action: 'sold_out', shares: 0, value_usd: 0, weight: 0 }],
  summary: 'The filer reported 4 positions worth 800,000 USD.',
};

const earnings: EarningsRow = {
  type: 'earnings', ticker: 'BRK-B', cik: '0001067983', company: 'Berkshire Hathaway Inc', form: '8-K/A',
  accession_no: '0001067983-25-000007', filed_at: '2025-05-03', release_url: 'https://www.sec.gov/Archives/edgar/data/1067983/x/ex991.htm',
  fiscal_year: 2025, fiscal_period: 'Q1', figures: { revenue_usd: 83_291_000_000, net_income_usd: null, eps_basic: 2.1, eps_diluted: null },
  recap: 'Revenue was 83.29 billion USD for Q1 2025.',
};

const filing: FilingRow = {
  type: 'filing', ticker: null, cik: '0001800903', company: 'Private Fund LP', form: 'D', accession_no: '0001800903-25-000002',
  filed_at: '2025-05-03', filed_at_source: 'signature_date', accepted_at: '2025-05-03T16:05:12-04:00', period_of_report: null, items: [],
  primary_doc_url: null, index_url: 'https://www.sec.gov/Archives/edgar/data/1800903/000180090325000002/0001800903-25-000002-index.htm',
  summary: 'Form D filed on 2025-05-03.',
};

const latest = { accession_no: '0000320193-25-000057', filed_at: '2025-05-02', url: 'https://www.sec.gov/Archives/edgar/data/320193/x.htm' };
const report: ReportRow = {
  type: 'report', ticker: 'AAPL', cik: '0000320193', company: 'Apple Inc.', exchange: 'Nasdaq', sic: '3571',
  sic_description: 'Electronic Computers', state_of_incorporation: 'CA', fiscal_year_end: '0927', latest_filing_at: '2025-05-02',
  latest: { '10-K': latest, '10-Q': latest, '8-K': null },
  insiders: { window_start: '2025-02-01', window_end: '2025-04-30', net_usd: -5_000_000, buy_usd: 0, sell_usd: 5_000_000,
    n_buys: 0, n_sells: 3, n_insiders_buying: 0, cluster_buying: false },
  earnings: { filed_at: '2025-05-01', fiscal_year: 2025, fiscal_period: 'Q2', figures: { revenue_usd: 95e9, net_income_usd: 24.78e9, eps_basic: 1.65, eps_diluted: 1.65 } },
  institutional: { n_filers: 1, total_value_usd: 200_000, periods: [{ period_of_report: '2025-03-31', n_filers: 1, total_value_usd: 200_000 }], top_filers: [{ cik: '0001045810', filer: 'NVIDIA CORP', period_of_report: '2025-03-31', shares: 1000, value_usd: 200_000 }] },
  summary: 'Apple Inc. filed a 10-Q on 2025-05-02.',
};

const transaction: InsiderTransactionRow = {
  type: 'insider_transaction', ticker: 'NTRA', tickers: ['NTRA'], cik: '0001604821', company: 'Natera, Inc.', owner_cik: '0001234567',
  owner_name: 'Doe Jane', role: 'Chief Executive Officer, Director', joint_owner_ciks: ['0001234568'], form: '4/A',
  accession_no: '0001604821-25-000031', filed_at: '2025-03-05', filed_at_source: 'edgar', transaction_date: '2025-03-03', table: 'derivative',
  security_title: 'Stock Option (right to buy)', code: 'M', acquired_disposed: 'D', shares: 6000, price_usd: 12.345, value_usd: 74_070,
  shares_owned_after: 14_000, direct_indirect: 'I', plan_10b5_1: true, price_in_footnote: false, from_data_set: true,
  summary: 'On 2025-03-03, Doe Jane exercised 6,000 options.',
};

const financials: FinancialsRow = {
  type: 'financials', ticker: 'AAPL', tickers: ['AAPL'], cik: '0000320193', company: 'Apple Inc.', fiscal_year: 2024, fiscal_period: 'FY',
  period_start: '2023-10-01', period_end: '2024-09-28', form: '10-K', accession_no: '0000320193-24-000123', filed_at: '2024-11-01',
  values: {
    revenue_usd: 391_035_000_000, operating_income_usd: 123_216_000_000, net_income_usd: 93_736_000_000, eps_basic: 6.11, eps_diluted: 6.08,
    total_assets_usd: 364_980_000_000, total_liabilities_usd: 308_030_000_000, stockholders_equity_usd: 56_950_000_000, cash_usd: 29_943_000_000,
    operating_cash_flow_usd: 118_254_000_000, shares_outstanding: 15_116_786_000,
  },
  concepts: {
    revenue_usd: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', operating_income_usd: 'us-gaap:OperatingIncomeLoss',
    net_income_usd: 'us-gaap:NetIncomeLoss', eps_basic: 'us-gaap:EarningsPerShareBasic', eps_diluted: 'us-gaap:EarningsPerShareDiluted',
    total_assets_usd: 'us-gaap:Assets', total_liabilities_usd: 'us-gaap:Liabilities', stockholders_equity_usd: 'us-gaap:StockholdersEquity',
    cash_usd: 'us-gaap:CashAndCashEquivalentsAtCarryingValue', operating_cash_flow_usd: 'us-gaap:NetCashProvidedByUsedInOperatingActivities',
    shares_outstanding: 'us-gaap:CommonStockSharesOutstanding',
  },
  summary: 'Apple Inc. (AAPL) first reported fiscal year 2024, 2023-10-01 to 2024-09-28, on Form 10-K filed 2024-11-01.',
};

const holder: HolderRow = {
  type: 'holder', ticker: 'GOOGL', tickers: ['GOOGL', 'GOOG'], cusip: '02079K305', issuer: 'ALPHABET INC', title_of_class: 'CAP STK CL A',
  put_call: 'Call', filer_cik: '0001061165', filer: 'LONE PINE CAPITAL LLC', period_of_report: '2026-06-30', filed_at: '2026-08-14',
  filed_at_source: 'edgar', accession_no: '0000919574-26-005485', shares: 240_000, value_usd: 77_039_680, weight: 0.004709,
  change_shares: -10_000, change_pct: -4, action: 'reduced',
  summary: 'LONE PINE CAPITAL LLC reported call options on 240,000 shares of ALPHABET INC (GOOGL) worth $77.0 million.',
};

/** A valid, fully populated row of each stored kind. */
export const SAMPLE_ROWS: Readonly<Record<RowKind, Record<string, unknown>>> = Object.freeze({
  insiders: insider as unknown as Record<string, unknown>,
  whales: whale as unknown as Record<string, unknown>,
  earnings: earnings as unknown as Record<string, unknown>,
  filings: filing as unknown as Record<string, unknown>,
  reports: report as unknown as Record<string, unknown>,
  'insider-transactions': transaction as unknown as Record<string, unknown>,
  financials: financials as unknown as Record<string, unknown>,
  holders: holder as unknown as Record<string, unknown>,
});

/** A valid meta row for a Signal key. */
export const SAMPLE_META_ROW: Record<string, unknown> = {
  type: 'meta', key_id: 'k_7f3a9c', account: 'acme', plan: 'signal', plan_label: 'Signal', summaries: true, max_page_size: 50,
  limits: { per_minute: 60, per_day: 5000 },
  usage: { minute: { limit: 60, remaining: 41, used: 19, reset_seconds: 19 }, day: { limit: 5000, remaining: 4711, used: 289, reset_seconds: 5000 } },
  snapshot: { version: '2026-11-02T06-00-00Z', created_at: '2026-11-02T06:00:00.000Z', data_through: '2026-10-31' },
};

type Row = Record<string, unknown>;

/** Sets a value at a dotted path (array indexes as numbers) in a deep copy of `row`. */
export function withValue(row: Row, path: string, value: unknown): Row {
  const copy = structuredClone(row);
  const parts = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** Mutations that break one rule each, by kind: [what, path, value (undefined deletes)]. */
export const BREAKING_MUTATIONS: Readonly<Record<RowKind | 'meta', readonly (readonly [string, string, unknown])[]>> = Object.freeze({
  insiders: [
    ['wrong type const', 'type', 'whale'], ['missing required field', 'net_usd', undefined], ['summary null', 'summary', null],
    ['ticker in lower case', 'ticker', 'ntra'], ['cik not 10 digits', 'cik', '1604821'], ['fractional count', 'n_buys', 1.5],
    ['negative buy_usd', 'buy_usd', -1], ['bad transaction code', 'notable.0.code', 'A'], ['month 13', 'window_start', '2025-13-01'],
    ['bad accession number', 'notable.1.accession_no', '0001604821-25-12'], ['plan_10b5_1 a string', 'notable.0.plan_10b5_1', 'yes'],
    ['from_data_set a string', 'notable.1.from_data_set', 'true'],
    ['more than 5 notable trades', 'notable', Array.from({ length: 6 }, () => insider.notable[0])], ['window_days 0', 'window_days', 0],
  ],
  whales: [
    ['weight above 1', 'top_holdings.0.weight', 1.2], ['unknown action', 'moves.0.action', 'closed'], ['put_call lower case', 'top_holdings.0.put_call', 'call'],
    ['bad value_unit', 'value_unit', 'millions'], ['CUSIP too short', 'top_holdings.0.cusip', '03783310'], ['missing moves', 'moves', undefined],
    ['previous_period not a date', 'previous_period', '2024-12'], ['unknown filed_at_source', 'filed_at_source', 'header'],
  ],
  earnings: [
    ['bad form', 'form', '10-Q'], ['fiscal_period H1', 'fiscal_period', 'H1'], ['recap null', 'recap', null],
    ['figure as a string', 'figures.revenue_usd', '83291000000'], ['fiscal_year before 1900', 'fiscal_year', 1850], ['missing figures', 'figures', undefined],
  ],
  filings: [
    ['items not an array', 'items', '2.02'], ['item not a string', 'items', [2.02]], ['accepted_at not a date-time', 'accepted_at', '2025-05-03 16:05'],
    ['filed_at_source null', 'filed_at_source', null],
    ['index_url null', 'index_url', null], ['missing form', 'form', undefined],
  ],
  reports: [
    ['fiscal_year_end not MMDD', 'fiscal_year_end', '09-27'], ['latest 8-K missing', 'latest.8-K', undefined],
    ['institutional top filer cik short', 'institutional.top_filers.0.cik', '45810'], ['insiders missing n_buys', 'insiders.n_buys', undefined],
    ['earnings fiscal_period bad', 'earnings.fiscal_period', 'Q5'], ['summary a number', 'summary', 1],
  ],
  'insider-transactions': [
    ['wrong type const', 'type', 'insider'], ['missing tickers', 'tickers', undefined], ['owner_cik short', 'owner_cik', '1234567'],
    ['joint owner cik short', 'joint_owner_ciks.0', '1234568'], ['form 5', 'form', '5'], ['table other', 'table', 'holding'],
    ['code two letters', 'code', 'SP'], ['acquired_disposed null', 'acquired_disposed', null], ['direct_indirect lower case', 'direct_indirect', 'd'],
    ['value_usd a string', 'value_usd', '74070'], ['transaction_date not a date', 'transaction_date', '2025-3-3'],
    ['from_data_set missing', 'from_data_set', undefined], ['price_in_footnote null', 'price_in_footnote', null], ['summary null', 'summary', null],
  ],
  financials: [
    ['fiscal_period H1', 'fiscal_period', 'H1'], ['fiscal_year a string', 'fiscal_year', '2024'], ['form 8-K', 'form', '8-K'],
    ['value as a string', 'values.revenue_usd', '391035000000'], ['missing value', 'values.cash_usd', undefined],
    ['concept without its taxonomy', 'concepts.revenue_usd', 'Revenues'], ['ticker missing', 'ticker', undefined], ['period_end not a date', 'period_end', '2024-09'],
  ],
  holders: [
    ['wrong type const', 'type', 'whale'], ['action sold_out', 'action', 'sold_out'], ['filer_cik not 10 digits', 'filer_cik', '1061165'],
    ['tickers missing', 'tickers', undefined], ['ticker in a list', 'ticker', ['GOOGL']], ['weight above 1', 'weight', 1.01],
    ['filed_at_source missing', 'filed_at_source', undefined], ['CUSIP lower case', 'cusip', '02079k305'], ['summary null', 'summary', null],
  ],
  meta: [
    ['max_page_size 0', 'max_page_size', 0], ['missing usage', 'usage', undefined], ['created_at a date only', 'snapshot.created_at', '2026-11-02'],
    ['remaining negative', 'usage.minute.remaining', -1],
  ],
});
