/** The messages between the main thread of `serve --workers N` (threads.ts) and its threads (thread-main.ts). */
import type { PackedSnapshot } from '../data/snapshot-share.js';

/** What a thread starts with (its `workerData`). */
export interface ThreadData {
  /** The words after `serve`: the thread reads the same settings. */
  readonly argv: readonly string[];
  /** Its worker id (1, 2, …; a replacement takes the next), in its log lines. */
  readonly id: number;
  /** Its own descriptor of the listening socket (socket-copies.ts). */
  readonly fd: number;
  /** The version to serve. */
  readonly snapshot: PackedSnapshot;
}

/** A message the main thread posts to a thread (the limits answers come from ipc-store.ts). */
export type ToThread =
  | { readonly eqf: 'signal'; readonly signal: 'SIGHUP' | 'SIGUSR2' | 'SIGTERM' | 'SIGINT' }
  | { readonly eqf: 'snapshot'; readonly snapshot: PackedSnapshot }
  | { readonly eqf: 'metrics'; readonly id: number };

/**
 * Test-only: the environment variable naming the worker id of a thread that ends itself with an
 * uncaught error when the main thread relays SIGHUP (a thread dying after it served, for the
 * replacement test). Unset in production.
 */
export const TEST_CRASH_VARIABLE = 'EQF_TEST_CRASH_WORKER';
