/**
 * The portal's one queue of changes to the keys file (docs/api.md §18): every change is read,
 * parse, apply, atomic write (§4), and no two run at once, so concurrent sign-ups and operator
 * changes lose nothing. Changes that arrive while a write is under way are applied together, in
 * the order they came, in the next round: one read and one write for many sign-ups. Each round
 * holds the file's lock (`keys-file-lock.ts`), so `keys` commands run meanwhile lose nothing either.
 *
 * A file that cannot be read or fails its checks refuses every change of its round, and is left
 * as it is; a change whose own step throws (an unknown key id) fails alone.
 */
import { KeysFileError, readKeysFile, type KeyRecord } from '../keys/keys-file.js';
import { writeKeysFile } from '../keys/keys-file-write.js';
import type { KeyChange } from '../keys/key-changes.js';
import { withKeysFileLock } from '../keys/keys-file-lock.js';

/** A change to make: from the current entries to the new ones and a result. */
export type KeysStep<T> = (records: readonly KeyRecord[]) => KeyChange<T>;

/** One change waiting for its round. */
interface Waiting {
  readonly step: KeysStep<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The serialised writer of one keys file. */
export interface KeysQueue {
  /**
   * Applies a change in the next round and writes the file.
   *
   * @returns the change's result, once the file holding it is in place.
   * @throws KeysFileError when the file on disk cannot be read or is invalid, or cannot be
   *   written (nothing changes then); whatever the step throws.
   */
  change<T>(step: KeysStep<T>): Promise<T>;
  /** The entries on disk now (read and checked; the rename of a write is atomic, so no queue is needed). */
  read(): Promise<readonly KeyRecord[]>;
  /** Resolves once every change queued so far is done. */
  idle(): Promise<void>;
}

/** @param file - the keys file; it must exist (a sign-up never creates the file the API reads). */
export function createKeysQueue(file: string): KeysQueue {
  let waiting: Waiting[] = [];
  let running: Promise<void> | undefined;

  const apply = async (batch: readonly Waiting[]): Promise<void> => {
    let records: readonly KeyRecord[];
    try {
      records = (await readKeysFile(file)).records;
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    const done: { w: Waiting; result: unknown }[] = [];
    for (const w of batch) {
      try {
        const change = w.step(records);
        records = change.records;
        done.push({ w, result: change.result });
      } catch (error) {
        w.reject(error);
      }
    }
    if (done.length === 0) return;
    try {
      await writeKeysFile(file, records);
    } catch (error) {
      for (const { w } of done) w.reject(error instanceof KeysFileError ? error : new KeysFileError(file, String(error)));
      return;
    }
    for (const { w, result } of done) w.resolve(result);
  };

  // The lock keeps a `keys` command run meanwhile from dropping the round's changes, or the round
  // from dropping the command's; a lock held too long refuses the whole round.
  const round = async (batch: readonly Waiting[]): Promise<void> => {
    try {
      await withKeysFileLock(file, () => apply(batch));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await round(batch);
    }
    running = undefined;
  };

  return {
    change<T>(step: KeysStep<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({ step, resolve: resolve as (value: unknown) => void, reject });
        running ??= drain();
      });
    },
    async read() {
      return (await readKeysFile(file)).records;
    },
    async idle() {
      while (running !== undefined) await running;
    },
  };
}
