/**
 * The pace of requests to EDGAR. SEC's fair-access policy allows at most 10 requests per
 * second per user, "regardless of the number of machines used" (SEC, "Accessing EDGAR Data",
 * https://www.sec.gov/search-filings/edgar-search-assistance/accessing-edgar-data), and SEC
 * counts the requests that arrive. The gate is a sliding window over the latest starts: a
 * request starts only when fewer than `requestsPerSecond` starts lie in the 1,000 ms before it,
 * retries included, however many downloads wait on it. Unlike a token bucket, a quiet spell
 * earns no burst: after it, ten may go at once, and the eleventh waits until the first of them
 * is 1,000 ms old. The gate can be paused for everyone (EDGAR said 429 with `Retry-After`, or
 * its rate-threshold page); the pause pushes every later start, and the window still counts the
 * starts made before it.
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
  /**
   * Request starts allowed per second. At 1 or more, at most `floor(requestsPerSecond)` starts
   * lie in any window of `1000 × floor(requestsPerSecond) / requestsPerSecond` ms (10 → 10 in any
   * 1,000 ms); below 1, one start per `1000 / requestsPerSecond` ms.
   */
  requestsPerSecond: number;
  /** Clock, ms since the epoch. */
  now: () => number;
  /** How to wait. */
  sleep: Sleep;
}

/** Lets request starts through a sliding window; shared by every download of a run. */
export class RateGate {
  /** Starts allowed in one window. */
  readonly #max: number;
  /** The window, ms. */
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  /** The latest `#max` start times, oldest first. */
  readonly #starts: number[] = [];
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
    this.#max = Math.max(1, Math.floor(options.requestsPerSecond));
    this.#windowMs = (1000 * this.#max) / options.requestsPerSecond;
    this.#now = options.now;
    this.#sleep = options.sleep;
  }

  /**
   * Waits for this request's turn: until the window has room and no pause holds. A request's
   * own back-off is waited before calling this, so that it never holds up the requests queued
   * behind it.
   *
   * @param signal - aborts the wait.
   * @throws the signal's reason when it aborts.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      // Re-read the clock after every wait: a pause may have begun meanwhile, and a timer may
      // fire before the clock shows its time.
      for (;;) {
        signal?.throwIfAborted();
        const oldest = this.#starts.length < this.#max ? -Infinity : this.#starts[0]!;
        const at = Math.max(oldest + this.#windowMs, this.#pausedUntil);
        const wait = at - this.#now();
        if (wait <= 0) break;
        await this.#sleep(wait, signal);
      }
      this.#starts.push(this.#now());
      if (this.#starts.length > this.#max) this.#starts.shift();
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
