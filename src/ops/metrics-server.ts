/**
 * The metrics listener (docs/api.md §12): Prometheus text at `GET /metrics` on its own port, never
 * on the API's, so that the API port exposes nothing about the process and the metrics port can
 * stay on a private interface (`--metrics-host`, default 127.0.0.1).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogSink } from './logger.js';

/** The exposition of one scrape. */
export interface Exposition {
  readonly contentType: string;
  readonly text: string;
}

/** A running metrics listener. */
export interface MetricsListener {
  /** `http://host:port` actually bound. */
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Listens for scrapes. `GET` or `HEAD /metrics` answers 200 with the exposition; any other path
 * 404, any other method 405; a scrape whose collection fails answers 503 (the reason is logged,
 * never sent).
 *
 * @param port - TCP port; 0 picks a free one.
 * @param host - interface address.
 * @param scrape - collects the exposition (the process's own, or the cluster's aggregated).
 * @param log - the operational log: told when a scrape fails.
 * @throws the listen error (e.g. EADDRINUSE).
 */
export async function listenMetrics(port: number, host: string, scrape: () => Promise<Exposition>, log: LogSink): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    scrape().then((exposition) => {
      res.writeHead(200, { 'Content-Type': exposition.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : exposition.text);
    }, (error: unknown) => {
      log(`metrics: scrape failed: ${(error as Error).message}`, 'error');
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' }).end('Metrics are unavailable right now\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
