/**
 * The shape of every row kind (docs/api.md §6), as JSON Schema. The snapshot reader checks each
 * row against these, the builder verifies its output with them and the OpenAPI document
 * publishes them, and the TypeScript types in `types.ts` are derived from them (`Static<typeof INSIDER_ROW>`).
 */
import { filedAtSource, summary, ticker, tickers, usd } from './fields.js';
import { FINANCIALS_ROW } from './financials-schema.js';
import {
  accessionNo, arr, bool, cik, date, dateTime, int, literal, nullable, num, obj, oneOf, str, type Schema,
} from './schema.js';

/** Form 4 transaction codes that the insider rows count (SEC Form 4 General Instructions 8). */
export const COUNTED_TRANSACTION_CODES = ['P', 'S'] as const;

const notableTrade = obj({
  insider: str('reporting owner name as filed'),
  role: str('officer title if an officer, else "Director", else "10% Owner", else "Other"; several joined with ", "'),
  code: oneOf(COUNTED_TRANSACTION_CODES, 'Form 4 transaction code (General Instructions 8): P open market or private purchase, S open market or private sale'),
  value_usd: nullable(usd('shares times price per share, rounded to the cent; null where the price is in a footnote only')),
  date: date('transaction date'),
  shares: num('number of shares', { minimum: 0 }),
  price_usd: nullable(num('price per share in USD; null where the price is in a footnote only', { minimum: 0 })),
  plan_10b5_1: nullable(bool('whether the Rule 10b5-1(c) box is checked; null where the form predates the checkbox (April 2023)')),
  accession_no: accessionNo(),
  price_in_footnote: bool('true where the price cell of the line is empty and a footnote attached to the line (or its price cell) states the ' +
    'price per share or unit of the transaction (a conversion or exercise price is not one); price_usd and value_usd are then null. ' +
    'Every build writes it; optional here only so that snapshots built before it still load'),
  from_data_set: bool('true where the trade was read from an Insider Transactions Data Set, not the form\'s XML: the data set stores shares ' +
    'and prices with 2 decimals (its readme: NUMBER(16,2)), so shares, price_usd and value_usd may differ from the form\'s own by that rounding. ' +
    'Where a filing is read both ways, its XML is used'),
}, ['price_in_footnote', 'from_data_set'], 'one P or S trade');

const clusterRule = obj({
  codes: arr(oneOf(COUNTED_TRANSACTION_CODES), 'transaction codes that count as buying'),
  min_insiders: int('distinct reporting owners needed', 1),
  span_days: int('length of the span in days', 1),
}, [], 'the rule behind cluster_buying');

/** Insider row: Form 4 open-market activity of one company in the window. */
export const INSIDER_ROW = obj({
  type: literal('insider'),
  ticker: ticker(),
  tickers,
  cik: cik('issuer CIK'),
  company: str('issuer name'),
  window_days: int('length of the aggregation window in days', 1),
  window_start: date('first day of the window'),
  window_end: date('last day of the window'),
  net_usd: usd('buy_usd minus sell_usd; negative when selling dominates'),
  buy_usd: num('value of priced P transactions, in USD', { minimum: 0 }),
  sell_usd: num('value of priced S transactions, in USD', { minimum: 0 }),
  n_buys: int('number of P transactions, priced or not'),
  n_sells: int('number of S transactions, priced or not'),
  n_buys_without_price: int('P transactions without a reported price (price in a footnote only): in n_buys, not in buy_usd'),
  n_sells_without_price: int('S transactions without a reported price: in n_sells, not in sell_usd'),
  n_buys_price_in_footnote: int('of n_buys_without_price, the P transactions whose price cell is empty and whose footnote states the price per share or unit'),
  n_sells_price_in_footnote: int('of n_sells_without_price, the S transactions whose price cell is empty and whose footnote states the price per share or unit'),
  n_insiders_buying: int('distinct reporting owners with a P transaction; a joint filing counts once, as its first reporting owner'),
  cluster_buying: bool('whether at least min_insiders distinct owners bought within some span_days span'),
  cluster_rule: clusterRule,
  notable: arr(notableTrade, 'up to 5 P or S trades: the priced ones, largest value_usd first, then those whose price is in a footnote only, latest first', 5),
  summary,
}, ['summary', 'tickers', 'n_buys_without_price', 'n_sells_without_price', 'n_buys_price_in_footnote', 'n_sells_price_in_footnote'], 'Form 4 purchases (code P, "open market or private purchase", ' +
  'Form 4 General Instructions 8) and sales (code S) of one company in the window, non-derivative table only. Value = shares × price ' +
  'per share, exact, each sum rounded once to the cent; a transaction without a reported price is counted but adds nothing. A joint ' +
  'filing (several reporting owners on one form) reports one set of transactions: it counts once, credited to its first reporting owner, ' +
  'in the sums, the counts and the cluster rule. A snapshot as of a date holds only forms filed by then.');

/**
 * Insider-transaction row (docs/api.md §16): one transaction line of Table I or Table II of a
 * Form 4 or 4/A in the insider window.
 */
export const INSIDER_TRANSACTION_ROW = obj({
  type: literal('insider_transaction'),
  ticker: nullable(ticker('the issuer\'s primary ticker, or null where it has none (the row is still found by cik)')),
  tickers: arr(ticker(), 'every ticker of the issuer, primary first; [] where it has none. `?ticker=` finds the row by any of them'),
  cik: cik('issuer CIK'),
  company: str('issuer name'),
  owner_cik: cik('CIK of the first reporting owner of the form, to whom a joint filing\'s lines are credited'),
  owner_name: str('that reporting owner\'s name as filed (usually "Last First")'),
  role: str('that owner\'s relationship to the issuer: the officer title if an officer, else "Director", else "10% Owner", else "Other"; several joined with ", "'),
  joint_owner_ciks: arr(cik(), 'the other reporting owners of a joint filing (several owners on one form reporting one set of transactions), in the form\'s order; [] otherwise'),
  form: oneOf(['4', '4/A'], 'the form the line is on: 4, or 4/A (an amendment, whose lines replace those of the filing it amends where it carries non-derivative transactions)'),
  accession_no: accessionNo(),
  filed_at: date('filing date; the signature date where no input gives the filing date (see filed_at_source)'),
  filed_at_source: filedAtSource,
  transaction_date: date('transaction date of the line'),
  table: oneOf(['non_derivative', 'derivative'], 'the form\'s table: non_derivative (Table I: shares and other non-derivative securities) or derivative (Table II: options, warrants, convertibles)'),
  security_title: str('title of the security as filed ("Common Stock", "Stock Option (right to buy)"); empty where the form gives none'),
  code: str('Form 4 transaction code (General Instructions 8), one letter: P open market or private purchase, S open market or private sale, ' +
    'A grant or award, M exercise or conversion of a derivative security, F payment of exercise price or tax by delivering securities, G gift, …',
  { pattern: '^[A-Z]$' }),
  acquired_disposed: oneOf(['A', 'D'], 'A where the securities were acquired, D where they were disposed of'),
  shares: nullable(num('shares or units of the line as filed; null where the line gives only a value')),
  price_usd: nullable(num('price per share or unit in USD as filed; null where the price cell is empty (see price_in_footnote)')),
  value_usd: nullable(usd('shares times price_usd, computed exactly from the figures as filed and rounded once to the cent, halves up; null where either is null')),
  shares_owned_after: nullable(num('shares or units owned after the transaction, as filed; null where the line gives none (or only a value)')),
  direct_indirect: oneOf(['D', 'I'], 'D where the securities are owned directly, I where indirectly'),
  plan_10b5_1: nullable(bool('whether the form\'s Rule 10b5-1(c) box is checked; null where the form predates the checkbox (April 2023) or the data set has no such column')),
  price_in_footnote: bool('true where the price cell of the line is empty and a footnote attached to the line (or its price cell) states the ' +
    'price per share or unit of the transaction (a conversion or exercise price is not one); price_usd and value_usd are then null'),
  from_data_set: bool('true where the line was read from an Insider Transactions Data Set, not the form\'s XML: the data set stores shares and ' +
    'prices with 2 decimals (its readme: NUMBER(16,2)), so shares, price_usd, value_usd and shares_owned_after may differ from the form\'s own by that ' +
    'rounding. Where a filing is read both ways, its XML is used'),
  summary,
}, ['summary'], 'one transaction line of Table I or Table II of a Form 4 or 4/A whose transaction date is in the insider window, filed by the ' +
  'snapshot\'s as-of date; the lines of a filing that a 4/A replaced are left out. A company\'s P and S rows of Table I give its insider ' +
  'row\'s counts exactly and its USD sums within the rounding of each row');

const latestFiling = nullable(obj({
  accession_no: accessionNo(),
  filed_at: date('filing date'),
  url: str('primary document on EDGAR'),
}, [], 'latest filing of this form'));

/**
 * The fields of one 13F position as whale rows' `top_holdings` and holder rows give them: one
 * definition, so that the two kinds describe and check the same figures alike (docs/api.md §16).
 */
const positionFields = {
  issuer: str('name of issuer as filed'),
  cusip: str('CUSIP as filed', { pattern: '^[0-9A-Z]{9}$' }),
  ticker: nullable(ticker('ticker where the CUSIP maps to one with confidence, else null')),
  title_of_class: str('title of class as filed'),
  put_call: oneOf(['Put', 'Call', null], 'option type, null for the security itself'),
  shares: num('shares or principal amount held', { minimum: 0 }),
  value_usd: num('market value in USD', { minimum: 0 }),
  weight: num('share of the filer\'s total value, 0 to 1', { minimum: 0, maximum: 1 }),
  change_shares: nullable(num('shares now minus shares in the previous period')),
  change_pct: nullable(num('change_shares as a percentage of the previous shares; null where there were none')),
  action: oneOf(['new', 'added', 'reduced', 'unchanged', 'sold_out', null], 'move since the previous period; null with no previous period'),
};

const holding = obj(positionFields, [], 'one position of the information table');

/** Whale row: one 13F-HR filer's latest period. */
export const WHALE_ROW = obj({
  type: literal('whale'),
  cik: cik('filer CIK'),
  filer: str('filing manager name'),
  period_of_report: date('calendar quarter end the report covers'),
  filed_at: date('filing date of the latest report for the period; its signature date where no input gives the filing date (see filed_at_source)'),
  filed_at_source: filedAtSource,
  accession_no: accessionNo(),
  previous_period: nullable(date('the period compared with')),
  total_value_usd: num('sum of all positions in USD', { minimum: 0 }),
  n_positions: int('number of positions'),
  value_unit: oneOf(['usd', 'thousands'], 'how the filing reported values'),
  value_unit_inferred: bool('true where a heuristic on implied prices decided value_unit'),
  top_holdings: arr(holding, 'up to 10 largest positions by value', 10),
  moves: arr(holding, 'up to 10 largest absolute value changes, sold-out positions included', 10),
  position_changes: nullable(obj({
    new: int('positions not held in the previous period'), added: int('positions with more shares'), reduced: int('positions with fewer shares'),
    unchanged: int('positions with the same shares'), sold_out: int('positions of the previous period no longer held'),
  }, [], 'moves over all positions of the filing, not only the listed ones; null with no previous period')),
  summary,
}, ['summary', 'position_changes', 'filed_at_source'], 'an institutional investment manager and its latest 13F-HR period filed by the snapshot\'s as-of date');

const figures = obj({
  revenue_usd: nullable(num('revenue in USD')),
  net_income_usd: nullable(num('net income in USD')),
  eps_basic: nullable(num('basic earnings per share in USD')),
  eps_diluted: nullable(num('diluted earnings per share in USD')),
}, [], 'figures from XBRL company facts for the reported period; null where not filed');

const fiscalPeriod = oneOf(['Q1', 'Q2', 'Q3', 'Q4', 'FY', null], 'fiscal period the release reports');

/** Earnings row: an 8-K or 8-K/A with item 2.02. */
export const EARNINGS_ROW = obj({
  type: literal('earnings'),
  ticker: ticker(),
  tickers,
  cik: cik('issuer CIK'),
  company: str('issuer name'),
  form: oneOf(['8-K', '8-K/A'], 'form type'),
  accession_no: accessionNo(),
  filed_at: date('filing date'),
  release_url: str('the press release exhibit where known (EX-99.1, else one typed EX-99.01 or EX-99), else the primary document'),
  fiscal_year: nullable(int('fiscal year the release reports', 1900)),
  fiscal_period: fiscalPeriod,
  figures,
  recap: str('factual recap of the figures; absent on the free plan and where none exists'),
}, ['recap', 'tickers'], 'an earnings release (Form 8-K or 8-K/A with item 2.02) filed by the snapshot\'s as-of date; fiscal period and ' +
  'figures from XBRL company facts filed by then (the latest 10-Q or 10-K period that ended at most 100 days before the release), null where none');

/** Filing row: one EDGAR filing. */
export const FILING_ROW = obj({
  type: literal('filing'),
  ticker: nullable(ticker('ticker of the company, or null where it has none')),
  tickers: arr(ticker(), 'every ticker of the company, primary first; [] where it has none. `?ticker=` finds the row by any of them'),
  cik: cik('CIK of the company EDGAR lists the filing under: its filer, or, for a Form 3/4/5, 144 or Schedule 13D/G, the ' +
    'subject company (the issuer) on which another person filed it'),
  company: str('name of that company'),
  form: str('EDGAR form type, such as 10-K, 8-K, 4'),
  reporting_owners: arr(obj({
    cik: cik('reporting owner CIK'),
    name: str('reporting owner name as the form gives it'),
  }, [], 'a reporting owner'), 'the reporting owners of a Form 3/4/5 (who filed it), as the form\'s own XML names them, first owner first; ' +
    '[] for other forms and where the form\'s XML is not among the inputs. Written by every build of this version; older snapshots may lack it'),
  accession_no: accessionNo(),
  filed_at: date('filing date; the signature date where no input gives the filing date (see filed_at_source)'),
  filed_at_source: filedAtSource,
  accepted_at: nullable(dateTime('when EDGAR accepted the filing, in UTC. EDGAR states acceptance times in Eastern time ' +
    '(America/New_York, daylight saving included) in SGML headers and -index pages, and some submissions JSON files write that ' +
    'Eastern time with a "Z"; the builder converts each to UTC. Null where no input gives it')),
  period_of_report: nullable(date('period of report')),
  items: arr(str('8-K item number such as "2.02"'), '8-K items; [] for other forms'),
  primary_doc_url: nullable(str('primary document on EDGAR')),
  index_url: str('filing index page on EDGAR'),
  summary,
}, ['summary', 'tickers', 'filed_at_source', 'reporting_owners'], 'a filing on EDGAR');

/** Report row: a per-company factual profile combining the other kinds. */
export const REPORT_ROW = obj({
  type: literal('report'),
  ticker: ticker(),
  tickers,
  cik: cik('company CIK'),
  company: str('company name'),
  exchange: nullable(str('listing exchange')),
  sic: nullable(str('Standard Industrial Classification code')),
  sic_description: nullable(str('SIC description')),
  state_of_incorporation: nullable(str('state or country of incorporation')),
  fiscal_year_end: nullable(str('fiscal year end as MMDD', { pattern: '^[0-9]{4}$' })),
  latest_filing_at: nullable(date('date of the latest filing known from any input, by the as-of date')),
  latest: obj({ '10-K': latestFiling, '10-Q': latestFiling, '8-K': latestFiling }, [], 'latest filing per form; company facts, which name an 8-K only when it carried financial data, never give the 8-K'),
  insiders: nullable(obj({
    window_start: date(), window_end: date(), net_usd: usd('net insider value'),
    buy_usd: num(undefined, { minimum: 0 }), sell_usd: num(undefined, { minimum: 0 }),
    n_buys: int(), n_sells: int(), n_insiders_buying: int(), cluster_buying: bool(),
  }, [], 'figures of the insider row')),
  earnings: nullable(obj({
    filed_at: date(), fiscal_year: nullable(int(undefined, 1900)), fiscal_period: fiscalPeriod, figures,
  }, [], 'latest earnings release')),
  institutional: nullable(obj({
    n_filers: int('13F filers holding the company in the snapshot'),
    total_value_usd: num('their combined value in USD, each filer in its latest period of report, whichever it is (see periods)', { minimum: 0 }),
    periods: arr(obj({
      period_of_report: date('a period of report that some filer\'s latest report covers'),
      n_filers: int('filers whose latest period this is'),
      total_value_usd: num('their combined value in USD', { minimum: 0 }),
    }), 'the filers and their value per period of report, latest period first: filers report on different quarters. ' +
      'Every build writes it; optional only so that snapshots built before it still load'),
    top_filers: arr(obj({
      cik: cik('filer CIK'), filer: str(), period_of_report: date(),
      shares: num(undefined, { minimum: 0 }), value_usd: num(undefined, { minimum: 0 }),
    }), 'largest holders by value', 10),
  }, ['periods'], 'holdings by the 13F filers in the snapshot, each filer\'s latest period')),
  summary,
}, ['summary', 'tickers'], 'factual profile of one company with a ticker and at least one filing known by the snapshot\'s as-of date ' +
  '(from submissions JSON, filing headers, Forms 3/4/5, 13F reports or XBRL company facts). Profile fields come from the submissions JSON, ' +
  'else from the latest filing header; institutional sums each 13F filer\'s holdings of any of the company\'s share classes');

export { FINANCIAL_FORMS, FINANCIAL_PERIODS, FINANCIALS_ROW } from './financials-schema.js';

/**
 * Holder row (docs/api.md §16): one position of one 13F filer's latest period, with the figures
 * the filer's whale row gives the same position in `top_holdings`.
 */
export const HOLDER_ROW = obj({
  type: literal('holder'),
  ticker: positionFields.ticker,
  tickers: arr(ticker(), 'every ticker of the company that issued the security (the ticker files and its submissions JSON), primary first; ' +
    '[] where the CUSIP\'s issuer is not resolved to one company. `ticker` is the one of the class held, where it is certain. The row is ' +
    'found by any of them, and by its cusip'),
  cusip: positionFields.cusip,
  issuer: positionFields.issuer,
  title_of_class: positionFields.title_of_class,
  put_call: positionFields.put_call,
  filer_cik: cik('CIK of the 13F filer (the institutional investment manager)'),
  filer: str('filing manager name'),
  period_of_report: date('calendar quarter end the report covers: the filer\'s latest period'),
  filed_at: date('filing date of the latest report for the period; its signature date where no input gives the filing date (see filed_at_source)'),
  filed_at_source: filedAtSource,
  accession_no: accessionNo('accession number of the latest report for the period (a new-holdings amendment adds to the report before it)'),
  shares: positionFields.shares,
  value_usd: positionFields.value_usd,
  weight: positionFields.weight,
  change_shares: positionFields.change_shares,
  change_pct: positionFields.change_pct,
  action: oneOf(['new', 'added', 'reduced', 'unchanged', null], 'move since the previous period; null with no previous period. ' +
    'A position sold out is in no latest period, so it has no holder row (the whale row lists it in moves)'),
  summary,
}, ['summary'], 'one position (CUSIP plus put/call, rows of several managers or discretion types summed) of one 13F-HR filer\'s latest ' +
  'period filed by the snapshot\'s as-of date; the same figures as the filer\'s whale row gives the position');

/** Meta row: the calling key's plan, limits and usage (not stored in snapshots). */
export const META_ROW = obj({
  type: literal('meta'),
  key_id: str('id of the calling key (never the key itself)'),
  account: str('account the key belongs to'),
  plan: str('plan id'),
  plan_label: str('plan name'),
  summaries: bool('whether written fields are returned'),
  max_page_size: int('largest limit honoured', 1),
  limits: obj({ per_minute: int(undefined, 1), per_day: int(undefined, 1) }),
  usage: obj({
    minute: obj({ limit: int(), remaining: int(), used: int(), reset_seconds: int('seconds until the bucket is full') }),
    day: obj({ limit: int(), remaining: int(), used: int(), reset_seconds: int('seconds until the bucket is full') }),
  }),
  snapshot: obj({ version: str(), created_at: dateTime(), data_through: nullable(date()) }),
}, [], 'the calling key\'s plan, limits and usage');

/**
 * The row kinds that snapshots hold, with the snapshot file of each. A kind added after the first
 * version goes at the end (cursors and ETags carry a kind's index here) and into `ADDED_KINDS`
 * (data/snapshot-format.ts), so that versions built before it still load.
 */
export const ROW_KINDS = ['reports', 'insiders', 'whales', 'earnings', 'filings', 'insider-transactions', 'financials', 'holders'] as const;
/** A row kind stored in a snapshot: also the name of its file and its endpoint. */
export type RowKind = (typeof ROW_KINDS)[number];

/** Schema of each stored row kind. */
export const ROW_SCHEMAS: Readonly<Record<RowKind, Schema>> = Object.freeze({
  reports: REPORT_ROW,
  insiders: INSIDER_ROW,
  whales: WHALE_ROW,
  earnings: EARNINGS_ROW,
  filings: FILING_ROW,
  'insider-transactions': INSIDER_TRANSACTION_ROW,
  financials: FINANCIALS_ROW,
  holders: HOLDER_ROW,
});

/** The written field of each kind (docs/api.md §6): `recap` on earnings, `summary` elsewhere. */
export const WRITTEN_FIELD: Readonly<Record<RowKind, 'summary' | 'recap'>> = Object.freeze({
  reports: 'summary',
  insiders: 'summary',
  whales: 'summary',
  earnings: 'recap',
  filings: 'summary',
  'insider-transactions': 'summary',
  financials: 'summary',
  holders: 'summary',
});

/** Words that no written field may contain (docs/api.md §6). Matched case-insensitively as whole words with their inflections (summaries.ts). */
export const ADVICE_WORDS = Object.freeze([
  'recommend', 'price target', 'target price', 'rating', 'upgrade', 'downgrade', 'outperform',
  'underperform', 'overweight', 'underweight', 'undervalued', 'overvalued', 'strong buy',
  'should buy', 'should sell',
]);
