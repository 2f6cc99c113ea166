/**
 * `listen(options)`: the API on its own `node:http` server. A thin wrapper around
 * {@link createHandler}; graceful close stops accepting, lets requests in flight finish, then
 * releases the handler's timers and watches.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, type Handler } from './http/handler.js';
import type { HandlerOptions } from './options.js';
import { listenMetrics, type MetricsListener } from './ops/metrics-server.js';

/** Options of {@link listen}: the handler's plus where to listen. */
export interface ListenOptions extends HandlerOptions {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface address. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Most time a graceful close waits for requests in flight, ms, before cutting connections. Default 10000. */
  closeTimeoutMs?: number;
  /** Serves Prometheus `/metrics` on this port, its own listener (decisions §12); turns `metrics` on. Default: none. */
  metricsPort?: number;
  /** Address of the metrics listener. Default `127.0.0.1`. */
  metricsHost?: string;
}

/** A running server. */
export interface RunningServer {
  readonly server: Server;
  readonly handler: Handler;
  /** `http://host:port` actually bound. */
  readonly url: string;
  /** `http://host:port` of the metrics listener, when `metricsPort` was given. */
  readonly metricsUrl: string | undefined;
  /** Stops accepting, waits for requests in flight (up to closeTimeoutMs), then closes the handler. */
  close(): Promise<void>;
}

/**
 * Loads the snapshot and keys, then listens.
 *
 * @throws SnapshotError or KeysFileError when either is broken (nothing listens then), a
 *   TypeError for an invalid option, or the listen error (e.g. EADDRINUSE).
 */
export async function listen(options: ListenOptions = {}): Promise<RunningServer> {
  const { port = 8080, host = '127.0.0.1', closeTimeoutMs = 10_000, metricsPort, metricsHost = '127.0.0.1', ...handlerOptions } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError('port must be a whole number from 0 to 65535');
  if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535)) throw new TypeError('metricsPort must be a whole number from 0 to 65535');
  const handler = createHandler(metricsPort === undefined ? handlerOptions : { ...handlerOptions, metrics: true });
  try {
    await handler.ready;
  } catch (error) {
    await handler.close();
    throw error;
  }
  const server = createServer(handler.handle);
  server.on('clientError', handler.clientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await handler.close();
    throw error;
  });
  let metricsListener: MetricsListener | undefined;
  if (metricsPort !== undefined) {
    const metrics = handler.metrics()!;
    metricsListener = await listenMetrics(metricsPort, metricsHost, async () => ({ contentType: metrics.contentType, text: await metrics.text() }), handlerOptions.log ?? ((line) => process.stderr.write(`${line}\n`)))
      .catch(async (error: unknown) => {
        server.close();
        await handler.close();
        throw error;
      });
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    handler,
    url: `http://${shownHost}:${address.port}`,
    metricsUrl: metricsListener?.url,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }).then(() => metricsListener?.close()).then(() => handler.close());
      return closing;
    },
  };
}
