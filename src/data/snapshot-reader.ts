/**
 * Reads one snapshot version and checks it whole (docs/api.md §7): the manifest's format, every
 * file's SHA-256 and row count, every row's shape and the kind's order. Files are streamed, so
 * memory holds only what the caller keeps of each row.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROW_KINDS, ROW_SCHEMAS, type RowKind } from '../rows/schemas.js';
import { ROW_ORDER, ROW_ORDER_TEXT } from '../rows/order.js';
import { compileSchema } from '../rows/schema.js';
import {
  CURRENT_FILE, MANIFEST_FILE, SnapshotError, VERSION_PATTERN, checkManifest, fileOfKind, rowsEntry, type SnapshotManifest,
} from './snapshot-format.js';

/**
 * Receives each row once it passed its checks, in file order: the parsed row and its line as
 * UTF-8 bytes (without the newline). The bytes are a view of the read buffer, valid only during
 * the call: copy what you keep.
 */
export type RowSink = (kind: RowKind, row: Record<string, unknown>, line: Uint8Array) => void;

const NEWLINE = 0x0a;

/**
 * Reads the active version named by `<root>/CURRENT`.
 *
 * @param root - the snapshots folder.
 * @returns the version label.
 * @throws SnapshotError when CURRENT is missing, empty or not a valid label.
 */
export async function readCurrentVersion(root: string): Promise<string> {
  const file = join(root, CURRENT_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SnapshotError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const version = text.trim();
  if (!VERSION_PATTERN.test(version)) throw new SnapshotError(file, `does not hold a version label (${JSON.stringify(version.slice(0, 40))})`);
  return version;
}

/**
 * Reads and checks one version, handing each valid row to `sink`.
 *
 * @param dir - the version's folder (normally `<root>/<version>`).
 * @param version - the version its manifest must name.
 * @param sink - called for every row in order; it may keep what it needs.
 * @returns the checked manifest.
 * @throws SnapshotError naming the file (and line) of the first failure. Rows handed to `sink`
 *   before a failure must be discarded by the caller: a failing snapshot is refused whole.
 */
export async function readSnapshot(dir: string, version: string, sink: RowSink): Promise<SnapshotManifest> {
  const manifest = await readManifest(dir, version);
  for (const kind of ROW_KINDS) {
    const entry = rowsEntry(manifest, kind);
    // A kind added after this version was built: no file, no rows (ADDED_KINDS).
    if (entry === undefined) continue;
    const { sha256, rows } = entry;
    await readKindRows(join(dir, fileOfKind(kind)), kind, sha256, rows, (row, line) => sink(kind, row, line));
  }
  return manifest;
}

/**
 * Reads and checks a version's manifest.
 *
 * @param dir - the version's folder.
 * @param version - the version its manifest must name.
 * @throws SnapshotError naming the manifest and the field at fault.
 */
export async function readManifest(dir: string, version: string): Promise<SnapshotManifest> {
  const manifestFile = join(dir, MANIFEST_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(manifestFile, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? `not JSON: ${error.message}` : `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    throw new SnapshotError(manifestFile, reason);
  }
  return checkManifest(parsed, manifestFile, version);
}

/**
 * Reads and checks one kind's rows (UTF-8, JSON, shape, order, then SHA-256 and count), handing
 * each to `sink` in file order, as {@link readSnapshot} does for every kind.
 *
 * @param file - the kind's NDJSON file.
 * @param sha256 - its manifest SHA-256.
 * @param rows - its manifest row count.
 * @throws SnapshotError naming the file and line of the first failure.
 */
export async function readKindRows(file: string, kind: RowKind, sha256: string, rows: number, sink: (row: Record<string, unknown>, line: Uint8Array) => void): Promise<void> {
  const check = compileSchema(ROW_SCHEMAS[kind]);
  const order = ROW_ORDER[kind];
  let previous: Record<string, unknown> | undefined;
  await readLines(file, sha256, rows, (bytes, line) => {
    if (!isUtf8(bytes)) throw new SnapshotError(file, 'not valid UTF-8', line);
    let row: unknown;
    try {
      row = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new SnapshotError(file, `not JSON: ${(error as Error).message}`, line);
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new SnapshotError(file, 'row is not a JSON object', line);
    const problem = check(row);
    if (problem !== null) throw new SnapshotError(file, `$${problem}`, line);
    const record = row as Record<string, unknown>;
    if (previous && order(previous, record) > 0) throw new SnapshotError(file, `row is out of order (${kind} are ordered by ${ROW_ORDER_TEXT[kind]})`, line);
    previous = record;
    sink(record, bytes);
  });
}

/**
 * Streams the lines of an NDJSON file and checks the file's SHA-256 and line count against its
 * manifest entry once it is read. A version without index files is loaded by reading each file
 * twice (once to check and measure its rows, once to lay them out), and the second read is
 * checked like the first, so the bytes it keeps are the bytes that were checked.
 *
 * @param onLine - receives each line without its newline (a view valid during the call) and its
 *   number, from 1; it may throw a SnapshotError to stop.
 * @throws SnapshotError naming the file: unreadable, last line without newline, SHA-256 or row
 *   count different from the manifest.
 */
export async function readLines(file: string, sha256: string, rows: number, onLine: (bytes: Buffer, line: number) => void): Promise<void> {
  const hash = createHash('sha256');
  let line = 0;
  let carry: Buffer | undefined;
  try {
    // 64 KiB chunks: a chunk's rows are checked in one go (about 100 rows, a few ms), and the
    // loop turns between chunks, so a reload under load delays requests by milliseconds, not by
    // the ~50 ms that 1 MiB chunks took.
    const stream = createReadStream(file, { highWaterMark: 1 << 16 });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      let start = 0;
      let end = chunk.indexOf(NEWLINE, start);
      while (end !== -1) {
        const piece = chunk.subarray(start, end);
        onLine(carry ? Buffer.concat([carry, piece]) : piece, ++line);
        carry = undefined;
        start = end + 1;
        end = chunk.indexOf(NEWLINE, start);
      }
      if (start < chunk.length) carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
    }
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (carry && carry.length > 0) throw new SnapshotError(file, 'last row does not end with a newline', line + 1);
  const digest = hash.digest('hex');
  if (digest !== sha256) throw new SnapshotError(file, `sha256 is ${digest}, manifest says ${sha256}`);
  if (line !== rows) throw new SnapshotError(file, `holds ${line} rows, manifest says ${rows}`);
}
