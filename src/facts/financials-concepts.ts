/**
 * Which XBRL concepts give each value of a financials row (docs/api.md §16), in order of
 * preference. Concepts are named as company facts names them, taxonomy-qualified:
 *
 * - `us-gaap:` the US GAAP Financial Reporting Taxonomy (FASB), whose element definitions say what
 *   each concept measures (e.g. `Revenues`: "Amount of revenue recognized from goods sold,
 *   services rendered, insurance premiums, or other activities that constitute an earning process";
 *   `RevenueFromContractWithCustomerExcludingAssessedTax`: the ASC 606 revenue element that
 *   replaced `SalesRevenueNet` from the 2018 taxonomy on; `NetIncomeLoss`: the portion of profit or
 *   loss attributable to the parent; `ProfitLoss`: the same including noncontrolling interests).
 * - `dei:` the SEC's Document and Entity Information taxonomy, for the cover page of Forms 10-K
 *   and 10-Q: `EntityCommonStockSharesOutstanding` is the number of shares of common stock
 *   outstanding "as of the latest practicable date" (the form's cover page), a date after the
 *   period's end.
 *
 * Company facts carries only facts without dimensions (a company's totals, not its segments), so
 * every value here is a total as the filing's face statements state it.
 */
import type { FinancialValues } from '../rows/types.js';

/** A key of a financials row's `values`. */
export type FinancialValueKey = keyof FinancialValues;

/** Where the concepts of one value are read from. */
export interface ValueConcepts {
  /**
   * How the facts are dated: `duration` facts cover the row's own period (start and end equal
   * to the row's), `instant` facts are balances at the row's `period_end`.
   */
  readonly dated: 'duration' | 'instant';
  /** The concepts, most preferred first. Within one filing the first it states wins (financials.ts). */
  readonly concepts: readonly string[];
  /**
   * Cover-page concepts, dated at the filing's own later date: read only where none of
   * `concepts` is stated at the period's end, and only from the filing that first reported the
   * period.
   */
  readonly cover?: readonly string[];
}

/** The concepts of each value, in the order of the row's `values`. */
export const FINANCIAL_CONCEPTS: Readonly<Record<FinancialValueKey, ValueConcepts>> = Object.freeze({
  revenue_usd: {
    dated: 'duration',
    // Total revenues first: a company that states both reports Revenues as the total, of which
    // contract revenue (ASC 606) may be a part; SalesRevenueNet is the pre-2018 element.
    concepts: [
      'us-gaap:Revenues',
      'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
      'us-gaap:SalesRevenueNet',
      'us-gaap:RevenuesNetOfInterestExpense',
    ],
  },
  operating_income_usd: { dated: 'duration', concepts: ['us-gaap:OperatingIncomeLoss'] },
  net_income_usd: { dated: 'duration', concepts: ['us-gaap:NetIncomeLoss', 'us-gaap:ProfitLoss'] },
  eps_basic: { dated: 'duration', concepts: ['us-gaap:EarningsPerShareBasic', 'us-gaap:EarningsPerShareBasicAndDiluted'] },
  eps_diluted: { dated: 'duration', concepts: ['us-gaap:EarningsPerShareDiluted', 'us-gaap:EarningsPerShareBasicAndDiluted'] },
  total_assets_usd: { dated: 'instant', concepts: ['us-gaap:Assets'] },
  total_liabilities_usd: { dated: 'instant', concepts: ['us-gaap:Liabilities'] },
  stockholders_equity_usd: {
    dated: 'instant',
    concepts: ['us-gaap:StockholdersEquity', 'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'],
  },
  cash_usd: {
    dated: 'instant',
    // Restricted cash is included only where the company states no other cash total.
    concepts: ['us-gaap:CashAndCashEquivalentsAtCarryingValue', 'us-gaap:Cash', 'us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents'],
  },
  operating_cash_flow_usd: {
    dated: 'duration',
    concepts: ['us-gaap:NetCashProvidedByUsedInOperatingActivities', 'us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations'],
  },
  shares_outstanding: {
    dated: 'instant',
    concepts: ['us-gaap:CommonStockSharesOutstanding'],
    cover: ['dei:EntityCommonStockSharesOutstanding'],
  },
});

/** The keys of a row's values, in order. */
export const FINANCIAL_VALUE_KEYS = Object.keys(FINANCIAL_CONCEPTS) as FinancialValueKey[];

/** Every concept of {@link FINANCIAL_CONCEPTS}: what the company-facts reader keeps for these rows. */
export const FINANCIAL_CONCEPT_NAMES: ReadonlySet<string> = new Set(
  Object.values(FINANCIAL_CONCEPTS).flatMap((v: ValueConcepts) => [...v.concepts, ...(v.cover ?? [])]),
);
