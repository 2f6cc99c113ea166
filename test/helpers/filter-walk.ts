/**
 * Helpers of the filter tests (docs/api.md §15): the server over the filter fixture, a walk of a
 * list through `Link`, and the tests' own reading of which rows a filter set matches, decided
 * from the row alone, per endpoint.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import fc from 'fast-check';
import { startHarness, withKey, writeFixtureSnapshot, KEYS, type Harness } from './harness.js';
import { filterRows } from '../fixtures/filter-rows.js';
import { nextOf } from './link-walk.js';
import { ROUTES } from '../../src/routes.js';
import type { RowKind } from '../../src/rows/schemas.js';

/** The base URL the servers put in `Link`. */
export const BASE_URL = 'https://api.example.test';

/** A row as served. */
export type Row = Record<string, any>;

/** The harness serving {@link filterRows} as version `filters`, with its index files unless `indexes` is false. */
export async function filterHarness(t: TestContext, indexes = true, rowsIn: 'memory' | 'file' = 'memory'): Promise<Harness> {
  const h = await startHarness(t, { baseUrl: BASE_URL, rowsIn });
  await writeFixtureSnapshot(h.snapshotsDir, 'filters', filterRows(), true, indexes);
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  return h;
}

/** The rows of a walk, and each page's body as sent. */
export interface Walked {
  readonly rows: Row[];
  readonly bodies: string[];
}

/**
 * Follows `Link` from `path` to the end of its list; every page a 200. With `other`, pages
 * alternate between the two servers of one snapshot: a server resumes a walk of its own cursors
 * from where the page before stopped, and finds the other's by their order keys.
 */
export async function walkPages(h: Harness, path: string, other?: Harness): Promise<Walked> {
  const rows: Row[] = [];
  const bodies: string[] = [];
  let next: string | undefined = path;
  for (let pages = 0; next !== undefined; pages++) {
    assert.ok(pages < 200, 'the walk ends');
    const server = other !== undefined && pages % 2 === 1 ? other : h;
    // The minute bucket fills again: walks are long, the clock is the harness's.
    server.clock.advance(60_000);
    const reply = await server.get(next, withKey(KEYS.founders));
    assert.equal(reply.status, 200, `${next}: ${reply.text}`);
    assert.equal(reply.json.count, reply.json.data.length);
    rows.push(...reply.json.data);
    bodies.push(reply.text);
    next = nextOf(reply.headers.link, BASE_URL);
    if (next !== undefined) assert.ok(reply.json.count > 0, 'a page with a Link has rows');
  }
  return { rows, bodies };
}

/** The rows of {@link walkPages}. */
export const walk = async (h: Harness, path: string, other?: Harness): Promise<Row[]> => (await walkPages(h, path, other)).rows;

/** The filters a test sends. */
export type FilterName = 'ticker' | 'tickers' | 'cik' | 'form' | 'since' | 'until' | 'item' | 'owner_cik' | 'code' | 'cusip' | 'fiscal_period';

/** A filter set as a test names it: parameter → value as sent. */
export type Filters = Partial<Record<FilterName, string>>;

const edgarTicker = (text: string): string => text.toUpperCase().replace(/[./]/g, '-');
const paddedCik = (text: string): string => text.replace(/^0+/, '').padStart(10, '0');
const anyOf = (list: string | undefined, value: unknown): boolean => list === undefined || list.split(',').some((item) => item.toUpperCase() === value);

/** The date `since` and `until` bound, per endpoint (docs/api.md §15, §16): the one that leads its order. */
const DATE_FIELD: Partial<Record<RowKind, string>> = { 'insider-transactions': 'transaction_date', financials: 'period_end' };
/** The row field `cik` reads, per endpoint: the 13F filer's on holders. */
const CIK_FIELD: Partial<Record<RowKind, string>> = { holders: 'filer_cik' };

/** Whether a row of `kind` matches a filter set, decided from the row alone (the test's own reading of docs/api.md §15). */
export function matches(row: Row, filters: Filters, kind: RowKind = 'filings'): boolean {
  const companyTickers: string[] = Array.isArray(row.tickers) && row.tickers.length > 0 ? row.tickers : row.ticker ? [row.ticker] : [];
  const tickers = filters.ticker !== undefined ? [filters.ticker] : filters.tickers?.split(',');
  if (tickers !== undefined && !tickers.some((ticker) => companyTickers.includes(edgarTicker(ticker)))) return false;
  if (filters.cik !== undefined && row[CIK_FIELD[kind] ?? 'cik'] !== paddedCik(filters.cik)) return false;
  if (filters.owner_cik !== undefined && ![row.owner_cik, ...row.joint_owner_ciks].includes(paddedCik(filters.owner_cik))) return false;
  if (!anyOf(filters.form, row.form) || !anyOf(filters.code, row.code) || !anyOf(filters.cusip, row.cusip)) return false;
  if (!anyOf(filters.fiscal_period, row.fiscal_period)) return false;
  if (filters.item !== undefined && !row.items.includes(filters.item)) return false;
  const dateField = DATE_FIELD[kind] ?? 'filed_at';
  if (filters.since !== undefined && !(row[dateField] >= filters.since)) return false;
  if (filters.until !== undefined && !(row[dateField] <= filters.until)) return false;
  return true;
}

/** A filter set (and page size) as a query string, each value percent-encoded. */
export const query = (filters: Filters, limit?: number): string =>
  [...Object.entries(filters).map(([name, value]) => `${name}=${encodeURIComponent(value!)}`), ...(limit === undefined ? [] : [`limit=${limit}`])].join('&');

/** The path of a kind's list. */
export const PATH = (kind: RowKind): string => ROUTES.find((route) => route.target.kind === 'rows' && route.target.rows === kind)!.path;

/** One to four distinct values of `values` (fast-check), for a comma-separated filter. */
export const someOf = <T>(values: readonly T[]): fc.Arbitrary<T[]> => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 4 });

/** `value` one time in three, else undefined (fast-check): so that most filter sets match some rows. */
export const maybe = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: value, weight: 1 });

/** A filter set of optional entries, those left undefined dropped. */
export const definedOnly = (filters: Record<string, string | undefined>): Filters =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as Filters;
