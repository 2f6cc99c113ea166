/**
 * Options of the service-wide breaker (decisions §8: thresholds are operator settings with
 * defaults): the defaults in one place, and their validation, done once at start-up.
 */

import { getHeapStatistics } from 'node:v8';
import type { LoadSample } from './load-sampler.js';

/** Options of {@link Breaker}. All but `sample` are optional. */
export interface BreakerOptions {
  /**
   * Event-loop delay in ms above which the breaker opens, compared with
   * {@link LoadSample.eventLoopDelayMs} (the 99th percentile over the last sample interval).
   * @default 1000
   */
  maxEventLoopDelayMs?: number;
  /** Requests in flight ({@link LoadSample.inFlight}) above which the breaker opens. @default 2000 */
  maxInFlight?: number;
  /** V8 heap in use, in bytes, above which the breaker opens. @default 0.95 × v8 heap_size_limit */
  maxHeapUsedBytes?: number;
  /** How often {@link Breaker.start}'s timer samples, in ms. @default 1000 */
  sampleIntervalMs?: number;
  /** How long a load-opened breaker stays open before admitting a trial, in ms. @default 5000 */
  coolDownMs?: number;
  /** `Retry-After` of a 503, whole seconds. @default ceil(coolDownMs / 1000), at least 1 */
  retryAfterSeconds?: number;
  /** Clock in ms. @default Date.now */
  now?: () => number;
  /** Measures the load; in production `createLoadSampler(...).sample`. Required. */
  sample: () => LoadSample;
}

/** {@link BreakerOptions} with every default applied, checked and frozen. */
export type ResolvedBreakerOptions = Readonly<Required<BreakerOptions>>;

/** Defaults of {@link BreakerOptions} (those not derived from other options or from V8). */
const DEFAULTS = Object.freeze({
  /** ms: a loop a whole second late is a service that cannot answer in time. */
  maxEventLoopDelayMs: 1000,
  /** requests at once. */
  maxInFlight: 2000,
  /** Share of V8's heap_size_limit in use above which the breaker opens. */
  maxHeapShare: 0.95,
  /** ms between samples. */
  sampleIntervalMs: 1000,
  /** ms a load-opened breaker stays open before a trial. */
  coolDownMs: 5000,
  /** ms clock. */
  now: Date.now,
});

/**
 * Applies the defaults to breaker options and checks every field.
 *
 * @param options - as given by the operator or the CLI.
 * @returns frozen options with every field set.
 * @throws TypeError naming the first bad option, e.g. "maxInFlight must be a positive integer".
 */
export function resolveBreakerOptions(options: BreakerOptions): ResolvedBreakerOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const maxEventLoopDelayMs = options.maxEventLoopDelayMs ?? DEFAULTS.maxEventLoopDelayMs;
  const maxInFlight = options.maxInFlight ?? DEFAULTS.maxInFlight;
  const maxHeapUsedBytes = options.maxHeapUsedBytes ?? DEFAULTS.maxHeapShare * getHeapStatistics().heap_size_limit;
  const sampleIntervalMs = options.sampleIntervalMs ?? DEFAULTS.sampleIntervalMs;
  const coolDownMs = options.coolDownMs ?? DEFAULTS.coolDownMs;
  const now = options.now ?? DEFAULTS.now;
  const sample = options.sample;

  if (!isPositiveNumber(maxEventLoopDelayMs)) throw new TypeError('maxEventLoopDelayMs must be a positive number');
  if (!isPositiveInteger(maxInFlight)) throw new TypeError('maxInFlight must be a positive integer');
  if (!isPositiveNumber(maxHeapUsedBytes)) throw new TypeError('maxHeapUsedBytes must be a positive number');
  if (!isPositiveInteger(sampleIntervalMs)) throw new TypeError('sampleIntervalMs must be a positive integer');
  if (!isNonNegativeNumber(coolDownMs)) throw new TypeError('coolDownMs must be a non-negative number');
  // Checked after coolDownMs, since its default is derived from it.
  const retryAfterSeconds = options.retryAfterSeconds ?? Math.max(1, Math.ceil(coolDownMs / 1000));
  if (!isPositiveInteger(retryAfterSeconds)) throw new TypeError('retryAfterSeconds must be a positive integer');
  if (typeof now !== 'function') throw new TypeError('now must be a function');
  if (typeof sample !== 'function') throw new TypeError('sample must be a function');

  return Object.freeze({
    maxEventLoopDelayMs,
    maxInFlight,
    maxHeapUsedBytes,
    sampleIntervalMs,
    coolDownMs,
    retryAfterSeconds,
    now,
    sample,
  });
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
