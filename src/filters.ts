/**
 * Filters (docs/api.md §15): the query parameters that select rows of a list, declared once per
 * endpoint in the route table. A declaration names the parameter, the row field(s) it reads and
 * how its values are written; the parameter checks, the indexes built at load, the OpenAPI
 * parameters and so the docs page all come from it. Adding a filter to an endpoint is one entry
 * in its route's `filters`, made by one of the builders below with the row field it reads.
 */
import {
  CIK_LENGTH, CIK_QUERY_MAX_LENGTH, CIK_QUERY_PATTERN, edgarTicker, padCikDigits, TICKER_MAX_LENGTH, TICKER_QUERY_PATTERN,
} from './identifiers.js';
import { dayNumber } from './calendar-date.js';

/** Most values of a comma-separated filter (`tickers`, `form`, `code`, `cusip`; docs/api.md §15). */
export const MAX_FILTER_VALUES = 10;

/**
 * How one value of a filter is written and read. Row values go through the same `read`, so a
 * query value and a row value are equal exactly when they name the same thing.
 */
export interface ValueRule {
  /**
   * Checks one value as a client writes it and returns it normalised (case, `.`/`/` in tickers,
   * leading zeros of CIKs), or undefined when it is not one.
   */
  readonly read: (text: string) => string | undefined;
  /** One value as a regular expression source, without anchors (JSON Schema `pattern` syntax). */
  readonly pattern: string;
  /** Longest value, in characters. */
  readonly maxLength: number;
  /** What a valid value is, in words, for 400 details and the OpenAPI description. */
  readonly text: string;
  /** Values to show in the OpenAPI document, each valid. */
  readonly examples: readonly string[];
}

/** A pattern of identifiers.ts without its anchors, to be composed into a list's. */
const unanchored = (pattern: string): string => pattern.slice(1, -1);

/** A rule whose values match `pattern` whole and are normalised by `normalise`. */
function rule(pattern: string, maxLength: number, text: string, examples: readonly string[], normalise: (text: string) => string): ValueRule {
  const whole = new RegExp(`^(?:${pattern})$`);
  return Object.freeze({ read: (value: string) => (whole.test(value) ? normalise(value) : undefined), pattern, maxLength, text, examples });
}

const upper = (text: string): string => text.toUpperCase();

/** `ticker` (docs/api.md §1): case-insensitive, `.` and `/` read as `-` (EDGAR writes class shares as BRK-B). */
export const TICKER_VALUE = rule(unanchored(TICKER_QUERY_PATTERN), TICKER_MAX_LENGTH,
  `1-${TICKER_MAX_LENGTH} characters of A-Z a-z 0-9 . - /`, ['AAPL', 'brk.b'], edgarTicker);

/** `cik` (docs/api.md §1): 1–20 digits, leading zeros ignored, read as rows write it, zero-padded to 10 digits. */
export const CIK_VALUE = rule(unanchored(CIK_QUERY_PATTERN), CIK_QUERY_MAX_LENGTH, `1-${CIK_QUERY_MAX_LENGTH} digits`,
  ['320193', '0000320193'], padCikDigits);

/**
 * EDGAR's form type (`4`, `8-K`, `10-K/A`, `SC 13G`), case-insensitive: a letter or digit, then
 * letters, digits, spaces, `-` and `/` (EDGAR's form types, as its full index lists them).
 */
export const FORM_VALUE = rule('[A-Za-z0-9][A-Za-z0-9 /-]{0,19}', 20, 'an EDGAR form type of 1-20 characters of A-Z a-z 0-9 space - /',
  ['8-K', '10-K/A'], upper);

/** An 8-K item number as Form 8-K's General Instructions number them since 2004 (`2.02`, `9.01`). */
export const ITEM_VALUE = rule('[0-9]{1,2}\\.[0-9]{2}', 5, 'an 8-K item number such as 2.02', ['2.02', '5.02'], (text) => text);

/** A Form 4 transaction code (General Instructions 8: P, S, A, M, F, G, …), case-insensitive. */
export const CODE_VALUE = rule('[A-Za-z]', 1, 'a Form 4 transaction code, one letter (P, S, A, M, F, G, ...)', ['P', 'S'], upper);

/** A CUSIP: 9 characters of A-Z 0-9, case-insensitive. */
export const CUSIP_VALUE = rule('[A-Za-z0-9]{9}', 9, '9 characters of A-Z 0-9', ['037833100', '88160R101'], upper);

/** A fiscal period: `FY`, `Q1`–`Q4`, case-insensitive. */
export const FISCAL_PERIOD_VALUE = rule('[Ff][Yy]|[Qq][1-4]', 2, 'FY, Q1, Q2, Q3 or Q4', ['FY', 'Q1'], upper);

/** `since` and `until`: a date `YYYY-MM-DD` (four, two and two digits) that exists. */
export const DATE_VALUE: ValueRule = Object.freeze({
  read: (text: string) => (dayNumber(text) === undefined ? undefined : text),
  pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}', maxLength: 10, text: 'a date YYYY-MM-DD that exists', examples: ['2025-01-01'],
});

/**
 * How a filter takes its values: `key`, one value; `keys`, a comma-separated list of up to
 * {@link MAX_FILTER_VALUES}, any of which matches; `date-from` and `date-to`, the inclusive
 * bounds of a range on the list's leading order date.
 */
export type FilterKind = 'key' | 'keys' | 'date-from' | 'date-to';

/** One filter of an endpoint. */
export interface FilterSpec {
  /** The query parameter. */
  readonly name: string;
  readonly kind: FilterKind;
  /**
   * The index it reads, named after what it holds (`ticker`, `cik`, `form`, or a date field).
   * Filters on one index are one criterion: `ticker` and `tickers` cannot be given together,
   * and `since` and `until` bound one range.
   */
  readonly index: string;
  /**
   * The row fields whose values it matches, any of them: each a string, an array of strings, or
   * null. For `date-from` and `date-to`, the one date field, which must lead the kind's order.
   */
  readonly fields: readonly string[];
  readonly value: ValueRule;
  /** Text for the OpenAPI document: what the filter selects. */
  readonly description: string;
}

function filter(name: string, kind: FilterKind, index: string, fields: readonly string[], value: ValueRule, description: string): FilterSpec {
  return Object.freeze({ name, kind, index, fields: Object.freeze([...fields]), value, description });
}

/** The row fields every ticker of a company is in (docs/api.md §6, "Tickers"): `tickers`, else `ticker`. */
const TICKER_FIELDS = ['tickers', 'ticker'] as const;

/** `ticker`: one company, by any of its tickers (docs/api.md §1, §6 "Tickers"). */
export const tickerFilter = (fields: readonly string[] = TICKER_FIELDS): FilterSpec => filter('ticker', 'key', 'ticker', fields, TICKER_VALUE,
  `Restricts rows to one company by any of its tickers: ${TICKER_VALUE.text}; case-insensitive; "." and "/" are read as "-" ` +
  '(brk.b is BRK-B, as EDGAR writes it). An unknown ticker gives 200 with count 0. Not with tickers.');

/** `tickers`: up to ten companies, any of which matches (docs/api.md §15). */
export const tickersFilter = (fields: readonly string[] = TICKER_FIELDS): FilterSpec => filter('tickers', 'keys', 'ticker', fields, TICKER_VALUE,
  `Restricts rows to several companies: up to ${MAX_FILTER_VALUES} tickers separated by commas, each as ticker. ` +
  'tickers=AAPL is the same list as ticker=AAPL. Not with ticker.');

/**
 * `cik`: one company or filer by SEC CIK (docs/api.md §1, §15).
 *
 * @param whose - whose CIK it is on this endpoint, in words ("company", "13F filer", "issuer").
 * @param fields - the row field holding it.
 */
export const cikFilter = (whose: string, fields: readonly string[] = ['cik']): FilterSpec => filter('cik', 'key', 'cik', fields, CIK_VALUE,
  `Restricts rows to one ${whose} by SEC CIK: ${CIK_VALUE.text}, leading zeros ignored; rows show it zero-padded to ${CIK_LENGTH} digits. ` +
  'An unknown CIK gives 200 with count 0.');

/** `form`: EDGAR form types, any of which matches (docs/api.md §15). */
export const formFilter = (fields: readonly string[] = ['form']): FilterSpec => filter('form', 'keys', 'form', fields, FORM_VALUE,
  `Restricts rows to EDGAR form types (4, 8-K, 10-K/A, SC 13G), case-insensitive: up to ${MAX_FILTER_VALUES} separated by commas, any of which matches ` +
  '(a space may be written + or %20). A form is matched exactly: 10-K does not match 10-K/A.');

/** `item`: one 8-K item (docs/api.md §15). */
export const itemFilter = (fields: readonly string[] = ['items']): FilterSpec => filter('item', 'key', 'item', fields, ITEM_VALUE,
  'Restricts rows to filings that report one 8-K item (Form 8-K General Instructions: 2.02 results of operations, 5.02 officers, ...).');

/** `code`: Form 4 transaction codes, any of which matches (docs/api.md §15). */
export const codeFilter = (fields: readonly string[] = ['code']): FilterSpec => filter('code', 'keys', 'code', fields, CODE_VALUE,
  `Restricts rows to Form 4 transaction codes (General Instructions 8), case-insensitive: up to ${MAX_FILTER_VALUES} separated by commas.`);

/** `cusip`: securities by CUSIP, any of which matches (docs/api.md §15). */
export const cusipFilter = (fields: readonly string[] = ['cusip']): FilterSpec => filter('cusip', 'keys', 'cusip', fields, CUSIP_VALUE,
  `Restricts rows to securities by CUSIP (${CUSIP_VALUE.text}): up to ${MAX_FILTER_VALUES} separated by commas.`);

/** `owner_cik`: one reporting owner by CIK, joint owners included (docs/api.md §15). */
export const ownerCikFilter = (fields: readonly string[] = ['owner_cik', 'joint_owner_ciks']): FilterSpec => filter('owner_cik', 'key', 'owner_cik', fields, CIK_VALUE,
  `Restricts rows to one reporting owner by CIK (${CIK_VALUE.text}, leading zeros ignored), any owner of a joint filing included.`);

/** `fiscal_period`: one fiscal period (docs/api.md §15). */
export const fiscalPeriodFilter = (fields: readonly string[] = ['fiscal_period']): FilterSpec => filter('fiscal_period', 'key', 'fiscal_period', fields,
  FISCAL_PERIOD_VALUE, 'Restricts rows to one fiscal period of the company\'s own fiscal calendar: FY, Q1, Q2, Q3 or Q4, case-insensitive.');

/**
 * `since`: rows on or after a date of `field`, the date that leads the kind's order (docs/api.md
 * §15), so the range is a run of every list.
 */
export const sinceFilter = (field: string): FilterSpec => filter('since', 'date-from', field, [field], DATE_VALUE,
  `Restricts rows to ${field} on or after this date (inclusive): ${DATE_VALUE.text}. Not after until.`);

/** `until`: rows on or before a date of `field` (see {@link sinceFilter}). */
export const untilFilter = (field: string): FilterSpec => filter('until', 'date-to', field, [field], DATE_VALUE,
  `Restricts rows to ${field} on or before this date (inclusive): ${DATE_VALUE.text}. Not before since.`);

/**
 * The JSON Schema of a filter's parameter for the OpenAPI document: a string with the pattern of
 * one value, or of a comma-separated list of up to {@link MAX_FILTER_VALUES} for `keys`.
 */
export function filterSchema(spec: FilterSpec): Record<string, unknown> {
  const { value } = spec;
  const one = value.pattern.includes('|') ? `(?:${value.pattern})` : value.pattern;
  if (spec.kind === 'keys') {
    return {
      type: 'string', minLength: 1, maxLength: MAX_FILTER_VALUES * (value.maxLength + 1) - 1,
      pattern: `^${one}(?:,${one}){0,${MAX_FILTER_VALUES - 1}}$`,
      examples: [value.examples.slice(0, 2).join(','), value.examples[0]],
    };
  }
  return {
    type: 'string', minLength: 1, maxLength: value.maxLength, pattern: `^${one}$`, examples: [...value.examples],
    ...(value === DATE_VALUE ? { format: 'date' } : {}),
  };
}
