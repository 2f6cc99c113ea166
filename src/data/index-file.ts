/**
 * The index file container (docs/api.md §17): named sections of typed values, written by the
 * builder beside a version's rows and read by the server without parsing anything but a short
 * table. Any reader may ask for the sections it knows and ignore the rest, so a section can be
 * added without a new format.
 *
 * ```
 * offset 0   8 bytes   magic "EQFINDEX"
 *        8   u32       format version (1)
 *       12   u32       byte length T of the section table
 *       16   T bytes   the table: UTF-8 JSON, [{"name","type","offset","count"}, …] in file order
 *            zeros     up to the next multiple of 8
 *            sections  each at its `offset` (a multiple of 8), `count` elements of its `type`,
 *                      then zeros up to the next multiple of 8; the file ends after the last
 * ```
 *
 * Numbers are little-endian. Element types: `u8` and `utf8` (bytes; `utf8` is valid UTF-8 text),
 * `i32`, `u32` (4 bytes), `f64` (IEEE 754, 8 bytes). Everything is checked on reading, and a file
 * that fails any check is refused whole with a {@link SnapshotError} naming it. `encodeIndex` and
 * `writeIndexFile` write one, `decodeIndex` reads one held in memory, and `readIndexFile`
 * (index-file-reader.ts) reads one from disk against its manifest entry. What a kind's index file
 * holds of its rows is in row-index.ts; other sections go beside those, under names of their own.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { SnapshotError } from './snapshot-format.js';

/** First 8 bytes of every index file. */
export const INDEX_MAGIC = 'EQFINDEX';

/** Format version this code reads and writes. */
export const INDEX_FORMAT_VERSION = 1;

/** Element types of a section, with their sizes in bytes. */
export const ELEMENT_BYTES = Object.freeze({ u8: 1, utf8: 1, i32: 4, u32: 4, f64: 8 } as const);

/** The element type of a section. */
export type ElementType = keyof typeof ELEMENT_BYTES;

/** The values of a section: `u8` and `utf8` as bytes, the others as their typed array. */
export type SectionValues = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** One named section. */
export interface IndexSection {
  /** Letters, digits and `._:-`, up to 100 characters; unique in a file. */
  readonly name: string;
  readonly type: ElementType;
  /** Its values; their typed array must match `type` (Uint8Array for `u8` and `utf8`). */
  readonly values: SectionValues;
}

/** Longest section table accepted, in bytes. */
export const MAX_TABLE_BYTES = 1 << 20;
/** Bytes before the table: magic, version, table length. */
export const HEADER_BYTES = 16;
const NAME_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;
const LITTLE_ENDIAN = endianness() === 'LE';

/** What a file's table says of one section. */
export interface TableEntry {
  readonly name: string;
  readonly type: ElementType;
  readonly offset: number;
  readonly count: number;
}

/** The sections of one index file, by name, with typed getters that refuse a missing or mistyped one. */
export class IndexSections {
  /**
   * @param file - the file the sections came from, for messages.
   * @param sections - the sections by name.
   */
  constructor(readonly file: string, readonly sections: ReadonlyMap<string, IndexSection>) {}

  /** Whether the file has a section of that name. */
  has(name: string): boolean {
    return this.sections.has(name);
  }

  /** The values of a `u8` section. @throws SnapshotError when absent or of another type. */
  u8(name: string): Uint8Array {
    return this.#values(name, 'u8') as Uint8Array;
  }

  /** The values of an `i32` section. @throws SnapshotError when absent or of another type. */
  i32(name: string): Int32Array {
    return this.#values(name, 'i32') as Int32Array;
  }

  /** The values of a `u32` section. @throws SnapshotError when absent or of another type. */
  u32(name: string): Uint32Array {
    return this.#values(name, 'u32') as Uint32Array;
  }

  /** The values of an `f64` section. @throws SnapshotError when absent or of another type. */
  f64(name: string): Float64Array {
    return this.#values(name, 'f64') as Float64Array;
  }

  /** The text of a `utf8` section. @throws SnapshotError when absent or of another type. */
  utf8(name: string): string {
    return Buffer.from(this.utf8Bytes(name)).toString('utf8');
  }

  /** The bytes of a `utf8` section (valid UTF-8). @throws SnapshotError when absent or of another type. */
  utf8Bytes(name: string): Uint8Array {
    return this.#values(name, 'utf8') as Uint8Array;
  }

  #values(name: string, type: ElementType): SectionValues {
    const section = this.sections.get(name);
    if (section === undefined) throw new SnapshotError(this.file, `has no section ${name}`);
    if (section.type !== type) throw new SnapshotError(this.file, `section ${name} is ${section.type}, expected ${type}`);
    return section.values;
  }
}

/** `n` rounded up to a multiple of 8: where the next section starts. */
export const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/**
 * Encodes sections as an index file, in the order given.
 *
 * @returns the file's bytes as parts to write one after another (sections are views of their
 *   values, not copies, on a little-endian host).
 * @throws Error when a name is invalid or repeated, or values do not match their type.
 */
export function encodeIndex(sections: readonly IndexSection[]): Buffer[] {
  const names = new Set<string>();
  const table: TableEntry[] = [];
  const tableBytes = (): Buffer => Buffer.from(JSON.stringify(table));
  // Offsets depend on the table's length, which depends on the offsets' digits: settle it.
  let start = 0;
  for (let settled = -1; settled !== start;) {
    settled = start;
    table.length = 0;
    let at = start;
    for (const { name, type, values } of sections) {
      const count = values.byteLength / ELEMENT_BYTES[type];
      table.push({ name, type, offset: at, count });
      at = align8(at + values.byteLength);
    }
    start = align8(HEADER_BYTES + tableBytes().length);
  }
  for (const { name, type, values } of sections) {
    if (!NAME_PATTERN.test(name) || names.has(name)) throw new Error(`index section name ${JSON.stringify(name)} is invalid or repeated`);
    names.add(name);
    if (!matchesType(values, type)) throw new Error(`index section ${name}: values are not ${type}`);
  }
  const head = Buffer.alloc(start);
  head.write(INDEX_MAGIC, 0, 'latin1');
  head.writeUInt32LE(INDEX_FORMAT_VERSION, 8);
  const json = tableBytes();
  head.writeUInt32LE(json.length, 12);
  json.copy(head, HEADER_BYTES);
  const parts: Buffer[] = [head];
  for (const { values } of sections) {
    let bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
    if (!LITTLE_ENDIAN) bytes = swapped(Buffer.from(bytes), values.BYTES_PER_ELEMENT);
    parts.push(bytes);
    const pad = align8(bytes.length) - bytes.length;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  return parts;
}

/**
 * Writes sections as an index file ({@link encodeIndex}).
 *
 * @param file - the path to write (replaced when it exists).
 * @returns the file's SHA-256 (lower-case hex) and size in bytes, for the manifest.
 */
export async function writeIndexFile(file: string, sections: readonly IndexSection[]): Promise<{ sha256: string; bytes: number }> {
  const parts = encodeIndex(sections);
  const hash = createHash('sha256');
  let bytes = 0;
  for (const part of parts) {
    hash.update(part);
    bytes += part.length;
  }
  await writeFile(file, parts);
  return { sha256: hash.digest('hex'), bytes };
}

function matchesType(values: SectionValues, type: ElementType): boolean {
  switch (type) {
    case 'u8': case 'utf8': return values instanceof Uint8Array;
    case 'i32': return values instanceof Int32Array;
    case 'u32': return values instanceof Uint32Array;
    case 'f64': return values instanceof Float64Array;
  }
}

/**
 * Decodes an index file held in memory. Views share its memory where aligned.
 *
 * @param bytes - the whole file.
 * @param file - its path, for messages.
 * @throws SnapshotError naming the file when any check fails.
 */
export function decodeIndex(bytes: Uint8Array, file: string): IndexSections {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { entries, start } = readTable(buffer.subarray(0, Math.min(buffer.length, HEADER_BYTES + MAX_TABLE_BYTES)), buffer.length, file);
  checkZeros(buffer.subarray(HEADER_BYTES + buffer.readUInt32LE(12), start), file, 'the table');
  const sections = new Map<string, IndexSection>();
  for (const entry of entries) {
    const length = entry.count * ELEMENT_BYTES[entry.type];
    const raw = buffer.subarray(entry.offset, entry.offset + length);
    checkZeros(buffer.subarray(entry.offset + length, align8(entry.offset + length)), file, `section ${entry.name}`);
    sections.set(entry.name, section(entry, raw.byteOffset % 8 === 0 ? raw : Buffer.from(raw), file));
  }
  return new IndexSections(file, sections);
}

/**
 * Checks the header and the table against the file's size: the magic and version, each entry's
 * name, type and count, and the exact layout (the first section right after the table, each next
 * one right after the one before, each at a multiple of 8, the file ending after the last).
 *
 * @param head - the file from its start, at least to the end of the table when the file is valid.
 * @returns the entries in file order and where the first section starts.
 */
export function readTable(head: Buffer, size: number, file: string): { entries: TableEntry[]; start: number } {
  const fail = (reason: string): never => { throw new SnapshotError(file, reason); };
  if (head.length < HEADER_BYTES || head.toString('latin1', 0, 8) !== INDEX_MAGIC) fail(`is not an index file (no ${INDEX_MAGIC} header)`);
  const version = head.readUInt32LE(8);
  if (version !== INDEX_FORMAT_VERSION) fail(`index format version is ${version}, expected ${INDEX_FORMAT_VERSION}`);
  const tableLength = head.readUInt32LE(12);
  if (tableLength > MAX_TABLE_BYTES || HEADER_BYTES + tableLength > head.length) fail(`section table of ${tableLength} bytes does not fit the file`);
  const text = head.subarray(HEADER_BYTES, HEADER_BYTES + tableLength);
  let parsed: unknown;
  try {
    if (!isUtf8(text)) throw new SyntaxError('not UTF-8');
    parsed = JSON.parse(text.toString('utf8'));
  } catch (error) {
    fail(`section table is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) fail('section table is not an array');
  const entries: TableEntry[] = [];
  const names = new Set<string>();
  let at = align8(HEADER_BYTES + tableLength);
  const start = at;
  for (const [i, value] of (parsed as unknown[]).entries()) {
    const e = (value ?? {}) as Record<string, unknown>;
    const where = `section table entry ${i}`;
    if (typeof e.name !== 'string' || !NAME_PATTERN.test(e.name) || names.has(e.name)) fail(`${where}: name is missing, invalid or repeated`);
    const name = e.name as string;
    names.add(name);
    if (typeof e.type !== 'string' || !Object.hasOwn(ELEMENT_BYTES, e.type)) fail(`${where} (${name}): type ${JSON.stringify(e.type)} is not one of ${Object.keys(ELEMENT_BYTES).join(', ')}`);
    const type = e.type as ElementType;
    if (!Number.isSafeInteger(e.count) || (e.count as number) < 0) fail(`${where} (${name}): count is not a whole number`);
    if (e.offset !== at) fail(`${where} (${name}): offset ${String(e.offset)} is not ${at}, where it must start (after the ${i === 0 ? 'table' : 'section before it'})`);
    const count = e.count as number;
    at = align8(at + count * ELEMENT_BYTES[type]);
    if (at > size) fail(`section ${name} ends past the end of the file (${size} bytes)`);
    entries.push({ name, type, offset: e.offset as number, count });
  }
  if (at !== size) fail(`is ${size} bytes, its sections end at ${at}`);
  return { entries, start };
}

/** A section from its raw little-endian bytes (8-aligned, owned or a view). */
export function section(entry: TableEntry, raw: Buffer, file: string): IndexSection {
  const { name, type } = entry;
  if (!LITTLE_ENDIAN) raw = swapped(raw, ELEMENT_BYTES[type]);
  const { buffer, byteOffset, byteLength } = raw;
  switch (type) {
    case 'u8': return { name, type, values: new Uint8Array(buffer, byteOffset, byteLength) };
    case 'utf8':
      if (!isUtf8(raw)) throw new SnapshotError(file, `section ${name} is not valid UTF-8`);
      return { name, type, values: new Uint8Array(buffer, byteOffset, byteLength) };
    case 'i32': return { name, type, values: new Int32Array(buffer, byteOffset, byteLength / 4) };
    case 'u32': return { name, type, values: new Uint32Array(buffer, byteOffset, byteLength / 4) };
    case 'f64': return { name, type, values: new Float64Array(buffer, byteOffset, byteLength / 8) };
  }
}

/** Swaps the bytes of each element of `size` bytes in place (big-endian hosts only); returns `bytes`. */
function swapped(bytes: Buffer, size: number): Buffer {
  if (size === 4) bytes.swap32();
  else if (size === 8) bytes.swap64();
  return bytes;
}

/** Refuses padding that is not all zeros. */
export function checkZeros(bytes: Uint8Array, file: string, after: string): void {
  for (const byte of bytes) if (byte !== 0) throw new SnapshotError(file, `padding after ${after} is not zero`);
}
