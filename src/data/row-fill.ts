/**
 * Fills a planned layout with a kind's rows, each row's newline replaced by the comma that
 * separates rows in a page. Two ways: from a file whose index gave the measure, read once in
 * large pieces, each row copied to its place as its bytes go by; or, for a version without index
 * files, by reading the lines again after the rows were checked (docs/api.md §7, §17). Either
 * way the file's SHA-256 is computed from the bytes read and compared with the manifest's before
 * the rows are used.
 */
import type { FileHandle } from 'node:fs/promises';
import { WRITTEN_FIELD, type RowKind } from '../rows/schemas.js';
import type { RowLayout } from './row-layout.js';
import { isFactsCut, memberOpening, type RowMeasure } from './row-measure.js';
import { readLines } from './snapshot-reader.js';
import { SnapshotError } from './snapshot-format.js';
import type { PieceHasher } from './piece-hasher.js';

const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * Reads the rows a second time (the old way: the first read checked and measured them) and
 * copies each to its place.
 *
 * @throws SnapshotError when the file changed since it was checked.
 */
export async function fillFromLines(file: string, sha256: string, m: RowMeasure, layout: RowLayout): Promise<void> {
  const { chunks, chunkOf, starts } = layout;
  await readLines(file, sha256, m.rows, (line, number) => {
    const row = number - 1;
    if (line.length !== m.lengths[row]) throw new SnapshotError(file, 'changed while it was read', number);
    const chunk = chunks[chunkOf === null ? 0 : chunkOf[row]!]!;
    const at = starts[row]!;
    line.copy(chunk, at);
    chunk[at + line.length] = COMMA;
  });
}

/**
 * Reads the rows once, in pieces (the hasher's memory, 1 MiB), the next piece read while this one is
 * hashed (by `hasher`, on a worker thread when a core is free) and its rows (or the parts
 * of them in it) are copied to their places. A row must end with a newline where its length says,
 * and a facts end must be at the opening of the kind's written field: otherwise the index does
 * not describe these rows, and the file is refused. The digest is compared once every row is in
 * place; the caller drops the version whole when it differs.
 *
 * @param handle - the rows' file, open for reading; its size was checked against the measure.
 * @param file - its path, for messages.
 * @param sha256 - the manifest's SHA-256 of the file.
 * @param hasher - hashes the pieces; its digest starts afresh after this file's (a hasher whose
 *   file failed is not used again: the version is refused whole).
 * @throws SnapshotError naming the file and line of the first row that does not match, or the
 *   SHA-256 that differs.
 */
export async function fillFromFile(
  handle: FileHandle, file: string, sha256: string, kind: RowKind, m: RowMeasure, layout: RowLayout, hasher: PieceHasher,
): Promise<void> {
  const { chunks, chunkOf, starts } = layout;
  const { lengths } = m;
  const checkRow = rowChecker(file, kind, m);
  let next = await hasher.next();
  let reading = handle.read(next, 0, next.length, 0);
  let row = 0;
  let done = 0; // bytes of `row` (its newline included) copied so far
  let position = 0;
  try {
    for (;;) {
      const piece = next;
      const { bytesRead } = await reading;
      hasher.hash(bytesRead);
      if (bytesRead === 0) break;
      position += bytesRead;
      next = await hasher.next();
      reading = handle.read(next, 0, next.length, position);
      // Rows are copied with TypedArray#set from a plain view: Buffer#copy checks its arguments
      // and makes the same view per row (40-60 ms of a 1M load in CPU profiles).
      const view = new Uint8Array(piece.buffer, piece.byteOffset, bytesRead);
      let at = 0;
      while (at < bytesRead) {
        if (row === m.rows) throw new SnapshotError(file, 'holds bytes after its last row');
        const length = lengths[row]!;
        const chunk = chunks[chunkOf === null ? 0 : chunkOf[row]!]!;
        const start = starts[row]!;
        const take = Math.min(length + 1 - done, bytesRead - at);
        chunk.set(view.subarray(at, at + take), start + done);
        at += take;
        done += take;
        if (done <= length) continue;
        checkRow(chunk, start, row);
        chunk[start + length] = COMMA;
        row++;
        done = 0;
      }
    }
  } finally {
    // A read still in flight finishes before the file is closed.
    await reading.catch(() => undefined);
  }
  await checkEnd(file, sha256, m, row, done, hasher);
}

/**
 * Reads the rows once, in pieces, as {@link fillFromFile} does, checking each row where it lies
 * instead of copying it (the rows are then read from the file per page: row-file.ts): a row must
 * end with a newline where its length says and its facts end must be at the opening of the
 * kind's written field. A row cut by the end of a piece is checked from a copy of its parts.
 *
 * @param read - reads up to `length` bytes at file position `position` into `buffer`; resolves to the bytes read.
 * @throws SnapshotError as {@link fillFromFile} does.
 */
export async function checkFromFile(
  read: (buffer: Buffer, length: number, position: number) => Promise<number>,
  file: string, sha256: string, kind: RowKind, m: RowMeasure, hasher: PieceHasher,
): Promise<void> {
  const { lengths } = m;
  const checkRow = rowChecker(file, kind, m);
  let carry = Buffer.alloc(0);
  let next = await hasher.next();
  let reading = read(next, next.length, 0);
  let row = 0;
  let done = 0; // bytes of `row` (its newline included) seen so far, held in `carry` when > 0
  let position = 0;
  try {
    for (;;) {
      const piece = next;
      const bytesRead = await reading;
      hasher.hash(bytesRead);
      if (bytesRead === 0) break;
      position += bytesRead;
      next = await hasher.next();
      reading = read(next, next.length, position);
      let at = 0;
      while (at < bytesRead) {
        if (row === m.rows) throw new SnapshotError(file, 'holds bytes after its last row');
        const size = lengths[row]! + 1;
        if (done === 0 && at + size <= bytesRead) {
          checkRow(piece, at, row);
        } else {
          if (done === 0 && carry.length < size) carry = Buffer.allocUnsafe(size);
          const take = Math.min(size - done, bytesRead - at);
          piece.copy(carry, done, at, at + take);
          done += take;
          at += take;
          if (done < size) continue;
          checkRow(carry, 0, row);
          done = 0;
          row++;
          continue;
        }
        at += size;
        row++;
      }
    }
  } finally {
    await reading.catch(() => undefined);
  }
  await checkEnd(file, sha256, m, row, done, hasher);
}

/**
 * What only a row's bytes can show of its index (docs/api.md §17): the row at `start` of
 * `bytes` ends with a newline where its length says, and its facts end is at the opening of the
 * kind's written field.
 *
 * @returns a check of row `row` at `start` of `bytes` (its newline included).
 * @throws (the check) SnapshotError naming the file and the row's line.
 */
function rowChecker(file: string, kind: RowKind, m: RowMeasure): (bytes: Uint8Array, start: number, row: number) => void {
  const { lengths, factsEnds } = m;
  const opening = memberOpening(WRITTEN_FIELD[kind]);
  return (bytes, start, row) => {
    const length = lengths[row]!;
    if (bytes[start + length] !== NEWLINE) throw new SnapshotError(file, `row does not end where its index says (byte ${length + 1} is not a newline)`, row + 1);
    const facts = factsEnds[row]!;
    if (facts >= 0 && !isFactsCut(bytes, start, length, facts, opening)) {
      throw new SnapshotError(file, `its index says the row's ${WRITTEN_FIELD[kind]} starts at byte ${facts + 1}, where it does not`, row + 1);
    }
  };
}

/**
 * The end of a file read in pieces: every row whole (`row` rows, `done` bytes of a next one) and
 * the SHA-256 of the bytes read equal to the manifest's.
 *
 * @throws SnapshotError naming the file.
 */
async function checkEnd(file: string, sha256: string, m: RowMeasure, row: number, done: number, hasher: PieceHasher): Promise<void> {
  if (row !== m.rows || done !== 0) throw new SnapshotError(file, `holds ${row} whole rows, its index says ${m.rows}`);
  const digest = await hasher.digest();
  if (digest !== sha256) throw new SnapshotError(file, `sha256 is ${digest}, manifest says ${sha256}`);
}
