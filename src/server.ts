/**
 * `listen(options)`: the API on its own `node:http` server. A thin wrapper around
 * {@link createHandler} and the connection layer (docs/api.md §12): a cap on open connections,
 * timeouts for slow clients, and a graceful stop that answers every request received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, type Handler } from './http/handler.js';
import { Connections, type StopReport } from './http/connections.js';
import { CONNECTION_OPTION_NAMES, resolveConnectionOptions, type ConnectionOptions } from './http/connection-options.js';
import { HANDLER_OPTION_NAMES, checkOptionNames, defaultLog, type HandlerOptions } from './options.js';
import { listenMetrics, type MetricsListener } from './ops/metrics-server.js';
import { checkSettings, type OptionsOf } from './settings/setting.js';
import { LISTEN_SETTINGS } from './settings/table.js';

/**
 * Options of {@link listen}: the handler's, the connection layer's, and where to listen
 * (`port`, `host`, `metricsPort`, `metricsHost`: see {@link LISTEN_SETTINGS}).
 */
export interface ListenOptions extends HandlerOptions, ConnectionOptions, OptionsOf<typeof LISTEN_SETTINGS> {}

/** A running server. */
export interface RunningServer {
  readonly server: Server;
  readonly handler: Handler;
  /** `http://host:port` actually bound. */
  readonly url: string;
  /** `http://host:port` of the metrics listener, when `metricsPort` was given. */
  readonly metricsUrl: string | undefined;
  /**
   * Stops gracefully (docs/api.md §12): stops accepting, answers every request already received
   * (pipelined ones included), closes keep-alive connections after their last answer, and
   * after `shutdownTimeoutMs` closes whatever is left; then releases the handler's timers and
   * watches. From the call on, `/readyz` answers 503 (`Handler.drain`). Calling it again returns
   * the same promise.
   */
  close(): Promise<StopReport>;
  /** Connections open now. */
  connections(): number;
}

/**
 * How long a graceful stop leaves an idle keep-alive connection open after it was last busy,
 * ms (or the keep-alive timeout, when shorter): a client far away may have sent its next
 * request a round trip ago.
 */
const IDLE_GRACE_MS = 1000;

/** Every option name of {@link listen}. */
const LISTEN_OPTION_NAMES: readonly string[] = Object.freeze([...Object.keys(LISTEN_SETTINGS), ...CONNECTION_OPTION_NAMES, ...HANDLER_OPTION_NAMES]);

/**
 * Loads the snapshot and keys, then listens.
 *
 * @param bound - a listening socket to accept on instead of `port` and `host` (a `serve --workers`
 *   thread's: its own descriptor of the socket the main thread bound).
 * @throws SnapshotError or KeysFileError when either is broken (nothing listens then), a
 *   TypeError for an invalid or unknown option, or the listen error (e.g. EADDRINUSE).
 */
export async function listen(options: ListenOptions = {}, bound?: { readonly fd: number }): Promise<RunningServer> {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  checkOptionNames(options, LISTEN_OPTION_NAMES, 'listen option');
  const { port, host, metricsPort, metricsHost } = checkSettings(LISTEN_SETTINGS, options);
  const limits = resolveConnectionOptions(options);
  const handlerOptions: HandlerOptions = Object.fromEntries(Object.entries(options).filter(([name]) => (HANDLER_OPTION_NAMES as readonly string[]).includes(name)));
  const handler = createHandler(metricsPort === undefined ? handlerOptions : { ...handlerOptions, metrics: true });
  try {
    await handler.ready;
  } catch (error) {
    await handler.close();
    throw error;
  }
  const connections = new Connections(handler.handle, {
    log: handlerOptions.log ?? defaultLog,
    now: handlerOptions.now ?? Date.now,
    idleGraceMs: Math.min(IDLE_GRACE_MS, limits.keepAliveTimeoutMs),
    unsentHighWaterBytes: limits.unsentHighWaterBytes,
    sendTimeoutMs: limits.sendTimeoutMs,
    sendCheckIntervalMs: limits.sendCheckIntervalMs,
  });
  // Host and Expect are checked by the handler, so that their refusals come in the envelope; a
  // 100 Continue is never sent, since no body is ever read (docs/api.md §12).
  const server = createServer({
    requireHostHeader: false,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  }, connections.onRequest);
  server.on('checkExpectation', connections.onRequest);
  server.on('checkContinue', connections.onRequest);
  server.on('clientError', handler.clientError);
  server.on('connect', handler.connect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const listening = (): void => {
      server.off('error', reject);
      resolve();
    };
    if (bound) server.listen({ fd: bound.fd }, listening);
    else server.listen(port, host, listening);
  }).catch(async (error: unknown) => {
    await handler.close();
    throw error;
  });
  connections.attach(server, limits.maxConnections);
  let metricsListener: MetricsListener | undefined;
  if (metricsPort !== undefined) {
    const metrics = handler.metrics()!;
    metricsListener = await listenMetrics(metricsPort, metricsHost, async () => ({ contentType: metrics.contentType, text: await metrics.text() }), handlerOptions.log ?? defaultLog)
      .catch(async (error: unknown) => {
        server.close();
        await handler.close();
        throw error;
      });
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  handler.servedAt(url);
  let closing: Promise<StopReport> | undefined;
  return {
    server,
    handler,
    url,
    metricsUrl: metricsListener?.url,
    close() {
      handler.drain();
      closing ??= connections.stop(server, limits.shutdownTimeoutMs).then(async (report) => {
        await metricsListener?.close();
        await handler.close();
        return report;
      });
      return closing;
    },
    connections: () => connections.size,
  };
}
