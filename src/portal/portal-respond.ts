/**
 * How the portal answers: its pages, style and script, JSON answers, and errors in the API's
 * envelope (docs/api.md §5, §18), each with the same protective fields. Every answer is
 * `Cache-Control: no-store` (pages carry form tokens, answers carry keys), forbids framing and
 * sniffing, sends no referrer, and carries the page policy: scripts, styles and images from the
 * portal itself only, and connections to the portal and the API's origin.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PORTAL_ERRORS, type PortalError } from './portal-errors.js';

/**
 * The Content-Security-Policy of every answer: `default-src 'self'`, and `connect-src` adding the
 * API's origin when it is another one (the holder's page calls its `/api/v1/meta`).
 *
 * @param apiOrigin - the origin of `--api-url`.
 */
export function contentSecurityPolicy(apiOrigin: string): string {
  return `default-src 'self'; connect-src 'self' ${apiOrigin}; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'`;
}

/** Writes and ends answers with the portal's fields. */
export interface PortalResponder {
  /** An HTML page, a stylesheet, a script or the icon (no body for HEAD). */
  send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: string | Buffer, fields?: Record<string, string>): void;
  /** A JSON answer: `{ ok: true, …body }`. */
  json(req: IncomingMessage, res: ServerResponse, status: number, body: Record<string, unknown>): void;
  /** An error envelope. */
  error(req: IncomingMessage, res: ServerResponse, error: PortalError): void;
}

/**
 * @param csp - the {@link contentSecurityPolicy}.
 * @param license - the `license` of every envelope.
 */
export function createPortalResponder(csp: string, license: string): PortalResponder {
  const send: PortalResponder['send'] = (req, res, status, type, body, fields = {}) => {
    if (res.headersSent) return;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': bytes.length,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Request-Id': randomBytes(8).toString('hex'),
      ...fields,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
  const jsonType = 'application/json; charset=utf-8';
  return {
    send,
    json: (req, res, status, body) => send(req, res, status, jsonType, JSON.stringify({ ok: true, ...body })),
    error(req, res, error) {
      const fields: Record<string, string> = {};
      if (PORTAL_ERRORS[error.code].retryAfter) fields['Retry-After'] = String(error.retryAfterSeconds ?? 1);
      if (error.status === 401) fields['WWW-Authenticate'] = 'Bearer';
      // A body not read to its end (413) leaves the connection unusable for a next request.
      if (error.code === 'payload_too_large') fields.Connection = 'close';
      send(req, res, error.status, jsonType, JSON.stringify({ ok: false, error: error.code, detail: error.detail, license }), fields);
    },
  };
}
