/**
 * Writing responses (decisions §5): the success and error envelopes, the common headers, and
 * gzip or br for bodies over the threshold when the client accepts them. Constant parts are
 * prepared once per handler.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { ERRORS, type ApiError, type ErrorCode } from '../errors.js';

/** `api_version` of every success response (service spec, "Versioning"). */
export const API_VERSION = 'v1';

/** Content type of every response body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Header pairs added to a response; names as sent. */
export type HeaderList = readonly (readonly [string, string | number])[];

/** Prepared constants of one handler. */
export interface Responder {
  /**
   * Sends the success envelope around prepared rows with status 200. Rows given as UTF-8 bytes
   * (a page slice) are written to the socket as they are, between the envelope's head and tail,
   * in one write; they are copied only to be compressed.
   *
   * @param rows - rows as JSON, comma-separated, without brackets: a string or UTF-8 bytes.
   * @param count - number of rows.
   * @param asOf - `as_of`, RFC 3339 (ASCII).
   */
  sendSuccess(req: IncomingMessage, res: ServerResponse, headers: HeaderList, rows: string | Buffer, count: number, asOf: string): void;
  /** The error envelope for an error, with `license`. */
  errorBody(code: ErrorCode, detail: string): string;
  /**
   * Sends a body with status and headers: sets Content-Type and Content-Length, compresses when
   * allowed, and sends no body for HEAD.
   */
  send(req: IncomingMessage, res: ServerResponse, status: number, headers: HeaderList, body: string | Buffer): void;
  /** Sends an ApiError in the error envelope, adding `Retry-After` when it has one. */
  sendError(req: IncomingMessage, res: ServerResponse, error: ApiError, headers: HeaderList): void;
}

/**
 * Prepares a responder.
 *
 * @param license - the `license` string of every response.
 * @param attribution - the `attribution` string of every success response.
 * @param compressMinBytes - smallest body compressed, in bytes.
 */
export function createResponder(license: string, attribution: string, compressMinBytes: number): Responder {
  const licenseJson = JSON.stringify(license);
  const head = `{"ok":true,"api_version":"${API_VERSION}","as_of":"`;
  const middle = `","license":${licenseJson},"attribution":${JSON.stringify(attribution)},"count":`;
  const dataOpen = ',"data":[';
  const tail = ']}';
  // Byte lengths of the constant parts (licence and attribution may hold non-ASCII), so a
  // response's Content-Length needs no pass over its body.
  const constantBytes = Buffer.byteLength(head) + Buffer.byteLength(middle) + dataOpen.length + tail.length;
  const successBody = (rowsJson: string, count: number, asOf: string): string => `${head}${asOf}${middle}${count}${dataOpen}${rowsJson}${tail}`;

  /** Headers as Node takes them, and whether the body is to be compressed (and how). */
  const prepare = (req: IncomingMessage, headers: HeaderList, length: number): [OutgoingHttpHeaders, 'br' | 'gzip' | null] => {
    const out: OutgoingHttpHeaders = { 'Content-Type': JSON_CONTENT_TYPE };
    for (const [name, value] of headers) out[name] = value;
    if (length <= compressMinBytes) return [out, null];
    appendVary(out, 'Accept-Encoding');
    return [out, chooseEncoding(req.headers['accept-encoding'])];
  };

  const compressed = (out: OutgoingHttpHeaders, encoding: 'br' | 'gzip', body: string | Buffer, length: number): Buffer => {
    out['Content-Encoding'] = encoding;
    return encoding === 'br'
      ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: length } })
      : gzipSync(body, { level: 6 });
  };

  const send = (req: IncomingMessage, res: ServerResponse, status: number, headers: HeaderList, body: string | Buffer): void => {
    let length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const [out, encoding] = prepare(req, headers, length);
    let payload = body;
    if (encoding) {
      payload = compressed(out, encoding, body, length);
      length = payload.length;
    }
    out['Content-Length'] = length;
    res.writeHead(status, out);
    if (req.method === 'HEAD') res.end();
    else res.end(payload);
  };

  const sendSuccess = (req: IncomingMessage, res: ServerResponse, headers: HeaderList, rows: string | Buffer, count: number, asOf: string): void => {
    if (typeof rows === 'string') return send(req, res, 200, headers, successBody(rows, count, asOf));
    const countText = String(count);
    const length = constantBytes + asOf.length + countText.length + rows.length;
    const [out, encoding] = prepare(req, headers, length);
    const front = `${head}${asOf}${middle}${countText}${dataOpen}`;
    if (encoding) {
      const payload = compressed(out, encoding, Buffer.concat([Buffer.from(front), rows, Buffer.from(tail)], length), length);
      out['Content-Length'] = payload.length;
      res.writeHead(200, out);
      if (req.method === 'HEAD') res.end();
      else res.end(payload);
      return;
    }
    out['Content-Length'] = length;
    res.writeHead(200, out);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // Corked, the three parts leave in one writev when end() uncorks; the rows are not copied.
    res.cork();
    res.write(front);
    res.write(rows);
    res.end(tail);
  };

  const errorBody = (code: ErrorCode, detail: string): string =>
    `{"ok":false,"error":"${code}","detail":${JSON.stringify(detail)},"license":${licenseJson}}`;

  return {
    errorBody,
    send,
    sendSuccess,
    sendError(req, res, error, headers) {
      const all: (readonly [string, string | number])[] = [...headers, ['Cache-Control', 'no-store']];
      if (ERRORS[error.code].retryAfter) all.push(['Retry-After', Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1))]);
      send(req, res, error.status, all, errorBody(error.code, error.detail));
    },
  };
}

/**
 * Picks `br` or `gzip` from an Accept-Encoding header (RFC 9110 §12.5.3), honouring `q=0`;
 * br is preferred at equal weight. Returns null when neither is acceptable.
 */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  let best: 'br' | 'gzip' | null = null;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName!.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key?.trim().toLowerCase() === 'q') q = Number(value);
    }
    if (!(q > 0)) continue;
    const candidate = name === 'br' ? 'br' : name === 'gzip' || name === 'x-gzip' ? 'gzip' : name === '*' ? 'br' : null;
    if (candidate && (q > bestQ || (q === bestQ && candidate === 'br'))) {
      best = candidate;
      bestQ = q;
    }
  }
  return best;
}

function appendVary(headers: OutgoingHttpHeaders, name: string): void {
  const current = headers.Vary;
  headers.Vary = typeof current === 'string' && current.length > 0 ? `${current}, ${name}` : name;
}
