/**
 * Rows served from their file (`rowsIn: 'file'`, docs/api.md §17): the version's NDJSON is read
 * once at load, to check every row against its index file and the file's SHA-256 against the
 * manifest, and then stays in the operating system's page cache; a page is read from the file
 * when it is answered (`pread`, one read per run of rows that follow each other in the file).
 * The process then holds the version's indexes and not its rows: its memory no longer grows with
 * the rows, every worker thread and process of the host shares the one cached copy, and a start
 * reads each byte once instead of copying it into the heap.
 *
 * A {@link RowFile} holds its file open from the check to the moment nothing refers to it any
 * more (a reload's old version is closed once its last request is done and it is collected), so
 * a version keeps reading the file it checked even if the snapshots folder is changed under it.
 * The bytes read are checked as cheaply as they are used: each row must still end with its
 * newline where the index says; a file changed in place after its check is refused per request
 * ({@link RowFileChangedError}) instead of served.
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { sharedArray } from './shared-memory.js';

/** What identifies the file a load checked: a thread opening it again must find the same one. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Bytes in a MiB (the unit of `--kept-pages-mib`). */
export const MIB = 1024 * 1024;

/**
 * Bytes of pages read from a version's files that are kept for the next request for the same
 * page, per version in each thread (see {@link KeptPages}): a popular first page, a poller,
 * clients paging together cost no read. 256 MiB: a page not kept costs a read per row of a
 * ticker's list (its rows are apart in the file) and a new buffer, and keeping the recently used
 * keeps nothing of a rotation over more pages than it holds. The benchmark's rotation over the
 * first pages of 5,102 tickers (65 MB) answered 8k req/s with 32 MiB kept, 23-26k with 256 MiB,
 * as many as with the rows in memory (docs/performance-notes.md). The default of the handler's
 * `keptPagesMib` (`--kept-pages-mib`).
 */
export const KEPT_PAGE_BYTES = 256 * MIB;

/**
 * The pages of one version read from its files and kept for the next request for the same page
 * (page.ts): the lists that keep one, in the order they were placed, and the bytes they keep. Past
 * the limit, pages are forgotten by second chance (the clock algorithm, an approximation of least
 * recently used): from the list placed longest ago, one whose page was answered again since it was
 * placed is placed anew, and the first that was not forgets its page. One per version (per
 * thread), so that a page kept never holds an old version after a reload.
 */
export class KeptPages {
  /** Lists keeping a page, placed longest ago first. */
  readonly lists = new Set<{ lastSlice: Buffer | undefined; keptUsed: boolean }>();
  /** Bytes of their pages. */
  bytes = 0;

  /**
   * @param limit - most bytes kept: past it lists forget their page by second chance (a
   *   page larger than the limit alone is kept until the next one). Default
   *   {@link KEPT_PAGE_BYTES}.
   */
  constructor(readonly limit = KEPT_PAGE_BYTES) {}
}

/** A rows' file held open, with where each row starts in it. */
export interface RowFile {
  /** The file's path, for messages and for threads that open it again. */
  readonly path: string;
  /** Descriptor open for reading (closed once the RowFile is collected). */
  readonly fd: number;
  /** The file as it was checked. */
  readonly identity: FileIdentity;
  /**
   * Byte position of each row in the file, by row number (a Float64Array: files past 4 GiB; every
   * position below 2^53 is exact).
   */
  readonly positions: Float64Array;
  /** The pages kept for the version this file is part of (shared by its kinds). */
  readonly kept: KeptPages;
}

/** A file served from was changed after it was checked (a read came short, or a row no longer ends where it did). */
export class RowFileChangedError extends Error {
  constructor(readonly file: string, detail: string) {
    super(`${file} changed after it was checked (${detail}); reload a complete version`);
    this.name = 'RowFileChangedError';
  }
}

// Closes a RowFile's descriptor once nothing refers to the RowFile (its version was swapped out
// and its last request ended). A descriptor closed this way is never read again: no reader is left.
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed (the process is ending): nothing to release
  }
});

/** The identity of an open file. */
export function identityOf(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

/**
 * Where each row starts: row i at the sum of the lengths before it plus their newlines.
 *
 * @param lengths - each row's byte length without its newline.
 */
export function rowPositions(lengths: Uint32Array): Float64Array {
  const positions = sharedArray(Float64Array, lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    positions[i] = at;
    at += lengths[i]! + 1;
  }
  return positions;
}

/**
 * A RowFile over a descriptor the caller opened and checked; it is closed once the RowFile is
 * collected, so the caller must not close it.
 */
export function rowFileOf(path: string, fd: number, identity: FileIdentity, positions: Float64Array, kept: KeptPages): RowFile {
  const file: RowFile = Object.freeze({ path, fd, identity, positions, kept });
  closer.register(file, fd);
  return file;
}

/**
 * Opens again a file that another thread checked (`serve --workers N` in threads: each thread
 * holds its own descriptor, so that no thread's release closes another's).
 *
 * @throws RowFileChangedError when the path no longer names the file that was checked.
 */
export function reopenRowFile(path: string, identity: FileIdentity, positions: Float64Array, kept: KeptPages): RowFile {
  const fd = openSync(path, 'r');
  const now = identityOf(fstatSync(fd));
  if (now.dev !== identity.dev || now.ino !== identity.ino || now.size !== identity.size || now.mtimeMs !== identity.mtimeMs) {
    closeSync(fd);
    throw new RowFileChangedError(path, 'it is not the file the load checked');
  }
  return rowFileOf(path, fd, identity, positions, kept);
}

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * Reads rows `first` to `last` (row numbers that follow each other in the file) into `out` at
 * `at`, each row's newline but the last's replaced by a comma: the bytes a page holds for them.
 *
 * @param lengths - each row's byte length.
 * @returns the bytes written (their lengths and the commas between them).
 * @throws RowFileChangedError when the file is shorter than it was, or a row no longer ends with its newline.
 */
export function readRun(file: RowFile, lengths: Uint32Array, first: number, last: number, out: Buffer, at: number): number {
  const start = file.positions[first]!;
  const total = file.positions[last]! + lengths[last]! - start;
  readFully(file, out, at, total, start);
  for (let row = first; row < last; row++) {
    const end = at + file.positions[row]! - start + lengths[row]!;
    if (out[end] !== NEWLINE) throw new RowFileChangedError(file.path, `row ${row + 1} does not end where it did`);
    out[end] = COMMA;
  }
  return total;
}

/**
 * Reads one row's first `length` bytes into `out` at `at`.
 *
 * @throws RowFileChangedError when the file is shorter than it was.
 */
export function readRowPrefix(file: RowFile, row: number, length: number, out: Buffer, at: number): void {
  readFully(file, out, at, length, file.positions[row]!);
}

function readFully(file: RowFile, out: Buffer, at: number, length: number, position: number): void {
  let done = 0;
  while (done < length) {
    const read = readSync(file.fd, out, at + done, length - done, position + done);
    if (read === 0) throw new RowFileChangedError(file.path, `it ends before byte ${position + length}`);
    done += read;
  }
}
