/**
 * The page a list request asks for (docs/api.md §9, §10): which list, from which position (the
 * cursor's, found by its key), how many rows, in which variant, its weak ETag, and the `Link`
 * to the next page.
 */
import { errorAnswer, type ErrorAnswer } from '../errors.js';
import type { Plan } from '../plans.js';
import type { RowKind } from '../rows/schemas.js';
import { positionAfter, rowAt, tiesAt, type RowList, type Variant } from '../data/page.js';
import type { SnapshotIndex } from '../data/snapshot-index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { listTag } from './etag.js';
import type { ListQuery } from './params.js';
import { findFilteredPage, FOREIGN_CURSOR } from './filtered-page.js';

/** One page of one list. */
export interface ListPage {
  readonly list: RowList;
  readonly variant: Variant;
  /** Position of the first row, from 0. */
  readonly position: number;
  /** Rows in the page. */
  readonly count: number;
  /** The page's weak ETag. */
  readonly tag: string;
  /**
   * On a page of a filtered list (docs/api.md §15), whose `list` holds the page's rows only: the
   * next page's cursor, found with the page (undefined when the page ends the list). Absent on
   * the pages of the kind's own lists, whose next cursor is made on demand.
   */
  readonly filtered?: { readonly next: string | undefined };
}

/**
 * Longest query text (characters, without `?`) whose `Link` a list keeps for the next request.
 * A client chooses the query, up to Node's header limit (16 KiB): kept as it is, one long valid
 * query per list (`limit=000…3`) held about 29 KiB per list, hundreds of MB over every list of a
 * snapshot. A usual query, even with a cursor of its longest (512 characters), is shorter; a
 * longer one gets its `Link` built anew each time.
 */
export const MAX_KEPT_QUERY_CHARS = 1024;

/**
 * Finds the page of a list request: of one of the kind's own lists (the overview, a ticker's or
 * a CIK's), or of a filtered list (filtered-page.ts, docs/api.md §15).
 *
 * @param snapshot - the snapshot served.
 * @param kind - the route's row kind.
 * @param query - the checked query; its cursor is not yet known to belong to this list.
 * @param plan - the key's plan: its page size and variant.
 * @returns the page, or a 400 `invalid_parameter` answer naming `cursor` when the cursor does not
 *   decode or was made for another list.
 */
export function findPage(snapshot: SnapshotIndex, kind: RowKind, query: ListQuery, plan: Plan): ListPage | ErrorAnswer {
  if (query.filters !== null) {
    return findFilteredPage(snapshot, kind, query.filters, query.cursor, Math.min(query.limit, plan.maxPageSize), plan.summaries ? 'full' : 'facts');
  }
  const list = snapshot.list(kind, query.key);
  let position = 0;
  const token = query.cursor;
  if (token !== null) {
    // The list's last cursor again, with the same filter (the empty list is shared by every
    // unknown key): it decoded and belonged to this list, and its position is known.
    if (token === list.lastCursor && query.key === list.lastCursorKey) {
      position = list.lastCursorPosition;
    } else {
      const cursor = decodeCursor(token);
      if (typeof cursor === 'string') return errorAnswer('invalid_parameter', `cursor ${cursor}; use the cursor of a Link header as it is`);
      if (cursor.kind !== kind || cursor.listKey !== query.key) return errorAnswer('invalid_parameter', FOREIGN_CURSOR);
      position = positionAfter(list, cursor.bytes, cursor.keyStart, cursor.keyEnd, cursor.ties, cursor.hint);
      list.lastCursor = detached(token);
      list.lastCursorKey = query.key;
      list.lastCursorPosition = position;
    }
  }
  const count = Math.min(query.limit, plan.maxPageSize, list.length - position);
  const variant: Variant = plan.summaries ? 'full' : 'facts';
  const memo = list.memo;
  if (memo !== undefined && memo.position === position && memo.count === count && memo.variant === variant) {
    return { list, variant, position, count, tag: memo.tag };
  }
  const tag = listTag(snapshot.tag, kind, query.key, position, count, variant);
  // The empty list is shared by every unknown key: its tag names the key, so it is not kept.
  if (list.length > 0) list.memo = { position, count, variant, tag, next: null };
  return { list, variant, position, count, tag };
}

/**
 * A copy of a string that holds nothing else: a slice of a request's URL would keep the whole
 * URL (up to the header size limit) alive for as long as a list keeps its last cursor. (V8
 * flattens the joined string into a new one and slices that.)
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/**
 * The `Link` of the page after this one ({@link nextLink}), or undefined when this one ends the
 * list. The value is kept with the list's last page and reused for the same query text, so a
 * page asked for again the same way builds no string; a query longer than
 * {@link MAX_KEPT_QUERY_CHARS} is neither kept nor reused.
 */
export function nextPageLink(page: ListPage, baseUrl: string, path: string, rawQuery: string): string | undefined {
  const memo = page.list.memo;
  const kept = memo !== undefined && memo.position === page.position && memo.count === page.count && rawQuery.length <= MAX_KEPT_QUERY_CHARS;
  if (kept && memo.linkQuery === rawQuery) return memo.link;
  const cursor = nextCursor(page);
  const link = cursor === undefined ? undefined : nextLink(baseUrl, path, rawQuery, cursor);
  if (kept) {
    memo.linkQuery = rawQuery;
    memo.link = link;
  }
  return link;
}

/** The cursor of the page after this one, or undefined when this one ends the list. */
export function nextCursor(page: ListPage): string | undefined {
  if (page.filtered !== undefined) return page.filtered.next;
  const { list, position, count } = page;
  const end = position + count;
  if (count === 0 || end >= list.length) return undefined;
  const memo = list.memo;
  const kept = memo !== undefined && memo.position === position && memo.count === count;
  if (kept && memo.next !== null) return memo.next;
  const last = rowAt(list, end - 1);
  const keys = list.table.keys;
  const next = encodeCursor(list.kind, list.key, keys.bytes.subarray(keys.start(last), keys.ends[last]), tiesAt(list, end - 1), end);
  if (kept) memo.next = next;
  return next;
}

/**
 * The `Link` field of a page with rows after it (RFC 8288 §3): the same request with the next
 * cursor, `<{base_url}{path}?{same parameters}&cursor=C>; rel="next"` (docs/api.md §9).
 *
 * @param baseUrl - the public base address, without a trailing slash.
 * @param path - the route's path.
 * @param rawQuery - the request's query string as sent, without `?`; its `cursor` is replaced.
 * @param cursor - the next page's cursor.
 */
export function nextLink(baseUrl: string, path: string, rawQuery: string, cursor: string): string {
  let kept = rawQuery;
  if (rawQuery.indexOf('%') !== -1 || rawQuery.indexOf('+') !== -1) {
    kept = rawQuery.split('&').filter((segment) => segment.length > 0 && nameOf(segment) !== 'cursor').join('&');
  } else {
    // The usual case, a plain `cursor=` segment (a valid query has at most one): cut it out in place.
    const at = rawQuery.startsWith('cursor=') ? 0 : rawQuery.indexOf('&cursor=') + 1;
    if (at !== 0 || rawQuery.startsWith('cursor=')) {
      const end = rawQuery.indexOf('&', at);
      kept = end === -1 ? rawQuery.slice(0, Math.max(0, at - 1)) : `${rawQuery.slice(0, at)}${rawQuery.slice(end + 1)}`;
    }
  }
  return `<${baseUrl}${path}?${kept.length === 0 ? '' : `${kept}&`}cursor=${cursor}>; rel="next"`;
}

/** The decoded name of a query segment (`name=value`). */
function nameOf(segment: string): string {
  const eq = segment.indexOf('=');
  const raw = eq === -1 ? segment : segment.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
