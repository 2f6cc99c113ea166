/**
 * Error responses (docs/api.md §1, §2): one component per HTTP status, its `error` narrowed to
 * the codes of the error table that carry that status, with the headers that status carries.
 * Every code of the table appears in some response: Node's parser refusals (`bad_request`, ...)
 * can answer any request, so every operation lists their statuses; `not_found` is listed where a
 * path names a file that may not exist, and `method_not_allowed` (with `Allow`) on the OPTIONS
 * operations, where a request that is not a CORS preflight gets it.
 *
 * A status means the same response on every route, except that a 400 to a request without a
 * key (a path that needs none) never reached the limiter; that one is a variant.
 */
import { ERROR_CODES, ERRORS, type ErrorCode } from '../errors.js';
import { SCHEMA_NAMES, schemaRef, type Json } from './components.js';
import { allowHeader, challengeHeader, commonHeaders, rateLimitHeaders, retryAfterHeader } from './headers.js';

/** Component name (the RFC 9110 reason phrase) and meaning of each error status. */
const STATUSES: Readonly<Record<number, { readonly name: string; readonly text: string }>> = Object.freeze({
  400: { name: 'BadRequest', text: 'Invalid query (a bad value, a parameter this operation does not list, or one given twice), or a request Node\'s HTTP parser refused' },
  401: { name: 'Unauthorized', text: 'Missing, unknown or malformed API key, or a key in the query string' },
  402: { name: 'PaymentRequired', text: 'Subscription suspended' },
  403: { name: 'Forbidden', text: 'Account inactive, or a plan without API access' },
  404: { name: 'NotFound', text: 'No such path' },
  405: { name: 'MethodNotAllowed', text: 'A method other than GET or HEAD (an OPTIONS that is not a CORS preflight included)' },
  408: { name: 'RequestTimeout', text: 'The request was not received in time' },
  417: { name: 'ExpectationFailed', text: 'An Expect other than 100-continue' },
  429: { name: 'TooManyRequests', text: 'Rate limit exceeded' },
  431: { name: 'RequestHeaderFieldsTooLarge', text: 'Request headers over the size limit' },
  500: { name: 'InternalServerError', text: 'Internal error; the detail carries the request id' },
  503: { name: 'ServiceUnavailable', text: 'Service busy: breaker open, no snapshot loaded, or the shared rate limiter unreachable' },
});

/**
 * Statuses that only checks at or after the limiter produce (docs/api.md §1: rate limit 429,
 * then parameters 400), so on authenticated routes they carry the rate-limit headers
 * (docs/api.md §3).
 */
const AFTER_LIMITER = new Set([429, 400]);

/** Statuses of the error table's parser codes: any request can get them (docs/api.md §12). */
export const PARSER_STATUSES: readonly number[] = Object.freeze([...new Set(
  ERROR_CODES.filter((code) => ERRORS[code].raisedBy === 'parser').map((code) => ERRORS[code].status),
)].sort((a, b) => a - b));

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

/** Name of the component of an error use. */
export function responseName(use: ErrorUse): string {
  const entry = STATUSES[use.status];
  if (!entry) throw new Error(`no error response is defined for status ${use.status}`);
  return AFTER_LIMITER.has(use.status) && !use.limited ? `${entry.name}WithoutKey` : entry.name;
}

/** Every code of the error table with this status. */
export function codesForStatus(status: number): ErrorCode[] {
  return ERROR_CODES.filter((errorCode) => ERRORS[errorCode].status === status);
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
    const codes = codesForStatus(status);
    const examples: Json = {};
    for (const errorCode of codes) {
      examples[errorCode] = { summary: ERRORS[errorCode].detail, value: { ok: false, error: errorCode, detail: ERRORS[errorCode].detail, license } };
    }
    // A parser refusal shares its status with codes of the pipeline but never reaches the limiter.
    const limitedAlways = codes.every((errorCode) => ERRORS[errorCode].raisedBy !== 'parser');
    const limitedText = use.limited && !limitedAlways
      ? ' The rate-limit fields are sent when the request reached the limiter (`invalid_parameter`), not on a parser refusal.' : '';
    responses[name] = {
      description: `${STATUSES[status]!.text}: ${codes.map((c) => `\`${c}\``).join(' or ')}.${limitedText}`,
      headers: {
        ...(use.limited ? rateLimitHeaders(limitedAlways) : {}),
        ...(codes.every((errorCode) => ERRORS[errorCode].retryAfter) ? retryAfterHeader() : {}),
        ...(status === 405 ? allowHeader() : {}),
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
