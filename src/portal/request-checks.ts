/**
 * The checks every portal POST passes before it changes anything (docs/api.md §18): it comes from
 * the portal's own pages (its `Origin` is this portal's), carries the token of its form, and an
 * operator's request carries the admin token, compared in constant time.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { PortalError } from './portal-errors.js';
import type { FormName, FormTokens } from './form-tokens.js';

/** The header a page's script sends a form token in. */
export const FORM_TOKEN_HEADER = 'x-form-token';

/**
 * Refuses a request whose `Origin` is missing or is not the portal's own: an `http` or `https`
 * origin whose host (and port) is the request's `Host`. A browser always sends `Origin` on a POST
 * (Fetch standard, "append a request `Origin` header") and a page cannot forge it, so a form
 * posted from another site fails here; behind a TLS-terminating balancer the scheme differs
 * from the connection's, hence only the host is compared.
 *
 * @throws PortalError `cross_site_request`.
 */
export function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (origin === undefined || host === undefined) throw new PortalError('cross_site_request');
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new PortalError('cross_site_request');
  }
  const own = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === origin && parsed.host === host.toLowerCase();
  if (!own) throw new PortalError('cross_site_request');
}

/**
 * Refuses a request without a fresh token of `form` in {@link FORM_TOKEN_HEADER}.
 *
 * @throws PortalError `invalid_form_token`.
 */
export function checkFormToken(req: IncomingMessage, tokens: FormTokens, form: FormName): void {
  const token = req.headers[FORM_TOKEN_HEADER];
  if (!tokens.check(form, typeof token === 'string' ? token : undefined)) throw new PortalError('invalid_form_token');
}

/**
 * The credential of `Authorization: Bearer TOKEN` (RFC 6750 §2.1; the scheme in any case), or of
 * `X-API-Key` when `alsoApiKey` (the API's two ways of sending a key, docs/api.md §1).
 */
export function presentedCredential(req: IncomingMessage, alsoApiKey: boolean): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    return match === null ? undefined : match[1];
  }
  const key = alsoApiKey ? req.headers['x-api-key'] : undefined;
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}

/**
 * A constant-time check of the admin token: the SHA-256 digests of the presented and the expected
 * token are compared with `timingSafeEqual`, so neither the token's length nor its first differing
 * byte shows in the time taken.
 *
 * @param expected - the operator's token.
 * @returns the check; it throws PortalError `invalid_admin_token` for a missing or wrong token.
 */
export function adminTokenCheck(expected: string): (req: IncomingMessage) => void {
  const digest = hash('sha256', expected, 'buffer');
  return (req) => {
    const presented = presentedCredential(req, false);
    if (presented === undefined || !timingSafeEqual(hash('sha256', presented, 'buffer'), digest)) throw new PortalError('invalid_admin_token');
  };
}
