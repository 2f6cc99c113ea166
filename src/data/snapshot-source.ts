/**
 * A snapshot loaded elsewhere (`createHandler`'s `snapshotSource` option): a `serve --workers`
 * thread's handler takes each version from the main thread, which loads it once into shared
 * memory (docs/api.md §11, §17), instead of reading and watching the snapshots folder itself.
 */
import type { SnapshotIndex } from './snapshot-index.js';

/** Where a handler's snapshot comes from when it does not load the snapshots folder itself. */
export interface SnapshotSource {
  /** The version to serve now; rejects when there is none (the handler's `ready` then rejects). */
  load(): Promise<SnapshotIndex>;
  /** Whether `current` is still the version to serve (a reload is then skipped). */
  unchanged(current: SnapshotIndex): Promise<boolean>;
  /** Registers the handler's reload, called whenever another version is to be served. */
  onChange(listener: () => void): void;
}

/**
 * A source fed by hand: {@link FedSnapshots.feed} gives it the next version (a thread feeds it
 * what the main thread posts), and the handler swaps to it.
 */
export class FedSnapshots implements SnapshotSource {
  #latest: SnapshotIndex | undefined;
  #listener: (() => void) | undefined;

  /** @param first - the version to serve from the start. */
  constructor(first: SnapshotIndex) {
    this.#latest = first;
  }

  load(): Promise<SnapshotIndex> {
    return this.#latest === undefined ? Promise.reject(new Error('no snapshot was handed over')) : Promise.resolve(this.#latest);
  }

  unchanged(current: SnapshotIndex): Promise<boolean> {
    return Promise.resolve(current === this.#latest);
  }

  onChange(listener: () => void): void {
    this.#listener = listener;
  }

  /** Serves `next` from now on (the handler's reload swaps its one reference). */
  feed(next: SnapshotIndex): void {
    this.#latest = next;
    this.#listener?.();
  }
}

/** One line describing a loaded version for the log: its label, folder and row counts. */
export function describeSnapshot(snapshot: SnapshotIndex, dir: string): string {
  return `version ${snapshot.version} from ${dir} (${Object.entries(snapshot.rowCounts).map(([kind, n]) => `${kind} ${n}`).join(', ')})`;
}
