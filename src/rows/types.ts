/**
 * TypeScript types of the rows, derived from their JSON Schemas in `schemas.ts` (issue 24): the
 * schema is the one definition of what is served, and each field's documentation is its
 * `description` there. Dates are `YYYY-MM-DD` strings, money is USD as numbers, CIKs are
 * 10-digit strings.
 */
import type { Static } from './schema.js';
import type { EARNINGS_ROW, FILING_ROW, FINANCIALS_ROW, HOLDER_ROW, INSIDER_ROW, INSIDER_TRANSACTION_ROW, META_ROW, REPORT_ROW, WHALE_ROW } from './schemas.js';

/** A date `YYYY-MM-DD`. */
export type IsoDate = string;

/**
 * Insider row: one company's Form 4 purchases (code P) and sales (code S) in the window; a
 * joint filing counts once, credited to its first reporting owner. Fields and their
 * documentation: `INSIDER_ROW` in `schemas.ts`.
 */
export type InsiderRow = Static<typeof INSIDER_ROW>;

/**
 * One notable P or S trade of an insider row (SEC Form 4 General Instructions 8: P "open market
 * or private purchase", S "open market or private sale"). Fields: `INSIDER_ROW.notable` in `schemas.ts`.
 */
export type NotableTrade = InsiderRow['notable'][number];

/** The cluster rule echoed in each insider row. Fields: `INSIDER_ROW.cluster_rule` in `schemas.ts`. */
export type ClusterRule = InsiderRow['cluster_rule'];

/**
 * Insider-transaction row: one transaction line of Table I or Table II of a Form 4 or 4/A in the
 * window. Fields and their documentation: `INSIDER_TRANSACTION_ROW` in `schemas.ts`.
 */
export type InsiderTransactionRow = Static<typeof INSIDER_TRANSACTION_ROW>;

/** Whale row: one 13F-HR filer's latest period. Fields and their documentation: `WHALE_ROW` in `schemas.ts`. */
export type WhaleRow = Static<typeof WHALE_ROW>;

/** One position in a whale row's `top_holdings` or `moves`. Fields: `WHALE_ROW.top_holdings` in `schemas.ts`. */
export type Holding = WhaleRow['top_holdings'][number];

/**
 * Holder row: one position of one 13F-HR filer's latest period, with the figures its whale row
 * gives the same position. Fields and their documentation: `HOLDER_ROW` in `schemas.ts`.
 */
export type HolderRow = Static<typeof HOLDER_ROW>;

/**
 * Where a row's `filed_at` came from: `edgar`, one of EDGAR's own records of the filing, or
 * `signature_date`, the signature date on the form itself. See `filed_at_source` in `schemas.ts`.
 */
export type FiledAtSource = NonNullable<FilingRow['filed_at_source']>;

/** Earnings row: an 8-K or 8-K/A with item 2.02. Fields and their documentation: `EARNINGS_ROW` in `schemas.ts`. */
export type EarningsRow = Static<typeof EARNINGS_ROW>;

/** Figures of an earnings release, from XBRL company facts. Fields: `EARNINGS_ROW.figures` in `schemas.ts`. */
export type EarningsFigures = EarningsRow['figures'];

/** Fiscal period of a release, null where none is known. */
export type FiscalPeriod = EarningsRow['fiscal_period'];

/** Filing row: one EDGAR filing. Fields and their documentation: `FILING_ROW` in `schemas.ts`. */
export type FilingRow = Static<typeof FILING_ROW>;

/** Report row: a per-company factual profile. Fields and their documentation: `REPORT_ROW` in `schemas.ts`. */
export type ReportRow = Static<typeof REPORT_ROW>;

/** Latest filing of one form in a report row. Fields: `REPORT_ROW.latest` in `schemas.ts`. */
export type LatestFiling = NonNullable<ReportRow['latest']['10-K']>;

/**
 * Financials row: one company's fiscal period as a 10-K or 10-Q first reported it in XBRL
 * (docs/api.md §16). Fields and their documentation: `FINANCIALS_ROW` in `schemas.ts`.
 */
export type FinancialsRow = Static<typeof FINANCIALS_ROW>;

/** The values of a financials row, each a number or null. Fields: `FINANCIALS_ROW.values` in `schemas.ts`. */
export type FinancialValues = FinancialsRow['values'];

/**
 * Meta row: the calling key's plan, limits and usage, built per request and never stored.
 * Fields and their documentation: `META_ROW` in `schemas.ts`.
 */
export type MetaRow = Static<typeof META_ROW>;

/** Any row stored in a snapshot. */
export type StoredRow = InsiderRow | WhaleRow | EarningsRow | FilingRow | ReportRow | InsiderTransactionRow | FinancialsRow | HolderRow;

/** Rows of each stored kind. */
export interface RowsByKind {
  reports: ReportRow;
  insiders: InsiderRow;
  whales: WhaleRow;
  earnings: EarningsRow;
  filings: FilingRow;
  'insider-transactions': InsiderTransactionRow;
  financials: FinancialsRow;
  holders: HolderRow;
}
