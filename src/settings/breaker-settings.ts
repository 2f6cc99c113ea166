/**
 * The service-wide breaker's settings (docs/api.md §8: thresholds are operator settings with
 * defaults). Only code gives them: `createHandler({ breaker: { … } })` or `new Breaker(…)`.
 */
import { getHeapStatistics } from 'node:v8';
import type { LoadSample } from '../guard/load-sampler.js';
import { func, nonNegativeNumber, positiveInteger, positiveNumber } from './kinds.js';
import { setting, type OptionsOf } from './setting.js';

/** Share of V8's heap_size_limit in use above which the breaker opens. */
const MAX_HEAP_SHARE = 0.95;

/** Every setting of the breaker. */
export const BREAKER_SETTINGS = Object.freeze({
  /**
   * Event-loop delay in ms above which the breaker opens, compared with
   * {@link LoadSample.eventLoopDelayMs} (the 99th percentile over the last sample interval).
   * @default 1000
   */
  maxEventLoopDelayMs: setting({
    kind: positiveNumber, default: 1000, // ms: a loop a whole second late is a service that cannot answer in time
    doc: 'event-loop delay, ms (99th percentile over the last sample), above which the breaker opens',
  }),
  /** Requests in flight ({@link LoadSample.inFlight}) above which the breaker opens. @default 2000 */
  maxInFlight: setting({
    kind: positiveInteger, default: 2000, // requests at once
    doc: 'requests in flight above which the breaker opens; a connection holding several answers counts once',
  }),
  /** V8 heap in use, in bytes, above which the breaker opens. @default 0.95 × v8 heap_size_limit */
  maxHeapUsedBytes: setting({
    kind: positiveNumber, default: MAX_HEAP_SHARE * getHeapStatistics().heap_size_limit, // bytes; the limit is fixed at start
    shown: "95 % of V8's heap limit", doc: 'V8 heap in use, bytes, above which the breaker opens',
  }),
  /** How often {@link Breaker.start}'s timer samples, in ms. @default 1000 */
  sampleIntervalMs: setting({ kind: positiveInteger, default: 1000, doc: 'how often the load is sampled, ms' }), // ms between samples
  /** How long a load-opened breaker stays open before admitting a trial, in ms. @default 5000 */
  coolDownMs: setting({ kind: nonNegativeNumber, default: 5000, doc: 'how long a load-opened breaker stays open before it admits a trial, ms' }),
  /** `Retry-After` of a 503, whole seconds. @default ceil(coolDownMs / 1000), at least 1 */
  retryAfterSeconds: setting({
    kind: positiveInteger, shown: '`coolDownMs` in whole seconds, at least 1', doc: '`Retry-After` of a 503 `service_busy`, whole seconds',
  }),
  /** Clock in ms. @default Date.now */
  now: setting({ kind: func<() => number>(), default: Date.now, shown: "the handler's `now`", doc: 'clock, ms' }),
  /** Measures the load; in production `createLoadSampler(...).sample`. Required. */
  sample: setting({
    kind: func<() => LoadSample>(), required: true, shown: "the process's own load",
    doc: 'measures the load (event-loop delay, requests in flight, heap); required by `new Breaker`',
  }),
});

/** Options of {@link Breaker}: every setting above; `sample` is required. */
export type BreakerOptions = OptionsOf<typeof BREAKER_SETTINGS> & { sample: () => LoadSample };
