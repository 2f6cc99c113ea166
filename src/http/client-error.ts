/**
 * Answers written raw to a socket (docs/api.md §12): for requests that Node's HTTP parser refuses
 * before any handler runs, and for a CONNECT, which Node hands over as a bare socket:
 * a bad request line or header (400 `bad_request`), headers over the size limit (431), a
 * request not received within the headers or request timeout (408 `request_timeout`). The
 * answer is the error envelope written raw to the socket after the complete responses to the
 * requests before it, and the connection then closes.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS, type ErrorCode } from '../errors.js';
import { ALLOWED_METHODS } from '../routes.js';
import { JSON_CONTENT_TYPE, type Responder } from './respond.js';
import { afterResponsesUnderWay } from './under-way.js';

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
 * CONNECT), in the error envelope with the headers every response has (docs/api.md §5, §12).
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

/**
 * Told of a refusal written to a socket: the request id it carries, its error code and its body
 * bytes. There is no request object: the parser never made one.
 */
export type RefusalHook = (socket: Socket, requestId: string, code: ErrorCode, bytes: number) => void;

/** The `clientError` and `connect` listeners of a handler. */
export interface SocketRefusals {
  /** Answers a request Node's parser refused (see `Handler.clientError`). */
  clientError(error: Error & { code?: string }, socket: Socket): void;
  /** Answers a CONNECT (see `Handler.connect`). */
  connect(req: IncomingMessage, socket: Socket): void;
}

/**
 * The refusals a handler writes straight to a socket: each after the complete responses before
 * it on the connection, once per connection, never after a response that closed it; then the
 * connection closes.
 *
 * @param responder - the handler's current responder (it changes when the base URL does).
 * @param nextRequestId - the `X-Request-Id` of the next answer.
 * @param onRefused - told of each refusal written (the access log and metrics), if anything listens.
 */
export function createSocketRefusals(responder: () => Responder, nextRequestId: () => string, onRefused?: RefusalHook): SocketRefusals {
  /** Connections whose refusal is written or waiting for the responses before it. */
  const refusing = new WeakSet<Socket>();
  const refuse = (socket: Socket, code: ErrorCode, fields: readonly string[] = []): void => {
    if (refusing.has(socket)) return;
    refusing.add(socket);
    afterResponsesUnderWay(socket, () => {
      // A response before it said Connection: close (the socket is ending): nothing after it.
      if (!socket.writable) return;
      // Node's Date field uses the wall clock too, whatever clock the limiter runs on.
      const requestId = nextRequestId();
      const answer = clientErrorResponse(code, responder(), requestId, new Date().toUTCString(), fields);
      socket.end(answer);
      socket.once('finish', () => socket.destroy());
      if (onRefused !== undefined) onRefused(socket, requestId, code, Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
    });
  };
  return {
    clientError(error, socket) {
      // A reset or broken pipe has no one to answer; the parser may report more of what
      // follows a refusal, but one answer per connection is all it gets.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable) {
        socket.destroy();
        return;
      }
      refuse(socket, parserErrorCode(error));
    },
    connect(_req, socket) {
      // Node has handed the socket over, error listener included; a reset must not go unheard.
      socket.on('error', () => socket.destroy());
      refuse(socket, 'method_not_allowed', ['Allow', ALLOWED_METHODS]);
    },
  };
}
