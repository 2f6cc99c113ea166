/**
 * The settings of {@link listen} beside the handler's: where it listens, and the connection
 * layer (docs/api.md §12): how many connections, how long a client may take to send a request,
 * how long an idle keep-alive connection stays, how much of unsent answers a connection may hold
 * and how long its client may take none of them, and how long a graceful stop may take.
 */
import { LOOPBACK, MAX_TIMER_MS, port, text, whole } from './kinds.js';
import { setting } from './setting.js';

/** `listen()`'s port when none is given. */
export const DEFAULT_PORT = 8080;

/** Base address used while none is set and the address served is not known: `listen()`'s default one. */
export const DEFAULT_BASE_URL = `http://${LOOPBACK}:${DEFAULT_PORT}`;

/** Where {@link listen} listens, and its metrics listener. */
export const LISTEN_SETTINGS = Object.freeze({
  /** TCP port; 0 picks a free one. Default 8080. */
  port: setting({
    kind: port, default: DEFAULT_PORT, flag: 'port', env: 'EQF_PORT',
    help: 'TCP port (0 picks a free one)', doc: 'TCP port (0 picks a free one)',
  }),
  /** Interface address. Default `127.0.0.1` (loopback only). */
  host: setting({
    kind: text, default: LOOPBACK, flag: 'host', env: 'EQF_HOST', placeholder: 'ADDRESS',
    help: 'address to listen on', doc: 'address to listen on (the default: loopback only)',
  }),
  /** Serves Prometheus `/metrics` on this port, its own listener (docs/api.md §12); turns `metrics` on. Default: none. */
  metricsPort: setting({
    kind: port, shown: 'off', flag: 'metrics-port', env: 'EQF_METRICS_PORT',
    help: 'serve Prometheus /metrics on this port (its own listener)', doc: 'serve Prometheus `/metrics` on this port, a listener of its own; turns `metrics` on',
  }),
  /** Address of the metrics listener. Default `127.0.0.1`. */
  metricsHost: setting({
    kind: text, default: LOOPBACK, flag: 'metrics-host', env: 'EQF_METRICS_HOST', placeholder: 'ADDRESS',
    help: 'address of the metrics listener', doc: 'address of the metrics listener',
  }),
});

/** A count or a time of the connection layer: from 1 to the longest Node timer (and 2 GiB for the mark). */
const bounded = whole(1, MAX_TIMER_MS);

/** The connection layer of {@link listen}. */
export const CONNECTION_SETTINGS = Object.freeze({
  /** Most connections open at once; over it a new connection is closed at once, unanswered. Default 10000. */
  maxConnections: setting({
    kind: bounded, default: 10_000, // connections: far above what one process answers, far below the file descriptors a host allows
    flag: 'max-connections', env: 'EQF_MAX_CONNECTIONS',
    help: 'most connections open at once; over it a new one is closed at once',
    doc: 'most connections open at once; over it a new connection is closed at once, unanswered',
  }),
  /** Most time from a request's first byte to the end of its headers, ms; then 408 `request_timeout`. Default 10000. */
  headersTimeoutMs: setting({
    kind: bounded, default: 10_000, // ms: a request line and headers are a few hundred bytes; a client still sending after 10 s is not sending
    flag: 'headers-timeout-ms', env: 'EQF_HEADERS_TIMEOUT_MS',
    help: 'most ms to receive a request line and headers, then 408', doc: 'most time, ms, to receive a request line and headers, then 408 `request_timeout`',
  }),
  /** Most time from a request's first byte to its last, ms; then 408 `request_timeout`. At least `headersTimeoutMs`. Default 30000. */
  requestTimeoutMs: setting({
    kind: bounded, default: 30_000, // ms: no route takes a body, so this bounds only headers sent very slowly in pieces
    flag: 'request-timeout-ms', env: 'EQF_REQUEST_TIMEOUT_MS',
    help: 'most ms to receive a whole request, then 408 (at least the headers timeout)', doc: 'most time, ms, to receive a whole request, then 408 (at least the headers timeout)',
  }),
  /** How long a keep-alive connection may stay idle between requests, ms (announced in `Keep-Alive: timeout`). Default 5000. */
  keepAliveTimeoutMs: setting({
    kind: bounded, default: 5_000, // ms: Node's own default
    flag: 'keep-alive-timeout-ms', env: 'EQF_KEEP_ALIVE_TIMEOUT_MS',
    help: 'ms an idle keep-alive connection stays open', doc: 'how long, ms, an idle keep-alive connection stays open (sent as `Keep-Alive: timeout`)',
  }),
  /**
   * A connection's unsent answers past which its further requests wait, bytes: its socket is not
   * read, and requests already received are answered only as its client takes the answers before
   * them (a connection with more than 100 waiting is closed). Default 65536.
   */
  unsentHighWaterBytes: setting({
    // bytes: 4 times Node's own socket high-water mark, past the kernel's buffers; a connection
    // holds at most this much of answers, plus the one answer that crossed it.
    kind: bounded, default: 65_536,
    flag: 'unsent-high-water-bytes', env: 'EQF_UNSENT_HIGH_WATER_BYTES',
    help: 'bytes of answers a client has not taken past which its connection is not read (over 100 requests waiting closes it)',
    doc: 'answers a client has not taken, in bytes, past which its connection is not read and its requests already received wait (over 100 waiting closes it)',
  }),
  /**
   * Most time a connection's client may take none of the bytes written to it, ms; then the
   * connection is closed. Default 30000.
   */
  sendTimeoutMs: setting({
    kind: bounded, default: 30_000, // ms: a client taking nothing for 30 s is gone or hostile; a slow one still takes some bytes
    flag: 'send-timeout-ms', env: 'EQF_SEND_TIMEOUT_MS',
    help: 'ms a client may take none of the bytes written to it, then its connection is closed',
    doc: 'how long, ms, a client may take none of the bytes written to it; then its connection is closed',
  }),
  /**
   * Most time a graceful stop waits for the requests already received to be answered, ms;
   * then the connections left are closed. Default 10000.
   */
  shutdownTimeoutMs: setting({
    kind: bounded, default: 10_000, // ms: docs/api.md §12
    flag: 'shutdown-timeout-ms', env: 'EQF_SHUTDOWN_TIMEOUT_MS',
    help: 'most ms SIGTERM/SIGINT waits for requests received to be answered', doc: 'most time, ms, SIGTERM/SIGINT (or `close()`) waits for the requests received to be answered',
  }),
});
