/**
 * A loaded snapshot: the verified manifest and, per row kind, every row stored once (a
 * {@link RowTable}) with its overview list and its lists by ticker (by CIK for whales). Built
 * whole from a snapshot that passed every check, then used read-only; a reload builds a new one
 * and swaps it in.
 *
 * A kind with an index file (docs/api.md §17) loads without parsing a row: the index file gives
 * each row's length, list keys, order key and where its written field starts, and the rows' file
 * is read once while its SHA-256 is computed from the same bytes (on a worker thread:
 * piece-hasher.ts). By default (`rowsIn: 'file'`) each row is checked where it lies and the file
 * stays open, its pages read from it when asked (row-file.ts); with `rowsIn: 'memory'` each row is
 * copied straight to its place in the layout (rows grouped by list key). A kind without one (a version built
 * before index files) is read twice: the first read checks every row (the reader's checks) and
 * measures it; the second, checked against the manifest's SHA-256 again, copies each row to its
 * place. Either way the rows are copied once and never held twice, and the same measure gives
 * the same layout and lists.
 */
import { createHash } from 'node:crypto';
import { close, fstat, open as openFd, read as readFd } from 'node:fs';
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import {
  fileOfKind, indexEntry, indexFileOfKind, rowsEntry, SnapshotError, type FileEntry, type SnapshotManifest,
} from './snapshot-format.js';
import { readCurrentVersion, readManifest } from './snapshot-reader.js';
import type { RowList } from './page.js';
import { readIndexFile } from './index-file-reader.js';
import type { IndexSections } from './index-file.js';
import { measureRows, RowMeasurer } from './row-measure.js';
import { measureFromSections } from './row-index.js';
import { buildLists, DEFAULT_SPLIT_BYTES, planLayout, Turns, type KindLists } from './row-layout.js';
import { checkFromFile, fillFromFile, fillFromLines } from './row-fill.js';
import { identityOf, KeptPages, rowFileOf, rowPositions } from './row-file.js';
import { emptyFilterIndex, indexPlanOf, KindFilterIndexBuilder, type FilterIndex, type KindFilterIndex } from './filter-index.js';
import { filtersFromSections } from './filter-sections.js';
import { assembleSnapshot } from './snapshot-share.js';
import { startHasher, type PieceHasher } from './piece-hasher.js';

export { FILTER_FIELD } from './row-measure.js';
export { LISTED_BY } from './filter-index.js';

/** An immutable, fully indexed snapshot. */
export interface SnapshotIndex {
  /** Version label (also sent as `X-Snapshot-Version`). */
  readonly version: string;
  /**
   * A short digest of the version and its files' SHA-256s: the snapshot part of list ETags
   * (docs/api.md §10), different for any two snapshots whose rows differ.
   */
  readonly tag: string;
  readonly manifest: SnapshotManifest;
  /** Rows read per kind. */
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  /**
   * The list for a kind: the overview when `key` is null, else the rows whose list keys hold
   * `key` (a normalised ticker, or a 10-digit CIK); an empty list when none do.
   */
  list(kind: RowKind, key: string | null): RowList;
  /** The indexes of the filters that the kind's own lists do not answer (docs/api.md §15). */
  readonly filters: FilterIndex;
}

/** How to load. */
export interface LoadOptions {
  /**
   * Largest buffer of a kind's rows, in bytes, from 1 to 1 GiB (see `RowTable.chunks`). Default:
   * the environment's `EQF_SNAPSHOT_SPLIT_BYTES` when set (tests lower it to serve a version
   * larger than the split on a small machine: docs/development.md), else 1 GiB.
   */
  splitBytes?: number;
  /**
   * Compute the rows' SHA-256 on a worker thread while the rows are checked or copied (true), or
   * inline (false). Default: with `rowsIn: 'file'`, on a worker when the host has 2 cores or more;
   * with `memory`, when a core is likely free (`freeCoreLikely` in piece-hasher.ts). The digest
   * is checked either way before the version serves.
   */
  hashOnWorker?: boolean;
  /**
   * Where the rows of a kind with an index file are held while the version serves: `memory`
   * (copied into this process, grouped by list key: a page of one ticker is one slice), or `file`
   * (checked in one read, then read from the file per page: the process holds only the indexes,
   * and the operating system's page cache holds the rows once for every worker; see
   * row-file.ts). A version without index files is always held in memory. Default: `file`.
   */
  rowsIn?: RowsIn;
  /**
   * With `rowsIn: 'file'`, bytes of answered pages this version keeps in the loading thread
   * (each thread that serves it keeps its own: `unpackSnapshot`). Default: `KEPT_PAGE_BYTES` of
   * row-file.ts (256 MiB).
   */
  keptPageBytes?: number;
  /** Bytes read (and hashed) at a time, from 1. Default: 1 MiB (tests lower it so that rows straddle pieces). */
  pieceBytes?: number;
}

/** Where a loaded version's rows are held: see {@link LoadOptions.rowsIn}. */
export const ROWS_IN = ['file', 'memory'] as const;

/** One of {@link ROWS_IN}. */
export type RowsIn = (typeof ROWS_IN)[number];

/** Name of the environment variable that lowers the split size (for tests). */
export const SPLIT_BYTES_VARIABLE = 'EQF_SNAPSHOT_SPLIT_BYTES';

/**
 * Loads the version that `<root>/CURRENT` names, or `version` when given, checking it whole.
 *
 * @param root - the snapshots folder.
 * @param version - a version label to load instead of CURRENT's.
 * @param options - see {@link LoadOptions}.
 * @throws SnapshotError naming the file (and line) of the first failure; TypeError when the
 *   split size is not a whole number from 1 to 1 GiB.
 */
export async function loadSnapshot(root: string, version?: string, options: LoadOptions = {}): Promise<SnapshotIndex> {
  const splitBytes = checkSplitBytes(options.splitBytes, process.env[SPLIT_BYTES_VARIABLE]);
  const chosen = version ?? await readCurrentVersion(root);
  const dir = join(root, chosen);
  const manifest = await readManifest(dir, chosen);
  const turns = new Turns();
  const lists = {} as Record<RowKind, KindLists>;
  const filters = {} as Record<RowKind, KindFilterIndex>;
  const fromFile = (options.rowsIn ?? 'file') === 'file';
  // Rows left in their files leave the main thread little to do beside the hash (a check per row),
  // so a second thread pays even on a busy host: at 10M filings 5.9-6.5 s against 6.9-7.6 s
  // inline when quiet, 7.2-8.0 s against 7.2-7.3 s with another process busy on one of 2 cores.
  const hasher = startHasher({ onWorker: options.hashOnWorker ?? (fromFile && availableParallelism() >= 2 ? true : undefined), pieceBytes: options.pieceBytes });
  const indexes = readIndexesAhead(dir, manifest);
  const kept = new KeptPages(options.keptPageBytes);
  try {
    for (const kind of ROW_KINDS) {
      ({ lists: lists[kind], filters: filters[kind] } = await loadKind(dir, kind, manifest, splitBytes, turns, hasher, indexes.get(kind), fromFile ? kept : undefined));
    }
  } finally {
    await hasher.close();
  }

  const tagHash = createHash('sha256').update(manifest.version);
  // A kind the version predates adds nothing: its tags stay what they were before the kind existed.
  for (const kind of ROW_KINDS) {
    const entry = rowsEntry(manifest, kind);
    if (entry !== undefined) tagHash.update(`\n${entry.sha256}`);
  }
  const rowCounts = {} as Record<RowKind, number>;
  for (const kind of ROW_KINDS) rowCounts[kind] = lists[kind].overview.length;
  return assembleSnapshot({
    version: manifest.version, tag: tagHash.digest('base64url').slice(0, 12), manifest,
    rowCounts: Object.freeze(rowCounts), filters: Object.freeze(filters), lists,
  });
}

/** One kind's rows, lists and filter indexes. */
interface LoadedKind {
  readonly lists: KindLists;
  readonly filters: KindFilterIndex;
}

/**
 * Starts reading (and hashing) every kind's index file at once, so that the reads of the later
 * kinds' files wait on the disk and the thread pool while the earlier kinds load, not after them.
 * Each is awaited in its kind's turn, so the first failure in kind order is the one reported; a
 * load that stops before a kind's turn drops its read (the reader closes its file either way).
 *
 * @returns each kind's read, for the kinds with rows and an index file.
 */
function readIndexesAhead(dir: string, manifest: SnapshotManifest): Map<RowKind, Promise<IndexSections>> {
  const reads = new Map<RowKind, Promise<IndexSections>>();
  for (const kind of ROW_KINDS) {
    const index = indexEntry(manifest, kind);
    if (rowsEntry(manifest, kind) === undefined || index === undefined) continue;
    const read = readIndexFile(join(dir, indexFileOfKind(kind)), index);
    read.catch(() => undefined); // handled where it is awaited
    reads.set(kind, read);
  }
  return reads;
}

/**
 * One kind's rows in their layout, its lists and its filter indexes: from its index file when it
 * has one (with filter sections, `indexRead` from {@link readIndexesAhead}), else by reading and
 * checking its rows.
 */
async function loadKind(
  dir: string, kind: RowKind, manifest: SnapshotManifest, splitBytes: number, turns: Turns, hasher: PieceHasher, indexRead: Promise<IndexSections> | undefined,
  fromFile: KeptPages | undefined,
): Promise<LoadedKind> {
  const file = join(dir, fileOfKind(kind));
  const plan = indexPlanOf(kind);
  const entry = rowsEntry(manifest, kind);
  if (entry === undefined) {
    // A kind added after the version was built (ADDED_KINDS): no file, empty lists.
    const none = new RowMeasurer(kind).finish();
    return { lists: await buildLists(kind, none, await planLayout(none, splitBytes, file, turns), turns), filters: emptyFilterIndex(plan) };
  }
  const sections = await indexRead;
  const filters = sections === undefined ? undefined : filtersFromSections(sections, plan, entry.rows);
  if (sections === undefined || filters === undefined) {
    // No index file, or one written before filter sections: every row is read, checked and indexed.
    const builder = new KindFilterIndexBuilder(plan);
    const measure = await measureRows(file, kind, entry, (number, row) => builder.add(number, row));
    const layout = await planLayout(measure, splitBytes, file, turns);
    await fillFromLines(file, entry.sha256, measure, layout);
    return { lists: await buildLists(kind, measure, layout, turns), filters: builder.finish() };
  }
  if (fromFile !== undefined) return loadKindFromFile(file, kind, entry, sections, filters, turns, hasher, fromFile);
  let handle;
  try {
    handle = await open(file, 'r');
    const size = (await handle.stat()).size;
    checkSize(file, size, entry);
    const measure = await measureFromSections(sections, entry.rows, size, turns);
    const layout = await planLayout(measure, splitBytes, file, turns);
    await fillFromFile(handle, file, entry.sha256, kind, measure, layout, hasher);
    return { lists: await buildLists(kind, measure, layout, turns), filters };
  } catch (error) {
    throw asSnapshotError(file, error);
  } finally {
    await handle?.close();
  }
}

const openAsync = promisify(openFd);
const fstatAsync = promisify(fstat);
const readAsync = promisify(readFd);

/**
 * A kind whose rows stay in their file (`rowsIn: 'file'`): the file is opened, checked against
 * its index and its SHA-256 in one read, and kept open for the version (row-file.ts).
 */
async function loadKindFromFile(
  file: string, kind: RowKind, entry: FileEntry, sections: IndexSections, filters: KindFilterIndex, turns: Turns, hasher: PieceHasher, kept: KeptPages,
): Promise<LoadedKind> {
  let fd: number | undefined;
  try {
    fd = await openAsync(file, 'r');
    const identity = identityOf(await fstatAsync(fd));
    checkSize(file, identity.size, entry);
    const measure = await measureFromSections(sections, entry.rows, identity.size, turns);
    const layout = await planLayout(measure, DEFAULT_SPLIT_BYTES, file, turns, false);
    const opened = fd;
    await checkFromFile(async (buffer, length, position) => (await readAsync(opened, buffer, 0, length, position)).bytesRead, file, entry.sha256, kind, measure, hasher);
    const rowFile = rowFileOf(file, fd, identity, rowPositions(measure.lengths), kept);
    fd = undefined; // the RowFile closes it
    return { lists: await buildLists(kind, measure, layout, turns, rowFile), filters };
  } catch (error) {
    throw asSnapshotError(file, error);
  } finally {
    if (fd !== undefined) close(fd, () => undefined);
  }
}

/** A failure while reading `file`: a SnapshotError as it is, any other (an I/O error) as one naming its code. */
function asSnapshotError(file: string, error: unknown): SnapshotError {
  if (error instanceof SnapshotError) return error;
  return new SnapshotError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
}

/**
 * Refuses a rows' file whose size differs from its manifest entry's, when the entry has one:
 * before its index file is compared with it, so that the message names the file that changed.
 * (Without index files the rows are read first, so that a bad row is named by its line, and the
 * SHA-256 refuses any other change.)
 */
function checkSize(file: string, size: number, entry: FileEntry): void {
  if (entry.bytes !== undefined && size !== entry.bytes) throw new SnapshotError(file, `is ${size} bytes, manifest says ${entry.bytes}`);
}

/** The split size: the option, else the variable, else the default; checked. */
function checkSplitBytes(option: number | undefined, variable: string | undefined): number {
  const value = option ?? (variable === undefined || variable === '' ? DEFAULT_SPLIT_BYTES : Number(variable));
  if (!Number.isSafeInteger(value) || value < 1 || value > DEFAULT_SPLIT_BYTES) {
    const name = option === undefined ? SPLIT_BYTES_VARIABLE : 'splitBytes';
    throw new TypeError(`${name} must be a whole number of bytes from 1 to ${DEFAULT_SPLIT_BYTES}, got ${JSON.stringify(option ?? variable)}`);
  }
  return value;
}
