/**
 * The connections of `listen()`'s server (docs/api.md §12): a cap on how many are open, a log
 * line instead of a crash when accepting fails, a bound on the answers each holds unsent
 * (backlog.ts) and a send timeout for clients that take none of them, and the graceful stop. A stop stops accepting,
 * answers every request already received on every connection (pipelined ones included), marks
 * the answer to the last request received on each keep-alive connection `Connection: close`,
 * closes idle connections once they have been idle a little while (a client may be sending its
 * next request), and after the shutdown timeout closes whatever is left.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionBacklog, MAX_WAITING_REQUESTS, takenMark } from './backlog.js';
import { hasResponseUnderWay } from './under-way.js';
import type { LogSink } from '../ops/logger.js';

/** What the server knows of one open connection. */
interface ConnectionState {
  /** Requests received during a stop and not yet handed to the handler. */
  pending: number;
  /** Consecutive sweeps of a stop that found the connection idle. */
  idleSweeps: number;
  /** When it was last seen busy (connected, a request received, a response under way), `performance.now()` ms. */
  activeAt: number;
  /** Whether a stop closed it (nothing more is answered on it). */
  closing: boolean;
  /** Its unsent answers and the requests waiting for them. */
  backlog: ConnectionBacklog;
  /** How much its client had taken when last seen taking some (see {@link takenMark}). */
  taken: { completed: number; queued: number };
  /** When its client was last seen taking bytes or having none to take, `now()` ms; NaN until the first check. */
  takingAt: number;
}

/** Options of {@link Connections}. */
export interface ConnectionsOptions {
  /** The operational log: told of the cap reached and accept failures. */
  log: LogSink;
  /** Clock in ms, to log a repeated condition at most once a minute. */
  now: () => number;
  /**
   * How long a stop leaves an idle keep-alive connection open after it was last busy, ms: the
   * client may be sending its next request already, and closing under it would lose that
   * request. Longer than a round trip; at most the keep-alive timeout the client was told.
   */
  idleGraceMs: number;
  /** A connection's unsent answers past which its further requests wait, bytes (see backlog.ts). */
  unsentHighWaterBytes: number;
  /** Most time a client may take none of the bytes written to it, ms; then its connection is closed. */
  sendTimeoutMs: number;
  /** How often connections are checked for clients taking nothing, ms. */
  sendCheckIntervalMs: number;
}

/** What a graceful stop did. */
export interface StopReport {
  /** Connections open when the stop began. */
  open: number;
  /** Connections still open at the shutdown timeout, closed then. */
  cut: number;
}

/**
 * How often a stop looks for idle connections, ms. A connection is closed only when two looks
 * in a row find it idle: the event loop reads every socket between two timer callbacks, so a
 * request that had reached the host before the first look has been received by the second.
 */
const SWEEP_INTERVAL_MS = 10;

/** At most one log line a minute for a condition that repeats (cap reached, accept failing). */
const REPEAT_LOG_MS = 60_000;

/** The connections of one server. */
export class Connections {
  readonly #handle: RequestListener;
  readonly #options: ConnectionsOptions;
  readonly #open = new Map<Socket, ConnectionState>();
  #stopping = false;
  #lastLogged = new Map<string, number>();

  /**
   * @param handle - the request listener (the handler's `handle`).
   * @param options - see {@link ConnectionsOptions}.
   */
  constructor(handle: RequestListener, options: ConnectionsOptions) {
    this.#handle = handle;
    this.#options = options;
  }

  /** Connections open now. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * The server's request listener (also for `checkExpectation` and `checkContinue`): the
   * handler itself, except during a stop (see {@link stop}).
   */
  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const state = this.#open.get(req.socket);
    if (state !== undefined) state.activeAt = performance.now();
    if (!this.#stopping) return this.#answer(req, res, state);
    if (state === undefined || state.closing) {
      // Read after the stop closed the connection (its FIN is on its way): no answer can follow.
      req.socket.destroy();
      return;
    }
    state.pending++;
    state.idleSweeps = 0;
    // Answered once the loop has read the rest of what arrived with it, so that the answer to
    // the last request received, and only that one, says Connection: close: a response queued
    // behind one that closes the connection would never be written.
    setImmediate(() => {
      if (--state.pending === 0) res.shouldKeepAlive = false;
      this.#answer(req, res, state);
    });
  };

  /** Answers now, or when the connection's client has taken enough of the answers before (backlog.ts). */
  #answer(req: IncomingMessage, res: ServerResponse, state: ConnectionState | undefined): void {
    if (state === undefined) return this.#handle(req, res);
    state.backlog.receive(req, res, this.#handle);
  }

  /**
   * Tracks the server's connections and caps them.
   *
   * @param server - the server, created with {@link onRequest} as its request listener.
   * @param maxConnections - most connections open at once; over it Node closes a new one at once.
   */
  attach(server: Server, maxConnections: number): void {
    server.maxConnections = maxConnections;
    const { unsentHighWaterBytes, sendCheckIntervalMs } = this.#options;
    const tooManyWaiting = (): void => this.#logOnce('waiting', `closed a connection with over ${MAX_WAITING_REQUESTS} requests waiting behind answers its client has not taken (--unsent-high-water-bytes)`);
    server.on('connection', (socket: Socket) => {
      this.#open.set(socket, {
        pending: 0, idleSweeps: 0, activeAt: performance.now(), closing: false,
        backlog: new ConnectionBacklog(socket, unsentHighWaterBytes, tooManyWaiting), taken: takenMark(socket), takingAt: Number.NaN,
      });
      socket.once('close', () => this.#open.delete(socket));
    });
    // One timer for every connection, off the request path.
    const sendCheck = setInterval(() => this.#closeStalled(), sendCheckIntervalMs);
    sendCheck.unref();
    server.once('close', () => clearInterval(sendCheck));
    server.on('drop', () => this.#logOnce('cap', `connection cap reached: ${maxConnections} open; new connections are closed at once (--max-connections)`));
    // After listening, an accept can fail (EMFILE when file descriptors run out); Node reports
    // it as a server error, which would end the process with no listener.
    server.on('error', (error: NodeJS.ErrnoException) => this.#logOnce(`error ${error.code}`, `server error, still serving: ${error.message}`));
  }

  /**
   * Stops gracefully (docs/api.md §12): stops accepting, answers every request received, closes
   * each connection once it is idle, and closes what is left after `timeoutMs`.
   *
   * @param server - the server given to {@link attach}.
   * @param timeoutMs - the shutdown timeout, ms.
   * @returns once every connection is closed.
   */
  stop(server: Server, timeoutMs: number): Promise<StopReport> {
    this.#stopping = true;
    const open = this.#open.size;
    let cut = 0;
    return new Promise<StopReport>((resolve) => {
      const sweeper = setInterval(() => this.#sweep(), SWEEP_INTERVAL_MS);
      const timer = setTimeout(() => {
        cut = this.#open.size;
        for (const socket of this.#open.keys()) socket.destroy();
      }, timeoutMs);
      sweeper.unref();
      timer.unref();
      // Before it stops accepting, http.Server#close destroys every connection Node counts as
      // idle, and that includes connections whose responses are still being written or queued
      // (lib/_http_server.js closeIdleConnections): for this one call, that step does nothing.
      // The sweeps close idle connections instead.
      const closeIdleConnections = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
      server.closeIdleConnections = () => {};
      server.close(() => {
        clearInterval(sweeper);
        clearTimeout(timer);
        resolve({ open, cut });
      });
      if (closeIdleConnections === undefined) delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
      else Object.defineProperty(server, 'closeIdleConnections', closeIdleConnections);
      this.#sweep();
    });
  }

  /**
   * Closes the connections that are idle (no request waiting, no response under way) on two
   * sweeps in a row and were last busy at least the idle grace ago.
   */
  #sweep(): void {
    const now = performance.now();
    for (const [socket, state] of this.#open) {
      if (state.closing) continue;
      if (state.pending > 0 || hasResponseUnderWay(socket)) {
        state.idleSweeps = 0;
        state.activeAt = now;
        continue;
      }
      if (++state.idleSweeps < 2 || now - state.activeAt < this.#options.idleGraceMs) continue;
      state.closing = true;
      socket.end();
      socket.once('finish', () => socket.destroy());
    }
  }

  /**
   * Closes the connections whose client has taken none of the bytes written to it for the send
   * timeout. A connection with nothing unsent is not waiting for its client (an idle one is the
   * keep-alive timeout's).
   */
  #closeStalled(): void {
    let now: number;
    try {
      now = this.#options.now();
    } catch {
      return; // an injected clock that fails: the requests report it; nothing to close by
    }
    let closed = 0;
    for (const [socket, state] of this.#open) {
      const taken = takenMark(socket);
      if (Number.isNaN(state.takingAt) || socket.writableLength === 0 || taken.completed !== state.taken.completed || taken.queued < state.taken.queued) {
        state.taken = taken;
        state.takingAt = now;
      } else if (now - state.takingAt >= this.#options.sendTimeoutMs) {
        socket.destroy();
        closed++;
      }
    }
    if (closed > 0) this.#logOnce('send timeout', `closed ${closed} connection(s) whose client took none of its answers for ${this.#options.sendTimeoutMs} ms (--send-timeout-ms)`);
  }

  #logOnce(what: string, line: string): void {
    const now = this.#options.now();
    const last = this.#lastLogged.get(what);
    if (last !== undefined && now - last < REPEAT_LOG_MS) return;
    this.#lastLogged.set(what, now);
    this.#options.log(line, 'warn');
  }
}
