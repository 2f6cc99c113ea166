/**
 * The breaker's default source of load figures (docs/api.md §8): event-loop delay from
 * `perf_hooks.monitorEventLoopDelay`, requests in flight from the HTTP layer, and V8 heap use.
 * After @fastify/under-pressure, which measures the same three.
 */

import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** One measurement of the process's load, as the breaker compares it with its thresholds. */
export interface LoadSample {
  /**
   * Event-loop delay in ms: the 99th percentile of the delays seen since the previous sample,
   * less the sampler's resolution (the histogram records the whole timer interval).
   * 0 when the loop was never late or no delay was recorded yet.
   */
  eventLoopDelayMs: number;
  /**
   * Requests in flight: responses the process still holds bytes of (written to a socket that
   * has not taken them all: a slow reader's, or one queued behind a pipelined response) or that
   * were never ended. A response the socket took whole when it was written is not counted.
   */
  inFlight: number;
  /** V8 heap in use, in bytes (`v8.getHeapStatistics().used_heap_size`). */
  heapUsedBytes: number;
}

/** Options of {@link createLoadSampler}. */
export interface LoadSamplerOptions {
  /** Returns the number of requests in flight; called once per sample. */
  inFlight: () => number;
  /**
   * Resolution of the event-loop delay histogram in ms: how often its timer checks the loop
   * (Node.js `monitorEventLoopDelay({ resolution })`, which requires an integer > 0).
   * @default 10
   */
  resolutionMs?: number;
}

/** A running load sampler. */
export interface LoadSampler {
  /** Measures now and resets the delay histogram, so each sample covers one interval. */
  sample: () => LoadSample;
  /** Stops the delay histogram's timer; later samples report a delay of 0. */
  stop(): void;
}

/** Defaults of {@link LoadSamplerOptions}. */
const DEFAULTS = Object.freeze({
  /** ms; Node's own default for monitorEventLoopDelay. */
  resolutionMs: 10,
});

/** Nanoseconds per millisecond: the histogram reports nanoseconds. */
const NS_PER_MS = 1e6;

/**
 * Starts measuring event-loop delay and returns a sampler for the breaker.
 *
 * @param options - see {@link LoadSamplerOptions}.
 * @throws TypeError when `inFlight` is not a function or `resolutionMs` is not a positive integer.
 */
export function createLoadSampler(options: LoadSamplerOptions): LoadSampler {
  const inFlight = options.inFlight;
  const resolutionMs = options.resolutionMs ?? DEFAULTS.resolutionMs;
  if (typeof inFlight !== 'function') throw new TypeError('inFlight must be a function');
  if (!Number.isSafeInteger(resolutionMs) || resolutionMs <= 0) {
    throw new TypeError('resolutionMs must be a positive integer');
  }
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  return {
    sample(): LoadSample {
      const p99Ms = histogram.count > 0 ? histogram.percentile(99) / NS_PER_MS : 0;
      histogram.reset();
      return {
        eventLoopDelayMs: Math.max(0, p99Ms - resolutionMs),
        inFlight: inFlight(),
        heapUsedBytes: getHeapStatistics().used_heap_size,
      };
    },
    stop(): void {
      histogram.disable();
    },
  };
}
