/**
 * The filters of a list request (docs/api.md §15), read from the route's declarations: each value
 * checked and normalised by its filter's rule, comma lists split, criteria combined, and the set
 * written in one canonical form, so that two requests naming the same rows the same way (case,
 * leading zeros, list order, `ticker=A` or `tickers=A`) are one list for cursors and ETags.
 */
import { hash } from 'node:crypto';
import { ApiError } from '../errors.js';
import { MAX_FILTER_VALUES, type FilterSpec } from '../filters.js';
import { dayNumber } from '../calendar-date.js';
import type { Route } from '../routes.js';
import { LISTED_BY } from '../data/snapshot-index.js';
import { quoteInput, type KeyRecogniser } from './quote.js';
import { BoundedMemo } from './bounded-memo.js';

/** One criterion: rows holding any of `values` in the index of `spec`. */
export interface FilterTerm {
  readonly spec: FilterSpec;
  /** Normalised values, sorted, each once. */
  readonly values: readonly string[];
}

/** A range on the leading order date of a list, inclusive; a bound not given is null. */
export interface DateRange {
  /** The date field (`filed_at`). */
  readonly field: string;
  /** Bounds as days since 1970-01-01. */
  readonly since: number | null;
  readonly until: number | null;
}

/** The filters of a request that are not answered by one of the kind's own lists. */
export interface FilterSet {
  /** Criteria, by index name. */
  readonly terms: readonly FilterTerm[];
  readonly range: DateRange | null;
  /** The set in its canonical form, as the access log shows it (`form=8-K&ticker=AAPL,MSFT&filed_at=2025-01-01..`). */
  readonly text: string;
  /**
   * What names the set in cursors and ETags in place of a list's ticker or CIK: `~` and 16
   * base64url characters of the SHA-256 of {@link text} (`~` is in neither a ticker nor a CIK).
   */
  readonly listKey: string;
}

/** The filters of a request, as the list step needs them. */
export interface ReadFilters {
  /** The one value of the index the kind's own lists are keyed by, when nothing else is asked: that list answers. */
  readonly key: string | null;
  /** Everything else; null when the request names no filter or only {@link key}. */
  readonly filters: FilterSet | null;
}

const NONE: ReadFilters = Object.freeze({ key: null, filters: null });

/**
 * Filters read before, by route and parameters as sent: a client walking a list sends the same
 * filters with every page. (Reading ten tickers and hashing the set is a few µs, about a tenth of
 * a request's CPU time.)
 */
const readBefore = new BoundedMemo<ReadFilters>(1024, 1024);

/**
 * Reads the filters given to a route.
 *
 * @param route - a list route; its `filters` declare what it takes.
 * @param given - each filter parameter given once, with its value as sent (decoded).
 * @param isKey - recognises the server's keys, so that a detail never quotes one (see quote.ts).
 * @throws ApiError invalid_parameter naming the parameter: a value its rule refuses, an empty
 *   or 11th list value, two filters of one index (`ticker` with `tickers`), `since` after `until`.
 */
export function readFilters(route: Route, given: readonly (readonly [FilterSpec, string])[], isKey?: KeyRecogniser): ReadFilters {
  if (given.length === 0 || route.target.kind !== 'rows') return NONE;
  // Each value with its length: a decoded value may hold `&` or `=` (as %26, %3D), and must not
  // read as two parameters of another request.
  let memoKey = route.path;
  for (const [spec, text] of given) memoKey += ` ${spec.name} ${text.length} ${text}`;
  const known = readBefore.get(memoKey);
  if (known !== undefined) return known;
  const read = readAll(route, given, isKey);
  readBefore.set(memoKey, read);
  return read;
}

/** {@link readFilters} without its memo. */
function readAll(route: Route, given: readonly (readonly [FilterSpec, string])[], isKey?: KeyRecogniser): ReadFilters {
  if (route.target.kind !== 'rows') return NONE;
  const terms: FilterTerm[] = [];
  /** The range so far, with each bound's parameter and text. */
  let range: { field: string; since: number | null; until: number | null; from?: readonly [string, string]; to?: readonly [string, string] } | null = null;
  for (const [spec, text] of given) {
    if (spec.kind === 'date-from' || spec.kind === 'date-to') {
      const day = dayNumber(text);
      if (day === undefined) throw invalid(`${spec.name} must be ${spec.value.text}, got ${quoteInput(text, isKey)}`);
      range ??= { field: spec.index, since: null, until: null };
      if (spec.kind === 'date-from') [range.since, range.from] = [day, [spec.name, text]];
      else [range.until, range.to] = [day, [spec.name, text]];
      continue;
    }
    const other = terms.find((term) => term.spec.index === spec.index);
    if (other !== undefined) throw invalid(`${other.spec.name} and ${spec.name} cannot be given together; ${spec.kind === 'keys' ? spec.name : other.spec.name} takes one or several values`);
    terms.push({ spec, values: readValues(spec, text, isKey) });
  }
  if (range !== null && range.since !== null && range.until !== null && range.since > range.until) {
    throw invalid(`${range.from![0]} (${range.from![1]}) must not be after ${range.to![0]} (${range.to![1]}); the range is inclusive, so the same day twice is one day`);
  }
  const listed = LISTED_BY[route.target.rows].index;
  if (range === null && terms.length === 1 && terms[0]!.spec.index === listed && terms[0]!.values.length === 1) {
    return Object.freeze({ key: terms[0]!.values[0]!, filters: null });
  }
  terms.sort((a, b) => (a.spec.index < b.spec.index ? -1 : 1));
  const parts = terms.map((term) => `${term.spec.index}=${term.values.join(',')}`);
  // Dates are written in one way only (YYYY-MM-DD), so the text as sent is canonical.
  if (range !== null) parts.push(`${range.field}=${range.from?.[1] ?? ''}..${range.to?.[1] ?? ''}`);
  const text = parts.join('&');
  const listKey = `~${hash('sha256', text, 'base64url').slice(0, 16)}`;
  const filters: FilterSet = { terms, range: range && { field: range.field, since: range.since, until: range.until }, text, listKey };
  return Object.freeze({ key: null, filters: Object.freeze(filters) });
}

/** The values of one `key` or `keys` filter, normalised, sorted, each once. */
function readValues(spec: FilterSpec, text: string, isKey?: KeyRecogniser): string[] {
  const { name, value: rule } = spec;
  if (spec.kind === 'key') {
    const value = rule.read(text);
    if (value === undefined) throw invalid(`${name} must be ${rule.text}, got ${quoteInput(text, isKey)}`);
    return [value];
  }
  const parts = text.split(',');
  if (parts.length > MAX_FILTER_VALUES) throw invalid(`${name} takes at most ${MAX_FILTER_VALUES} values separated by commas, got ${parts.length}`);
  const values = new Set<string>();
  for (const part of parts) {
    if (part.length === 0) throw invalid(`${name} has an empty value: write up to ${MAX_FILTER_VALUES} values separated by single commas`);
    const value = rule.read(part);
    if (value === undefined) throw invalid(`each value of ${name} must be ${rule.text}, got ${quoteInput(part, isKey)}`);
    values.add(value);
  }
  return [...values].sort();
}

function invalid(detail: string): ApiError {
  return new ApiError('invalid_parameter', detail);
}
