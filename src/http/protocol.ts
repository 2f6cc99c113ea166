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

/** What {@link readFraming} found in a request's header fields. */
export interface Framing {
  /**
   * Whether the request carries a body (RFC 9112 §6.1: a Content-Length other than 0, or any
   * Transfer-Encoding). No route takes one, and it is never read: the request is answered and
   * the connection closed, so a client cannot make the server read gigabytes it will throw away.
   */
  readonly body: boolean;
  /** The refusal HTTP/1.1 itself gives the request, if any (see {@link protocolRefusal}). */
  readonly refusal: ErrorAnswer | undefined;
}

const PLAIN: Framing = Object.freeze({ body: false, refusal: undefined });

/**
 * Reads the fields that frame a request (Host, Expect, Content-Length, Transfer-Encoding) from
 * `req.rawHeaders`, in one pass over the names. `req.headers` is built on first use, and a
 * request that needs no other field (a health check, the document) would build it only for this.
 *
 * @param req - the request as Node parsed it.
 */
export function readFraming(req: IncomingMessage): Framing {
  const raw = req.rawHeaders;
  let host = false;
  let body = false;
  let expect: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Compared by length first: most names are none of the four.
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') host = true;
        break;
      case 6:
        if (name.toLowerCase() === 'expect') expect ??= raw[i + 1];
        break;
      case 14:
        if (name.toLowerCase() === 'content-length' && raw[i + 1] !== '0') body = true;
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') body = true;
        break;
    }
  }
  const refusal = protocolRefusal(req, host, expect);
  return refusal === undefined && !body ? PLAIN : { body, refusal };
}

/**
 * The refusal HTTP/1.1 itself gives this request, if any: 400 `bad_request` for an HTTP/1.1
 * request without Host (RFC 9112 §3.2), 417 `expectation_failed` for an expectation other than
 * 100-continue (RFC 9110 §10.1.1; HTTP/1.0 expectations are ignored, as that section says for
 * 100-continue and as Node does).
 *
 * @param req - the request as Node parsed it.
 * @param host - whether it has a Host field.
 * @param expect - its first Expect field, if any.
 * @returns the answer to send (the connection then closes), or `undefined` to go on.
 */
function protocolRefusal(req: IncomingMessage, host: boolean, expect: string | undefined): ErrorAnswer | undefined {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return undefined;
  if (!host) return NO_HOST;
  if (expect !== undefined && !CONTINUE.test(expect)) return EXPECTATION;
  return undefined;
}
