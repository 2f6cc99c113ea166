/**
 * Insider-transaction rows (docs/api.md §16): one row per transaction line of Table I
 * (non-derivative) and Table II (derivative) of every Form 4 and 4/A whose transaction date is in
 * the insider window, from the same filings the insider rows are computed from (facts/insiders.ts)
 * and under the same rules (docs/api.md §6): the lines of a filing that a 4/A replaced are left out,
 * a 4/A's own lines are rows; a joint filing's lines are credited to its first reporting owner and
 * name the others; a line without a price has no value. Value = shares × price per share exactly,
 * from the figures as filed, rounded once to the cent. The rows are made in the form's order,
 * Table I before Table II, which the snapshot keeps for lines that the row order ties.
 *
 * A company's P and S rows of Table I are exactly the trades its insider row counts.
 */
import type { InsiderTransactionRow } from '../rows/types.js';
import { addDays } from '../edgar/conventions.js';
import type { OwnershipFiling, OwnershipTransaction } from '../edgar/records.js';
import { roundDecimal, toNumber } from './decimal.js';
import { applyAmendments, exactValue, type InsiderOptions } from './insiders.js';
import { ownerRole } from './owner-role.js';

/** Options: the insider rows' own (window, as-of date and issuer lookup), so that both kinds agree. */
export type InsiderTransactionOptions = InsiderOptions;

/** Rows and what was left out. */
export interface InsiderTransactionResult {
  /** Rows without their summary, in the order of the filings given and of each form's lines, Table I first. */
  rows: InsiderTransactionRow[];
  /**
   * Transaction lines in the window of the Forms 4 and 4/A left after amendments, those left out
   * below included: whether the input had anything for these rows.
   */
  linesInWindow: number;
  /** Lines in the window that are no row, by reason (each a field EDGAR's Ownership XML schema requires). */
  linesLeftOut: Record<string, number>;
  /** Rows read from an Insider Transactions Data Set (2-decimal shares and prices) rather than the form's XML. */
  rowsFromDataSet: number;
}

const CIK = /^\d{10}$/;
const CODE = /^[A-Z]$/;

/**
 * Why a line cannot be a row, or null where it can. The fields are required by EDGAR's schema,
 * so a filing that EDGAR accepted has them.
 */
function leftOutReason(filing: OwnershipFiling, t: OwnershipTransaction): string | null {
  if (!filing.owners[0]) return 'form without a reporting owner';
  if (!CIK.test(filing.owners[0].cik)) return 'first reporting owner without a CIK';
  if (!CODE.test(t.code)) return 'transaction code other than one letter';
  if (t.acquiredDisposed === null) return 'line without transactionAcquiredDisposedCode A or D';
  if (t.directIndirect === null) return 'line without directOrIndirectOwnership D or I';
  return null;
}

/**
 * Computes the insider-transaction rows.
 *
 * @param filings - every ownership filing read, cut at the as-of date (as for the insider rows).
 * @param options - window and issuer lookup, the insider rows' own.
 */
export function computeInsiderTransactionRows(filings: readonly OwnershipFiling[], options: InsiderTransactionOptions): InsiderTransactionResult {
  const windowStart = addDays(options.asOf, -(options.windowDays - 1));
  const inWindow = (t: OwnershipTransaction): boolean => t.date >= windowStart && t.date <= options.asOf;
  const rows: InsiderTransactionRow[] = [];
  const linesLeftOut: Record<string, number> = {};
  let linesInWindow = 0;
  let rowsFromDataSet = 0;
  // One lookup per issuer, as the insider rows make it (with the first filing that has lines in the
  // window), so that an issuer's rows all carry the same ticker even where forms name different ones.
  const issuers = new Map<string, ReturnType<InsiderOptions['issuer']>>();
  for (const filing of applyAmendments(filings).standing) {
    if (!filing.transactions.some(inWindow) && !filing.derivativeTransactions.some(inWindow)) continue;
    if (!issuers.has(filing.issuerCik)) issuers.set(filing.issuerCik, options.issuer(filing.issuerCik, filing));
    const issuer = issuers.get(filing.issuerCik);
    const [owner, ...joint] = filing.owners;
    const lines = [
      ...filing.transactions.map((t) => ({ t, table: 'non_derivative' as const })),
      ...filing.derivativeTransactions.map((t) => ({ t, table: 'derivative' as const })),
    ];
    for (const { t, table } of lines) {
      if (!inWindow(t)) continue;
      linesInWindow++;
      const reason = leftOutReason(filing, t);
      if (reason !== null) {
        linesLeftOut[reason] = (linesLeftOut[reason] ?? 0) + 1;
        continue;
      }
      const exact = exactValue(t);
      if (filing.fromDataSet) rowsFromDataSet++;
      rows.push({
        type: 'insider_transaction', ticker: issuer?.ticker ?? null, tickers: issuer?.tickers ?? [], cik: filing.issuerCik,
        company: issuer?.name ?? filing.issuerName, owner_cik: owner!.cik, owner_name: owner!.name, role: ownerRole(owner!),
        joint_owner_ciks: joint.map((o) => o.cik).filter((cik) => CIK.test(cik)), form: filing.documentType as '4' | '4/A',
        accession_no: filing.accessionNo, filed_at: filing.filedAt!, filed_at_source: filing.filedAtSource ?? 'edgar',
        transaction_date: t.date, table, security_title: t.securityTitle, code: t.code, acquired_disposed: t.acquiredDisposed!,
        shares: t.shares, price_usd: t.price, value_usd: exact ? toNumber(roundDecimal(exact, 2)) : null, shares_owned_after: t.sharesOwnedAfter,
        direct_indirect: t.directIndirect!, plan_10b5_1: filing.plan10b51, price_in_footnote: t.priceInFootnote, from_data_set: filing.fromDataSet === true,
      });
    }
  }
  return { rows, linesInWindow, linesLeftOut, rowsFromDataSet };
}
