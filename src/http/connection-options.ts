/**
 * Options of the connection layer of `listen()` (decisions §12): how many connections, how
 * long a client may take to send a request, how long an idle keep-alive connection stays, and
 * how long a graceful stop may take. Defaults in one place, each field validated once with a
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
}

/** Every field of {@link ConnectionOptions}, set and checked. */
export type ResolvedConnectionOptions = Readonly<Required<ConnectionOptions>> & {
  /** How often Node checks the headers and request timeouts, ms: derived, a tenth of the shorter, 10 to 1000. */
  readonly checkIntervalMs: number;
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
} satisfies Required<ConnectionOptions>);

/** Names of the connection options, in documentation order. */
export const CONNECTION_OPTION_NAMES = Object.freeze(Object.keys(CONNECTION_DEFAULTS) as (keyof ConnectionOptions)[]);

/** Largest value any of these options takes: about 24.8 days, the longest Node timer. */
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
  return Object.freeze({ ...out, checkIntervalMs });
}
