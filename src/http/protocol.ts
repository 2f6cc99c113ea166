/**
 * HTTP/1.1's own rules on a request that Node's parser accepted, checked by the pipeline's first
 * step, framing (docs/api.md §12): exactly one Host header is required, `Expect` other than
 * `100-continue` is refused, a body is never read, and an absolute-form target is routed by its
 * path. Node enforces the first two itself with empty answers unless the server is created with
 * `requireHostHeader: false` and listens for `checkExpectation`; `listen()` does both, so these
 * answers come in the error envelope.
 */
import type { IncomingMessage } from 'node:http';
import { errorAnswer, type ErrorAnswer } from '../errors.js';

const NO_HOST: ErrorAnswer = Object.freeze(errorAnswer('bad_request', 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2).'));
const HOSTS: ErrorAnswer = Object.freeze(errorAnswer('bad_request', 'A request has at most one Host header (RFC 9112 §3.2).'));
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
  let hosts = 0;
  let body = false;
  let expect: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // Compared by length first: most names are none of the four.
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') hosts++;
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
  const refusal = protocolRefusal(req, hosts, expect);
  return refusal === undefined && !body ? PLAIN : { body, refusal };
}

/**
 * The refusal HTTP/1.1 itself gives this request, if any: 400 `bad_request` for a request with
 * more than one Host line, of any version, or an HTTP/1.1 request without one (RFC 9112 §3.2), 417 `expectation_failed` for an expectation other than
 * 100-continue (RFC 9110 §10.1.1; HTTP/1.0 expectations are ignored, as that section says for
 * 100-continue and as Node does).
 *
 * @param req - the request as Node parsed it.
 * @param hosts - how many Host field lines it has.
 * @param expect - its first Expect field, if any.
 * @returns the answer to send (the connection then closes), or `undefined` to go on.
 */
function protocolRefusal(req: IncomingMessage, hosts: number, expect: string | undefined): ErrorAnswer | undefined {
  if (hosts > 1) return HOSTS;
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return undefined;
  if (hosts === 0) return NO_HOST;
  if (expect !== undefined && !CONTINUE.test(expect)) return EXPECTATION;
  return undefined;
}

/** `http://` or `https://`, any case: the schemes of an absolute-form target this server answers. */
const HTTP_SCHEME = /^https?:\/\//i;

/**
 * The origin-form (`/path?query`) of an absolute-form request target (RFC 9112 §3.2.2: a server
 * must accept `GET http://host/path HTTP/1.1`, and routes it by its path and query). The
 * authority is dropped: the request is answered as any other, whatever host it names. An empty
 * path is `/` (RFC 9110 §4.2.3).
 *
 * @param target - the request target as Node parsed it (`req.url`).
 * @returns the origin-form, or `undefined` when the target is not an `http` or `https`
 *   absolute-form (origin-form, `*`, or another scheme, which then matches no route).
 */
export function originForm(target: string): string | undefined {
  if (target.charCodeAt(0) === 0x2f || !HTTP_SCHEME.test(target)) return undefined;
  const authorityStart = target.indexOf('//') + 2;
  let pathStart = authorityStart;
  while (pathStart < target.length && target[pathStart] !== '/' && target[pathStart] !== '?') pathStart++;
  const rest = target.slice(pathStart);
  return rest.charCodeAt(0) === 0x2f ? rest : `/${rest}`;
}
