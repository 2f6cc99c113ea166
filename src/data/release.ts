/**
 * Returning an old version's memory soon after a reload (docs/api.md §17), under `serve --workers`
 * in threads (and, after the start, what loading and posting the first version left). A version's bytes are shared memory, freed only once every thread that refers to
 * them has collected its references; a thread whose requests make only short-lived garbage may
 * go minutes without the full collection that finds them, and a later reload would then hold
 * three versions. So after a swap, each thread (and the main thread) runs one full collection
 * once the old version's requests have had time to end, and one more later for slow ones.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** When, ms after a swap, the collections run: most requests end within the first. */
export const RELEASE_AFTER_MS: readonly number[] = Object.freeze([1000, 10_000]);

let collect: (() => void) | undefined;

/** Runs a full garbage collection of this thread's heap (V8's `gc`, exposed on first use). */
function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** Schedules the collections of {@link RELEASE_AFTER_MS} (timers that keep no thread alive). */
export function releaseOldVersionSoon(): void {
  for (const ms of RELEASE_AFTER_MS) setTimeout(collectGarbage, ms).unref();
}
