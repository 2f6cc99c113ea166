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
import { join, sep } from 'node:path';

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
const STAT_IN_FLIGHT = 32;

const readdirAsync = (dir: string): Promise<Dirent[]> =>
  new Promise((resolve, reject) => readdir(dir, { withFileTypes: true }, (error, entries) => (error ? reject(error) : resolve(entries))));

/**
 * Walks `root`.
 *
 * @param root - the folder given to `--from`.
 * @param stats - how to stat the files; its `stat` may be set while the walk runs (the build
 *   sets it once the extract pool is started). Default: in the main thread.
 * @returns regular files, sorted by path, as they are found, in chunks (of {@link STAT_CHUNK}
 *   files but the last): a hundred thousand files are then a few hundred steps of the walk and
 *   of those who read it, not a hundred thousand. A file that cannot be stat'ed (gone since it
 *   was listed, no permission) comes with size and mtime 0, so that its read fails and is
 *   reported.
 * @throws Error (when iterated) when `root` cannot be read.
 */
export async function* walkFiles(root: string, stats: WalkStats = {}): AsyncGenerator<WalkedFile[]> {
  const pending: (WalkedFile[] | Promise<WalkedFile[]>)[] = [];
  let chunk: string[] = [];
  const send = (): void => {
    const paths = chunk;
    chunk = [];
    if (!stats.stat) {
      pending.push(walked(paths, statFilesNow(paths)));
      return;
    }
    const files = stats.stat(paths).then((found) => walked(paths, found));
    // Awaited in walk order; a failure of a later chunk must not be an unhandled rejection meanwhile.
    files.catch(() => {});
    pending.push(files);
  };
  // What path.join(root, name) puts before a name ('' for '.', '/' for '/', 'a/' for './a/').
  const prefix = join(root, 'x').slice(0, -1);
  for await (const paths of listFiles(root, prefix)) {
    for (const path of paths) {
      chunk.push(path);
      if (chunk.length < STAT_CHUNK) continue;
      send();
      // Keep a few chunks in flight; hand on the oldest as soon as more are waiting.
      while (pending.length > (stats.stat ? STAT_IN_FLIGHT : 0)) yield await pending.shift()!;
    }
  }
  if (chunk.length > 0) send();
  while (pending.length > 0) yield await pending.shift()!;
}

/**
 * The paths of the regular files under `dir`, in walk order, one folder listed at a time, in
 * runs (a folder's files up to its next subfolder); each is `prefix` and its name, as path.join
 * would make it (a name holds no separator, and `prefix` is already normal), without
 * path.join's cost on every file.
 */
async function* listFiles(dir: string, prefix: string): AsyncGenerator<string[]> {
  const entries = await readdirAsync(dir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let run: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = prefix + entry.name;
    if (entry.isDirectory()) {
      if (run.length > 0) yield run;
      run = [];
      yield* listFiles(path, path + sep);
    } else if (entry.isFile()) {
      run.push(path);
    }
  }
  if (run.length > 0) yield run;
}

/**
 * Stats files in the calling thread (the walk's, or an extract worker's for {@link StatFiles}).
 * Synchronous stats: metadata is almost always in the page cache, and a synchronous stat costs
 * a third of a callback one (no thread-pool round trip).
 *
 * @returns per path `[size in bytes, mtimeMs]`; NaN for a file that cannot be stat'ed (gone
 *   since it was listed, no permission), whose read then fails and is reported.
 */
export function statFilesNow(paths: readonly string[]): Float64Array<ArrayBuffer> {
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
 * A walk that runs ahead of its reader: chunks of files are pulled from `chunks` into a queue
 * of at most `limit` files as soon as this is called, while the reader is busy elsewhere (a
 * build reads its cache meanwhile, and the walk's stats run in the extract workers). A failure
 * of the walk is thrown to the reader where it would have met it.
 *
 * @param limit - files held at most, give or take a chunk (each file costs about 200 bytes).
 */
export function walkAhead(chunks: AsyncIterator<WalkedFile[]>, limit: number): AsyncGenerator<WalkedFile[]> {
  const queue: WalkedFile[][] = [];
  let held = 0;
  let done = false;
  let failure: { error: unknown } | undefined;
  /** Wakes the reader, waiting for a chunk. */
  let wake: (() => void) | undefined;
  /** Wakes the walk, waiting for room. */
  let resume: (() => void) | undefined;
  const wakeReader = (): void => {
    const go = wake;
    wake = undefined;
    go?.();
  };
  const resumeWalk = (): void => {
    const go = resume;
    resume = undefined;
    go?.();
  };
  void (async () => {
    try {
      while (!done) {
        if (held >= limit) {
          await new Promise<void>((go) => (resume = go));
          continue;
        }
        const next = await chunks.next();
        if (next.done) {
          done = true;
        } else {
          queue.push(next.value);
          held += next.value.length;
        }
        wakeReader();
      }
    } catch (error) {
      failure = { error };
      done = true;
      wakeReader();
    }
  })();
  return (async function* () {
    for (;;) {
      if (queue.length > 0) {
        const chunk = queue.shift()!;
        held -= chunk.length;
        resumeWalk();
        yield chunk;
      } else if (done) {
        if (failure) throw failure.error;
        return;
      } else {
        await new Promise<void>((go) => (wake = go));
      }
    }
  })();
}

/**
 * The first chunks of a walk, `count` files or more unless the walk is shorter, and whether
 * that was all of it: enough to decide how to read it (worker threads or not) without listing
 * it whole. The walk goes on from there.
 */
export async function peekFiles(chunks: AsyncIterator<WalkedFile[]>, count: number): Promise<{ head: WalkedFile[][]; done: boolean }> {
  const head: WalkedFile[][] = [];
  let files = 0;
  while (files < count) {
    const next = await chunks.next();
    if (next.done) return { head, done: true };
    head.push(next.value);
    files += next.value.length;
  }
  return { head, done: false };
}

const SEP = sep.charCodeAt(0);

/**
 * The walk's order of two paths: folder by folder, names compared as strings (UTF-16 code
 * units). The same as comparing the paths as strings with the separator before every other
 * character and the end of a path before the separator, which needs no split.
 *
 * @returns a negative number when `a` comes first, 0 when they are the same, else a positive one.
 */
export function walkOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const rank = (path: string): number => {
    if (i >= path.length) return -2;
    const c = path.charCodeAt(i);
    return c === SEP ? -1 : c;
  };
  return rank(a) - rank(b);
}
