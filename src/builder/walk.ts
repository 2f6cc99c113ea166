/**
 * Lists every regular file under a folder, recursively, in a stable (sorted) order, so that
 * builds from the same input are identical. Hidden entries (`.git`, `.DS_Store`, fetch's
 * `.equity-facts-fetch.json`) are passed over. Each file comes with its size and modification
 * time, which tell the builder how to read it (a bulk archive is streamed) and whether a cached
 * extract is still its own. The walk is lazy, one folder listed at a time: a year of filings is
 * half a million paths, which need not all be held at once.
 *
 * Files are stat'ed in chunks of {@link STAT_CHUNK} paths, across folders: in the main thread,
 * or, once the walk is given a stat function (the extract pool's), in worker threads, several
 * chunks at a time. A rebuild from the cache stats every input file (100,000 for 50,000 Forms 4
 * with their header files, about 0.3 s), and the main thread has the cache to read meanwhile.
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

/** Stats files: per path `[size in bytes, mtimeMs]`, NaN where a file cannot be stat'ed. */
export type StatFiles = (paths: readonly string[]) => Promise<Float64Array>;

/** How the walk stats its files: in the main thread until `stat` is set (see {@link walkFiles}). */
export interface WalkStats {
  stat?: StatFiles;
}

/** Paths stat'ed together. */
export const STAT_CHUNK = 512;
/** Chunks being stat'ed at once by a stat function. */
const STAT_IN_FLIGHT = 4;

const readdirAsync = (dir: string): Promise<Dirent[]> =>
  new Promise((resolve, reject) => readdir(dir, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries))));

/**
 * Walks `root`.
 *
 * @param root - the folder given to `--from`.
 * @param stats - how to stat the files; its `stat` may be set while the walk runs (the build
 *   sets it once the extract pool is started). Default: in the main thread.
 * @returns regular files, sorted by path, as they are found. A file that cannot be stat'ed
 *   (gone since it was listed, no permission) comes with size and mtime 0, so that its read
 *   fails and is reported.
 * @throws Error (when iterated) when `root` cannot be read.
 */
export async function* walkFiles(root: string, stats: WalkStats = {}): AsyncGenerator<WalkedFile> {
  const pending: (WalkedFile[] | Promise<WalkedFile[]>)[] = [];
  let chunk: string[] = [];
  const send = (): void => {
    const paths = chunk;
    chunk = [];
    if (!stats.stat) {
      pending.push(walked(paths, statInline(paths)));
      return;
    }
    const files = stats.stat(paths).then((found) => walked(paths, found));
    // Awaited in walk order; a failure of a later chunk must not be an unhandled rejection meanwhile.
    files.catch(() => {});
    pending.push(files);
  };
  for await (const path of listFiles(root)) {
    chunk.push(path);
    if (chunk.length < STAT_CHUNK) continue;
    send();
    // Keep a few chunks in flight; hand on the oldest as soon as more are waiting.
    while (pending.length > (stats.stat ? STAT_IN_FLIGHT : 0)) yield* await pending.shift()!;
  }
  if (chunk.length > 0) send();
  while (pending.length > 0) yield* await pending.shift()!;
}

/** The paths of the regular files under `dir`, in walk order, one folder listed at a time. */
async function* listFiles(dir: string): AsyncGenerator<string> {
  const entries = await readdirAsync(dir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* listFiles(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Stats in the main thread. Synchronous stats: metadata is almost always in the page cache,
 * and a synchronous stat costs a third of a callback one (no thread-pool round trip).
 */
function statInline(paths: readonly string[]): Float64Array {
  const found = new Float64Array(2 * paths.length).fill(NaN);
  paths.forEach((path, i) => {
    try {
      const s = statSync(path, { throwIfNoEntry: false });
      if (s) found.set([s.size, s.mtimeMs], 2 * i);
    } catch { /* NaN: the read fails and is reported */ }
  });
  return found;
}

function walked(paths: readonly string[], found: Float64Array): WalkedFile[] {
  return paths.map((path, i) => {
    const size = found[2 * i]!;
    const mtimeMs = found[2 * i + 1]!;
    return Number.isNaN(size) ? { path, size: 0, mtimeMs: 0 } : { path, size, mtimeMs };
  });
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
