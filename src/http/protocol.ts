/**
 * HTTP/1.1's own rules on a request that Node's parser accepted, checked before the pipeline
 * (decisions §12): a Host header is required, `Expect` other than `100-continue` is refused, and
 * a body is never read. Node enforces the first two itself with empty answers unless the server
 * is created with `requireHostHeader: false` and listens for `checkExpectation`; `listen()` does
 * both, so these answers come in the error envelope.
 */
import type { IncomingMessage } from 'node:http';
import { errorAnswer, type ErrorAnswer } from '../errors.js';

const NO_HOST: ErrorAnswer = Object.freeze(errorAnswer('bad_request', 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).'));
const EXPECTATION: ErrorAnswer = Object.freeze(errorAnswer('expectation_failed'));

/** Node's own test for a 100-continue expectation (lib/_http_common.js `continueExpression`). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * The refusal HTTP/1.1 itself gives this request, if any: 400 `bad_request` for an HTTP/1.1
 * request without Host (RFC 9112 §3.2), 417 `expectation_failed` for an expectation other than
 * 100-continue (RFC 9110 §10.1.1; HTTP/1.0 expectations are ignored, as that section says for
 * 100-continue and as Node does).
 *
 * @param req - the request as Node parsed it.
 * @returns the answer to send (the connection then closes), or `undefined` to go on.
 */
export function protocolRefusal(req: IncomingMessage): ErrorAnswer | undefined {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return undefined;
  const headers = req.headers;
  if (headers.host === undefined) return NO_HOST;
  const expect = headers.expect;
  if (expect !== undefined && !CONTINUE.test(expect)) return EXPECTATION;
  return undefined;
}

/**
 * Whether the request carries a body (RFC 9112 §6.1: a Content-Length other than 0, or any
 * Transfer-Encoding). No route takes one, and it is never read: the request is answered and the
 * connection closed, so a client cannot make the server read gigabytes it will throw away.
 *
 * @param req - the request as Node parsed it.
 */
export function hasBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}
