/**
 * Run time for fetch tests without sleeping: a manual clock that only moves when the client
 * sleeps, and a sleep that first lets every request already started reach the replay server.
 * So the time the server stamps on a request is the time the client's rate gate let it go, and
 * the server's own count of requests per second is exact.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ClientEvent } from '../../src/fetch/edgar-client.js';
import type { EdgarReplay } from './edgar-replay.js';

/** Resolves when the signal aborts (never without one). */
const aborted = (signal?: AbortSignal): Promise<void> => new Promise((resolve) => {
  if (signal?.aborted) resolve();
  signal?.addEventListener('abort', () => resolve(), { once: true });
});

/** The clock, sleep and observer to hand to `runFetch`, plus what the test reads back. */
export interface ReplayTime {
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly observe: (event: ClientEvent) => void;
  /** Every sleep asked for, ms, in order. */
  readonly sleeps: number[];
  /** Requests the client started. */
  started(): number;
}

/**
 * @param replay - the server whose arrivals the sleeps wait for; its clock is set to this one.
 * @param start - the clock's first reading, ms since the epoch.
 */
export function replayTime(replay: EdgarReplay, start = Date.parse('2026-11-21T12:00:00Z')): ReplayTime {
  let ms = start;
  let started = 0;
  const sleeps: number[] = [];
  const now = (): number => ms;
  replay.now = now;
  return {
    now,
    sleeps,
    started: () => started,
    observe: (event) => { if (event.type === 'request') started++; },
    sleep: async (wait, signal) => {
      sleeps.push(wait);
      // Let the request just let through by the gate be sent, then wait for it to arrive.
      await nextTurn();
      // A request aborted before it was sent never arrives: stop waiting when the run stops.
      await Promise.race([replay.arrivals(started), aborted(signal)]);
      signal?.throwIfAborted();
      ms += Math.max(0, wait);
    },
  };
}
