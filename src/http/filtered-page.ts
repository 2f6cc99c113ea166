/**
 * A page of a filtered list (docs/api.md §9, §10, §15): the rows of the kind that every filter
 * holds, in the kind's order, from the cursor's position, found through the filter indexes
 * (filter-scan.ts) without walking the kind's rows. Its cursor and ETag name the filter set (its
 * `listKey`), so a cursor is valid only with the filters it was made with.
 */
import { errorAnswer, type ErrorAnswer } from '../errors.js';
import type { RowKind } from '../rows/schemas.js';
import { makeList, type Variant } from '../data/page.js';
import type { OrderKeys } from '../data/order-key.js';
import { LISTED_BY, type SnapshotIndex } from '../data/snapshot-index.js';
import { firstRowBelow, FilterScan } from '../data/filter-scan.js';
import { NO_DATE } from '../data/filter-index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { listTag } from './etag.js';
import type { FilterSet } from './filter-params.js';
import type { ListPage } from './list-page.js';
import { BoundedMemo } from './bounded-memo.js';

const NO_ROWS = new Int32Array(0);

/** The cursor's 400 detail when it was made for another list (shared with list-page.ts). */
export const FOREIGN_CURSOR = 'cursor was made for another list (another endpoint or filters); use a cursor with the request of the Link header that gave it';

/**
 * What a snapshot keeps of the filtered pages it answered. `firstPages`: by list, page size and
 * variant, the first pages, answered again with their rows, ETag, next cursor and `Link` as they
 * were found (as the kind's own lists keep their last page): a poller asks for a first page
 * again and again. A later page is found from its cursor's order key (a binary search, then the
 * filters' lists from there): a memo of where each next page starts, keyed by cursor, lost or
 * repeated rows when a cursor was met again in another walk (a fast-check walk found it), and
 * was removed. Deep pages themselves are not kept: a walk
 * asks for each once, and keeping them only made the garbage collector copy them. A reload
 * brings a new snapshot and so new memos.
 */
const kept = new WeakMap<SnapshotIndex, { firstPages: BoundedMemo<ListPage> }>();

/** Entries of each memo per snapshot: a first page is at most about 2 KiB (200 rows' numbers, its strings and list). */
const KEPT = 2048;

/**
 * Finds a page of a filtered list, or the same first page found before.
 *
 * @param snapshot - the snapshot served.
 * @param kind - the route's row kind.
 * @param filters - the request's filters.
 * @param token - the request's cursor as sent, or null for the first page.
 * @param limit - rows wanted, already clamped to the plan's page size.
 * @param variant - the plan's serialisation.
 * @returns the page (its `list` holds the page's rows only, from position 0, and `filtered.next`
 *   the next page's cursor), or a 400 naming `cursor` when it does not decode or was made for
 *   another list.
 */
export function findFilteredPage(snapshot: SnapshotIndex, kind: RowKind, filters: FilterSet, token: string | null, limit: number, variant: Variant): ListPage | ErrorAnswer {
  let memos = kept.get(snapshot);
  if (memos === undefined) {
    memos = { firstPages: new BoundedMemo(KEPT, 256) };
    kept.set(snapshot, memos);
  }
  const firstKey = token === null ? `${kind} ${filters.listKey} ${limit} ${variant}` : undefined;
  if (firstKey !== undefined) {
    const known = memos.firstPages.get(firstKey);
    if (known !== undefined) return known;
  }
  const found = findPageOnce(snapshot, kind, filters, token, limit, variant);
  if (!('page' in found)) return found;
  const { page } = found;
  const next = page.filtered!.next;
  if (firstKey !== undefined) {
    // The page's own list keeps its tag, next cursor and Link (nextPageLink) for the next time.
    page.list.memo = { position: 0, count: page.count, variant, tag: page.tag, next };
    memos.firstPages.set(firstKey, page);
  }
  return page;
}

/**
 * Finds a page of a filtered list.
 *
 * @returns the page; or the 400 of a cursor that does not decode or was made for another list.
 */
function findPageOnce(snapshot: SnapshotIndex, kind: RowKind, filters: FilterSet, token: string | null, limit: number, variant: Variant): { page: ListPage } | ErrorAnswer {
  const overview = snapshot.list(kind, null);
  const table = overview.table;
  const keys = table.keys;
  let from = 0;
  let end = overview.length;
  const { range } = filters;
  if (range !== null) {
    // The range is a run of rows: the leading order date does not increase along them.
    const dates = snapshot.filters[kind].dates.get(range.field)!;
    if (range.until !== null) from = firstRowBelow(dates, range.until + 1);
    end = firstRowBelow(dates, range.since ?? NO_DATE + 1, from);
  }
  // After a cursor: from the first row with its key, skipping the `ties` rows of the list with
  // that key already sent.
  let after: { bytes: Buffer; start: number; end: number } | undefined;
  let ties = 0;
  if (token !== null) {
    const cursor = decodeCursor(token);
    if (typeof cursor === 'string') return errorAnswer('invalid_parameter', `cursor ${cursor}; use the cursor of a Link header as it is`);
    if (cursor.kind !== kind || cursor.listKey !== filters.listKey) return errorAnswer('invalid_parameter', FOREIGN_CURSOR);
    after = { bytes: cursor.bytes, start: cursor.keyStart, end: cursor.keyEnd };
    ties = cursor.ties;
    from = Math.max(from, firstRowWithKey(keys, overview.length, after, cursor.hint));
  }
  const scan = new FilterScan(filters.terms.map((term) => term.values.map((value) => postings(snapshot, kind, term.spec.index, value))), from, end);
  // One row more than the page, to know whether a next page exists.
  const rows = new Int32Array(limit + 1);
  let count = 0;
  let skipped = 0;
  while (count <= limit) {
    const row = scan.next();
    if (row === -1) break;
    if (after !== undefined && skipped < ties && keys.compare(row, after.bytes, after.start, after.end) === 0) {
      skipped++;
      continue;
    }
    rows[count++] = row;
  }
  const more = count > limit;
  if (more) count = limit;
  const list = makeList(kind, filters.listKey, table, count, rows.subarray(0, count), false);
  let next: string | undefined;
  if (more && count > 0) {
    const last = rows[count - 1]!;
    // Rows of the list up to the last one sent that share its key (1 unless keys repeat).
    let run = 1;
    while (run < count && keys.compare(rows[count - 1 - run]!, keys.bytes, keys.start(last), keys.ends[last]!) === 0) run++;
    if (run === count && after !== undefined && keys.compare(last, after.bytes, after.start, after.end) === 0) run += ties;
    next = encodeCursor(kind, filters.listKey, keys.bytes.subarray(keys.start(last), keys.ends[last]), run, last + 1);
  }
  // The tag names the page by its first row (or the end of the range when it has none): the same
  // whichever way the page's start was found.
  const tag = listTag(snapshot.tag, kind, filters.listKey, count > 0 ? rows[0]! : end, count, variant);
  const page: ListPage = { list, variant, position: 0, count, tag, filtered: { next } };
  return { page };
}

/** The rows of the kind that hold `value` in `index`: the kind's own list where it is keyed by that index. */
function postings(snapshot: SnapshotIndex, kind: RowKind, index: string, value: string): Int32Array {
  if (index === LISTED_BY[kind].index) return snapshot.list(kind, value).rows ?? NO_ROWS;
  return snapshot.filters[kind].postings.get(index)?.get(value) ?? NO_ROWS;
}

/**
 * The first row (of `n`, in the kind's order) whose order key is at least the cursor's: binary
 * search, skipped when the hint (the row after the last one sent, in the snapshot that made the
 * cursor) follows the first row with the key.
 */
function firstRowWithKey(keys: OrderKeys, n: number, key: { bytes: Buffer; start: number; end: number }, hint: number): number {
  const { bytes, start, end } = key;
  if (hint >= 1 && hint <= n && keys.compare(hint - 1, bytes, start, end) === 0 && (hint === 1 || keys.compare(hint - 2, bytes, start, end) < 0)) return hint - 1;
  let low = 0;
  let high = n;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys.compare(middle, bytes, start, end) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
