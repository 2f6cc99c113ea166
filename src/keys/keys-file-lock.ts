/**
 * One writer of a keys file at a time, across processes (docs/api.md §4, §18). Every change is a
 * read, a change and an atomic rewrite; two writers doing that at once (a `keys` command run by
 * an operator while the developer portal mints a key) would each write the file they read plus
 * their own change, and the later rename would drop the earlier change. So a writer first
 * creates a lock file beside the keys file (`<file>.lock`, created with `O_EXCL`: exactly one
 * creator wins on a local file system), does its read, change and write, and removes the lock.
 *
 * A lock left by a writer that died (killed mid-change) is taken over once it is older than
 * {@link STALE_LOCK_MS}: a change takes milliseconds, so a lock that old has no live owner. Readers
 * (the API server) need no lock: the rename is atomic.
 */
import { open, rm, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { KeysFileError } from './keys-file.js';

/** Longest wait for another writer's lock, ms, before the change is refused. */
export const LOCK_WAIT_MS = 10_000;

/** Age, ms, past which a lock is taken to be left by a writer that died. */
export const STALE_LOCK_MS = 30_000;

/** First pause between tries, ms; it doubles up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 100;

/** The lock file of a keys file. */
export function lockFileOf(file: string): string {
  return `${file}.lock`;
}

/** Options of {@link withKeysFileLock}; the defaults are the constants above and the system clock. */
export interface LockOptions {
  /** Longest wait for the lock, ms. Default {@link LOCK_WAIT_MS}. */
  readonly waitMs?: number;
  /** Age past which a lock is stale, ms. Default {@link STALE_LOCK_MS}. */
  readonly staleMs?: number;
  /** The clock, ms since the epoch (lock ages are measured against file times). Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Runs `work` holding the keys file's lock, and releases it however `work` ends.
 *
 * @returns what `work` returns.
 * @throws KeysFileError when the lock is held by another writer for longer than the wait, or
 *   cannot be created (the folder is not writable); whatever `work` throws.
 */
export async function withKeysFileLock<T>(file: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { waitMs = LOCK_WAIT_MS, staleMs = STALE_LOCK_MS, now = Date.now } = options;
  const lock = lockFileOf(file);
  const deadline = now() + waitMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close());
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new KeysFileError(file, `cannot create its lock ${lock}: ${code ?? String(error)}`);
    }
    const since = await stat(lock).then((s) => s.mtimeMs, () => undefined);
    if (since !== undefined && now() - since > staleMs) {
      await rm(lock, { force: true });
      continue;
    }
    if (now() >= deadline) {
      throw new KeysFileError(file, `another writer has held ${lock} for over ${waitMs / 1000} s; if no keys command or portal is changing the file, remove the lock`);
    }
    await delay(pause);
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}
