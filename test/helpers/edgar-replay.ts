/**
 * An EDGAR replay server on loopback: answers EDGAR's URL paths (both hosts, docs/api.md §14) from
 * `../shared/sec-data` (see sec-data-routes.ts) and from routes a test adds, gzipped when the
 * client accepts it, 404 for anything else. It records every request (path, headers, time on
 * the injected clock) and the sec-data file behind every 200, and can be told to answer a path
 * with a given status (429 with `Retry-After`, 503, SEC's 403 rate-threshold page) or to drop
 * the connection, a given number of times.
 *
 * Also a script, for manual runs:
 *
 * ```sh
 * npx tsx test/helpers/edgar-replay.ts [--port 8099] [--sec-data ../shared/sec-data]
 * equity-facts fetch --base-url http://127.0.0.1:8099 --user-agent "Me me@example.com" --out /tmp/edgar --tickers TSLA,NVDA --since 2019-01-01
 * ```
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { secDataRoutes, type ReplayDocument } from './sec-data-routes.js';

/** The default place of the EDGAR test set. */
export const SEC_DATA = process.env.EQF_SEC_DATA ?? resolve(import.meta.dirname, '../../../shared/sec-data');

/** One request as the server saw it. */
export interface ReplayRequest {
  readonly path: string;
  readonly at: number;
  readonly userAgent: string | undefined;
  readonly acceptEncoding: string | undefined;
  readonly status: number | 'dropped' | 'stalled';
}

/** A fault to inject for a path. */
export type Fault =
  | { readonly status: number; readonly retryAfter?: string; readonly body?: string }
  | { readonly drop: 'before-headers' | 'mid-body' }
  /** Sends nothing at all until the server closes. */
  | { readonly stall: true };

/** SEC's page for a client over the fair-access rate (served with 403). */
export const RATE_THRESHOLD_PAGE = '<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body><h1>Your Request Originates from an Undeclared Automated Tool</h1></body></html>';

/** A running replay server. */
export class EdgarReplay {
  readonly requests: ReplayRequest[] = [];
  /** URL path → sec-data source of every 200 answered. */
  readonly served = new Map<string, string>();
  readonly #routes: Map<string, ReplayDocument>;
  readonly #faults = new Map<string, { fault: Fault; times: number }[]>();
  readonly #arrivalWaiters: { count: number; resolve: () => void }[] = [];
  readonly #server: Server;
  now: () => number;
  url = '';

  private constructor(routes: Map<string, ReplayDocument>, now: () => number) {
    this.#routes = routes;
    this.now = now;
    this.#server = createServer((req, res) => { void this.#answer(req, res); });
  }

  /**
   * Starts a server on 127.0.0.1.
   *
   * @param options.secData - the folder to replay; null for none (only added routes).
   * @param options.now - the clock stamped on requests. Default `Date.now`.
   * @param options.port - default 0 (any free port).
   */
  static async start(options: { secData?: string | null; now?: () => number; port?: number } = {}): Promise<EdgarReplay> {
    const secData = options.secData === undefined ? SEC_DATA : options.secData;
    const routes = secData === null ? new Map<string, ReplayDocument>() : await secDataRoutes(secData);
    const replay = new EdgarReplay(routes, options.now ?? Date.now);
    replay.#server.listen(options.port ?? 0, '127.0.0.1');
    await once(replay.#server, 'listening');
    replay.url = `http://127.0.0.1:${(replay.#server.address() as AddressInfo).port}`;
    return replay;
  }

  /** Serves `body` at `path` (a test's own fixture). */
  set(path: string, body: string | Buffer, source = `fixture:${path}`): void {
    this.#routes.set(path, { source, load: async () => Buffer.from(body) });
  }

  /** Whether a path is served. */
  has(path: string): boolean {
    return this.#routes.has(path);
  }

  /** Every served path. */
  paths(): string[] {
    return [...this.#routes.keys()];
  }

  /** Answers the next `times` requests for `path` with `fault` (faults queue in order). */
  fail(path: string, fault: Fault, times = 1): void {
    this.#faults.set(path, [...(this.#faults.get(path) ?? []), { fault, times }]);
  }

  /** Resolves once at least `count` requests have arrived. */
  arrivals(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => { this.#arrivalWaiters.push({ count, resolve }); });
  }

  /** Requests for one path. */
  requestsFor(path: string): ReplayRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const record = (status: ReplayRequest['status']): void => {
      this.requests.push({ path, at: this.now(), userAgent: req.headers['user-agent'], acceptEncoding: req.headers['accept-encoding'], status });
      for (const waiter of this.#arrivalWaiters.filter((w) => this.requests.length >= w.count)) {
        this.#arrivalWaiters.splice(this.#arrivalWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const queued = this.#faults.get(path);
    const fault = queued?.[0];
    if (fault) {
      if (--fault.times === 0) queued!.shift();
      if ('stall' in fault.fault) {
        record('stalled');
        return;
      }
      if ('drop' in fault.fault) {
        record('dropped');
        if (fault.fault.drop === 'before-headers') {
          req.socket.destroy();
          return;
        }
        const body = (await this.#routes.get(path)?.load()) ?? Buffer.alloc(2048, 'x');
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, Math.floor(body.length / 2)), () => req.socket.destroy());
        return;
      }
      record(fault.fault.status);
      const headers: Record<string, string> = { 'content-type': 'text/html' };
      if (fault.fault.retryAfter !== undefined) headers['retry-after'] = fault.fault.retryAfter;
      res.writeHead(fault.fault.status, headers);
      res.end(fault.fault.body ?? `status ${fault.fault.status}`);
      return;
    }
    const route = this.#routes.get(path);
    if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) {
      record(route ? 405 : 404);
      res.writeHead(route ? 405 : 404, { 'content-type': 'text/html' });
      res.end(route ? 'method not allowed' : '<html><body>Not Found</body></html>');
      return;
    }
    record(200);
    this.served.set(path, route.source);
    let body = await route.load();
    const headers: Record<string, string | number> = { 'content-type': contentType(path) };
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}

function contentType(path: string): string {
  if (path.endsWith('.json')) return 'application/json';
  if (path.endsWith('.xml')) return 'application/xml';
  if (path.endsWith('.zip')) return 'application/zip';
  if (/\.html?$/.test(path)) return 'text/html';
  return 'text/plain';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8099' }, 'sec-data': { type: 'string', default: SEC_DATA } } });
  void EdgarReplay.start({ port: Number(values.port), secData: values['sec-data']! }).then((replay) => {
    process.stderr.write(`EDGAR replay of ${values['sec-data']} (${replay.paths().length} paths) on ${replay.url}; Ctrl-C stops\n`);
    process.once('SIGINT', () => { void replay.close(); });
  });
}
