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
import { FILTER_FIELD, type SnapshotIndex } from '../data/snapshot-index.js';
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
 * Pages found before, per snapshot, by list, page size, variant and cursor: a page asked for
 * again (a poller, clients following one `Link`) is answered with its rows, ETag, next cursor
 * and `Link` as they were found, as the kind's own lists keep their last page. A reload brings
 * a new snapshot and so a new memo.
 */
const pagesBefore = new WeakMap<SnapshotIndex, BoundedMemo<ListPage>>();

/** Pages kept per snapshot: at most about 2 KiB each (a page of 200 rows' numbers, its strings and list), so 4 MiB. */
const KEPT_PAGES = 2048;

/**
 * Finds a page of a filtered list, or the same page found before.
 *
 * @returns see {@link findPageOnce}.
 */
export function findFilteredPage(snapshot: SnapshotIndex, kind: RowKind, filters: FilterSet, token: string | null, limit: number, variant: Variant): ListPage | ErrorAnswer {
  let memo = pagesBefore.get(snapshot);
  if (memo === undefined) {
    memo = new BoundedMemo(KEPT_PAGES, 1024);
    pagesBefore.set(snapshot, memo);
  }
  const key = `${kind} ${filters.listKey} ${limit} ${variant} ${token ?? ''}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const found = findPageOnce(snapshot, kind, filters, token, limit, variant);
  if ('list' in found) {
    // The page's own list keeps its tag, next cursor and Link (nextPageLink) for the next time.
    found.list.memo = { position: 0, count: found.count, variant, tag: found.tag, next: found.filtered!.next };
    memo.set(key, found);
  }
  return found;
}

/**
 * Finds a page of a filtered list.
 *
 * @param snapshot - the snapshot served.
 * @param kind - the route's row kind.
 * @param filters - the request's filters.
 * @param token - the request's cursor as sent, or null for the first page.
 * @param limit - rows wanted, already clamped to the plan's page size.
 * @param variant - the plan's serialisation.
 * @returns the page (its `list` holds the page's rows only, from position 0, and `next` the next
 *   page's cursor), or a 400 naming `cursor` when it does not decode or was made for another list.
 */
function findPageOnce(snapshot: SnapshotIndex, kind: RowKind, filters: FilterSet, token: string | null, limit: number, variant: Variant): ListPage | ErrorAnswer {
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
  // After a cursor: from the first row with its key, skipping the `ties` rows of the list with that key already sent.
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
  const start = from;
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
  return { list, variant, position: 0, count, tag: listTag(snapshot.tag, kind, filters.listKey, start, count, variant), filtered: { next } };
}

/** The rows of the kind that hold `value` in `index`: the kind's own list where it is keyed by that index. */
function postings(snapshot: SnapshotIndex, kind: RowKind, index: string, value: string): Int32Array {
  if (index === FILTER_FIELD[kind]) return snapshot.list(kind, value).rows ?? NO_ROWS;
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
