/**
 * Prometheus metrics of one handler (docs/api.md §12), kept with `prom-client`, the ecosystem's
 * standard client: an optional dependency loaded with a dynamic import only when metrics are on.
 *
 * Per response the request path does three map lookups and two increments (the request
 * counter's and the latency histogram's children are made once per label set and reused); every
 * figure the process already keeps (in flight, limiter keys, breaker, snapshot, Redis) is read
 * only when Prometheus scrapes.
 */
import type { EventEmitter } from 'node:events';
import type { Counter, Histogram, MetricObjectWithValues, MetricValue, Registry } from 'prom-client';
import type { Breaker, BreakerState } from '../guard/breaker.js';
import type { Limiter } from '../guard/limiter.js';
import type { LimiterStore } from '../guard/limiter-store.js';
import type { SnapshotIndex } from '../data/snapshot-index.js';
import { findPlan } from '../plans.js';
import type { Route } from '../routes.js';
import type { ResponseObserver } from './observer.js';

/** What the metrics read from the handler, at scrape time. */
export interface MetricsSources {
  readonly breaker: Breaker;
  /** This process's own buckets (their number of keys is `eqf_limiter_keys`). */
  readonly limiter: Limiter;
  /** The store the pipeline asks (Redis state and fallbacks). */
  readonly limits: LimiterStore;
  /** The handler's events: `reloaded` (kind) and `refused` (kind, error). */
  readonly events: EventEmitter;
  readonly snapshot: () => SnapshotIndex | undefined;
  readonly inFlight: () => number;
  /** Access-log lines dropped so far (see `access-log.ts`); absent: none. */
  readonly accessLogDropped?: () => number;
}

/** A process's metrics. */
export interface Metrics {
  /** Counts each response (requests, latency, 429s). */
  readonly observer: ResponseObserver;
  /** The registry, for a cluster primary to aggregate (`getMetricsAsJSON`). */
  readonly registry: Registry;
  /** Content-Type of {@link text}: Prometheus text exposition format 0.0.4. */
  readonly contentType: string;
  /** The exposition text of this process's metrics. */
  text(): Promise<string>;
  /** Stops listening to the handler's events and unregisters the metrics. */
  close(): void;
}

/** Latency buckets, seconds: 0.5 ms to 2.5 s (an answer from memory takes well under 1 ms). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half_open', 'forced_open'];

/**
 * Loads `prom-client` and registers the metrics (names and meanings in docs/operating.md, Metrics).
 *
 * @throws Error when `prom-client` is not installed (the message says how to install it).
 */
export async function openMetrics(sources: MetricsSources): Promise<Metrics> {
  let prom: typeof import('prom-client');
  try {
    prom = await import('prom-client');
  } catch (error) {
    throw new Error('metrics need the optional package prom-client, which is not installed; run `npm install prom-client` beside equity-facts', { cause: error });
  }
  const registry = new prom.Registry();
  const registers = [registry];
  processMetrics(prom, registry);
  const { breaker, limiter, limits, events } = sources;

  const requests = new prom.Counter({
    name: 'eqf_http_requests_total', help: 'Responses by route (path, or "unmatched"), HTTP status and plan ("none" before a key was known).',
    labelNames: ['route', 'status', 'plan'] as const, registers,
  });
  const latency = new prom.Histogram({
    name: 'eqf_http_request_duration_seconds', help: 'Time from taking a request to handing its response to the socket, by route.',
    labelNames: ['route'] as const, buckets: LATENCY_BUCKETS, registers,
  });
  const rateLimited = new prom.Counter({
    name: 'eqf_rate_limited_total', help: '429 answers by plan and by the window whose bucket was empty (minute or day).',
    labelNames: ['plan', 'window'] as const, registers,
  });
  new prom.Gauge({
    name: 'eqf_http_requests_in_flight', help: 'Connections with a response this process still holds, each counted once however many it holds (the breaker\'s in-flight figure).',
    registers, collect() { this.set(sources.inFlight()); },
  });
  new prom.Gauge({
    name: 'eqf_limiter_keys', help: "Keys with bucket state in this process's memory (the primary's with --workers and no Redis; the fallback's with Redis).",
    registers, collect() { this.set(limiter.size); },
  });
  new prom.Gauge({
    name: 'eqf_breaker_state', help: 'Processes whose breaker is in each state (1 per process in the state it is in).',
    labelNames: ['state'] as const, registers,
    collect() { for (const state of BREAKER_STATES) this.set({ state }, breaker.state === state ? 1 : 0); },
  });
  new prom.Counter({
    name: 'eqf_breaker_transitions_total', help: 'Breaker state changes, by the state entered.',
    labelNames: ['to'] as const, registers,
    collect() {
      this.reset();
      for (const to of BREAKER_STATES) this.inc({ to }, breaker.transitions[to]);
    },
  });
  new prom.Gauge({
    name: 'eqf_snapshot_info', help: 'The snapshot being served (value 1; its version as a label).',
    labelNames: ['version'] as const, registers, aggregator: 'max',
    collect() {
      this.reset();
      const snapshot = sources.snapshot();
      if (snapshot) this.set({ version: snapshot.version }, 1);
    },
  });
  new prom.Gauge({
    name: 'eqf_snapshot_created_timestamp_seconds', help: "The served snapshot's created_at, seconds since the epoch.",
    registers, aggregator: 'max',
    collect() { this.set(epochSeconds(sources.snapshot()?.manifest.created_at)); },
  });
  new prom.Gauge({
    name: 'eqf_snapshot_data_through_timestamp_seconds', help: "The served snapshot's data_through (a date, 00:00 UTC), seconds since the epoch.",
    registers, aggregator: 'max',
    collect() { this.set(epochSeconds(sources.snapshot()?.manifest.data_through)); },
  });
  new prom.Counter({
    name: 'eqf_access_log_dropped_total', help: 'Access-log lines not written: stdout not read fast enough (over 4 MiB held), a write that failed (a full disk), or stdout gone.',
    registers, collect() { this.reset(); this.inc(sources.accessLogDropped?.() ?? 0); },
  });
  const reloads = new prom.Counter({
    name: 'eqf_reloads_total', help: 'Reloads by kind (snapshot, keys) and result (reloaded, or refused: the old one kept serving).',
    labelNames: ['kind', 'result'] as const, registers,
  });
  const onReloaded = (kind: string): void => { reloads.inc({ kind, result: 'reloaded' }); };
  const onRefused = (kind: string): void => { reloads.inc({ kind, result: 'refused' }); };
  events.on('reloaded', onReloaded);
  events.on('refused', onRefused);
  if (limits.state().store === 'redis') {
    new prom.Gauge({
      name: 'eqf_redis_up', help: 'Whether Redis answers the limiter (1), or the fallback does (0); the lowest of all processes.',
      registers, aggregator: 'min', collect() { this.set(limits.state().mode === 'shared' ? 1 : 0); },
    });
    new prom.Counter({
      name: 'eqf_redis_fallbacks_total', help: 'Switches from Redis to the fallback (Redis unreachable or slower than --redis-timeout-ms).',
      registers, collect() { this.reset(); this.inc(limits.state().fallbacks ?? 0); },
    });
    new prom.Counter({
      name: 'eqf_redis_fallback_answers_total', help: 'Requests the fallback answered (local buckets, or 503 with --redis-fallback closed).',
      registers, collect() { this.reset(); this.inc(limits.state().fallbackAnswers ?? 0); },
    });
  }

  // Children by label values, made once: the request path then allocates nothing for them.
  const requestChildren = new Map<string, Map<number, Map<string, Counter.Internal>>>();
  const latencyChildren = new Map<string, Histogram.Internal<'route'>>();
  const observer: ResponseObserver = {
    responded(_req, note, status, _bytes, error, durationMs) {
      const route = routeLabel(note.route);
      const plan = note.plan === undefined ? 'none' : findPlan(note.plan)?.id ?? 'no_api_plan';
      let byStatus = requestChildren.get(route);
      if (byStatus === undefined) requestChildren.set(route, byStatus = new Map());
      let byPlan = byStatus.get(status);
      if (byPlan === undefined) byStatus.set(status, byPlan = new Map());
      let counter = byPlan.get(plan);
      if (counter === undefined) byPlan.set(plan, counter = requests.labels(route, String(status), plan));
      counter.inc();
      let histogram = latencyChildren.get(route);
      if (histogram === undefined) latencyChildren.set(route, histogram = latency.labels(route));
      histogram.observe(durationMs / 1000);
      if (error === 'rate_limited_minute' || error === 'rate_limited_day') rateLimited.inc({ plan, window: error === 'rate_limited_day' ? 'day' : 'minute' });
    },
  };
  return {
    observer,
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    close() {
      events.off('reloaded', onReloaded);
      events.off('refused', onRefused);
      registry.clear();
    },
  };
}

/**
 * Gauges that prom-client's default metrics name like counters (`_total`), which `promtool check
 * metrics` refuses; the same figures stay, by type, in `nodejs_active_handles`,
 * `nodejs_active_requests` and `nodejs_active_resources`.
 */
const MISNAMED_DEFAULT_METRICS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/**
 * Registers prom-client's default metrics of the process (CPU, resident and heap memory, open
 * file descriptors, event-loop lag, GC durations, active handles; names as prom-client's
 * `collectDefaultMetrics` gives them, after the Prometheus client guidelines' `process_*`
 * metrics), but for {@link MISNAMED_DEFAULT_METRICS}. They are read at scrape time, but for the
 * event-loop delay histogram and the GC observer, which Node keeps without a timer of ours.
 *
 * @param prom - the loaded `prom-client`.
 * @param registry - where to register them.
 */
export function processMetrics(prom: typeof import('prom-client'), registry: Registry): void {
  prom.collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULT_METRICS) registry.removeSingleMetric(name);
}

/** The route label: the route's path, or `unmatched` (so a scanner's paths cannot grow the label set). */
function routeLabel(route: Route | undefined): string {
  return route === undefined ? 'unmatched' : route.path;
}

/** Seconds since the epoch of an ISO date or date-time; 0 when absent. */
function epochSeconds(text: string | null | undefined): number {
  const ms = text === undefined || text === null ? Number.NaN : Date.parse(text);
  return Number.isFinite(ms) ? ms / 1000 : 0;
}

/**
 * The exposition text of several processes' metrics as one (the cluster primary's `/metrics`):
 * counters and histograms summed, gauges by their aggregator (sum unless noted above).
 *
 * @param prom - the loaded `prom-client`.
 * @param parts - each process's `registry.getMetricsAsJSON()`.
 */
export async function aggregateMetrics(prom: typeof import('prom-client'), parts: MetricObjectWithValues<MetricValue<string>>[][]): Promise<string> {
  return prom.AggregatorRegistry.aggregate(parts).metrics();
}
