/**
 * The access log's line: one JSON line per response with `time`, `request_id`, `method`, `path`,
 * the recognised parameters, `status`, `error`, `bytes`, `duration_ms`, `key_id`, `plan`,
 * `remote`, `user_agent`. Never a key; of header values only the user agent, cut to 200
 * characters (and `X-Forwarded-For`'s client address, with `--trust-proxy`); never an
 * unrecognised query parameter: the query enters the line only as the values that passed the
 * parameter checks (a ticker, a CIK, a limit, the filters in their canonical form), and a path no route knows is cut where a segment
 * could hold a key.
 */
import type { IncomingMessage } from 'node:http';
import type { ErrorCode } from '../errors.js';
import { ROUTES } from '../routes.js';
import { FILTER_FIELD } from '../data/snapshot-index.js';
import { clientAddress, type TrustedProxies } from './client-address.js';
import { LineBytes } from './line-bytes.js';
import type { RequestNote, ResponseObserver } from './observer.js';

/**
 * Longest path segment written as it is for a path that matched no route, unless it is a segment
 * of a route (`insider-transactions`, `openapi.json`): 12 characters, the longest ticker. A
 * longer one may be a key pasted into the URL (a minted key is `eqf_` + 38 characters; an
 * operator's own keys may be shorter), so it is written as `…`.
 */
const MAX_UNROUTED_SEGMENT = 12;
/** Every segment of every route's path, written as it is wherever it appears in an unrouted path. */
const ROUTE_SEGMENTS: ReadonlySet<string> = new Set(ROUTES.flatMap((route) => route.path.split('/')));
/** Longest path written for a path that matched no route, in characters. */
const MAX_UNROUTED_PATH = 100;

/** Longest `user_agent` written, in characters (UTF-16 code units); a longer one is cut. */
export const MAX_USER_AGENT = 200;

/** `time` of the last line, and the millisecond it is for: lines in the same millisecond share it. */
let timeMs = Number.NaN;
let timeText = '';

/**
 * A string and its JSON text, the last one made: consecutive lines mostly carry the same user
 * agent, client address, key id and plan, and comparing two short strings costs less than
 * `JSON.stringify`.
 */
class LastJson {
  #text: string | undefined = undefined;
  #json = 'null';

  /** The JSON text of `text` (`null` for undefined). */
  of(text: string | undefined): string {
    if (text !== this.#text) {
      this.#text = text;
      this.#json = text === undefined ? 'null' : JSON.stringify(text);
    }
    return this.#json;
  }
}

const lastKeyId = new LastJson();
const lastPlan = new LastJson();
const lastRemote = new LastJson();
const lastUserAgent = new LastJson();

/** Bytes of a line besides the texts whose lengths `writeLine` counts: its field names, time, numbers, error code and list key's name. */
const LINE_FIXED_BYTES = 512;

/** Lines made for {@link accessLogLine}, which returns each as a string. */
const oneLine = new LineBytes();

/**
 * The log line of one response, without its newline. Written field by field, in the order
 * listed at the top of this file: every value is either the project's own (route paths, error
 * codes, numbers, normalised tickers and CIKs) or passed through `JSON.stringify` (key ids and
 * plans from the keys file, an unrouted path, the method, remote address and user agent), so the
 * line is valid JSON whatever a client sent.
 *
 * @param req - the request (method, URL, the socket's remote address, `User-Agent`, and
 *   `X-Forwarded-For` when the socket's peer is a trusted proxy).
 * @param note - what the pipeline learnt (see {@link RequestNote}).
 * @param status - HTTP status sent.
 * @param bytes - body bytes sent.
 * @param error - the error code, for an error envelope.
 * @param durationMs - handling time in ms (rounded to 0.001 ms).
 * @param trusted - proxies whose `X-Forwarded-For` names the client (`--trust-proxy`); default none.
 */
export function accessLogLine(req: IncomingMessage, note: RequestNote, status: number, bytes: number, error: ErrorCode | undefined, durationMs: number, trusted?: TrustedProxies): string {
  oneLine.at = 0;
  writeLine(oneLine, req.method, req.url, remoteOf(req, trusted), req.headers?.['user-agent'], note, status, bytes, error, durationMs);
  return oneLine.bytes.toString('utf8', 0, oneLine.at);
}

/**
 * Writes {@link accessLogLine}'s line (without its newline) as UTF-8 from the request's facts
 * as the observer keeps them until its batch is written: the method, the target (read only
 * when no route matched), the client's address as `clientAddress` gave it, and the `User-Agent`
 * value.
 */
function writeLine(out: LineBytes, method: string | undefined, url: string | undefined, remote: string | undefined, userAgent: string | undefined,
  note: RequestNote, status: number, bytes: number, error: ErrorCode | undefined, durationMs: number): void {
  if (note.time !== timeMs) {
    timeMs = note.time;
    timeText = new Date(timeMs).toISOString();
  }
  const route = note.route;
  const path = route !== undefined ? route.path : JSON.stringify(unroutedPath(url ?? '/')).slice(1, -1);
  const methodJson = method === 'GET' ? '"GET"' : JSON.stringify(method ?? null);
  const keyIdJson = lastKeyId.of(note.keyId);
  const planJson = lastPlan.of(note.plan);
  const remoteJson = lastRemote.of(remote);
  const userAgentJson = lastUserAgent.of(userAgent === undefined ? undefined : cutUserAgent(userAgent));
  const query = note.query;
  const filters = query?.filters ? JSON.stringify(query.filters.text) : undefined;
  out.room(LINE_FIXED_BYTES + 3 * (note.requestId.length + path.length + methodJson.length + keyIdJson.length + planJson.length + remoteJson.length +
    userAgentJson.length + (filters?.length ?? 0) + (query?.key?.length ?? 0)));
  out.text('{"time":"');
  out.text(timeText);
  out.text('","request_id":"');
  out.text(note.requestId);
  out.text('","method":');
  out.text(methodJson);
  out.text(',"path":"');
  out.text(path);
  out.text('","params":');
  if (query !== undefined && route !== undefined && route.params.length > 0) {
    // limit is a whole number; key is a normalised ticker (A-Z 0-9 -) or a 10-digit CIK, by the
    // field the kind's lists are keyed by; other filters are their canonical text (docs/api.md §15).
    out.text('{"limit":');
    out.number(query.limit);
    if (filters !== undefined) {
      out.text(',"filters":');
      out.text(filters);
    } else if (query.key !== null) {
      out.text(',"');
      out.text(route.target.kind === 'rows' ? FILTER_FIELD[route.target.rows] : 'ticker');
      out.text('":"');
      out.text(query.key);
      out.byte(0x22); // '"'
    }
    out.byte(0x7d); // '}'
  } else {
    out.text('null');
  }
  out.text(',"status":');
  out.number(status);
  out.text(',"error":');
  if (error === undefined) {
    out.text('null');
  } else {
    out.byte(0x22);
    out.text(error);
    out.byte(0x22);
  }
  out.text(',"bytes":');
  out.number(bytes);
  out.text(',"duration_ms":');
  out.millis(durationMs);
  out.text(',"key_id":');
  out.text(keyIdJson);
  out.text(',"plan":');
  out.text(planJson);
  out.text(',"remote":');
  out.text(remoteJson);
  out.text(',"user_agent":');
  out.text(userAgentJson);
  out.byte(0x7d);
}

/** The line's `remote`: the socket's peer, or the client a trusted proxy names (`clientAddress`). */
function remoteOf(req: IncomingMessage, trusted: TrustedProxies | undefined): string | undefined {
  return clientAddress(req.socket.remoteAddress, trusted === undefined ? undefined : forwardedFor(req), trusted);
}

/** `X-Forwarded-For`, as Node joined it (one text), or undefined. */
function forwardedFor(req: IncomingMessage): string | undefined {
  const value = req.headers?.['x-forwarded-for'];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The user agent cut to {@link MAX_USER_AGENT} characters, never inside a UTF-16 surrogate pair. */
function cutUserAgent(text: string): string {
  if (text.length <= MAX_USER_AGENT) return text;
  const cut = text.charCodeAt(MAX_USER_AGENT - 1) >= 0xd800 && text.charCodeAt(MAX_USER_AGENT - 1) <= 0xdbff ? MAX_USER_AGENT - 1 : MAX_USER_AGENT;
  return text.slice(0, cut);
}

/** The path of a URL no route matched, without its query, long segments cut (see {@link MAX_UNROUTED_SEGMENT}). */
export function unroutedPath(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).slice(0, MAX_UNROUTED_PATH);
  return path.split('/').map((segment) => (segment.length > MAX_UNROUTED_SEGMENT && !ROUTE_SEGMENTS.has(segment) ? '…' : segment)).join('/');
}

/** Values kept per response until its batch is written: see {@link accessLogObserver}. */
const KEPT_VALUES = 9;

/**
 * Most responses whose lines wait for the end of the event loop's turn; the line of the next
 * one writes them at once. A turn seldom answers more (one request per connection read).
 */
export const MAX_WAITING_LINES = 256;

/**
 * Where an observer hands its lines: a function taking one line (without its newline) as a
 * string, or an object taking each batch as UTF-8 bytes, every line ending with `\n`, which it
 * copies (`openAccessLog`'s `writeLines`): those lines are never strings.
 */
export type AccessLogLines = ((line: string) => void) | { readonly writeLines: (bytes: Uint8Array) => void };

/**
 * An observer that writes each response's line to a sink, in batches: a response leaves the
 * few values its line needs (its note, status, bytes, error, duration, method, target, client
 * address and user agent, all references to what exists already), and the lines of one turn of
 * the event loop are made and handed to the sink together, after the turn's I/O (`setImmediate`),
 * or at once when {@link MAX_WAITING_LINES} wait. Made one by one between the requests, a line
 * cost about four times what the same work costs in a loop: measured with the server's own
 * load, batching gave filings 7 % more req/s (docs/performance-notes.md). Lines keep the order
 * of their responses; {@link ResponseObserver.flush} writes what waits (before the sink closes).
 *
 * @param sink - takes the lines (see {@link AccessLogLines}).
 * @param trusted - proxies whose `X-Forwarded-For` names the client; default none.
 * @param onError - told of the first error a sink threw in a batch (a function sink still gets
 *   the batch's other lines); default: nothing is told.
 */
export function accessLogObserver(sink: AccessLogLines, trusted?: TrustedProxies, onError: (error: unknown) => void = () => {}): ResponseObserver {
  // KEPT_VALUES per response, in the order pushed below.
  const waiting: unknown[] = [];
  const out = new LineBytes();
  const write = (at: number): void => writeLine(out, waiting[at + 5] as string | undefined, waiting[at + 6] as string | undefined,
    waiting[at + 7] as string | undefined, waiting[at + 8] as string | undefined, waiting[at] as RequestNote, waiting[at + 1] as number,
    waiting[at + 2] as number, waiting[at + 3] as ErrorCode | undefined, waiting[at + 4] as number);
  const flushWaiting = (): void => {
    try {
      let failed: unknown;
      if (typeof sink === 'function') {
        for (let at = 0; at < waiting.length; at += KEPT_VALUES) {
          try {
            out.at = 0;
            write(at);
            sink(out.bytes.toString('utf8', 0, out.at));
          } catch (error) {
            failed ??= error;
          }
        }
      } else if (waiting.length > 0) {
        out.at = 0;
        for (let at = 0; at < waiting.length; at += KEPT_VALUES) {
          // A line that fails to be made (a bug) is left out whole; the others are written.
          const start = out.at;
          try {
            write(at);
            out.room(1);
            out.byte(0x0a);
          } catch (error) {
            out.at = start;
            failed ??= error;
          }
        }
        try {
          if (out.at > 0) sink.writeLines(out.bytes.subarray(0, out.at));
        } catch (error) {
          failed ??= error;
        }
      }
      // Written after the turn, a sink's throw would reach no handler and end the process: it is
      // told once per batch instead.
      if (failed !== undefined) onError(failed);
    } finally {
      // Whatever threw (a line's making, the error's listener), no line is written twice.
      waiting.length = 0;
      // A batch of long lines (filters' text runs to the header limit) grew the buffer: not kept.
      out.shrink();
    }
  };
  return {
    responded(req, note, status, bytes, error, durationMs) {
      if (waiting.length === 0) setImmediate(flushWaiting);
      waiting.push(note, status, bytes, error, durationMs, req.method, req.url, remoteOf(req, trusted), req.headers?.['user-agent']);
      if (waiting.length >= MAX_WAITING_LINES * KEPT_VALUES) flushWaiting();
    },
    flush: flushWaiting,
  };
}
