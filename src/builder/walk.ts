/**
 * Lists every regular file under a folder, recursively, in a stable (sorted) order, so that
 * builds from the same input are identical. Hidden entries (`.git`, `.DS_Store`, fetch's
 * `.equity-facts-fetch.json`) are passed over. Each file comes with its size and modification
 * time, which tell the builder how to read it (a bulk archive is streamed) and whether a cached
 * extract is still its own. The walk is lazy, one folder listed at a time: a year of filings is
 * half a million paths, which need not all be held at once.
 */
import { readdir, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** A file found by the walk. */
export interface WalkedFile {
  path: string;
  /** Bytes. */
  size: number;
  /** Modification time, ms since the epoch. */
  mtimeMs: number;
}

const readdirAsync = (dir: string): Promise<Dirent[]> =>
  new Promise((resolve, reject) => readdir(dir, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries))));

/**
 * Walks `root`.
 *
 * @param root - the folder given to `--from`.
 * @returns regular files, sorted by path, as they are found.
 * @throws Error (when iterated) when `root` cannot be read.
 */
export async function* walkFiles(root: string): AsyncGenerator<WalkedFile> {
  const entries = await readdirAsync(root);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      yield* walkFiles(path);
    } else if (entry.isFile()) {
      // Synchronous stats: metadata is almost always in the page cache, and a synchronous stat
      // costs a third of a callback one (no thread-pool round trip). A file gone since it was
      // listed is kept, so that its read fails and is reported.
      const s = statSync(path, { throwIfNoEntry: false });
      yield s ? { path, size: s.size, mtimeMs: s.mtimeMs } : { path, size: 0, mtimeMs: 0 };
    }
  }
}

/**
 * The first `count` files of a walk, and the walk from there on: enough to decide how to read
 * it (worker threads or not) without listing it whole.
 */
export async function peekFiles(files: AsyncIterator<WalkedFile>, count: number): Promise<{ head: WalkedFile[]; done: boolean }> {
  const head: WalkedFile[] = [];
  while (head.length < count) {
    const next = await files.next();
    if (next.done) return { head, done: true };
    head.push(next.value);
  }
  return { head, done: false };
}
