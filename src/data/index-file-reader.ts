/**
 * Reads an index file from disk (docs/api.md §17) with every check of `decodeIndex`, section by
 * section, hashing every byte as it is read: no buffer holds the whole file (a decade of filings
 * has an index file of about 800 MB), and each section's values own their memory.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import {
  align8, checkZeros, ELEMENT_BYTES, HEADER_BYTES, IndexSections, MAX_TABLE_BYTES, readTable, section, type IndexSection,
} from './index-file.js';
import { SnapshotError } from './snapshot-format.js';
import { sharedBytes } from './shared-memory.js';

/**
 * Reads an index file section by section (each into memory of its own, so no buffer holds the
 * whole file and none is larger than its largest section), hashing every byte as it is read.
 *
 * @param file - its path.
 * @param expected - its SHA-256 (lower-case hex) and size in bytes, from the manifest.
 * @throws SnapshotError naming the file when it cannot be read, its size or SHA-256 differ, or
 *   any check fails.
 */
export async function readIndexFile(file: string, expected: { sha256: string; bytes: number }): Promise<IndexSections> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new SnapshotError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const size = (await handle.stat()).size;
    if (size !== expected.bytes) throw new SnapshotError(file, `is ${size} bytes, manifest says ${expected.bytes}`);
    const hash = createHash('sha256');
    let sections: IndexSections;
    try {
      sections = await readSections(handle, size, file, (piece) => hash.update(piece));
    } catch (error) {
      // A file that is not the one its manifest names is refused as such, whichever check came first.
      if (error instanceof SnapshotError) checkDigest(file, await digestOf(handle, size, file), expected.sha256);
      throw error;
    }
    checkDigest(file, hash.digest('hex'), expected.sha256);
    return sections;
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    await handle.close();
  }
}

/** Reads and checks the header, the table and every section, in file order, handing each piece read to `onPiece`. */
async function readSections(handle: FileHandle, size: number, file: string, onPiece: (piece: Uint8Array) => void): Promise<IndexSections> {
  let position = 0;
  const readInto = async (target: Uint8Array): Promise<void> => {
    await readFully(handle, target, position, file, onPiece);
    position += target.byteLength;
  };
  const probe = Buffer.alloc(Math.min(size, HEADER_BYTES));
  await readFully(handle, probe, 0, file);
  const tableEnd = probe.length < HEADER_BYTES ? probe.length : Math.min(size, HEADER_BYTES + Math.min(probe.readUInt32LE(12), MAX_TABLE_BYTES + 1));
  const head = Buffer.alloc(tableEnd);
  await readInto(head);
  const { entries, start } = readTable(head, size, file);
  const padding = Buffer.alloc(start - position);
  await readInto(padding);
  checkZeros(padding, file, 'the table');
  const sections = new Map<string, IndexSection>();
  for (const entry of entries) {
    const length = entry.count * ELEMENT_BYTES[entry.type];
    const raw = sharedBytes(length); // shared by the threads serving the version (shared-memory.ts)
    await readInto(raw);
    const pad = Buffer.alloc(align8(length) - length);
    await readInto(pad);
    checkZeros(pad, file, `section ${entry.name}`);
    sections.set(entry.name, section(entry, raw, file));
  }
  return new IndexSections(file, sections);
}

/** The SHA-256 of the whole file, read again. */
async function digestOf(handle: FileHandle, size: number, file: string): Promise<string> {
  const hash = createHash('sha256');
  const piece = Buffer.allocUnsafe(Math.min(size, READ_PIECE_BYTES));
  for (let position = 0; position < size; position += piece.length) {
    const target = piece.subarray(0, Math.min(piece.length, size - position));
    await readFully(handle, target, position, file);
    hash.update(target);
  }
  return hash.digest('hex');
}

function checkDigest(file: string, digest: string, sha256: string): void {
  if (digest !== sha256) throw new SnapshotError(file, `sha256 is ${digest}, manifest says ${sha256}`);
}

/**
 * Bytes read (and hashed) at a time: a section of millions of rows is read in pieces, so that a
 * reload under load gives requests a turn between them rather than hashing for a second at once.
 */
const READ_PIECE_BYTES = 1 << 22;

/** Reads `target.byteLength` bytes at `position` in pieces, handing each piece read to `onPiece`. */
async function readFully(handle: FileHandle, target: Uint8Array, position: number, file: string, onPiece?: (piece: Uint8Array) => void): Promise<void> {
  let done = 0;
  while (done < target.byteLength) {
    const { bytesRead } = await handle.read(target, done, Math.min(target.byteLength - done, READ_PIECE_BYTES), position + done);
    if (bytesRead === 0) throw new SnapshotError(file, 'ended before its sections did');
    onPiece?.(target.subarray(done, done + bytesRead));
    done += bytesRead;
  }
}
