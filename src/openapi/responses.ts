/**
 * Error responses (decisions §1, §2): one component per HTTP status, its `error` narrowed to
 * the codes of the error table that carry that status, with the headers that status carries.
 * The same status means the same response on every route, so operations reference these.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { PARSER_ERROR_CODES, ROUTER_ERROR_CODES } from './description.js';
import { commonHeaders, rateLimitHeaders, retryAfterHeader } from './headers.js';

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
 * then parameters 400), so their responses carry the rate-limit headers (decisions §3).
 */
const AFTER_LIMITER = new Set([429, 400]);

/**
 * The codes an operation can answer with under this status: every code of the error table
 * with that status, except those that only the router or the parser hook send.
 */
export function codesForStatus(status: number): ErrorCode[] {
  const outside = new Set<ErrorCode>([...PARSER_ERROR_CODES, ...ROUTER_ERROR_CODES]);
  return ERROR_CODES.filter((errorCode) => ERRORS[errorCode].status === status && !outside.has(errorCode));
}

/** The `$ref` to the error response of a status. */
export function errorResponseRef(status: number): Json {
  const entry = STATUSES[status];
  if (!entry) throw new Error(`no error response is defined for status ${status}`);
  return { $ref: `#/components/responses/${entry.name}` };
}

/**
 * Builds `components.responses`: one error response per status of {@link STATUSES}.
 *
 * @param license - licence string, shown in the examples.
 */
export function buildErrorResponses(license: string): Json {
  const responses: Json = {};
  for (const [statusText, { name, text }] of Object.entries(STATUSES)) {
    const status = Number(statusText);
    const codes = codesForStatus(status);
    const examples: Json = {};
    for (const errorCode of codes) {
      examples[errorCode] = { summary: ERRORS[errorCode].detail, value: { ok: false, error: errorCode, detail: ERRORS[errorCode].detail, license } };
    }
    responses[name] = {
      description: `${text}: ${codes.map((c) => `\`${c}\``).join(' or ')}.`,
      headers: {
        ...(AFTER_LIMITER.has(status) ? rateLimitHeaders() : {}),
        ...(codes.every((errorCode) => ERRORS[errorCode].retryAfter) ? retryAfterHeader() : {}),
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
