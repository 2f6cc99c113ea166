/**
 * Writing responses (docs/api.md §5): the success and error envelopes, the common headers, and
 * gzip or br for bodies over the threshold when the client accepts them. Constant parts are
 * prepared once per handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { ERRORS, type ErrorAnswer, type ErrorCode } from '../errors.js';
import { MAX_PAGE_SIZE_OF_ANY_PLAN } from '../plans.js';

/** `api_version` of every success response (service spec, "Versioning"). */
export const API_VERSION = 'v1';

/** Content type of every response body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Response header fields as one flat list, each name followed by its value:
 * `['X-Request-Id', 'a1b2c3d4-1f', 'Cache-Control', 'no-store']`. Node's `writeHead` takes this
 * form as it is (RFC 9110 §5 fields, names sent as written), so a response builds no header
 * object. A list belongs to one response: the responder appends to it and may replace values.
 */
export type HeaderFields = (string | number)[];

/**
 * Told of every response a responder writes, right after it is handed to the socket: the
 * access log and the metrics listen here. `bytes` is the body as sent (compressed size; 0 for
 * HEAD); `error` is the error code of an error envelope.
 */
export type SentHook = (req: IncomingMessage, res: ServerResponse, status: number, bytes: number, error: ErrorCode | undefined) => void;

/** Prepared constants of one handler. */
export interface Responder {
  /**
   * Sends the success envelope around prepared rows with status 200. Rows given as UTF-8 bytes
   * (a page slice) are written to the socket as they are, between the envelope's head and tail,
   * in one write; they are copied only to be compressed.
   *
   * @param fields - the response's header fields so far; Content-Type, X-Content-Type-Options, Content-Length and, for
   *   bodies over the compression threshold, `Vary: Accept-Encoding` (and Content-Encoding) are added.
   * @param rows - rows as JSON, comma-separated, without brackets: a string or UTF-8 bytes.
   * @param count - number of rows.
   * @param asOf - `as_of`, RFC 3339 (ASCII).
   */
  sendSuccess(req: IncomingMessage, res: ServerResponse, fields: HeaderFields, rows: string | Buffer, count: number, asOf: string): void;
  /**
   * Sends 304 Not Modified (RFC 9110 §15.4.5): no body and no Content-Type, with the fields the
   * 200 would have carried, `Vary: Accept-Encoding` included when that 200 would be compressible.
   *
   * @param bodyLength - bytes of the 200's body before compression.
   */
  sendNotModified(res: ServerResponse, fields: HeaderFields, bodyLength: number): void;
  /**
   * Sends an answer the caller has framed whole (a preflight's 204, a docs file with its own
   * Content-Type and Content-Length): writes the fields as they are and `body`, none for HEAD,
   * and tells the access log and metrics like every other answer.
   */
  sendFramed(req: IncomingMessage, res: ServerResponse, status: number, fields: HeaderFields, body?: Buffer): void;
  /** Bytes of a success envelope around `rowsLength` bytes of `count` rows (its `as_of` included). */
  successLength(rowsLength: number, count: number): number;
  /** The error envelope for an error, with `license`. */
  errorBody(code: ErrorCode, detail: string): string;
  /**
   * Sends a body with status and header fields: adds Content-Type, `X-Content-Type-Options:
   * nosniff` and Content-Length, compresses when allowed (a {@link PreparedBody} only once per
   * encoding), and sends no body for HEAD.
   */
  send(req: IncomingMessage, res: ServerResponse, status: number, fields: HeaderFields, body: string | Buffer | PreparedBody): void;
  /**
   * Sends an error answer (an ApiError is one) in the error envelope with
   * `Cache-Control: no-store` (replacing any other Cache-Control in `fields`), adding
   * `Retry-After` when the error has one and `WWW-Authenticate: Bearer` on a 401.
   */
  sendError(req: IncomingMessage, res: ServerResponse, error: ErrorAnswer, fields: HeaderFields): void;
}

/** Characters of `as_of` (`2026-11-21T12:00:00.000Z`, Date#toISOString for years 0-9999). */
const AS_OF_LENGTH = 24;

/**
 * A body that never changes (the OpenAPI document), kept as bytes and compressed at most once
 * per encoding, on first use, at the encoder's best ratio: compressing it per request cost
 * five times its uncompressed throughput, for a document that needs no key.
 */
export class PreparedBody {
  /** The body's UTF-8 bytes. */
  readonly identity: Buffer;
  #br: Buffer | undefined;
  #gzip: Buffer | undefined;

  /** @param body - the body text. */
  constructor(body: string) {
    this.identity = Buffer.from(body);
  }

  /** The body in an encoding, compressed on the first call for that encoding only. */
  encoded(encoding: 'br' | 'gzip'): Buffer {
    if (encoding === 'br') {
      return this.#br ??= brotliCompressSync(this.identity, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: this.identity.length },
      });
    }
    return this.#gzip ??= gzipSync(this.identity, { level: zlib.Z_BEST_COMPRESSION });
  }
}

/** Longest row count whose envelope middle is kept prepared: the largest page of any plan. */
const PREPARED_COUNTS = MAX_PAGE_SIZE_OF_ANY_PLAN;

/**
 * Prepares a responder.
 *
 * @param license - the `license` string of every response.
 * @param attribution - the `attribution` string of every success response.
 * @param compressMinBytes - smallest body compressed, in bytes.
 * @param onSent - told of each response; absent, the responder does nothing more than write.
 */
export function createResponder(license: string, attribution: string, compressMinBytes: number, onSent?: SentHook): Responder {
  const licenseJson = JSON.stringify(license);
  const head = `{"ok":true,"api_version":"${API_VERSION}","as_of":"`;
  const middle = `","license":${licenseJson},"attribution":${JSON.stringify(attribution)},"count":`;
  const dataOpen = ',"data":[';
  const tail = ']}';
  // Byte lengths of the constant parts (licence and attribution may hold non-ASCII), so a
  // response's Content-Length needs no pass over its body.
  const headBytes = Buffer.byteLength(head);
  const middleBytes = Buffer.byteLength(middle) + dataOpen.length;
  const tailBytes = tail.length;
  // `","license":…,"count":N,"data":[` for each page size a response can have, built on first use.
  const middles: (string | undefined)[] = new Array<string | undefined>(PREPARED_COUNTS + 1).fill(undefined);
  const middleFor = (count: number): string => {
    if (count > PREPARED_COUNTS) return `${middle}${count}${dataOpen}`;
    return middles[count] ??= `${middle}${count}${dataOpen}`;
  };
  /** Decimal digits of a row count (a count is a whole number from 0). */
  const digits = (count: number): number => (count < 10 ? 1 : count < 100 ? 2 : count < 1000 ? 3 : String(count).length);
  const successBody = (rowsJson: string, count: number, asOf: string): string => `${head}${asOf}${middleFor(count)}${rowsJson}${tail}`;

  /** Adds Content-Type (and Vary for a compressible body); returns the encoding to use, if any. */
  const prepare = (req: IncomingMessage, fields: HeaderFields, length: number): 'br' | 'gzip' | null => {
    fields.push('Content-Type', JSON_CONTENT_TYPE);
    if (length <= compressMinBytes) return null;
    varyOnEncoding(fields);
    const accepted = req.headers['accept-encoding'];
    return accepted === undefined ? null : chooseEncoding(accepted);
  };

  const compressed = (fields: HeaderFields, encoding: 'br' | 'gzip', body: string | Buffer, length: number): Buffer => {
    fields.push('Content-Encoding', encoding);
    return encoding === 'br'
      ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: length } })
      : gzipSync(body, { level: 6 });
  };

  const send = (req: IncomingMessage, res: ServerResponse, status: number, fields: HeaderFields, body: string | Buffer | PreparedBody, error?: ErrorCode): void => {
    const plain = body instanceof PreparedBody ? body.identity : body;
    let length = typeof plain === 'string' ? Buffer.byteLength(plain) : plain.length;
    const encoding = prepare(req, fields, length);
    let payload = plain;
    if (encoding) {
      if (body instanceof PreparedBody) {
        fields.push('Content-Encoding', encoding);
        payload = body.encoded(encoding);
      } else {
        payload = compressed(fields, encoding, plain, length);
      }
      length = payload.length;
    }
    fields.push('Content-Length', length);
    res.writeHead(status, fields);
    if (req.method === 'HEAD') res.end();
    else res.end(payload);
    if (onSent !== undefined) onSent(req, res, status, req.method === 'HEAD' ? 0 : length, error);
  };

  const sendSuccess = (req: IncomingMessage, res: ServerResponse, fields: HeaderFields, rows: string | Buffer, count: number, asOf: string): void => {
    if (typeof rows === 'string') return send(req, res, 200, fields, successBody(rows, count, asOf));
    const front = `${head}${asOf}${middleFor(count)}`;
    const length = headBytes + asOf.length + middleBytes + digits(count) + rows.length + tailBytes;
    const encoding = prepare(req, fields, length);
    if (encoding) {
      const payload = compressed(fields, encoding, Buffer.concat([Buffer.from(front), rows, Buffer.from(tail)], length), length);
      fields.push('Content-Length', payload.length);
      res.writeHead(200, fields);
      if (req.method === 'HEAD') res.end();
      else res.end(payload);
      if (onSent !== undefined) onSent(req, res, 200, req.method === 'HEAD' ? 0 : payload.length, undefined);
      return;
    }
    fields.push('Content-Length', length);
    res.writeHead(200, fields);
    if (req.method === 'HEAD') {
      res.end();
    } else {
      // Corked, the three parts leave in one writev when end() uncorks; the rows are not copied.
      res.cork();
      res.write(front);
      res.write(rows);
      res.end(tail);
    }
    if (onSent !== undefined) onSent(req, res, 200, req.method === 'HEAD' ? 0 : length, undefined);
  };

  const errorBody = (code: ErrorCode, detail: string): string =>
    `{"ok":false,"error":"${code}","detail":${JSON.stringify(detail)},"license":${licenseJson}}`;

  return {
    errorBody,
    send,
    sendSuccess,
    sendNotModified(res, fields, bodyLength) {
      if (bodyLength > compressMinBytes) varyOnEncoding(fields);
      res.writeHead(304, fields);
      res.end();
      if (onSent !== undefined) onSent(res.req, res, 304, 0, undefined);
    },
    sendFramed(req, res, status, fields, body) {
      res.writeHead(status, fields);
      const sent = body === undefined || req.method === 'HEAD' ? 0 : body.length;
      if (sent === 0) res.end();
      else res.end(body);
      if (onSent !== undefined) onSent(req, res, status, sent, undefined);
    },
    successLength(rowsLength, count) {
      return headBytes + AS_OF_LENGTH + middleBytes + digits(count) + rowsLength + tailBytes;
    },
    sendError(req, res, error, fields) {
      const spec = ERRORS[error.code];
      setField(fields, 'Cache-Control', 'no-store');
      if (spec.retryAfter) setField(fields, 'Retry-After', Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1)));
      // A 401 names the scheme that would succeed (RFC 9110 §11.6.1, RFC 6750 §3).
      if (spec.status === 401) setField(fields, 'WWW-Authenticate', 'Bearer');
      send(req, res, spec.status, fields, errorBody(error.code, error.detail), error.code);
    },
  };
}

/**
 * Sets a header field in a flat list: replaces the value of the first field of that name
 * (compared as written, since every name here is the project's own), else appends it.
 */
function setField(fields: HeaderFields, name: string, value: string | number): void {
  for (let i = 0; i < fields.length; i += 2) {
    if (fields[i] === name) {
      fields[i + 1] = value;
      return;
    }
  }
  fields.push(name, value);
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

/**
 * Vary values with `Accept-Encoding` added, by the value before. Every Vary value comes from the
 * code, so there are a handful, and a response reuses one string instead of joining a new one
 * (which Node would also have to flatten to check it).
 */
const withAcceptEncoding = new Map<string, string>();

/** Bound on {@link withAcceptEncoding}, far above the Vary values in the code; a guard, not a tuning knob. */
const MAX_VARY_VALUES = 16;

/** Adds `Accept-Encoding` to the Vary field (RFC 9110 §12.5.5), creating the field when there is none. */
function varyOnEncoding(fields: HeaderFields): void {
  for (let i = 0; i < fields.length; i += 2) {
    if (fields[i] === 'Vary') {
      const before = String(fields[i + 1]);
      let value = withAcceptEncoding.get(before);
      if (value === undefined) {
        value = `${before}, Accept-Encoding`;
        if (withAcceptEncoding.size >= MAX_VARY_VALUES) withAcceptEncoding.clear();
        withAcceptEncoding.set(before, value);
      }
      fields[i + 1] = value;
      return;
    }
  }
  fields.push('Vary', 'Accept-Encoding');
}
