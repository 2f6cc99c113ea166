/**
 * Cross-origin access from browsers (docs/api.md §12, Fetch standard "CORS protocol"). The API
 * uses no cookies and every answer is public to whoever holds a key, so every response under
 * /api/v1 allows any origin and exposes the fields a client reads; a preflight is answered
 * without a key and takes no token.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { RATE_LIMIT_HEADER_NAMES } from '../guard/rate-limit-headers.js';
import { ALLOWED_METHODS } from '../routes.js';

/** Response fields a script may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS: readonly string[] = Object.freeze([
  ...RATE_LIMIT_HEADER_NAMES.filter((name) => name !== 'Retry-After'), 'Retry-After', 'ETag', 'Link', 'X-Request-Id', 'X-Snapshot-Version',
]);

/** Request fields a script may send (the key in either form, and conditional requests). */
export const ALLOWED_REQUEST_HEADERS = 'Authorization, X-API-Key, If-None-Match';

/** How long a browser may keep a preflight's answer, s (Chromium keeps at most 2 hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Fields added to every response under /api/v1, in the flat form of `HeaderFields`. */
export const CORS_FIELDS: readonly string[] = Object.freeze([
  'Access-Control-Allow-Origin', '*',
  'Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '),
]);

/** Fields of a preflight's 204, beside {@link CORS_FIELDS}. */
export const PREFLIGHT_FIELDS: readonly (string | number)[] = Object.freeze([
  'Access-Control-Allow-Methods', ALLOWED_METHODS,
  'Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS,
  'Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS,
  'Cache-Control', 'no-store',
]);

/**
 * Whether an OPTIONS request is a CORS preflight for a method the API allows: it names an
 * `Origin` and `Access-Control-Request-Method: GET` (or HEAD). Any other OPTIONS is answered 405
 * like any other method (docs/api.md §1).
 */
export function isPreflight(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== 'OPTIONS' || headers.origin === undefined) return false;
  const requested = headers['access-control-request-method'];
  return requested === 'GET' || requested === 'HEAD';
}
