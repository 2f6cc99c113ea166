/**
 * The route table (service spec, "Endpoints"; docs/api.md §1): every path the server answers,
 * its query parameters and what it returns. It drives the router, the parameter checks and the
 * OpenAPI document; nothing else lists paths.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE_OF_ANY_PLAN } from './plans.js';
import {
  cikFilter, codeFilter, cusipFilter, fiscalPeriodFilter, formFilter, itemFilter, ownerCikFilter, sinceFilter, tickerFilter, tickersFilter,
  untilFilter, type FilterSpec,
} from './filters.js';
import type { RowKind } from './rows/schemas.js';
import type { Schema } from './rows/schema.js';
import { CURSOR_MAX_LENGTH, encodeCursor } from './http/cursor.js';
import { ORDER_KEY_PARTS, OrderKeyWriter } from './data/order-key.js';

/** A real cursor for the document's example: after an AAPL filing, 20 rows into its list. */
function exampleCursor(): string {
  const writer = new OrderKeyWriter();
  writer.add(ORDER_KEY_PARTS.filings, { filed_at: '2026-01-30', accepted_at: '2026-01-30T21:06:14.000Z', accession_no: '0000320193-26-000006', ticker: 'AAPL' });
  const keys = writer.finish();
  return encodeCursor('filings', 'AAPL', keys.bytes, 1, 20);
}

/** A query parameter every list route accepts besides its filters. */
export type ParamName = 'limit' | 'cursor';

/** How a common query parameter is checked and published. */
export interface ParamSpec {
  readonly name: ParamName;
  /** Text for the OpenAPI document. */
  readonly description: string;
  /** JSON Schema published for the parameter. */
  readonly schema: Schema;
}

/** `limit` (service spec, "Common query parameters"; docs/api.md §1) and `cursor` (docs/api.md §9). */
export const PARAMS: Readonly<Record<ParamName, ParamSpec>> = Object.freeze({
  limit: {
    name: 'limit',
    description: `Rows to return: ASCII digits only, at least 1 (leading zeros allowed: 05 is 5). Default ${DEFAULT_PAGE_SIZE}. ` +
      "Above the plan's max_page_size it is clamped, not rejected.",
    schema: { type: 'integer', minimum: 1, default: DEFAULT_PAGE_SIZE, examples: [20], description: `clamped to max_page_size (at most ${MAX_PAGE_SIZE_OF_ANY_PLAN})` },
  },
  cursor: {
    name: 'cursor',
    description: 'Continues a list after the page that gave it: copy it from that response\'s `Link: <…>; rel="next"` header ' +
      '(RFC 8288), or follow the link as it is. Opaque; it names the list (endpoint and filters) and the last row sent, by that row\'s ' +
      'place in the order, so it stays valid when the snapshot is replaced (the next page continues after that row in the new one). ' +
      'A cursor that does not decode, or was made for another list (another endpoint or other filters), gives 400 invalid_parameter naming cursor.',
    schema: { type: 'string', minLength: 1, maxLength: CURSOR_MAX_LENGTH, pattern: '^[A-Za-z0-9_-]+$', examples: [exampleCursor()] },
  },
});

/** What a route answers with. */
export type RouteTarget = { readonly kind: 'rows'; readonly rows: RowKind } | { readonly kind: 'meta' } | { readonly kind: 'openapi' }
  | { readonly kind: 'healthz' } | { readonly kind: 'readyz' } | { readonly kind: 'docs' } | { readonly kind: 'docsAsset' }
  | { readonly kind: 'favicon' };

/** One row of the route table. */
export interface Route {
  /** Exact path, no trailing slash; or, with `prefix`, an OpenAPI path template. */
  readonly path: string;
  /** When set, the route answers every path that starts with it (the rest names a file); `path` is its template. */
  readonly prefix?: string;
  /** Stable OpenAPI operationId. */
  readonly operationId: string;
  /** Whether an API key is required (everything under /api/v1 but the OpenAPI document). */
  readonly auth: boolean;
  /** Whether a request takes a token from the key's buckets (meta does not; docs/api.md §3). */
  readonly countsAgainstLimits: boolean;
  /** Whether the route sits under /api/v1 and so behind the breaker (docs/api.md §8). */
  readonly underApi: boolean;
  /** Query parameters accepted, in the order they are documented: `limit`, the filters, `cursor` on a list. */
  readonly params: readonly string[];
  /** The list's filters (docs/api.md §15), each declared once here; none on other routes. */
  readonly filters: readonly FilterSpec[];
  readonly target: RouteTarget;
  /** One line for the OpenAPI summary. */
  readonly summary: string;
  /** Longer text for the OpenAPI description. */
  readonly description: string;
}

/** A route without query parameters. */
const NO_PARAMS = { params: [], filters: [] } as const;

/** The query parameters of a list route: `limit`, its filters in the order given, `cursor` (docs/api.md §9, §15). */
function listParams(...filters: FilterSpec[]): Pick<Route, 'params' | 'filters'> {
  return { params: ['limit', ...filters.map((spec) => spec.name), 'cursor'], filters };
}

/** Path prefix of the versioned API (service spec, "Versioning"). */
export const API_PREFIX = '/api/v1';

/** Every route the server answers. */
export const ROUTES: readonly Route[] = Object.freeze([
  {
    path: `${API_PREFIX}/meta`, operationId: 'getMeta', auth: true, countsAgainstLimits: false, underApi: true, ...NO_PARAMS,
    target: { kind: 'meta' }, summary: "The calling key's plan, limits and usage",
    description: 'One meta row: plan, limits, current usage of both token buckets, max_page_size and the snapshot served. ' +
      'Takes no token and answers 200 even when a bucket is empty.',
  },
  {
    path: `${API_PREFIX}/finance/reports`, operationId: 'listReports', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('company')),
    target: { kind: 'rows', rows: 'reports' }, summary: 'Per-company factual profiles',
    description: 'Without ticker the most recent ones (by latest filing), with ticker that company only.',
  },
  {
    path: `${API_PREFIX}/finance/insiders`, operationId: 'listInsiders', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('issuer')),
    target: { kind: 'rows', rows: 'insiders' }, summary: 'Insider-activity summaries (Form 4), per company',
    description: 'Open-market purchases (P) and sales (S) in the window, per company; without ticker a cross-company overview.',
  },
  {
    path: `${API_PREFIX}/finance/whales`, operationId: 'listWhales', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(cikFilter('13F filer')),
    target: { kind: 'rows', rows: 'whales' }, summary: 'Institutional filers and their top holdings (13F)',
    description: 'One row per 13F-HR filer for its latest period, with its largest positions and quarter-over-quarter moves; cik filters to one filer.',
  },
  {
    path: `${API_PREFIX}/finance/earnings`, operationId: 'listEarnings', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('company'), sinceFilter('filed_at'), untilFilter('filed_at')),
    target: { kind: 'rows', rows: 'earnings' }, summary: 'Earnings releases (8-K item 2.02)',
    description: 'Filed earnings releases with the reported figures from XBRL and a recap where one exists.',
  },
  {
    path: `${API_PREFIX}/finance/filings`, operationId: 'listFilings', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('company'), formFilter(), sinceFilter('filed_at'), untilFilter('filed_at'), itemFilter()),
    target: { kind: 'rows', rows: 'filings' }, summary: 'Recent SEC filings',
    description: 'Recently filed documents with links to the primary document and the index page, and a summary where one exists.',
  },
  {
    path: `${API_PREFIX}/finance/insider-transactions`, operationId: 'listInsiderTransactions', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('issuer'), ownerCikFilter(), codeFilter(), sinceFilter('transaction_date'), untilFilter('transaction_date')),
    target: { kind: 'rows', rows: 'insider-transactions' }, summary: 'Every Form 4 transaction line',
    description: 'One row per transaction line of Table I (non-derivative) and Table II (derivative) of every Form 4 and 4/A in the insider ' +
      'window, latest transaction first; the lines of a filing that a 4/A replaced are left out. A company\'s P and S rows of Table I are the ' +
      'trades its insider row counts.',
  },
  {
    path: `${API_PREFIX}/finance/financials`, operationId: 'listFinancials', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), tickersFilter(), cikFilter('company'), fiscalPeriodFilter(), sinceFilter('period_end'), untilFilter('period_end')),
    target: { kind: 'rows', rows: 'financials' }, summary: 'Company financials per fiscal period (XBRL company facts)',
    description: 'One row per company and fiscal period (FY, Q1-Q4 on the company\'s own fiscal calendar) that a 10-K, 10-Q or an amendment reported in XBRL: ' +
      'revenue, operating and net income, EPS, assets, liabilities, equity, cash, operating cash flow and shares outstanding, as first reported, ' +
      'each with the concept it came from. Latest period first; every period in the data, no window.',
  },
  {
    path: `${API_PREFIX}/finance/holders`, operationId: 'listHolders', auth: true, countsAgainstLimits: true, underApi: true,
    ...listParams(tickerFilter(), cusipFilter(), cikFilter('13F filer', ['filer_cik'])),
    target: { kind: 'rows', rows: 'holders' }, summary: 'Institutional holders by position (13F)',
    description: 'One row per 13F-HR filer and position of its latest period, largest value first: the security (CUSIP, and ticker where its ' +
      'issuer resolves), the filer, shares, value, weight in the filer\'s portfolio and the move since the period before, with the figures ' +
      'of the filer\'s whale row.',
  },
  {
    path: `${API_PREFIX}/openapi.json`, operationId: 'getOpenApi', auth: false, countsAgainstLimits: false, underApi: true, ...NO_PARAMS,
    target: { kind: 'openapi' }, summary: 'This OpenAPI 3.1 document',
    description: 'The machine-readable description of the API. No key needed.',
  },
  {
    path: '/healthz', operationId: 'getHealth', auth: false, countsAgainstLimits: false, underApi: false, ...NO_PARAMS,
    target: { kind: 'healthz' }, summary: 'Liveness', description: '200 while the process runs, breaker open or not.',
  },
  {
    path: '/readyz', operationId: 'getReadiness', auth: false, countsAgainstLimits: false, underApi: false, ...NO_PARAMS,
    target: { kind: 'readyz' }, summary: 'Readiness', description: '200 when a snapshot is loaded and the breaker is closed, else 503 service_busy.',
  },
  {
    path: '/docs', operationId: 'getDocs', auth: false, countsAgainstLimits: false, underApi: false, ...NO_PARAMS,
    target: { kind: 'docs' }, summary: 'Documentation page',
    description: 'An HTML page that renders this document with Swagger UI, shipped in the package: nothing is loaded from another host. ' +
      'Enter a key once (Authorize) and try every operation from the page; the key goes in a header, never in the URL.',
  },
  {
    path: '/docs/{asset}', prefix: '/docs/', operationId: 'getDocsAsset', auth: false, countsAgainstLimits: false, underApi: false, ...NO_PARAMS,
    target: { kind: 'docsAsset' }, summary: 'A file of the documentation page',
    description: 'The viewer\'s script and style sheet, the page\'s start-up script and icon, and the viewer\'s licence (Apache-2.0).',
  },
  {
    path: '/favicon.ico', operationId: 'getFavicon', auth: false, countsAgainstLimits: false, underApi: false, ...NO_PARAMS,
    target: { kind: 'favicon' }, summary: 'The site icon',
    description: 'The icon browsers ask for on their own and the docs page names (an ICO, 16×16 and 32×32), so that they get no 404.',
  },
] satisfies Route[]);

/** A route's two possible matches, made once so that a lookup allocates nothing. */
interface RouteMatches {
  readonly route: Route;
  readonly found: RouteMatch;
  readonly notAllowed: RouteMatch;
}

/**
 * Routes by the length of their path: a lookup compares the request's path with the one or two
 * routes of that length in place, so it neither cuts the path out of the request target nor
 * hashes it.
 */
const matchesOf = (route: Route): RouteMatches => ({
  route, found: Object.freeze({ status: 'found', route }), notAllowed: Object.freeze({ status: 'method_not_allowed', route }),
}) as const;
const EXACT_ROUTES = ROUTES.filter((route) => route.prefix === undefined);
const byLength: readonly (readonly RouteMatches[] | undefined)[] = Array.from(
  { length: Math.max(...EXACT_ROUTES.map((route) => route.path.length)) + 1 },
  (_, length) => {
    const routes = EXACT_ROUTES.filter((route) => route.path.length === length);
    return routes.length === 0 ? undefined : routes.map(matchesOf);
  },
);
/** Routes that answer every path under a prefix (few; tried after the exact ones). */
const PREFIX_ROUTES: readonly RouteMatches[] = ROUTES.filter((route) => route.prefix !== undefined).map(matchesOf);

/** Methods every route allows (docs/api.md §1). */
export const ALLOWED_METHODS = 'GET, HEAD';

/** Result of a route lookup. */
export type RouteMatch =
  | { readonly status: 'found'; readonly route: Route }
  | { readonly status: 'method_not_allowed'; readonly route: Route }
  | { readonly status: 'not_found' };

/**
 * Finds the route for a method and path. Pure: no I/O, no state.
 *
 * @param method - the request method, as Node gives it (upper case).
 * @param target - the path, or a request target (path and query) whose path ends at `pathEnd`.
 * @param pathEnd - where the path ends in `target` (the index of its `?`); its whole length by
 *   default. The path is matched exactly: a trailing `/` is another path.
 */
export function findRoute(method: string, target: string, pathEnd: number = target.length): RouteMatch {
  const candidates = byLength[pathEnd];
  if (candidates !== undefined) {
    for (const matches of candidates) {
      if (target.startsWith(matches.route.path)) return method === 'GET' || method === 'HEAD' ? matches.found : matches.notAllowed;
    }
  }
  for (const matches of PREFIX_ROUTES) {
    const prefix = matches.route.prefix!;
    if (pathEnd > prefix.length && target.startsWith(prefix)) return method === 'GET' || method === 'HEAD' ? matches.found : matches.notAllowed;
  }
  return NOT_FOUND;
}

const NOT_FOUND: RouteMatch = Object.freeze({ status: 'not_found' });
