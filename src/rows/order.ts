/**
 * Row order of each kind (docs/api.md §6, "Orders"): the primary key descending as given, ties
 * broken by dates descending, then `accession_no` descending, then `ticker` ascending. The
 * builder writes rows in this order and the snapshot reader refuses a file that breaks it, so
 * the server can keep the first rows of each list while it streams the file.
 *
 * Rows that compare equal keep their file order: the reader accepts them in any order, the
 * builder's stable sort keeps the order it made them in, and a cursor after such a row counts the
 * equal rows it has passed (docs/api.md §9). Insider-transaction rows use this for the line's
 * position inside its table, which no field of the row shows.
 */
import type { RowKind } from './schemas.js';

type Row = Record<string, unknown>;
/** Negative when `a` comes before `b`. */
export type RowComparator = (a: Row, b: Row) => number;

/** Descending on a number, then the rest. */
const numDesc = (field: string) => (a: Row, b: Row): number => (b[field] as number) - (a[field] as number);
/** Ascending on a string field; null and absent sort last. */
const strAsc = (field: string) => (a: Row, b: Row): number => compareNullableAsc(a[field], b[field]);
const absDesc = (field: string) => (a: Row, b: Row): number => Math.abs(b[field] as number) - Math.abs(a[field] as number);

function compareNullableAsc(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  return (x as string) < (y as string) ? -1 : 1;
}

/** Descending on a string field; null and absent sort last. */
const strDescNullLast = (field: string) => (a: Row, b: Row): number => {
  const x = a[field];
  const y = b[field];
  if (x === y) return 0;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  return (x as string) < (y as string) ? 1 : -1;
};

function chain(...comparators: RowComparator[]): RowComparator {
  return (a, b) => {
    for (const compare of comparators) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

/** The order of each stored kind, as a comparator usable with `Array.prototype.sort`. */
export const ROW_ORDER: Readonly<Record<RowKind, RowComparator>> = Object.freeze({
  // |net_usd| descending, then ticker.
  insiders: chain(absDesc('net_usd'), strAsc('ticker')),
  // filed_at descending, then accepted_at, then accession_no.
  filings: chain(strDescNullLast('filed_at'), strDescNullLast('accepted_at'), strDescNullLast('accession_no'), strAsc('ticker')),
  // filed_at descending, then accession_no, then ticker.
  earnings: chain(strDescNullLast('filed_at'), strDescNullLast('accession_no'), strAsc('ticker')),
  // total_value_usd descending, then filed_at, accession_no, cik.
  whales: chain(numDesc('total_value_usd'), strDescNullLast('filed_at'), strDescNullLast('accession_no'), strAsc('cik')),
  // latest_filing_at descending (companies without filings last), then ticker.
  reports: chain(strDescNullLast('latest_filing_at'), strAsc('ticker')),
  // transaction_date descending, then filed_at, accession_no, then the line's position in the form
  // (Table I before Table II: "non_derivative" sorts after "derivative", so descending on table;
  // within a table, rows that compare equal keep the builder's order, which is the form's).
  'insider-transactions': chain(strDescNullLast('transaction_date'), strDescNullLast('filed_at'), strDescNullLast('accession_no'), strDescNullLast('table')),
  // period_end descending, then ticker (companies without one last), then cik.
  financials: chain(strDescNullLast('period_end'), strAsc('ticker'), strAsc('cik')),
  // value_usd descending, then filer_cik; then cusip and put_call, so that no two rows tie.
  holders: chain(numDesc('value_usd'), strAsc('filer_cik'), strAsc('cusip'), strAsc('put_call')),
});

/** Human-readable statement of each order, for the OpenAPI document and docs/api.md. */
export const ROW_ORDER_TEXT: Readonly<Record<RowKind, string>> = Object.freeze({
  insiders: '|net_usd| descending, then ticker ascending',
  filings: 'filed_at descending, then accepted_at descending, then accession_no descending, then ticker ascending',
  earnings: 'filed_at descending, then accession_no descending, then ticker ascending',
  whales: 'total_value_usd descending, then filed_at descending, then accession_no descending, then cik ascending',
  reports: 'latest_filing_at descending (companies without filings last), then ticker ascending',
  'insider-transactions': 'transaction_date descending, then filed_at descending, then accession_no descending, then the line\'s position in the form ascending (Table I before Table II)',
  financials: 'period_end descending, then ticker ascending (companies without a ticker last), then cik ascending',
  holders: 'value_usd descending, then filer_cik ascending, then cusip ascending, then put_call ascending (the security itself last)',
});
