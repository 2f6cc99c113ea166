/**
 * Response headers as OpenAPI Header Objects (docs/api.md §3 and §5). The guard and HTTP layers
 * set them; this module only describes them, with examples computed from the plan table.
 * Each is defined once in `components.headers` and referenced from the responses.
 */
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { PLANS, type Plan } from '../plans.js';
import { RATE_LIMIT_HEADER_NAMES } from '../guard/rate-limit-headers.js';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS } from '../guard/token-bucket.js';
import { ALLOWED_REQUEST_HEADERS, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../http/cors.js';
import { ALLOWED_METHODS } from '../routes.js';

/** An OpenAPI 3.1 Header Object or Reference Object, as plain JSON. */
export type HeaderObject = Record<string, unknown>;

/** Plan whose limits the examples show: the first paid plan, so the numbers are typical. */
const EXAMPLE_PLAN: Plan = PLANS.find((plan) => plan.summaries) ?? PLANS[0]!;

/** Seconds in the windows of the two token buckets (docs/api.md §3), from the limiter's own constants. */
const MINUTE_SECONDS = MINUTE_WINDOW_MS / 1000;
const DAY_SECONDS = DAY_WINDOW_MS / 1000;
/** Requests already made in the examples, so that remaining counts look lived-in. */
const USED_MINUTE = 19;
const USED_DAY = 289;

/** Names of the rate-limit headers the limiter sends on every decision (Retry-After only on refusals, documented apart). */
const RATE_LIMIT_HEADERS = RATE_LIMIT_HEADER_NAMES.filter((name) => name !== 'Retry-After');

const integer = (minimum: number): Record<string, unknown> => ({ type: 'integer', minimum });
const header = (description: string, schema: Record<string, unknown>, example: unknown, required = true): HeaderObject =>
  ({ description, required, schema, example });
const ref = (name: string): HeaderObject => ({ $ref: `#/components/headers/${name}` });

/**
 * Builds `components.headers`: the rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers
 * fields beside the `X-RateLimit-*` ones), `Retry-After`, `X-Request-Id`, `ETag`, `Link`,
 * `Allow`, the CORS fields, `X-Content-Type-Options` and `WWW-Authenticate`.
 */
export function buildHeaderComponents(): Record<string, HeaderObject> {
  const remainingMinute = EXAMPLE_PLAN.perMinute - USED_MINUTE;
  const remainingDay = EXAMPLE_PLAN.perDay - USED_DAY;
  return {
    'X-RateLimit-Limit-Minute': header("Capacity of the key's minute token bucket: the plan's requests per minute.", integer(1), EXAMPLE_PLAN.perMinute),
    'X-RateLimit-Remaining-Minute': header('Whole tokens left in the minute bucket after this request.', integer(0), remainingMinute),
    'X-RateLimit-Limit-Day': header("Capacity of the key's day token bucket: the plan's requests per day.", integer(1), EXAMPLE_PLAN.perDay),
    'X-RateLimit-Remaining-Day': header('Whole tokens left in the day bucket after this request.', integer(0), remainingDay),
    'RateLimit-Policy': header('Both buckets as IETF RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`q` is the quota (bucket capacity), `w` the window in seconds.', { type: 'string' },
    `"minute";q=${EXAMPLE_PLAN.perMinute};w=${MINUTE_SECONDS}, "day";q=${EXAMPLE_PLAN.perDay};w=${DAY_SECONDS}`),
    'RateLimit': header('Both buckets as IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): ' +
      '`r` is the whole tokens remaining, `t` the seconds until the next token.', { type: 'string' },
    `"minute";r=${remainingMinute};t=1, "day";r=${remainingDay};t=18`),
    'Retry-After': header('Whole seconds to wait before retrying (RFC 9110 §10.2.3 delay-seconds), rounded up, at least 1. ' +
      'On 429: the time until the empty bucket holds one token.', integer(1), 1),
    'X-Request-Id': header('Identifier of this request, also in the server log and in the detail of a 500.',
      { type: 'string' }, 'b3c1e2f4-6a1d-4c6e-9a51-2f0c3d9e8a77'),
    'ETag': header('Entity tag of the representation (RFC 9110 §8.8.3). Weak on list pages: it names the snapshot, the list, the ' +
      'position, the count and the plan variant, not `as_of`. Strong on this document, one per content coding. Send it back in ' +
      '`If-None-Match` to get 304 when nothing changed.', { type: 'string' }, 'W/"Hq3x0b1yQ2c_.4.AAPL.0.20.f"'),
    'Link': header('The next page of the list (RFC 8288): `<{base_url}{path}?{the same parameters}&cursor=…>; rel="next"`. ' +
      'Absent on the last page.', { type: 'string' }, '<https://api.example.org/api/v1/finance/filings?ticker=AAPL&limit=20&cursor=AQEEQUFQTAEU>; rel="next"', false),
    'Allow': header('Methods the path answers (RFC 9110 §10.2.1).', { type: 'string', const: ALLOWED_METHODS }, ALLOWED_METHODS),
    'Access-Control-Allow-Origin': header('Any origin may read the response (CORS); no cookies are used.', { type: 'string', const: '*' }, '*'),
    'Access-Control-Expose-Headers': header('Response fields a browser script may read.', { type: 'string' }, EXPOSED_HEADERS.join(', ')),
    'Access-Control-Allow-Methods': header('Methods a cross-origin request may use.', { type: 'string', const: ALLOWED_METHODS }, ALLOWED_METHODS),
    'Access-Control-Allow-Headers': header('Request fields a cross-origin request may send.', { type: 'string', const: ALLOWED_REQUEST_HEADERS }, ALLOWED_REQUEST_HEADERS),
    'Access-Control-Max-Age': header('Seconds a browser may keep this preflight\'s answer.', integer(1), PREFLIGHT_MAX_AGE_SECONDS),
    'X-Content-Type-Options': header('Always `nosniff`: a browser must read the body as the JSON it is.', { type: 'string', const: 'nosniff' }, 'nosniff'),
    'WWW-Authenticate': header('The scheme that would succeed (RFC 9110 §11.6.1): `Bearer`, the key in `Authorization: Bearer <key>`.',
      { type: 'string', const: 'Bearer' }, 'Bearer'),
  };
}

/** Reference to `WWW-Authenticate`, sent on 401 (docs/api.md §12). */
export function challengeHeader(): Record<string, HeaderObject> {
  return { 'WWW-Authenticate': ref('WWW-Authenticate') };
}

/**
 * The rate-limit headers, sent on every response to a key that reached the limiter (docs/api.md §3).
 *
 * @param required - false where the status is shared with answers that never reach the limiter
 *   (a 400 of Node's parser): the headers are then described inline, not required.
 */
export function rateLimitHeaders(required = true): Record<string, HeaderObject> {
  if (required) return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, ref(name)]));
  const components = buildHeaderComponents();
  return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, { ...components[name], required: false }]));
}

/** Reference to `Allow`, sent with 405 (docs/api.md §1). */
export function allowHeader(): Record<string, HeaderObject> {
  return { Allow: ref('Allow') };
}

/** References to the CORS fields of every response under /api/v1 (docs/api.md §12). */
export function corsHeaders(): Record<string, HeaderObject> {
  return { 'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin'), 'Access-Control-Expose-Headers': ref('Access-Control-Expose-Headers') };
}

/** References to the fields of a preflight's 204, beside {@link corsHeaders}. */
export function preflightHeaders(): Record<string, HeaderObject> {
  return {
    'Access-Control-Allow-Methods': ref('Access-Control-Allow-Methods'),
    'Access-Control-Allow-Headers': ref('Access-Control-Allow-Headers'),
    'Access-Control-Max-Age': ref('Access-Control-Max-Age'),
  };
}

/** A reference to one header component by name. */
export function headerRef(name: 'ETag' | 'Link'): HeaderObject {
  return ref(name);
}

/** Reference to `Retry-After`, sent on 429 and 503 (docs/api.md §2). */
export function retryAfterHeader(): Record<string, HeaderObject> {
  return { 'Retry-After': ref('Retry-After') };
}

/**
 * Headers on every response (docs/api.md §5, §12).
 *
 * @param snapshotRequired - whether `X-Snapshot-Version` is always present (false where the
 *   response can be sent while no snapshot is loaded).
 */
export function commonHeaders(snapshotRequired: boolean): Record<string, HeaderObject> {
  return {
    'X-Request-Id': ref('X-Request-Id'),
    'X-Content-Type-Options': ref('X-Content-Type-Options'),
    'X-Snapshot-Version': header('Version of the snapshot that answered' + (snapshotRequired ? '.' : '; absent while no snapshot is loaded.'),
      { type: 'string', pattern: VERSION_PATTERN.source }, '2026-11-02T06-00-00Z', snapshotRequired),
  };
}
