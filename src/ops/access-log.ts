/**
 * The access log (decisions §12): one JSON line per response with `time`, `request_id`,
 * `method`, `path`, the recognised parameters, `status`, `error`, `bytes`, `duration_ms`,
 * `key_id`, `plan`, `remote`. Never a key, never a header value, never an unrecognised query
 * parameter: the query enters the line only as the values that passed the parameter checks
 * (a ticker, a CIK, a limit), and a path no route knows is cut where a segment could hold a key.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { ErrorCode } from '../errors.js';
import { ROUTES } from '../routes.js';
import type { RequestNote, ResponseObserver } from './observer.js';

/**
 * Longest path segment written as it is for a path that matched no route: the longest segment of
 * any route (`openapi.json`). A longer one may be a key pasted into the URL (a minted key is
 * `eqf_` + 38 characters), so it is written as `…`.
 */
const MAX_UNROUTED_SEGMENT = Math.max(...ROUTES.flatMap((route) => route.path.split('/').map((segment) => segment.length)));
/** Longest path written for a path that matched no route, in characters. */
const MAX_UNROUTED_PATH = 100;

/**
 * The log line of one response, without its newline.
 *
 * @param req - the request (method, URL, the socket's remote address; no header is read).
 * @param note - what the pipeline learnt (see {@link RequestNote}).
 * @param status - HTTP status sent.
 * @param bytes - body bytes sent.
 * @param error - the error code, for an error envelope.
 * @param durationMs - handling time in ms (rounded to 0.001 ms).
 */
export function accessLogLine(req: IncomingMessage, note: RequestNote, status: number, bytes: number, error: ErrorCode | undefined, durationMs: number): string {
  const route = note.route;
  const query = note.query;
  let params: Record<string, string | number> | null = null;
  if (query !== undefined && route !== undefined && route.params.length > 0) {
    params = { limit: query.limit };
    if (query.key !== null) params[route.params.includes('cik') ? 'cik' : 'ticker'] = query.key;
  }
  return JSON.stringify({
    time: new Date(note.time).toISOString(),
    request_id: note.requestId,
    method: req.method ?? null,
    path: route !== undefined ? route.path : unroutedPath(req.url ?? '/'),
    params,
    status,
    error: error ?? null,
    bytes,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    key_id: note.keyId ?? null,
    plan: note.plan ?? null,
    remote: req.socket.remoteAddress ?? null,
  });
}

/** The path of a URL no route matched, without its query, long segments cut (see {@link MAX_UNROUTED_SEGMENT}). */
export function unroutedPath(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).slice(0, MAX_UNROUTED_PATH);
  return path.split('/').map((segment) => (segment.length > MAX_UNROUTED_SEGMENT ? '…' : segment)).join('/');
}

/**
 * An observer that writes each response's line to a sink.
 *
 * @param sink - receives one line without its newline (see {@link openAccessLog}).
 */
export function accessLogObserver(sink: (line: string) => void): ResponseObserver {
  return {
    responded(req, note, status, bytes, error, durationMs) {
      sink(accessLogLine(req, note, status, bytes, error, durationMs));
    },
  };
}

/** An open access log: a sink for lines, written in batches. */
export interface AccessLogFile {
  /** Queues one line (newline added); written at the end of the event loop's turn. */
  write(line: string): void;
  /** Writes what is queued now. */
  flush(): void;
  /** Reopens the file (after logrotate moved it; SIGHUP). Does nothing for stdout. */
  reopen(): void;
  /** Writes what is queued and closes the file. */
  close(): Promise<void>;
}

/**
 * Largest write of queued lines: POSIX makes writes of up to PIPE_BUF (4096) bytes to a pipe
 * atomic, so with `--workers` the lines of several processes sharing one stdout pipe never mix.
 */
const MAX_WRITE_BYTES = 4096;

/**
 * Opens `--access-log stdout|FILE` (`off` opens nothing). Lines are queued and written together
 * once per turn of the event loop (setImmediate), in writes of at most 4096 bytes that end at a
 * line's end: one system call per batch instead of one per response. A FILE is opened for
 * appending, so several processes may share it.
 *
 * @param target - `stdout` or a file path.
 */
export function openAccessLog(target: string): AccessLogFile {
  let stream: WriteStream | undefined;
  const write = target === 'stdout'
    ? (text: string) => { process.stdout.write(text); }
    : (text: string) => { (stream ??= createWriteStream(target, { flags: 'a' })).write(text); };
  let queue = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    while (queue.length > 0) {
      let end = queue.length;
      if (Buffer.byteLength(queue) > MAX_WRITE_BYTES) {
        end = queue.lastIndexOf('\n', MAX_WRITE_BYTES - 1) + 1;
        if (end === 0) end = queue.indexOf('\n') + 1; // one line longer than the limit goes alone
      }
      write(queue.slice(0, end));
      queue = queue.slice(end);
    }
  };
  return {
    write(line) {
      queue += `${line}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
    reopen() {
      flush();
      stream?.end();
      stream = undefined;
    },
    close() {
      flush();
      if (stream === undefined) return Promise.resolve();
      const closing = stream;
      stream = undefined;
      return new Promise((resolve) => closing.end(resolve));
    },
  };
}
