/**
 * Answers for requests that Node's HTTP parser refuses before any handler runs (decisions §12):
 * a bad request line or header (400 `bad_request`), headers over the size limit (431), a
 * request not received within the headers or request timeout (408 `request_timeout`). The
 * answer is the error envelope written raw to the socket after the complete responses to the
 * requests before it, and the connection then closes.
 */
import { STATUS_CODES } from 'node:http';
import { ERRORS, type ErrorCode } from '../errors.js';
import { JSON_CONTENT_TYPE, type Responder } from './respond.js';

/** Error codes Node gives `clientError`, and what each is answered with. */
const PARSER_ERRORS: Readonly<Record<string, ErrorCode>> = Object.freeze({
  HPE_HEADER_OVERFLOW: 'request_header_fields_too_large',
  // Node's headersTimeout and requestTimeout both end in this code (lib/_http_server.js onRequestTimeout).
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
});

/**
 * The answer to a parser error: 431 for headers too large, 408 for a request not received in
 * time, 400 `bad_request` for anything else the parser refused.
 *
 * @param error - the error Node passed to `clientError` (its `code` is e.g. `HPE_INVALID_METHOD`).
 */
export function parserErrorCode(error: Error & { code?: string }): ErrorCode {
  return PARSER_ERRORS[error.code ?? ''] ?? 'bad_request';
}

/**
 * The raw HTTP/1.1 response for a refusal written straight to a socket (a parser error, a
 * CONNECT), in the error envelope with the headers every response has (decisions §5, §12).
 *
 * @param code - from {@link parserErrorCode}, or another code of the error table.
 * @param responder - for the error envelope.
 * @param requestId - the `X-Request-Id` of this answer.
 * @param date - the `Date` field (RFC 9110 §6.6.1), an IMF-fixdate.
 * @param fields - more header fields, name then value (e.g. `Allow` of a 405).
 */
export function clientErrorResponse(code: ErrorCode, responder: Responder, requestId: string, date: string, fields: readonly string[] = []): string {
  const { status, detail } = ERRORS[code];
  const body = responder.errorBody(code, detail);
  let extra = '';
  for (let i = 0; i < fields.length; i += 2) extra += `${fields[i]}: ${fields[i + 1]}\r\n`;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nDate: ${date}\r\nX-Request-Id: ${requestId}\r\n${extra}` +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}
