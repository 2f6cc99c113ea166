/**
 * Options of the connection layer of `listen()` (decisions §12): how many connections, how
 * long a client may take to send a request, how long an idle keep-alive connection stays, how
 * much of unsent answers a connection may hold and how long its client may take none of them,
 * and how long a graceful stop may take. Defaults in one place, each field validated once with a
 * message naming it, then frozen.
 */

/** Connection options of {@link listen}. Every field is optional. */
export interface ConnectionOptions {
  /** Most connections open at once; over it a new connection is closed at once, unanswered. Default 10000. */
  maxConnections?: number;
  /** Most time from a request's first byte to the end of its headers, ms; then 408 `request_timeout`. Default 10000. */
  headersTimeoutMs?: number;
  /** Most time from a request's first byte to its last, ms; then 408 `request_timeout`. At least `headersTimeoutMs`. Default 30000. */
  requestTimeoutMs?: number;
  /** How long a keep-alive connection may stay idle between requests, ms (announced in `Keep-Alive: timeout`). Default 5000. */
  keepAliveTimeoutMs?: number;
  /**
   * Most time a graceful stop waits for the requests already received to be answered, ms;
   * then the connections left are closed. Default 10000.
   */
  shutdownTimeoutMs?: number;
  /**
   * A connection's unsent answers past which its further requests wait, bytes: its socket is not
   * read, and requests already received are answered only as its client takes the answers before
   * them (a connection with more than 100 waiting is closed). Default 65536.
   */
  unsentHighWaterBytes?: number;
  /**
   * Most time a connection's client may take none of the bytes written to it, ms; then the
   * connection is closed. Default 30000.
   */
  sendTimeoutMs?: number;
}

/** Every field of {@link ConnectionOptions}, set and checked. */
export type ResolvedConnectionOptions = Readonly<Required<ConnectionOptions>> & {
  /** How often Node checks the headers and request timeouts, ms: derived, a tenth of the shorter, 10 to 1000. */
  readonly checkIntervalMs: number;
  /** How often connections are checked for clients taking nothing, ms: derived, a tenth of the send timeout, 10 to 1000. */
  readonly sendCheckIntervalMs: number;
};

/** Defaults of {@link ConnectionOptions}. */
export const CONNECTION_DEFAULTS = Object.freeze({
  /** connections: far above what one process answers, far below the file descriptors a host allows. */
  maxConnections: 10_000,
  /** ms: a request line and headers are a few hundred bytes; a client still sending after 10 s is not sending. */
  headersTimeoutMs: 10_000,
  /** ms: no route takes a body, so this bounds only headers sent very slowly in pieces. */
  requestTimeoutMs: 30_000,
  /** ms: Node's own default. */
  keepAliveTimeoutMs: 5_000,
  /** ms: decisions §12. */
  shutdownTimeoutMs: 10_000,
  /**
   * bytes: 4 times Node's own socket high-water mark, past the kernel's buffers; a connection
   * holds at most this much of answers, plus the one answer that crossed it.
   */
  unsentHighWaterBytes: 65_536,
  /** ms: a client taking nothing for 30 s is gone or hostile; a slow one still takes some bytes. */
  sendTimeoutMs: 30_000,
} satisfies Required<ConnectionOptions>);

/** Names of the connection options, in documentation order. */
export const CONNECTION_OPTION_NAMES = Object.freeze(Object.keys(CONNECTION_DEFAULTS) as (keyof ConnectionOptions)[]);

/** Largest value any of these options takes: about 24.8 days, the longest Node timer (and 2 GiB for the mark). */
const MAX_VALUE = 2 ** 31 - 1;

/**
 * Applies the defaults and checks each field.
 *
 * @throws TypeError naming the option, e.g. "maxConnections must be a whole number from 1 to 2147483647".
 */
export function resolveConnectionOptions(options: ConnectionOptions): ResolvedConnectionOptions {
  const out = { ...CONNECTION_DEFAULTS };
  for (const name of CONNECTION_OPTION_NAMES) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_VALUE) {
      throw new TypeError(`${name} must be a whole number from 1 to ${MAX_VALUE}, got ${JSON.stringify(value) ?? String(value)}`);
    }
    out[name] = value;
  }
  // Node refuses the same (lib/_http_server.js storeHTTPOptions).
  if (out.headersTimeoutMs > out.requestTimeoutMs) {
    throw new TypeError(`headersTimeoutMs (${out.headersTimeoutMs}) must not be above requestTimeoutMs (${out.requestTimeoutMs})`);
  }
  const checkIntervalMs = Math.min(1000, Math.max(10, Math.floor(out.headersTimeoutMs / 10)));
  const sendCheckIntervalMs = Math.min(1000, Math.max(10, Math.floor(out.sendTimeoutMs / 10)));
  return Object.freeze({ ...out, checkIntervalMs, sendCheckIntervalMs });
}
