/**
 * The progress line on a TTY: the phase, files settled and the request rate of the last few
 * seconds, redrawn at most every {@link REDRAW_MS} of the run's clock.
 */
import type { FetchTally } from './fetch-summary.js';

/** Shortest time between two redraws, ms. */
const REDRAW_MS = 250;
/** The request rate shown is over this much time, ms. */
const RATE_WINDOW_MS = 5000;

/** Keeps the line current. */
export class ProgressLine {
  readonly #write: ((line: string) => void) | null;
  readonly #now: () => number;
  readonly #tally: FetchTally;
  readonly #requestTimes: number[] = [];
  #phase = 'starting';
  #total = 0;
  #drawnAt = -Infinity;

  /**
   * @param write - draws the line (replacing the last one), or null for no progress line.
   * @param now - the run's clock, ms.
   * @param tally - the counts shown.
   */
  constructor(write: ((line: string) => void) | null, now: () => number, tally: FetchTally) {
    this.#write = write;
    this.#now = now;
    this.#tally = tally;
  }

  /** Starts a phase: `what` is shown, `total` is the number of files it expects (0: unknown). */
  phase(what: string, total = 0): void {
    this.#phase = what;
    this.#total = total;
    this.draw(true);
  }

  /** Adds to the files the phase expects. */
  expect(files: number): void {
    this.#total += files;
  }

  /** Notes a request start (for the rate). */
  request(): void {
    const now = this.#now();
    this.#requestTimes.push(now);
    while (this.#requestTimes.length > 0 && this.#requestTimes[0]! <= now - RATE_WINDOW_MS) this.#requestTimes.shift();
    this.draw();
  }

  /** Redraws when enough time has passed, or at once when `force`. */
  draw(force = false): void {
    if (!this.#write) return;
    const now = this.#now();
    if (!force && now - this.#drawnAt < REDRAW_MS) return;
    this.#drawnAt = now;
    const t = this.#tally;
    const of = this.#total > 0 ? `/${this.#total.toLocaleString('en-US')}` : '';
    const rate = (this.#requestTimes.filter((at) => at > now - RATE_WINDOW_MS).length / (RATE_WINDOW_MS / 1000)).toFixed(1);
    this.#write(`fetch: ${this.#phase} ${t.done.toLocaleString('en-US')}${of} files · ${t.fetched} fetched, ${t.held} held, `
      + `${t.missing.length} not on EDGAR, ${t.failed.length} failed · ${rate} req/s`);
  }

  /** Clears the line before the summary is logged. */
  clear(): void {
    this.#write?.('');
  }
}
