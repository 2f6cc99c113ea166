/**
 * `--metrics-port` of `serve --workers N` in threads: the main thread serves every thread's
 * metrics summed (prom-client's aggregation, as node:cluster's primary does), with the figures of
 * the process itself (`process_*`: CPU, resident memory, descriptors) counted once, from the main
 * thread, since the threads are one process.
 */
import { listenMetrics, type MetricsListener } from '../ops/metrics-server.js';
import { processMetrics } from '../ops/metrics.js';
import type { Limiter } from '../guard/limiter.js';
import type { LogSink } from '../ops/logger.js';
import { LISTEN_SETTINGS } from '../settings/table.js';
import type { ServeConfig } from './serve-config.js';
import type { ServingThread } from './threads.js';
import type { ToThread } from './thread-messages.js';

/** Longest wait for one thread's metrics in a scrape, ms. */
const METRICS_WAIT_MS = 2000;

let nextMetricsId = 0;

/**
 * Starts the metrics listener when `--metrics-port` is set.
 *
 * @param threads - the running threads, read at each scrape.
 * @param limiter - the main thread's buckets, if it holds them.
 * @returns the listener, or undefined without `--metrics-port`.
 */
export async function startThreadMetrics(config: ServeConfig, log: LogSink, threads: ReadonlyMap<number, ServingThread>, limiter: Limiter | undefined): Promise<MetricsListener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const prom = await import('prom-client');
  // The main thread's own figures: the process's (once), and the keys whose buckets it holds.
  const own = new prom.Registry();
  processMetrics(prom, own);
  new prom.Gauge({ name: 'eqf_limiter_keys', help: 'Keys with bucket state in memory.', registers: [own], collect() { this.set(limiter?.size ?? 0); } });
  const listener = await listenMetrics(config.metricsPort, config.metricsHost ?? LISTEN_SETTINGS.metricsHost.default, async () => {
    const parts = await Promise.all([...threads.values()].filter((t) => t.serving).map(threadMetrics));
    // A thread's process_* figures are the whole process's: the main thread's count once.
    const perThread = parts.map((json) => json.filter((metric) => !String((metric as { name?: unknown }).name).startsWith('process_')));
    perThread.push(await own.getMetricsAsJSON() as unknown[]);
    const registry = prom.AggregatorRegistry.aggregate(perThread as Parameters<typeof prom.AggregatorRegistry.aggregate>[0]);
    return { contentType: registry.contentType, text: await registry.metrics() };
  }, log);
  log(`metrics on ${listener.url}/metrics`);
  return listener;
}

/** Asks one thread for its metrics as JSON; [] when it does not answer in time. */
function threadMetrics(thread: ServingThread): Promise<unknown[]> {
  const id = nextMetricsId++;
  return new Promise((resolve) => {
    const done = (json: unknown[]): void => {
      clearTimeout(timer);
      thread.worker.off('message', onMessage);
      resolve(json);
    };
    const onMessage = (message: unknown): void => {
      const reply = message as { eqf?: unknown; id?: unknown; json?: unknown } | null;
      if (reply?.eqf === 'metrics' && reply.id === id) done(Array.isArray(reply.json) ? reply.json : []);
    };
    const timer = setTimeout(done, METRICS_WAIT_MS, []);
    thread.worker.on('message', onMessage);
    thread.worker.postMessage({ eqf: 'metrics', id } satisfies ToThread);
  });
}
