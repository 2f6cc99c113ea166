/**
 * Answers for requests that Node's HTTP parser refuses before any handler runs (decisions §12):
 * a bad request line or header (400 `bad_request`), headers over the size limit (431), a
 * request not received within the headers or request timeout (408 `request_timeout`). The
 * answer is the error envelope written raw to the socket after the complete responses to the
 * requests before it, and the connection then closes.
 */
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

/** The socket field Node keeps the response being written in (see {@link afterResponsesUnderWay}). */
type HttpSocket = Socket & { _httpMessage?: (ServerResponse & object) | null };

/**
 * Runs `then` once no response is under way or queued on the socket, so that a parser refusal
 * lands after the complete responses to the requests before it, never inside one (decisions
 * §12). Node keeps the response being written in `socket._httpMessage` and assigns each queued
 * one to it in turn when the one before finishes; it is null only between requests. Node's own
 * default (lib/_http_server.js socketOnError) reads the same field.
 *
 * @param socket - the connection the parser was reading.
 * @param then - called once, synchronously when nothing is under way; never called when a
 *   response under way never finishes (its connection closes instead).
 */
export function afterResponsesUnderWay(socket: Socket, then: () => void): void {
  const underWay = (socket as HttpSocket)._httpMessage;
  if (underWay === null || underWay === undefined) return then();
  // Registered after Node's own 'finish' listener, which assigns the next queued response first.
  underWay.once('finish', () => afterResponsesUnderWay(socket, then));
}

/**
 * The raw HTTP/1.1 response for a parser error, in the error envelope with the headers every
 * response has (decisions §5, §12).
 *
 * @param code - from {@link parserErrorCode}.
 * @param responder - for the error envelope.
 * @param requestId - the `X-Request-Id` of this answer.
 * @param date - the `Date` field (RFC 9110 §6.6.1), an IMF-fixdate.
 */
export function clientErrorResponse(code: ErrorCode, responder: Responder, requestId: string, date: string): string {
  const { status, detail } = ERRORS[code];
  const body = responder.errorBody(code, detail);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nDate: ${date}\r\nX-Request-Id: ${requestId}\r\n` +
    `Content-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}
