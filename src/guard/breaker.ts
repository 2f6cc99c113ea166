/**
 * The service-wide breaker (docs/api.md §8): refuses every request under /api/v1 with 503
 * `service_busy` while the process is overloaded or an operator forced it open. It samples
 * load on one unref'd timer off the request path; the request path reads one flag
 * (after @fastify/under-pressure).
 */

import { resolveBreakerOptions, type BreakerOptions, type ResolvedBreakerOptions } from './breaker-options.js';

export type { BreakerOptions } from './breaker-options.js';

/**
 * State of the breaker.
 * - `closed`: every request is admitted.
 * - `open`: load passed a threshold; nothing is admitted until the cool-down has passed.
 * - `half_open`: the cool-down has passed; one trial request at a time is admitted until a
 *   sample decides (under every threshold → `closed`, over one → `open` again).
 * - `forced_open`: an operator opened it (SIGUSR2); nothing is admitted, samples are ignored.
 */
export type BreakerState = 'closed' | 'open' | 'half_open' | 'forced_open';

/**
 * The service-wide breaker. Transitions:
 * - closed → open (cool-down starts) when a sample is over any threshold;
 * - open → half_open when `coolDownMs` has passed, noticed by {@link admit} or {@link sampleNow}.
 *   A sample that notices it and is itself over a threshold restarts the cool-down instead;
 *   samples before the cool-down has passed are ignored (they do not extend it);
 * - half_open → open (a new cool-down) when a sample is over any threshold, → closed when a
 *   sample is under all of them (whether or not a trial was admitted meanwhile);
 * - any → forced_open by {@link toggleForced}; forced_open → closed by the next toggle, then
 *   judged again by the next sample.
 *
 * A sample is "over" a threshold when it is strictly greater than it.
 */
export class Breaker {
  /** Whether every request is admitted: the one field {@link admit} reads when closed. */
  #admitsAll = true;
  #state: BreakerState = 'closed';
  /** When the current cool-down started, ms on the breaker's clock. */
  #openedAtMs = 0;
  /** Whether a half_open trial is in flight. */
  #trialInFlight = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #options: ResolvedBreakerOptions;
  /** Changes of state so far, by the state entered (for the metrics). */
  readonly #transitions: Record<BreakerState, number> = { closed: 0, open: 0, half_open: 0, forced_open: 0 };

  /**
   * @param options - thresholds, timings, clock and sampler; see {@link BreakerOptions}.
   * @throws TypeError naming the first bad option, e.g. "maxInFlight must be a positive integer".
   */
  constructor(options: BreakerOptions) {
    this.#options = resolveBreakerOptions(options);
  }

  /** The current state. */
  get state(): BreakerState {
    return this.#state;
  }

  /** Changes of state since the breaker was made, by the state entered (the metrics' transitions). */
  get transitions(): Readonly<Record<BreakerState, number>> {
    return this.#transitions;
  }

  /** `Retry-After` of a 503 while not closed, whole seconds (RFC 9110 §10.2.3), >= 1. */
  get retryAfterSeconds(): number {
    return this.#options.retryAfterSeconds;
  }

  /**
   * Whether this request may proceed; call once per request under /api/v1. Closed: true (one
   * field read). Open or forced_open: false. Half_open: true for one trial at a time, until
   * {@link trialDone}.
   */
  admit(): boolean {
    if (this.#admitsAll) return true;
    return this.#admitWhileNotClosed();
  }

  /**
   * Ends the half_open trial: call exactly once when a request that was admitted while the
   * state was half_open (read `state` right after {@link admit}) finishes, whatever its outcome
   * and whatever the state is by then. Does nothing when no trial is in flight; closing the
   * breaker also ends the trial.
   */
  trialDone(): void {
    this.#trialInFlight = false;
  }

  /**
   * Takes one load sample now and updates the state (see the class comment). The timer of
   * {@link start} calls it; tests call it directly. Forced_open ignores samples.
   *
   * @throws whatever the `sample` option throws.
   */
  sampleNow(): void {
    if (this.#state === 'forced_open') return;
    const overloaded = this.#isOverloaded();
    const nowMs = this.#options.now();
    switch (this.#state) {
      case 'closed':
        if (overloaded) this.#open(nowMs);
        break;
      case 'open':
        if (nowMs - this.#openedAtMs < this.#options.coolDownMs) break;
        if (overloaded) this.#open(nowMs);
        else this.#setState('half_open');
        break;
      case 'half_open':
        if (overloaded) this.#open(nowMs);
        else this.#setState('closed');
        break;
    }
  }

  /**
   * Operator switch (SIGUSR2, docs/api.md §8): the first call forces the breaker open until the
   * second, which closes it; the next sample then judges the load afresh.
   *
   * @returns the new state: `forced_open` or `closed`.
   */
  toggleForced(): BreakerState {
    this.#setState(this.#state === 'forced_open' ? 'closed' : 'forced_open');
    return this.#state;
  }

  /** Starts sampling every `sampleIntervalMs` on one unref'd timer. Does nothing if started. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.sampleNow(), this.#options.sampleIntervalMs);
    this.#timer.unref();
  }

  /** Stops the timer of {@link start}; the state stays as it is. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #admitWhileNotClosed(): boolean {
    if (this.#state === 'open') {
      if (this.#options.now() - this.#openedAtMs < this.#options.coolDownMs) return false;
      this.#setState('half_open');
    }
    if (this.#state !== 'half_open' || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  #isOverloaded(): boolean {
    const load = this.#options.sample();
    const options = this.#options;
    return (
      load.eventLoopDelayMs > options.maxEventLoopDelayMs ||
      load.inFlight > options.maxInFlight ||
      load.heapUsedBytes > options.maxHeapUsedBytes
    );
  }

  #open(nowMs: number): void {
    this.#openedAtMs = nowMs;
    this.#setState('open');
  }

  #setState(state: BreakerState): void {
    if (state !== this.#state) this.#transitions[state]++;
    this.#state = state;
    this.#admitsAll = state === 'closed';
    // Closed needs no trial, so a trial whose trialDone never comes cannot block the trials of
    // a later half_open. Other changes leave the flag: a trial admitted before them is still in
    // flight until its trialDone, and admitting another meanwhile would make two at a time.
    if (state === 'closed') this.#trialInFlight = false;
  }
}
