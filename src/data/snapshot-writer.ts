/**
 * Writes a snapshot version and publishes it only once it reads back whole: rows go to a
 * temporary folder, the folder is checked exactly as the server checks it, renamed to its
 * version, and only then is `CURRENT` replaced (temp file, then rename). A failure leaves
 * `CURRENT` and every published version untouched. Used by `equity-facts build` and by the
 * benchmark's synthetic generator.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import { ROW_ORDER } from '../rows/order.js';
import {
  CURRENT_FILE, MANIFEST_FILE, SNAPSHOT_FORMAT, VERSION_PATTERN, fileOfKind, indexFileOfKind, type FileEntry, type IndexEntry, type SnapshotManifest,
} from './snapshot-format.js';
import { readManifest } from './snapshot-reader.js';
import { readIndexFile } from './index-file-reader.js';
import { writeIndexFile } from './index-file.js';
import { measureRows } from './row-measure.js';
import { measureFromSections, measureSections } from './row-index.js';
import { indexPlanOf, KindFilterIndexBuilder } from './filter-index.js';
import { filterSections, filtersFromSections } from './filter-sections.js';
import { Turns } from './row-layout.js';

/** What to write. */
export interface WriteSnapshotOptions {
  /** The snapshots folder; created when missing. */
  root: string;
  /** Version label, also the folder name; must not exist yet. */
  version: string;
  /** Build time, RFC 3339; default now. */
  createdAt?: string;
  /** Latest date the data covers, `YYYY-MM-DD`, or null. */
  dataThrough: string | null;
  /** Options and counts to record in the manifest's `build`. */
  build: Record<string, unknown>;
  /**
   * Rows of each kind, already in the kind's order (see {@link sortRows}). Iterables are
   * consumed once, so a generator can stream millions of rows.
   */
  rows: { [K in RowKind]: Iterable<object> | AsyncIterable<object> };
  /** Whether to point CURRENT at the new version (default true). */
  publish?: boolean;
  /**
   * Whether to write each kind's index file (default true). False writes a version as builds
   * did before index files (docs/api.md §17), which a server loads by reading every row: for
   * comparisons and tests.
   */
  indexes?: boolean;
}

/**
 * Sorts rows of a kind into the order the snapshot format requires (stable; returns a copy).
 *
 * @param kind - the row kind.
 * @param rows - rows in any order.
 */
export function sortRows<T extends object>(kind: RowKind, rows: readonly T[]): T[] {
  const compare = ROW_ORDER[kind] as (a: T, b: T) => number;
  return [...rows].sort(compare);
}

/**
 * Writes, verifies and (by default) publishes a snapshot version.
 *
 * @returns the folder written and its manifest.
 * @throws Error when the version exists or is not a valid label, or SnapshotError when the
 *   written files fail verification; nothing is published then.
 */
export async function writeSnapshot(options: WriteSnapshotOptions): Promise<{ dir: string; manifest: SnapshotManifest }> {
  const { root, version } = options;
  if (!VERSION_PATTERN.test(version)) throw new Error(`version "${version}" is not a valid label (letters, digits, . _ -)`);
  await mkdir(root, { recursive: true });
  const finalDir = join(root, version);
  if (await exists(finalDir)) throw new Error(`snapshot version ${version} already exists in ${root}`);
  const tempDir = join(root, `.${version}.partial-${process.pid}`);
  await rm(tempDir, { recursive: true, force: true });
  await mkdir(tempDir);
  try {
    const files: Record<string, FileEntry | IndexEntry> = {};
    for (const kind of ROW_KINDS) {
      const rows = await writeRows(join(tempDir, fileOfKind(kind)), options.rows[kind]);
      files[fileOfKind(kind)] = rows;
      const index = await checkRows(tempDir, kind, rows, options.indexes !== false);
      if (index !== undefined) files[indexFileOfKind(kind)] = index;
    }
    const manifest: SnapshotManifest = {
      format: SNAPSHOT_FORMAT,
      version,
      created_at: options.createdAt ?? new Date().toISOString(),
      data_through: options.dataThrough,
      build: options.build,
      files,
    };
    await writeFile(join(tempDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await readManifest(tempDir, version);
    await rename(tempDir, finalDir);
    if (options.publish !== false) await publishVersion(root, version);
    return { dir: finalDir, manifest };
  } catch (error) {
    await rm(tempDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Points `<root>/CURRENT` at `version` atomically (temp file, then rename).
 *
 * @param root - the snapshots folder.
 * @param version - an existing version label.
 */
export async function publishVersion(root: string, version: string): Promise<void> {
  const temp = join(root, `.${CURRENT_FILE}.${process.pid}.tmp`);
  await writeFile(temp, `${version}\n`);
  await rename(temp, join(root, CURRENT_FILE));
}

/**
 * Checks a kind's rows as written exactly as a server checks a version without index files
 * (every row's shape and order, the SHA-256 and count: docs/api.md §7), and, when `index`, writes
 * what the check measured and the kind's filter indexes (docs/api.md §15) as the kind's index
 * file (docs/api.md §17) and reads that back with
 * every check a server makes. The index file is what lets a server trust the rows without
 * parsing them, so it is only ever written from rows that passed those checks.
 *
 * @returns the index file's manifest entry, or undefined without one.
 * @throws SnapshotError naming the file and line of the first row that fails.
 */
async function checkRows(dir: string, kind: RowKind, rows: FileEntry, index: boolean): Promise<IndexEntry | undefined> {
  const rowsFile = join(dir, fileOfKind(kind));
  const plan = indexPlanOf(kind);
  const filters = index ? new KindFilterIndexBuilder(plan) : undefined;
  const measure = await measureRows(rowsFile, kind, rows, filters && ((number, row) => filters.add(number, row)));
  if (!index || !filters) return undefined;
  const file = join(dir, indexFileOfKind(kind));
  const entry = await writeIndexFile(file, [...measureSections(measure), ...filterSections(filters.finish())]);
  const written = await readIndexFile(file, entry);
  await measureFromSections(written, rows.rows, (await stat(rowsFile)).size, new Turns());
  filtersFromSections(written, plan, rows.rows);
  return entry;
}

async function writeRows(file: string, rows: Iterable<object> | AsyncIterable<object>): Promise<FileEntry> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let count = 0;
  let bytes = 0;
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const chunk = Buffer.from(batch.join(''), 'utf8');
    batch = [];
    hash.update(chunk);
    bytes += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  for await (const row of rows as AsyncIterable<object>) {
    batch.push(`${JSON.stringify(row)}\n`);
    count++;
    if (batch.length >= 4096) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
  return { sha256: hash.digest('hex'), rows: count, bytes };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
