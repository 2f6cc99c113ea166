/**
 * The portal's error table (docs/api.md §18): every error the portal answers with, its status and
 * default detail. The portal answers in the API's error envelope (`{ ok: false, error, detail,
 * license }`, docs/api.md §5); the codes it shares with the API mean the same thing.
 */
import type { ErrorSpec } from '../errors.js';

/** One row: status, default detail, and whether `Retry-After` goes with it. */
export type PortalErrorSpec = Pick<ErrorSpec, 'status' | 'detail' | 'retryAfter'>;

/** The complete table, keyed by the stable machine-readable code. */
export const PORTAL_ERRORS = Object.freeze({
  bad_request: { status: 400, detail: 'The request could not be parsed.', retryAfter: false },
  invalid_body: { status: 400, detail: 'The request body must be a JSON object.', retryAfter: false },
  invalid_parameter: { status: 400, detail: 'A field of the request is invalid.', retryAfter: false },
  invalid_api_key: { status: 401, detail: 'The API key is missing or unknown. Send it in the Authorization: Bearer or X-API-Key header.', retryAfter: false },
  invalid_admin_token: { status: 401, detail: 'The admin token is missing or wrong. Send it in the Authorization: Bearer header.', retryAfter: false },
  cross_site_request: { status: 403, detail: "The request does not come from this portal's own pages (its Origin is missing or another site's).", retryAfter: false },
  invalid_form_token: { status: 403, detail: 'The form token is missing, wrong or expired; reload the page and try again.', retryAfter: false },
  not_found: { status: 404, detail: 'No such path.', retryAfter: false },
  method_not_allowed: { status: 405, detail: 'This path does not take this method.', retryAfter: false },
  request_timeout: { status: 408, detail: 'The request was not received in time.', retryAfter: false },
  payload_too_large: { status: 413, detail: 'The request body is too large.', retryAfter: false },
  unsupported_media_type: { status: 415, detail: 'The request body must be application/json.', retryAfter: false },
  signup_limited_address: { status: 429, detail: 'Too many sign-ups from this address; retry later.', retryAfter: true },
  signup_limited_day: { status: 429, detail: 'The sign-ups of the day are all taken; retry later.', retryAfter: true },
  request_header_fields_too_large: { status: 431, detail: 'The request headers are too large.', retryAfter: false },
  internal_error: { status: 500, detail: 'Internal error.', retryAfter: false },
  keys_file_unavailable: { status: 503, detail: 'The keys file cannot be changed now (it is unreadable or invalid on disk); the operator has been told. Nothing was changed.', retryAfter: true },
} as const satisfies Record<string, PortalErrorSpec>);

/** A stable portal error code: a key of {@link PORTAL_ERRORS}. */
export type PortalErrorCode = keyof typeof PORTAL_ERRORS;

/** An error that becomes a portal error envelope; thrown from deep in a request's handling. */
export class PortalError extends Error {
  readonly code: PortalErrorCode;
  readonly status: number;
  /** Human-readable detail; never a key, a token or client input beyond 100 JSON-escaped characters. */
  readonly detail: string;
  /** Whole seconds for `Retry-After` (429, 503). */
  readonly retryAfterSeconds: number | undefined;

  /**
   * @param code - key of the portal's error table.
   * @param detail - defaults to the table's detail.
   * @param retryAfterSeconds - for 429 and 503, at least 1.
   */
  constructor(code: PortalErrorCode, detail?: string, retryAfterSeconds?: number) {
    super(detail ?? PORTAL_ERRORS[code].detail);
    this.name = 'PortalError';
    this.code = code;
    this.status = PORTAL_ERRORS[code].status;
    this.detail = detail ?? PORTAL_ERRORS[code].detail;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
