/**
 * The operators' eyes of one handler, built from its options (docs/api.md §12): the access log
 * and the metrics behind one responder hook. With neither configured there is no hook, the
 * pipeline makes no notes, and the request path pays nothing for them.
 */
import type { SentHook } from '../http/respond.js';
import { accessLogObserver, type AccessLogLines } from './access-log-line.js';
import type { AccessLogSink } from './access-log.js';
import type { TrustedProxies } from './client-address.js';
import type { LogSink } from './logger.js';
import { openMetrics, type Metrics, type MetricsSources } from './metrics.js';
import { combineObservers, NOTE, type NotedResponse, type ResponseObserver } from './observer.js';

/** What {@link createEyes} builds. */
export interface Eyes {
  /** Whether the pipeline should make a note per request (some observer is configured). */
  readonly observing: boolean;
  /** The responder's hook, or undefined when nothing observes. */
  readonly onSent: SentHook | undefined;
  /** Loads `prom-client` and registers the metrics when they are on; undefined when they are off. */
  openMetrics(sources: MetricsSources): Promise<void> | undefined;
  /** The metrics, once opened. */
  metrics(): Metrics | undefined;
  /** Hands the access log the lines still waiting for the end of the turn, and closes the metrics. */
  close(): void;
}

/**
 * @param accessLog - the access log: a function that takes each line, or a sink that also
 *   counts the lines it dropped (for `eqf_access_log_dropped_total`); undefined for none.
 * @param metricsOn - whether to keep metrics.
 * @param trusted - proxies whose `X-Forwarded-For` gives the access log's `remote`; default none.
 * @param log - the operational log: told when the access log's sink throws; default nothing.
 */
export function createEyes(accessLog: ((line: string) => void) | AccessLogSink | undefined, metricsOn: boolean, trusted?: TrustedProxies, log?: LogSink): Eyes {
  const sink = typeof accessLog === 'object' ? accessLog : undefined;
  // A sink that takes bytes gets each batch as bytes (openAccessLog's); any other, each line as a string.
  const lines: AccessLogLines | undefined = sink === undefined ? accessLog as ((line: string) => void) | undefined
    : typeof sink.writeLines === 'function' ? { writeLines: (bytes) => sink.writeLines!(bytes) } : (line: string) => sink.write(line);
  const sinkFailed = (error: unknown): void => log?.(`access log: the sink threw (${(error as Error)?.message ?? String(error)}); those lines are lost`, 'error');
  let observer: ResponseObserver | undefined = lines ? accessLogObserver(lines, trusted, sinkFailed) : undefined;
  let metrics: Metrics | undefined;
  const observing = accessLog !== undefined || metricsOn;
  const onSent: SentHook = (req, res, status, bytes, error) => {
    const note = (res as NotedResponse)[NOTE];
    if (note !== undefined && observer !== undefined) observer.responded(req, note, status, bytes, error, performance.now() - note.startedAt);
  };
  return {
    observing,
    onSent: observing ? onSent : undefined,
    openMetrics(sources) {
      if (!metricsOn) return undefined;
      return openMetrics({ ...sources, accessLogDropped: sink === undefined ? undefined : () => sink.dropped() }).then((opened) => {
        metrics = opened;
        observer = combineObservers([observer, opened.observer]);
      });
    },
    metrics: () => metrics,
    close() {
      observer?.flush?.();
      metrics?.close();
    },
  };
}
