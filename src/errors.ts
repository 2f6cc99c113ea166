/**
 * The error table (docs/api.md §2): every error code the API answers with, its HTTP status and
 * its default detail. It drives every error response and the OpenAPI document.
 */

/** One row of the error table. */
export interface ErrorSpec {
  /** HTTP status code sent with this error. */
  readonly status: number;
  /** Detail used when the caller gives none. */
  readonly detail: string;
  /** Whether the response carries `Retry-After` (docs/api.md §2: 429 and 503). */
  readonly retryAfter: boolean;
  /**
   * Who answers with it: `operation` (the pipeline of a known route), `router` (no route:
   * 404/405, on any path), or `parser` (the connection layer refused the request before any
   * route: Node's HTTP parser, its timeouts, or HTTP/1.1's own rules on Host and Expect).
   */
  readonly raisedBy: 'operation' | 'router' | 'parser';
}

/** The complete error table, keyed by the stable machine-readable code. */
export const ERRORS = Object.freeze({
  invalid_parameter: { status: 400, detail: 'A query parameter is invalid.', retryAfter: false, raisedBy: 'operation' },
  invalid_api_key: { status: 401, detail: 'The API key is missing or unknown. Send it in the Authorization: Bearer or X-API-Key header.', retryAfter: false, raisedBy: 'operation' },
  subscription_suspended: { status: 402, detail: "The account's subscription has lapsed.", retryAfter: false, raisedBy: 'operation' },
  account_unavailable: { status: 403, detail: 'The account is inactive.', retryAfter: false, raisedBy: 'operation' },
  api_not_available_on_plan: { status: 403, detail: "The key's plan has no API access.", retryAfter: false, raisedBy: 'operation' },
  not_found: { status: 404, detail: 'No such path.', retryAfter: false, raisedBy: 'router' },
  method_not_allowed: { status: 405, detail: 'Only GET and HEAD are allowed.', retryAfter: false, raisedBy: 'router' },
  rate_limited_minute: { status: 429, detail: 'Per-minute request limit exceeded.', retryAfter: true, raisedBy: 'operation' },
  rate_limited_day: { status: 429, detail: 'Per-day request limit exceeded.', retryAfter: true, raisedBy: 'operation' },
  internal_error: { status: 500, detail: 'Internal error.', retryAfter: false, raisedBy: 'operation' },
  service_busy: { status: 503, detail: 'The service is busy; retry shortly.', retryAfter: true, raisedBy: 'operation' },
  // The connection layer refused the request before the pipeline (docs/api.md §12): Node's parser
  // (bad request line, headers too large, too slow: the server's clientError hook answers), or
  // a request Node parsed that HTTP/1.1 itself refuses (no Host, an unsupported Expect). The
  // connection closes after each.
  bad_request: { status: 400, detail: 'The request could not be parsed.', retryAfter: false, raisedBy: 'parser' },
  request_timeout: { status: 408, detail: 'The request was not received in time.', retryAfter: false, raisedBy: 'parser' },
  expectation_failed: { status: 417, detail: 'Only Expect: 100-continue is supported.', retryAfter: false, raisedBy: 'parser' },
  request_header_fields_too_large: { status: 431, detail: 'The request headers are too large.', retryAfter: false, raisedBy: 'parser' },
} as const satisfies Record<string, ErrorSpec>);

/** A stable error code: a key of {@link ERRORS}. */
export type ErrorCode = keyof typeof ERRORS;

/** Every error code, in table order. */
export const ERROR_CODES = Object.freeze(Object.keys(ERRORS) as ErrorCode[]);

/**
 * What an error response says: the code (its status comes from {@link ERRORS}), the detail, and
 * for 429 and 503 the `Retry-After` seconds. The responder turns it into
 * `{ ok: false, error: code, detail, license }`.
 */
export interface ErrorAnswer {
  /** Stable machine-readable code, a key of the error table. */
  readonly code: ErrorCode;
  /** Human-readable detail. Never includes a key. */
  readonly detail: string;
  /** Seconds for `Retry-After` (429 and 503 only); whole seconds, at least 1. */
  readonly retryAfterSeconds?: number | undefined;
}

/**
 * An error answer as a plain object, for the refusals the request path gives as a matter of
 * course (breaker, route, key, account, plan, limits). An {@link ApiError} is an `Error`, and
 * constructing one captures a stack trace: about 2.3 µs, more than the rest of a refusal, and
 * paid on every request of a client that keeps going past its limit or an overload the breaker
 * is shedding.
 *
 * @param code - key of the error table.
 * @param detail - human-readable text; defaults to the table's detail. Never include a key.
 * @param retryAfterSeconds - for 429/503: whole seconds until a retry can succeed.
 */
export function errorAnswer(code: ErrorCode, detail?: string, retryAfterSeconds?: number): ErrorAnswer {
  return { code, detail: detail ?? ERRORS[code].detail, retryAfterSeconds };
}

/**
 * An error that becomes an error-envelope response, for code that throws (parameter checks,
 * and anything deep in a call that must stop the request). The responder turns it into
 * `{ ok: false, error: code, detail, license }` with `status`.
 */
export class ApiError extends Error implements ErrorAnswer {
  /** Stable machine-readable code, a key of the error table. */
  readonly code: ErrorCode;
  /** HTTP status, taken from the error table. */
  readonly status: number;
  /** Human-readable detail. */
  readonly detail: string;
  /** Seconds for `Retry-After` (429 and 503 only); whole seconds, at least 1. */
  readonly retryAfterSeconds: number | undefined;

  /**
   * @param code - key of the error table.
   * @param detail - human-readable text; defaults to the table's detail. Never include a key.
   * @param retryAfterSeconds - for 429/503: whole seconds until a retry can succeed.
   */
  constructor(code: ErrorCode, detail?: string, retryAfterSeconds?: number) {
    const spec: ErrorSpec = ERRORS[code];
    super(detail ?? spec.detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = spec.status;
    this.detail = detail ?? spec.detail;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
