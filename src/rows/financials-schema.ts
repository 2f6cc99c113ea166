/**
 * The financials row (docs/api.md §16): one company's fiscal period from its XBRL company facts,
 * values as first reported, each with the concept it came from.
 */
import { accessionNo, arr, cik, date, int, literal, nullable, num, obj, oneOf, str, type TypedSchema } from './schema.js';
import { summary, ticker } from './fields.js';

/** The fiscal periods of a financials row: a fiscal year, or one of its quarters. */
export const FINANCIAL_PERIODS = ['FY', 'Q1', 'Q2', 'Q3', 'Q4'] as const;

/** The forms whose XBRL financial statements give financials rows (docs/api.md §16). */
export const FINANCIAL_FORMS = ['10-K', '10-Q', '10-K/A', '10-Q/A'] as const;

const periodValue = (what: string): TypedSchema<number | null> => nullable(num(`${what} over the row's period (a three-month value on a quarter row, the year's on an FY row), as first reported; null where no filing stated it`));
const instantValue = (what: string): TypedSchema<number | null> => nullable(num(`${what} at period_end, as first reported; null where no filing stated it`));
const conceptName = str('the taxonomy-qualified XBRL concept the value came from', { pattern: '^[a-z][a-z0-9-]*:[A-Za-z0-9]+$' });

/** The values of a financials row, each with its unit. */
const financialValues = {
  revenue_usd: periodValue('revenue in USD'),
  operating_income_usd: periodValue('operating income (negative for a loss) in USD'),
  net_income_usd: periodValue('net income attributable to the company (negative for a loss) in USD'),
  eps_basic: periodValue('basic earnings per share in USD'),
  eps_diluted: periodValue('diluted earnings per share in USD'),
  total_assets_usd: instantValue('total assets in USD'),
  total_liabilities_usd: instantValue('total liabilities in USD'),
  stockholders_equity_usd: instantValue('stockholders\' equity in USD'),
  cash_usd: instantValue('cash and cash equivalents in USD'),
  operating_cash_flow_usd: periodValue('net cash from operating activities in USD'),
  shares_outstanding: nullable(num('common shares outstanding at period_end (balance sheet); where the filings state none at that date, the count on the ' +
    'cover page of the filing that first reported the period, as of its own later date (concept dei:EntityCommonStockSharesOutstanding); null where neither is stated')),
};

/** Financials row: one company's fiscal period as its 10-K or 10-Q first reported it in XBRL. */
export const FINANCIALS_ROW = obj({
  type: literal('financials'),
  ticker: nullable(ticker('primary ticker of the company, or null where it has none')),
  tickers: arr(ticker(), 'every ticker of the company, primary first; [] where it has none. `?ticker=` finds the row by any of them'),
  cik: cik('company CIK'),
  company: str('company name'),
  fiscal_year: int('fiscal year: the calendar year of its last day, or the year before when that day is January 1 to 7 (a 52/53-week year ending near December 31)', 1900),
  fiscal_period: oneOf(FINANCIAL_PERIODS, 'FY for the fiscal year, Q1 to Q4 for its three-month quarters on the company\'s own fiscal calendar (not the filing\'s fy/fp tags)'),
  period_start: date('first day of the period'),
  period_end: date('last day of the period'),
  form: oneOf(FINANCIAL_FORMS, 'form of the filing that first reported the period'),
  accession_no: accessionNo('accession number of the filing that first reported the period'),
  filed_at: date('filing date of that filing'),
  values: obj(financialValues, [], 'the period\'s values, as first reported: each from the earliest filing (by filing date, then accession number) ' +
    'that stated it; a later restatement does not change them. A quarter row takes three-month values only: a year-to-date cash flow leaves ' +
    'operating_cash_flow_usd null on Q2 and Q3'),
  concepts: obj(Object.fromEntries(Object.keys(financialValues).map((key) => [key, conceptName])) as Record<keyof typeof financialValues, typeof conceptName>,
    Object.keys(financialValues) as (keyof typeof financialValues)[], 'for each non-null value, the concept it came from, e.g. "us-gaap:Revenues"'),
  summary,
}, ['summary'], 'one fiscal period of one company that a 10-K, 10-Q or an amendment reported in XBRL, from the company facts filed by the snapshot\'s as-of date; ' +
  'every period in the data is a row (no window). A Q4 row exists only where a filing states the three-month fourth quarter itself; it is never derived from the year and the other quarters');

