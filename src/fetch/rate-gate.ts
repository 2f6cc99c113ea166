/**
 * The pace of requests to EDGAR. SEC's fair-access policy allows at most 10 requests per
 * second per user, "regardless of the number of machines used" (SEC, "Accessing EDGAR Data",
 * https://www.sec.gov/search-filings/edgar-search-assistance/accessing-edgar-data). The gate
 * spaces request starts evenly, `1000 / requestsPerSecond` ms apart, so that no window of one
 * second ever holds more than `requestsPerSecond` starts, however many downloads wait on it; and
 * it can be paused for everyone (EDGAR said 429 with `Retry-After`, or its rate-threshold page).
 */

/** Sleeps `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real clock's sleep: a timer that the abort signal clears. */
export const realSleep: Sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) {
    reject(signal.reason);
    return;
  }
  const onAbort = (): void => {
    clearTimeout(timer);
    reject(signal!.reason);
  };
  const timer = setTimeout(() => {
    signal?.removeEventListener('abort', onAbort);
    resolve();
  }, Math.max(0, ms));
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** What a gate needs. */
export interface RateGateOptions {
  /** Request starts allowed per second; the spacing is `1000 / requestsPerSecond` ms. */
  requestsPerSecond: number;
  /** Clock, ms since the epoch. */
  now: () => number;
  /** How to wait. */
  sleep: Sleep;
}

/** Spaces request starts; shared by every download of a run. */
export class RateGate {
  readonly #interval: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  /** When the last start was let through; -Infinity before the first. */
  #last = -Infinity;
  #pausedUntil = -Infinity;
  /** Waiters pass one at a time, in arrival order. */
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param options - see {@link RateGateOptions}.
   * @throws TypeError when `requestsPerSecond` is not a positive finite number.
   */
  constructor(options: RateGateOptions) {
    if (!(options.requestsPerSecond > 0) || !Number.isFinite(options.requestsPerSecond)) {
      throw new TypeError('requestsPerSecond must be a positive number');
    }
    this.#interval = 1000 / options.requestsPerSecond;
    this.#now = options.now;
    this.#sleep = options.sleep;
  }

  /**
   * Waits for this request's turn. A request's own back-off is waited before calling this, so
   * that it never holds up the requests queued behind it.
   *
   * @param signal - aborts the wait.
   * @throws the signal's reason when it aborts.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      // Re-read the clock after every wait: a pause may have begun meanwhile.
      for (;;) {
        signal?.throwIfAborted();
        const at = Math.max(this.#last + this.#interval, this.#pausedUntil);
        const wait = at - this.#now();
        if (wait <= 0) break;
        await this.#sleep(wait, signal);
      }
      this.#last = this.#now();
    });
    // A waiter that aborts must not stop the ones behind it.
    this.#queue = turn.catch(() => {});
    return turn;
  }

  /**
   * Holds every request until `until` (ms since the epoch); a later pause extends an earlier one.
   */
  pauseUntil(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }
}
