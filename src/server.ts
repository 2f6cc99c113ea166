/**
 * `listen(options)`: the API on its own `node:http` server. A thin wrapper around
 * {@link createHandler}; graceful close stops accepting, lets requests in flight finish, then
 * releases the handler's timers and watches.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, type Handler } from './http/handler.js';
import type { HandlerOptions } from './options.js';

/** Options of {@link listen}: the handler's plus where to listen. */
export interface ListenOptions extends HandlerOptions {
  /** TCP port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Interface address. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Most time a graceful close waits for requests in flight, ms, before cutting connections. Default 10000. */
  closeTimeoutMs?: number;
}

/** A running server. */
export interface RunningServer {
  readonly server: Server;
  readonly handler: Handler;
  /** `http://host:port` actually bound. */
  readonly url: string;
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
  const { port = 8080, host = '127.0.0.1', closeTimeoutMs = 10_000, ...handlerOptions } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError('port must be a whole number from 0 to 65535');
  const handler = createHandler(handlerOptions);
  try {
    await handler.ready;
  } catch (error) {
    await handler.close();
    throw error;
  }
  // Host and Expect are checked by the handler, so that their refusals come in the envelope; a
  // 100-continue is never sent, since no body is ever read (decisions §12).
  const server = createServer({ requireHostHeader: false }, handler.handle);
  server.on('checkExpectation', handler.handle);
  server.on('checkContinue', handler.handle);
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
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    handler,
    url: `http://${shownHost}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), closeTimeoutMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }).then(() => handler.close());
      return closing;
    },
  };
}
