/**
 * The Markdown of `info.description`: the rules of docs/api.md that a client needs and that have
 * no other place in an OpenAPI document (every rule of the contract is visible in the served
 * document). Tables are generated from the plan, error and row tables.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { DEFAULT_PAGE_SIZE, PLANS } from '../plans.js';
import { ALLOWED_METHODS, API_PREFIX, ROUTES } from '../routes.js';
import { ADVICE_WORDS, ROW_KINDS, WRITTEN_FIELD } from '../rows/schemas.js';

/**
 * Codes that no operation answers with: Node's HTTP parser refused the request and the
 * server's `clientError` hook wrote the envelope (docs/api.md §1, last row). Documented here,
 * not per operation.
 */
export const PARSER_ERROR_CODES: readonly ErrorCode[] = Object.freeze(ERROR_CODES.filter((code) => ERRORS[code].raisedBy === 'parser'));

/** Codes that the router answers with for paths and methods that no operation describes. */
export const ROUTER_ERROR_CODES: readonly ErrorCode[] = Object.freeze(ERROR_CODES.filter((code) => ERRORS[code].raisedBy === 'router'));

/** One step of the request pipeline and the codes it can fail with. */
export interface Check {
  readonly step: string;
  readonly codes: readonly ErrorCode[];
}

/** The order of checks, first failure wins (docs/api.md §1). */
export const CHECK_ORDER: readonly Check[] = Object.freeze([
  { step: `breaker (everything under ${API_PREFIX})`, codes: ['service_busy'] },
  { step: 'route', codes: ['not_found', 'method_not_allowed'] },
  { step: 'key', codes: ['invalid_api_key'] },
  { step: 'account', codes: ['account_unavailable'] },
  { step: 'subscription', codes: ['subscription_suspended'] },
  { step: 'plan', codes: ['api_not_available_on_plan'] },
  { step: 'rate limit', codes: ['rate_limited_minute', 'rate_limited_day'] },
  { step: 'parameters', codes: ['invalid_parameter'] },
]);

/** Escapes a table cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');
const code = (text: string): string => `\`${text}\``;
const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
const withStatus = (errorCode: ErrorCode): string => `${ERRORS[errorCode].status} ${code(errorCode)}`;

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The plan table as Markdown, one row per plan of {@link PLANS}. */
export function planTable(): string {
  return table(['Plan id', 'Label', 'Requests per minute', 'Requests per day', 'max_page_size', 'Written summaries'],
    PLANS.map((plan) => [code(plan.id), plan.label, String(plan.perMinute), String(plan.perDay), String(plan.maxPageSize), yesNo(plan.summaries)]));
}

/** The error table as Markdown, one row per code of {@link ERRORS}. */
export function errorTable(): string {
  return table(['HTTP status', '`error`', 'Default `detail`', '`Retry-After`'],
    ERROR_CODES.map((errorCode) => [String(ERRORS[errorCode].status), code(errorCode), ERRORS[errorCode].detail, yesNo(ERRORS[errorCode].retryAfter)]));
}

function writtenFieldsText(): string {
  const byField = new Map<string, string[]>();
  for (const kind of ROW_KINDS) byField.set(WRITTEN_FIELD[kind], [...(byField.get(WRITTEN_FIELD[kind]) ?? []), kind]);
  const fields = [...byField].map(([field, kinds]) => `${code(field)} on ${kinds.join(', ')} rows`).join('; ');
  const factsOnly = PLANS.filter((plan) => !plan.summaries).map((plan) => `${plan.label} (${code(plan.id)})`).join(', ');
  return `Written fields are ${fields}. On plans without written summaries (${factsOnly}) they are absent: ` +
    'the key is not in the row, never `null`. On the other plans they are present where one exists and absent where none exists. ' +
    'Summaries are facts in words, made from the row\'s own figures when the snapshot was built. They never contain advice words: ' +
    `${ADVICE_WORDS.map((word) => `"${word}"`).join(', ')} (matched case-insensitively as whole words with their inflections: "ratings" counts, "Operating" does not).`;
}

/**
 * Builds the Markdown of `info.description`.
 *
 * @param license - the licence string every response carries.
 * @param attribution - the credit to show when written analysis is reused.
 */
export function buildDescription(license: string, attribution: string): string {
  const publicPaths = ROUTES.filter((route) => !route.auth).map((route) => code(route.path)).join(', ');
  const parserErrors = PARSER_ERROR_CODES.map(withStatus).join(' or ');
  return [
    'Read-only HTTP/JSON API of precomputed facts about U.S. equities from SEC EDGAR: filings, Form 4 insider activity, ' +
      '13F institutional holdings and earnings releases. The rows come from a snapshot built from EDGAR\'s own public files; ' +
      'no endpoint enqueues work or calls a language model. Responses contain no recommendations, price targets or ratings.',

    '## Authentication',
    `Every path except ${publicPaths} needs an API key, sent in a header: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`. ` +
      'A missing, unknown or malformed key, a scheme other than Bearer, two different keys in the two headers, or a key in the query string ' +
      `(\`api_key\`, \`apikey\`, \`key\`, \`token\`, \`access_token\`, any case) gives ${withStatus('invalid_api_key')}.`,

    '## Plans and limits',
    planTable(),
    'The same table is in `x-plans`. Limits are per key, with two token buckets: minute (capacity = requests per minute, refilled ' +
      'continuously at that number / 60 per second) and day (capacity = requests per day, refilled at that number / 86400 per second). ' +
      'A request passes when both hold a token and takes one from each; when either is empty the answer is 429 ' +
      `(${code('rate_limited_day')} when both are). \`Retry-After\` is whole seconds, rounded up, at least 1: the time until the empty bucket holds a token. ` +
      '`X-RateLimit-*`, `RateLimit-Policy` and `RateLimit` are sent on every response to a key that reached the limiter (200, 400, 429) and on meta; ' +
      `401, 402 and 403 carry none. \`${API_PREFIX}/meta\` takes no token and answers 200 even when a bucket is empty. ` +
      `A 400 has consumed a token; 401, 402, 403, 429 and 503 consume none. \`limit\` defaults to ${DEFAULT_PAGE_SIZE} and is clamped to the plan's max_page_size. ` +
      'Every process of a deployment shares each key\'s two buckets exactly (through Redis, or the primary of a cluster). While that Redis ' +
      `is unreachable an operator may have chosen to refuse rather than count per process: limited requests then get 503 ${code('service_busy')} with \`Retry-After: 1\`.`,

    '## Order of checks',
    'First failure wins:\n\n' + CHECK_ORDER.map((check, i) => `${i + 1}. ${check.step}: ${check.codes.map(withStatus).join(', ')}`).join('\n') +
      `\n${CHECK_ORDER.length + 1}. 200`,
    'One exception: a list request or the document whose parameters are valid and whose `If-None-Match` matches the current ETag ' +
      'gets 304 right after the plan check, and takes no token (see Conditional requests).',
    `\`/healthz\`, \`/readyz\`, \`/docs\` and \`/favicon.ico\` are outside ${API_PREFIX}, behind no breaker and need no key.`,

    '## Errors',
    'Every error body is the error envelope `{ "ok": false, "error", "detail", "license" }`.',
    errorTable(),
    `An unknown path (a trailing \`/\` included) gives ${withStatus('not_found')}; a known path with a method other than GET or HEAD gives ` +
      `${withStatus('method_not_allowed')} with \`Allow: ${ALLOWED_METHODS}\`. A request refused before any route (a bad request line or header, ` +
      `HTTP/1.1 without \`Host\`, an \`Expect\` other than \`100-continue\`, headers over the size limit, a request not received in time) ` +
      `gets ${parserErrors} (Node's parser refusals written from the server's \`clientError\` hook), after the complete responses to the ` +
      'requests before it on the connection, and then the connection closes; since that can answer any request, every operation lists those statuses. ' +
      'A request with a body (no operation takes one) is answered and its connection closed without reading the body. ' +
      'A 500 detail carries the request id, never a stack trace.',

    '## Requests',
    'Every path answers HEAD exactly like GET (same status and headers, no body), and HEAD counts like GET. ' +
      'A query parameter that the operation does not list, or one given twice, gives ' +
      `${withStatus('invalid_parameter')} on any path under ${API_PREFIX} (the document's own path included); so does a \`limit\` that is not ASCII digits only or is below 1 ` +
      '(the detail names the parameter). An unknown ticker or CIK is not an error: 200 with `count` 0 and `data` [].',

    '## Responses',
    'Every 200 from the API is the success envelope; `count` is always present. `Content-Type: application/json; charset=utf-8`. ' +
      'Authenticated responses carry `Cache-Control: private, no-cache` and `Vary: Authorization, X-API-Key`. Every response has ' +
      '`X-Request-Id` and `X-Content-Type-Options: nosniff`; a 401 has `WWW-Authenticate: Bearer`; `X-Snapshot-Version` names the snapshot served. Bodies over 1 KiB are compressed with gzip or br when the ' +
      'request\'s `Accept-Encoding` allows it. Rows are snake_case; dates are `YYYY-MM-DD`; money is USD as numbers; CIKs are 10-digit strings.',
    writtenFieldsText(),

    '## Pagination',
    'Every row of every list is reachable. A 200 whose list has rows after the page carries ' +
      '`Link: <{base_url}{path}?{the same parameters}&cursor=C>; rel="next"` (RFC 8288); the last page has none, and the envelope ' +
      'is the same on every page. Follow the link, or send its `cursor` with the same endpoint and filter. A cursor names the last ' +
      'row sent by its place in the order (keyset), so it stays valid when the snapshot is replaced: the next page continues after ' +
      'that row in the snapshot then served. A cursor that does not decode, or was made for another list (another endpoint or ' +
      `filter), gives ${withStatus('invalid_parameter')} naming \`cursor\`. \`limit\` may change from page to page.`,

    '## Conditional requests',
    'Every 200 of a list endpoint carries a weak `ETag` that names its rows: the snapshot, the list, the position, the count and the ' +
      'plan variant, not `as_of`. The document itself carries a strong one per content coding. A request whose `If-None-Match` ' +
      'matches it (weak comparison, RFC 9110 §13.1.2; `*` matches) gets 304 Not Modified with no body, the same `ETag`, ' +
      '`X-Request-Id`, `X-Snapshot-Version`, `Cache-Control` and `Vary`, and the current rate-limit fields. A 304 takes no token, ' +
      'so polling an unchanged list is free; the key, account and plan checks still run first, and invalid parameters still get 400.',

    '## Browsers (CORS)',
    `Every response under ${API_PREFIX} carries \`Access-Control-Allow-Origin: *\` and \`Access-Control-Expose-Headers\` naming ` +
      'the rate-limit fields, `Retry-After`, `ETag`, `Link`, `X-Request-Id` and `X-Snapshot-Version`; no cookies are used. ' +
      'A preflight (OPTIONS with `Origin` and `Access-Control-Request-Method: GET` or `HEAD`) gets 204 with ' +
      '`Access-Control-Allow-Methods: GET, HEAD` and `Access-Control-Allow-Headers: Authorization, X-API-Key, If-None-Match`; ' +
      `it needs no key and takes no token. Any other OPTIONS gets ${withStatus('method_not_allowed')}.`,

    '## Docs page',
    '`GET /docs` renders this document with Swagger UI, shipped in the package: no request leaves the machine (no CDN, no web fonts). ' +
      'Enter a key once with Authorize and try every operation; the key goes in a header, never in the URL.',

    '## License and attribution',
    'SEC facts (numbers, dates, filings) are U.S. public domain and need no permission. The written summaries and analysis may be ' +
      'reused only while the credit from the response field `attribution` is visible and linked. Every response carries the licence ' +
      'string, which includes an information-only disclaimer.',
    `Licence string: ${license}`,
    `Attribution: ${attribution}`,

    '## Versioning',
    `The version is \`v1\`: the path prefix ${API_PREFIX} and the \`api_version\` field of every success response.`,
  ].join('\n\n');
}
