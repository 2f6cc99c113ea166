/**
 * Error responses (decisions §1, §2): one component per HTTP status, its `error` narrowed to
 * the codes of the error table that carry that status, with the headers that status carries.
 * A status means the same response on every route, except that a 400 to a request without a
 * key (the OpenAPI document's own path) never reached the limiter; that one is a variant.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { PARSER_ERROR_CODES, ROUTER_ERROR_CODES } from './description.js';
import { challengeHeader, commonHeaders, rateLimitHeaders, retryAfterHeader } from './headers.js';

/** Component name (the RFC 9110 reason phrase) and meaning of each error status an operation lists. */
const STATUSES: Readonly<Record<number, { readonly name: string; readonly text: string }>> = Object.freeze({
  400: { name: 'BadRequest', text: 'Invalid query: a bad value, a parameter this operation does not list, or one given twice' },
  401: { name: 'Unauthorized', text: 'Missing, unknown or malformed API key, or a key in the query string' },
  402: { name: 'PaymentRequired', text: 'Subscription suspended' },
  403: { name: 'Forbidden', text: 'Account inactive, or a plan without API access' },
  429: { name: 'TooManyRequests', text: 'Rate limit exceeded' },
  500: { name: 'InternalServerError', text: 'Internal error; the detail carries the request id' },
  503: { name: 'ServiceUnavailable', text: 'Service busy: breaker open or no snapshot loaded' },
});

/**
 * Statuses that only checks at or after the limiter produce (decisions §1: rate limit 429,
 * then parameters 400), so on authenticated routes they carry the rate-limit headers
 * (decisions §3).
 */
const AFTER_LIMITER = new Set([429, 400]);

/** One error status of one route. */
export interface ErrorUse {
  readonly status: number;
  /** Whether the request reached the limiter, so the response carries the rate-limit headers. */
  readonly limited: boolean;
}

/**
 * The error use of a status on a route with or without a key.
 *
 * @param status - an error status of {@link STATUSES}.
 * @param authenticated - whether the route needs a key (only those reach the limiter).
 */
export function errorUse(status: number, authenticated: boolean): ErrorUse {
  return { status, limited: authenticated && AFTER_LIMITER.has(status) };
}

function responseName(use: ErrorUse): string {
  const entry = STATUSES[use.status];
  if (!entry) throw new Error(`no error response is defined for status ${use.status}`);
  return AFTER_LIMITER.has(use.status) && !use.limited ? `${entry.name}WithoutKey` : entry.name;
}

/**
 * The codes an operation can answer with under this status: every code of the error table
 * with that status, except those that only the router or the parser hook send.
 */
export function codesForStatus(status: number): ErrorCode[] {
  const outside = new Set<ErrorCode>([...PARSER_ERROR_CODES, ...ROUTER_ERROR_CODES]);
  return ERROR_CODES.filter((errorCode) => ERRORS[errorCode].status === status && !outside.has(errorCode));
}

/** The `$ref` to the error response of a use. */
export function errorResponseRef(use: ErrorUse): Json {
  return { $ref: `#/components/responses/${responseName(use)}` };
}

/**
 * Builds `components.responses`: one error response per distinct use, in status order.
 *
 * @param license - licence string, shown in the examples.
 * @param uses - the error uses of every operation; duplicates are merged.
 */
export function buildErrorResponses(license: string, uses: readonly ErrorUse[]): Json {
  const responses: Json = {};
  for (const use of [...uses].sort((a, b) => a.status - b.status || Number(b.limited) - Number(a.limited))) {
    const name = responseName(use);
    if (name in responses) continue;
    const { status } = use;
    const text = STATUSES[status]!.text;
    const codes = codesForStatus(status);
    const examples: Json = {};
    for (const errorCode of codes) {
      examples[errorCode] = { summary: ERRORS[errorCode].detail, value: { ok: false, error: errorCode, detail: ERRORS[errorCode].detail, license } };
    }
    responses[name] = {
      description: `${text}: ${codes.map((c) => `\`${c}\``).join(' or ')}.`,
      headers: {
        ...(use.limited ? rateLimitHeaders() : {}),
        ...(codes.every((errorCode) => ERRORS[errorCode].retryAfter) ? retryAfterHeader() : {}),
        ...(status === 401 ? challengeHeader() : {}),
        ...commonHeaders(false),
      },
      content: {
        'application/json': {
          schema: { allOf: [schemaRef(SCHEMA_NAMES.error), { type: 'object', properties: { error: { enum: codes } } }] },
          examples,
        },
      },
    };
  }
  return responses;
}
