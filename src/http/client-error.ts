/**
 * Answers for requests that Node's HTTP parser refuses before any handler runs (decisions §1,
 * last row): the error envelope with 400, or 431 when the headers are too large, written raw
 * to the socket, which then closes.
 */
import { STATUS_CODES } from 'node:http';
import { ERRORS } from '../errors.js';
import { JSON_CONTENT_TYPE, type Responder } from './respond.js';

/**
 * The raw HTTP/1.1 response for a parser error.
 *
 * @param error - the error Node passed to `clientError` (its `code` is e.g. `HPE_HEADER_OVERFLOW`).
 * @param responder - for the error envelope.
 */
export function clientErrorResponse(error: Error & { code?: string }, responder: Responder): string {
  const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'request_header_fields_too_large' : 'bad_request';
  const { status, detail } = ERRORS[code];
  const body = responder.errorBody(code, detail);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}
