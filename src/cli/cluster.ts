/**
 * `serve --workers N --worker-mode processes` (docs/api.md §11): a node:cluster primary that forks
 * N workers sharing the API port, each loading its own copy of the snapshot (the default mode,
 * threads sharing one copy, is threads.ts). Without Redis the primary holds every key's buckets and answers its workers over
 * IPC (`ipc-store.ts`), so the limits stay exact; with Redis the workers use it. The primary
 * serves no requests itself. It relays SIGHUP (reload) and SIGUSR2 (breaker) to every worker;
 * SIGTERM and SIGINT drain every worker and exit 0 (a second one is relayed too: it ends the
 * workers' shutdown delay, or closes what they have left). A worker that dies after it was serving is
 * replaced; a worker that dies before it ever listened stops the whole (a broken snapshot or
 * keys file would fail every replacement too). With `--metrics-port` the primary serves the
 * workers' metrics, summed.
 */
import cluster, { type Worker } from 'node:cluster';
import { Limiter } from '../guard/limiter.js';
import { answerLimits } from '../guard/ipc-store.js';
import { listenMetrics, type MetricsListener } from '../ops/metrics-server.js';
import { processMetrics } from '../ops/metrics.js';
import { PACKAGE_VERSION } from '../version.js';
import type { LogSink } from '../ops/logger.js';
import type { ServeConfig } from './serve-config.js';
import { logFirstScreen } from './first-screen.js';
import { LISTEN_SETTINGS, LOOPBACK, SERVE_SETTINGS } from '../settings/table.js';

/** A primary's request for a worker's metrics, and the answer. */
interface MetricsMessage {
  readonly eqf: 'metrics';
  readonly id: number;
  readonly json?: unknown[];
}

/**
 * A worker's word that it serves: sent once its signal handlers are in place, so that a signal
 * the primary relays after announcing the workers never meets a worker without them (the
 * default action of SIGHUP and SIGUSR2 ends a process).
 */
export const WORKER_READY = Object.freeze({ eqf: 'worker-ready' });

/** Longest wait for one worker's metrics in a scrape, ms. */
const METRICS_WAIT_MS = 2000;

/**
 * Runs the primary until SIGTERM or SIGINT.
 *
 * @param config - the serve settings (`workers` > 1); the workers read the same flags and
 *   environment themselves.
 * @param log - the operational log (the workers' lines carry a `worker` field; the primary's none).
 * @returns the exit code: 0 after a drain, 1 when a worker could not start.
 */
export async function runPrimary(config: ServeConfig, log: LogSink): Promise<number> {
  const count = config.workers ?? SERVE_SETTINGS.workers.default;
  // Without Redis the primary's buckets are the only ones: every worker asks them.
  const limiter = config.redisUrl === undefined ? new Limiter() : undefined;
  const listening = new Set<number>();
  let stopping = false;
  let announced = false;
  let metricsListener: MetricsListener | undefined;

  return new Promise<number>((resolve) => {
    const finish = (code: number): void => {
      void Promise.resolve(metricsListener?.close()).then(() => limiter?.close()).then(() => resolve(code));
    };
    let address: { address?: string | null; port: number } | undefined;
    const fork = (): Worker => {
      const worker = cluster.fork();
      if (limiter) answerLimits(limiter, worker);
      worker.on('message', (message: unknown) => {
        if ((message as { eqf?: unknown } | null)?.eqf === WORKER_READY.eqf) ready(worker);
      });
      return worker;
    };
    cluster.on('listening', (_worker, where) => { address ??= where; });
    const ready = (worker: Worker): void => {
      listening.add(worker.id);
      log(`worker ${worker.id} (pid ${worker.process.pid}) serving`);
      if (announced || listening.size < count || address === undefined) return;
      announced = true;
      const host = address.address === null || address.address === undefined ? LOOPBACK : address.address.includes(':') ? `[${address.address}]` : address.address;
      const where = limiter ? 'limits held by the primary' : 'limits shared through Redis';
      const { port } = address;
      void startMetrics().then(() => {
        log(`equity-facts ${PACKAGE_VERSION} serving on http://${host}:${port} (pid ${process.pid}) with ${count} workers, ${where}`);
        return logFirstScreen(log, `http://${host}:${port}`, config.keysFile);
      }, (error: Error) => {
        log(`equity-facts serve: cannot start the metrics listener: ${error.message}`, 'error');
        stop('metrics', 1);
      });
    };
    cluster.on('exit', (worker, code, signal) => {
      const wasServing = listening.delete(worker.id);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) finish(exitCode);
        return;
      }
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!wasServing) {
        log(`worker ${worker.id} (pid ${worker.process.pid}) exited with ${how} before it served; stopping`, 'error');
        stop('start-up failure', 1);
        return;
      }
      log(`worker ${worker.id} (pid ${worker.process.pid}) exited with ${how}; starting another`, 'warn');
      fork();
    });

    let exitCode = 0;
    const stop = (why: string, code: number): void => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      if (code === 0) log(`${why}: draining ${workers.length} workers`);
      if (workers.length === 0) return finish(code);
      for (const worker of workers) worker.process.kill('SIGTERM');
    };
    const relay = (signal: NodeJS.Signals): void => {
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      for (const worker of workers) worker.process.kill(signal);
      log(`${signal}: relayed to ${workers.length} workers`);
    };
    process.on('SIGHUP', () => relay('SIGHUP'));
    process.on('SIGUSR2', () => relay('SIGUSR2'));
    // The first SIGTERM or SIGINT drains the workers; a later one is relayed, so that it ends
    // their shutdown delay or closes what they have left, as it does for a single process.
    const onStopSignal = (signal: NodeJS.Signals): void => {
      if (stopping) relay(signal);
      else stop(signal, 0);
    };
    process.on('SIGTERM', () => onStopSignal('SIGTERM'));
    process.on('SIGINT', () => onStopSignal('SIGINT'));

    const startMetrics = async (): Promise<void> => {
      if (config.metricsPort === undefined) return;
      const prom = await import('prom-client');
      // The primary's own figure: the keys whose buckets it holds (workers hold none).
      const own = new prom.Registry();
      processMetrics(prom, own);
      new prom.Gauge({ name: 'eqf_limiter_keys', help: 'Keys with bucket state in memory.', registers: [own], collect() { this.set(limiter?.size ?? 0); } });
      metricsListener = await listenMetrics(config.metricsPort, config.metricsHost ?? LISTEN_SETTINGS.metricsHost.default, async () => {
        const parts = await Promise.all(Object.values(cluster.workers ?? {}).flatMap((w) => (w?.isConnected() ? [workerMetrics(w)] : [])));
        parts.push(await own.getMetricsAsJSON() as unknown[]);
        const registry = prom.AggregatorRegistry.aggregate(parts as Parameters<typeof prom.AggregatorRegistry.aggregate>[0]);
        return { contentType: registry.contentType, text: await registry.metrics() };
      }, log);
      log(`metrics on ${metricsListener.url}/metrics`);
    };

    for (let i = 0; i < count; i++) fork();
  });
}

let nextMetricsId = 0;

/** Asks one worker for its metrics as JSON (`registry.getMetricsAsJSON()`); [] when it does not answer in time. */
function workerMetrics(worker: Worker): Promise<unknown[]> {
  const id = nextMetricsId++;
  return new Promise((resolve) => {
    const done = (json: unknown[]): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(json);
    };
    const onMessage = (message: unknown): void => {
      const reply = message as Partial<MetricsMessage> | null;
      if (reply?.eqf === 'metrics' && reply.id === id) done(Array.isArray(reply.json) ? reply.json : []);
    };
    const timer = setTimeout(done, METRICS_WAIT_MS, []);
    worker.on('message', onMessage);
    worker.send({ eqf: 'metrics', id } satisfies MetricsMessage);
  });
}

/**
 * The worker's side of the primary's scrapes: answers each request with this process's
 * metrics as JSON.
 *
 * @param read - the worker's metrics as JSON, or undefined when it keeps none.
 */
export function answerMetricsRequests(read: () => Promise<unknown[]> | undefined): void {
  process.on('message', (message: unknown) => {
    const request = message as Partial<MetricsMessage> | null;
    if (request?.eqf !== 'metrics' || typeof request.id !== 'number') return;
    const id = request.id;
    void Promise.resolve(read()).then((json) => process.send?.({ eqf: 'metrics', id, json: json ?? [] } satisfies MetricsMessage), () => {
      process.send?.({ eqf: 'metrics', id, json: [] } satisfies MetricsMessage);
    });
  });
}
