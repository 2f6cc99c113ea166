/**
 * Query-parameter rules (docs/api.md §1): which parameters a route takes, how each is written and
 * normalised, and the 400 `invalid_parameter` answers. Parsing is by hand so that a parameter
 * given twice, an empty value and bad percent-encoding are all seen. Filters (docs/api.md §15)
 * are read from the route's declarations by filter-params.ts.
 */
import { ApiError } from '../errors.js';
import { DEFAULT_PAGE_SIZE } from '../plans.js';
import { TICKER_MAX_LENGTH } from '../identifiers.js';
import type { FilterSpec } from '../filters.js';
import type { Route } from '../routes.js';
import { LISTED_BY } from '../data/snapshot-index.js';
import { readFilters, type FilterSet } from './filter-params.js';
import { quoteInput, type KeyRecogniser } from './quote.js';

/** The parsed, normalised query of a list request. */
export interface ListQuery {
  /** Rows asked for (`limit`, default 20), before clamping to the plan's max_page_size. */
  readonly limit: number;
  /**
   * Normalised ticker (EDGAR form) or 10-digit CIK of the list to serve, when the request names
   * one of the kind's own lists and no other filter; null otherwise.
   */
  readonly key: string | null;
  /** Any other filters (docs/api.md §15); null when there are none, for the overview and the lists by key. */
  readonly filters: FilterSet | null;
  /**
   * The `cursor` as sent (docs/api.md §9: a token of a `Link` header), or null for the first page.
   * Whether it decodes and belongs to this list is checked with the list (`findPage` in
   * list-page.ts), which decodes it only when it is not the list's last cursor.
   */
  readonly cursor: string | null;
}

/** Query names that carry API keys in other APIs; any case (docs/api.md §1: 401, headers only). */
const KEY_PARAM_NAMES = new Set(['api_key', 'apikey', 'key', 'token', 'access_token']);

const DIGITS = /^[0-9]+$/;

/** A query string split into pairs. */
export interface SplitQuery {
  /** Decoded name/value pairs in order; a segment that fails to decode is kept raw. */
  readonly pairs: [string, string][];
  /** Whether some segment had malformed percent-encoding (a 400, but only at the parameter step). */
  readonly malformed: boolean;
}

const NO_QUERY: SplitQuery = Object.freeze({ pairs: [], malformed: false });

/**
 * Splits a raw query string into decoded name/value pairs (`+` is a space, as in
 * application/x-www-form-urlencoded). Empty segments (`a=1&&b=2`) are skipped. Never throws:
 * the key check runs before the parameter check (docs/api.md §1) and needs the names first.
 */
export function splitQuery(raw: string): SplitQuery {
  if (raw.length === 0) return NO_QUERY;
  const pairs: [string, string][] = [];
  const state = { malformed: false };
  let start = 0;
  while (start <= raw.length) {
    let end = raw.indexOf('&', start);
    if (end === -1) end = raw.length;
    if (end > start) {
      const eq = raw.indexOf('=', start);
      pairs.push(eq === -1 || eq > end
        ? [decodeComponent(raw.slice(start, end), state), '']
        : [decodeComponent(raw.slice(start, eq), state), decodeComponent(raw.slice(eq + 1, end), state)]);
    }
    start = end + 1;
  }
  return { pairs, malformed: state.malformed };
}

/** Decodes one name or value; on malformed percent-encoding, flags it and keeps the text raw. */
function decodeComponent(text: string, state: { malformed: boolean }): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    state.malformed = true;
    return text;
  }
}

/** Whether any query parameter looks like an API key (checked before the key, docs/api.md §1). */
export function hasKeyInQuery(pairs: readonly [string, string][]): boolean {
  for (let i = 0; i < pairs.length; i++) {
    if (KEY_PARAM_NAMES.has(pairs[i]![0].toLowerCase())) return true;
  }
  return false;
}

/**
 * Checks and normalises the query of a route.
 *
 * @param pairs - pairs from {@link splitQuery}.
 * @param malformed - its `malformed` flag.
 * @param route - the matched route; its `params` list what is allowed.
 * @param isKey - recognises the server's keys, so that a detail never quotes one (see quote.ts).
 * @returns the query; the caller clamps `limit` to its plan's `maxPageSize`.
 * @throws ApiError invalid_parameter with a detail naming the parameter and quoting what was
 *   sent (JSON-escaped, at most 100 characters, never a key).
 */
export function parseListQuery(pairs: readonly [string, string][], malformed: boolean, route: Route, isKey?: KeyRecogniser): ListQuery {
  if (malformed) throw invalid('the query string has malformed percent-encoding');
  const allowed = route.params;
  // Bit i set: allowed[i] was given (a route takes a handful of parameters).
  let seen = 0;
  let limit = DEFAULT_PAGE_SIZE;
  let cursor: string | null = null;
  const given: (readonly [FilterSpec, string])[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const [name, value] = pairs[i]!;
    const index = allowed.indexOf(name);
    if (index === -1) {
      const listed = allowed.length === 0 ? 'this endpoint takes no query parameters' : `allowed: ${allowed.join(', ')}`;
      throw invalid(`unknown query parameter ${quoteInput(name, isKey)} (${listed})`);
    }
    if ((seen & (1 << index)) !== 0) throw invalid(`parameter "${name}" is given more than once`);
    seen |= 1 << index;
    if (name === 'limit') limit = parseLimit(value, isKey);
    else if (name === 'cursor') cursor = value;
    else given.push([route.filters.find((spec) => spec.name === name)!, value]);
  }
  const { key, filters } = readFilters(route, given, isKey);
  return { limit, key, cursor, filters };
}

/** Longest `limit` the quick path reads itself; longer ones (still valid) take the general path. */
const QUICK_LIMIT_DIGITS = 9;

/**
 * The common query of a list request read in one pass, with no pairs, slices or regular
 * expressions: each parameter of the route given at most once, written without
 * percent-encoding or `+`, with a valid value (`ticker=AAPL&limit=20`; a cursor's text is checked
 * by findPage on either path). Anything else, including every query the general path would
 * refuse, gives `undefined`, and the caller then runs {@link splitQuery} and
 * {@link parseListQuery}. So this never decides an error and never disagrees with the general
 * path: for the queries it reads, a key-like name cannot occur (the route's names are not key
 * names) and the general path would return the same query.
 *
 * @param url - the request target (`req.url`).
 * @param start - index of the query's first character in `url` (after `?`); `url.length` when
 *   there is none.
 * @param route - the matched route; its `params` list what is allowed.
 * @returns the query (`limit` not yet clamped to a plan's `maxPageSize`), or `undefined`.
 */
export function quickListQuery(url: string, start: number, route: Route): ListQuery | undefined {
  const allowed = route.params;
  // A ticker alone names one of the kind's own lists only where they are keyed by ticker.
  const tickerListed = route.target.kind === 'rows' && LISTED_BY[route.target.rows].index === 'ticker';
  const end = url.length;
  let seen = 0;
  let limit = DEFAULT_PAGE_SIZE;
  let key: string | null = null;
  let cursor: string | null = null;
  let at = start;
  while (at < end) {
    let next = url.indexOf('&', at);
    if (next === -1) next = end;
    if (next > at) {
      // cik, and every other filter, is left to the general path.
      const param = url.startsWith('limit=', at) ? 'limit' : url.startsWith('ticker=', at) && tickerListed ? 'ticker'
        : url.startsWith('cursor=', at) ? 'cursor' : undefined;
      if (param === undefined) return undefined;
      const index = allowed.indexOf(param);
      if (index === -1 || (seen & (1 << index)) !== 0) return undefined;
      seen |= 1 << index;
      const from = at + param.length + 1;
      const length = next - from;
      if (param === 'limit') {
        if (length === 0 || length > QUICK_LIMIT_DIGITS) return undefined;
        limit = 0;
        for (let i = from; i < next; i++) {
          const digit = url.charCodeAt(i) - 0x30;
          if (digit < 0 || digit > 9) return undefined;
          limit = limit * 10 + digit;
        }
        if (limit < 1) return undefined;
      } else if (param === 'cursor') {
        // Any text without `%` or `+` (the general path decodes those) reads the same on both
        // paths, and findPage checks it. (The other values' own character checks refuse both.)
        if (length === 0) return undefined;
        const text = url.slice(from, next);
        if (text.indexOf('%') !== -1 || text.indexOf('+') !== -1) return undefined;
        cursor = text;
      } else {
        if (length === 0 || length > TICKER_MAX_LENGTH) return undefined;
        for (let i = from; i < next; i++) {
          const c = url.charCodeAt(i);
          // Upper-case letters, digits and `-` only (TICKER_PATTERN): the form the ticker rule (filters.ts) returns unchanged.
          if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) return undefined;
        }
        key = url.slice(from, next);
      }
    }
    at = next + 1;
  }
  return { limit, key, cursor, filters: null };
}

/**
 * `limit`: ASCII digits only, at least 1 (`05` is 5).
 *
 * @param isKey - see {@link parseListQuery}.
 * @throws ApiError invalid_parameter otherwise.
 */
export function parseLimit(value: string, isKey?: KeyRecogniser): number {
  if (!DIGITS.test(value)) throw invalid(`limit must be a whole number of 1 or more written with digits only, got ${quoteInput(value, isKey)}`);
  const limit = Number(value);
  if (limit < 1) throw invalid('limit must be 1 or more');
  return limit;
}

function invalid(detail: string): ApiError {
  return new ApiError('invalid_parameter', detail);
}
