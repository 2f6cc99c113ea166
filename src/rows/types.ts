/**
 * TypeScript shapes of the rows (decisions §6). `schemas.ts` holds the same shapes as JSON
 * Schema; a test checks that rows built from these types pass those schemas.
 * Dates are `YYYY-MM-DD` strings, money is USD as numbers, CIKs are 10-digit strings.
 */

/** A date `YYYY-MM-DD`. */
export type IsoDate = string;

/**
 * Where a row's `filed_at` came from: `edgar`, one of EDGAR's own records of the filing (SGML
 * header, `-index` page, `.header.json`, submissions JSON, a data set's SUBMISSION table); or
 * `signature_date`, the signature date on the Form 3/4/5 or 13F cover page itself, where no input
 * gives the filing date (a bare XML file). Forms are mostly signed on the day they are filed, some days before.
 */
export type FiledAtSource = 'edgar' | 'signature_date';

/**
 * One notable P or S trade (decisions §6, insider row). Code P is an "open market or private
 * purchase" and S an "open market or private sale" (SEC Form 4 General Instructions 8): IPO
 * allocations, offerings and private placements reported with code P are purchases too.
 */
export interface NotableTrade {
  insider: string;
  role: string;
  code: 'P' | 'S';
  /** shares × price per share, rounded to the cent; null where the price is in a footnote only. */
  value_usd: number | null;
  date: IsoDate;
  shares: number;
  /** Price per share in USD; null where the price is in a footnote only. */
  price_usd: number | null;
  plan_10b5_1: boolean | null;
  accession_no: string;
  /** The price cell is empty and a footnote of the line states the price per share or unit (not a conversion or exercise price). */
  price_in_footnote: boolean;
  /**
   * True where the trade was read from an Insider Transactions Data Set rather than the form's
   * XML: the data set stores shares and prices with 2 decimals (its readme: NUMBER(16,2)), so
   * `shares`, `price_usd` and `value_usd` may differ from the form's own by that rounding. Written
   * by every build of this version; older snapshots may lack it.
   */
  from_data_set?: boolean;
}

/** The cluster rule echoed in each insider row. */
export interface ClusterRule {
  codes: ('P' | 'S')[];
  min_insiders: number;
  span_days: number;
}

/**
 * Insider row: one company's Form 4 purchases (code P) and sales (code S) in the window.
 *
 * A joint filing (several reporting owners on one form, such as a fund and its general partner)
 * reports one set of transactions: it counts once, credited to its first reporting owner, in the
 * sums, the counts and the cluster rule, so the owners of a joint filing are one buyer
 * (decisions §6).
 */
export interface InsiderRow {
  type: 'insider';
  ticker: string;
  /**
   * Every ticker the company trades under (company_tickers files and the submissions JSON),
   * primary first; `?ticker=` finds the row by any of them (decisions §6 "Tickers"). Written by
   * every build of this version; older snapshots may lack it.
   */
  tickers?: string[];
  cik: string;
  company: string;
  window_days: number;
  window_start: IsoDate;
  window_end: IsoDate;
  net_usd: number;
  buy_usd: number;
  sell_usd: number;
  n_buys: number;
  n_sells: number;
  /** P transactions whose price the form gives only in a footnote (or not at all): counted in n_buys, not in buy_usd. */
  n_buys_without_price?: number;
  /** S transactions without a reported price: counted in n_sells, not in sell_usd. */
  n_sells_without_price?: number;
  /** Of n_buys_without_price, those whose price cell is empty and whose footnote states the price per share or unit. */
  n_buys_price_in_footnote?: number;
  /** Of n_sells_without_price, those whose price cell is empty and whose footnote states the price per share or unit. */
  n_sells_price_in_footnote?: number;
  n_insiders_buying: number;
  cluster_buying: boolean;
  cluster_rule: ClusterRule;
  notable: NotableTrade[];
  summary?: string;
}

/** One position in a whale row's `top_holdings` or `moves`. */
export interface Holding {
  issuer: string;
  cusip: string;
  ticker: string | null;
  title_of_class: string;
  put_call: 'Put' | 'Call' | null;
  shares: number;
  value_usd: number;
  weight: number;
  change_shares: number | null;
  change_pct: number | null;
  action: 'new' | 'added' | 'reduced' | 'unchanged' | 'sold_out' | null;
}

/** Whale row: one 13F-HR filer's latest period. */
export interface WhaleRow {
  type: 'whale';
  cik: string;
  filer: string;
  period_of_report: IsoDate;
  filed_at: IsoDate;
  /** Where `filed_at` came from. Written by every build of this version; older snapshots may lack it. */
  filed_at_source?: FiledAtSource;
  accession_no: string;
  previous_period: IsoDate | null;
  total_value_usd: number;
  n_positions: number;
  value_unit: 'usd' | 'thousands';
  value_unit_inferred: boolean;
  top_holdings: Holding[];
  moves: Holding[];
  /** How many positions of the whole filing were new, added, reduced, unchanged and sold out; null with no previous period. */
  position_changes?: { new: number; added: number; reduced: number; unchanged: number; sold_out: number } | null;
  summary?: string;
}

/** Figures of an earnings release, from XBRL company facts. */
export interface EarningsFigures {
  revenue_usd: number | null;
  net_income_usd: number | null;
  eps_basic: number | null;
  eps_diluted: number | null;
}

/** Fiscal period of a release. */
export type FiscalPeriod = 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'FY' | null;

/** Earnings row: an 8-K or 8-K/A with item 2.02. */
export interface EarningsRow {
  type: 'earnings';
  ticker: string;
  /**
   * Every ticker the company trades under (company_tickers files and the submissions JSON),
   * primary first; `?ticker=` finds the row by any of them (decisions §6 "Tickers"). Written by
   * every build of this version; older snapshots may lack it.
   */
  tickers?: string[];
  cik: string;
  company: string;
  form: '8-K' | '8-K/A';
  accession_no: string;
  filed_at: IsoDate;
  release_url: string;
  fiscal_year: number | null;
  fiscal_period: FiscalPeriod;
  figures: EarningsFigures;
  recap?: string;
}

/** Filing row: one EDGAR filing. */
export interface FilingRow {
  type: 'filing';
  ticker: string | null;
  /**
   * Every ticker the company trades under (company_tickers files and the submissions JSON),
   * primary first, [] where it has none; `?ticker=` finds the row by any of them (decisions §6 "Tickers"). Written by
   * every build of this version; older snapshots may lack it.
   */
  tickers?: string[];
  cik: string;
  company: string;
  form: string;
  /**
   * The reporting owners of a Form 3/4/5 (who filed it, on the company above), as the form's XML
   * names them, first owner first; [] for other forms and where the XML is not among the inputs.
   * Written by every build of this version; older snapshots may lack it.
   */
  reporting_owners?: { cik: string; name: string }[];
  accession_no: string;
  filed_at: IsoDate;
  /** Where `filed_at` came from. Written by every build of this version; older snapshots may lack it. */
  filed_at_source?: FiledAtSource;
  /**
   * When EDGAR accepted the filing, RFC 3339 in UTC. EDGAR gives it in Eastern time
   * (America/New_York, with daylight saving) in SGML headers and `-index.htm` pages; some
   * submissions JSON files write that Eastern time with a misleading `Z` and others true UTC
   * (see build/submissions-clock.ts). The builder converts each to UTC. Null where no input
   * gives it.
   */
  accepted_at: string | null;
  period_of_report: IsoDate | null;
  items: string[];
  primary_doc_url: string | null;
  index_url: string;
  summary?: string;
}

/** Latest filing of one form in a report row. */
export interface LatestFiling {
  accession_no: string;
  filed_at: IsoDate;
  url: string;
}

/** Report row: a per-company factual profile. */
export interface ReportRow {
  type: 'report';
  ticker: string;
  /**
   * Every ticker the company trades under (company_tickers files and the submissions JSON),
   * primary first; `?ticker=` finds the row by any of them (decisions §6 "Tickers"). Written by
   * every build of this version; older snapshots may lack it.
   */
  tickers?: string[];
  cik: string;
  company: string;
  exchange: string | null;
  sic: string | null;
  sic_description: string | null;
  state_of_incorporation: string | null;
  fiscal_year_end: string | null;
  latest_filing_at: IsoDate | null;
  latest: { '10-K': LatestFiling | null; '10-Q': LatestFiling | null; '8-K': LatestFiling | null };
  insiders: Pick<InsiderRow, 'window_start' | 'window_end' | 'net_usd' | 'buy_usd' | 'sell_usd' | 'n_buys' | 'n_sells' | 'n_insiders_buying' | 'cluster_buying'> | null;
  earnings: { filed_at: IsoDate; fiscal_year: number | null; fiscal_period: FiscalPeriod; figures: EarningsFigures } | null;
  institutional: {
    n_filers: number;
    /** Sum over each filer's latest period, whatever the period: see `periods`. */
    total_value_usd: number;
    /** Filers and value per period of report (each filer's latest), latest period first. */
    periods: { period_of_report: IsoDate; n_filers: number; total_value_usd: number }[];
    top_filers: { cik: string; filer: string; period_of_report: IsoDate; shares: number; value_usd: number }[];
  } | null;
  summary?: string;
}

/** Any row stored in a snapshot. */
export type StoredRow = InsiderRow | WhaleRow | EarningsRow | FilingRow | ReportRow;

/** Rows of each stored kind. */
export interface RowsByKind {
  reports: ReportRow;
  insiders: InsiderRow;
  whales: WhaleRow;
  earnings: EarningsRow;
  filings: FilingRow;
}
