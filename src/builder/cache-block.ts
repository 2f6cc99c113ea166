/**
 * A block of the build cache (extract-cache.ts): up to {@link BLOCK_ENTRIES} entries, each a
 * file (path, size, mtimeMs) and its extract, stored and checked as one unit.
 *
 * Layout: a head of seven u32 LE (the length of what follows the head, the CRC-32 of everything
 * after itself, the entries, the operations, the numbers, the paths' bytes, the table's bytes),
 * then per entry its size and mtimeMs (f64), the numbers (f64), the operations (u32), the
 * entries' paths (UTF-8 JSON) and the table (UTF-8 JSON `[strings, shapes]`). The typed arrays
 * are in the machine's byte order, which the segment's first line names. The extracts, without
 * their empty lists, are stored list by list, `{ lists: { [field]: items of every entry },
 * counts: { [field]: items per entry } }`, encoded by record-codec.ts: one table of strings and
 * object shapes shared by the block's entries, one decode, and a run of consecutive entries
 * merged list by list rather than file by file. Reading a block takes its paths, sizes and
 * times; its table and extracts are decoded when first needed.
 */
import { crc32 } from 'node:zlib';
import type { FileExtract } from './file-extract.js';
import { decodeRecords, NotPlainDataError, RecordEncoder, type EncodedRecords } from './record-codec.js';

/** Entries per block: few enough that a damaged block costs little, many enough that its table of strings is shared widely. */
export const BLOCK_ENTRIES = 256;
/** Bytes of a block's head: its length, CRC-32, entries, operations, numbers, paths' bytes and table's bytes. */
export const BLOCK_HEAD = 28;

/** The lists of an extract, by field name. */
const ARRAY_FIELDS = ['tickers', 'companies', 'filings', 'ownership', 'thirteenF', 'looseThirteenF', 'looseHtml', 'looseOwnership', 'headerJson',
  'companyFacts', 'submissionsAcceptance', 'plainTextOwnership', 'headerProfiles', 'unmappedItemTitles', 'skipped', 'dataSetOwnership', 'dataSetThirteenF', 'dataSets'] as const;
const FIELDS: ReadonlySet<string> = new Set(ARRAY_FIELDS);

/** An extract without its empty lists (most of a file's eighteen lists are empty), for storage. */
export function compactExtract(extract: FileExtract): Partial<FileExtract> {
  const out: Record<string, unknown> = {};
  for (const field of ARRAY_FIELDS) if (extract[field].length > 0) out[field] = extract[field];
  return out as Partial<FileExtract>;
}

/** A block read from a segment: its extracts are decoded when the first of them is taken. */
export interface Block {
  /** The block's bytes, until its extracts are decoded. */
  bytes: Buffer | null;
  /** The extracts, once decoded; null when they turned out damaged. */
  decoded?: DecodedBlock | null;
  count: number;
  /** Each entry's path. */
  paths: string[];
  /** Each entry's size and mtimeMs, in turn. */
  files: Float64Array;
}

/** A list of an extract (every field of {@link FileExtract} but `deferred`). */
type ExtractList = (typeof ARRAY_FIELDS)[number];

/**
 * A block's extracts, decoded: per list, the items of all its entries in entry order, so that a
 * run of entries taken in walk order is merged list by list rather than file by file.
 */
export interface DecodedBlock {
  lists: Partial<FileExtract>;
  /** Per list in `lists`, entries + 1 offsets: entry i's items are those from offsets[i] to offsets[i + 1]. */
  offsets: Partial<Record<ExtractList, Uint32Array>>;
}

/** Consecutive entries of one block, from `start` to `end` (exclusive): their extracts are {@link runExtract}. */
export interface CachedRun {
  block: DecodedBlock;
  start: number;
  end: number;
}

/**
 * The extracts of a run of entries as one extract: each list the items of those entries in
 * order (the block's own list when the run covers the block).
 */
export function runExtract({ block, start, end }: CachedRun): Partial<FileExtract> {
  const out: Record<string, unknown[]> = {};
  for (const field in block.offsets) {
    const offsets = block.offsets[field as ExtractList]!;
    const items = block.lists[field as ExtractList] as unknown[];
    const from = offsets[start]!;
    const to = offsets[end]!;
    if (from === to) continue;
    out[field] = from === 0 && to === items.length ? items : items.slice(from, to);
  }
  return out as Partial<FileExtract>;
}

/** One entry of a block to write: a file and its extract (lists by field name, without the empty ones). */
export interface BlockEntry {
  path: string;
  size: number;
  mtimeMs: number;
  extract: Record<string, unknown>;
}

/**
 * Encodes entries as one block (layout in the module comment). The extracts are stored list by
 * list: `{ lists: { [field]: items of every entry }, counts: { [field]: items per entry } }`. An
 * entry whose extract is not plain data (record-codec.ts) is left out: its file is parsed again
 * next time.
 *
 * @returns the block's bytes and how many entries it holds, or undefined when it holds none.
 */
export function encodeBlock(entries: readonly BlockEntry[]): { bytes: Buffer; entries: number } | undefined {
  let kept = entries;
  let encoded = encodeEntries(kept);
  if (encoded === undefined) {
    // Some extract is not plain data: find which, one by one, and leave them out.
    kept = entries.filter((entry) => encodeEntries([entry]) !== undefined);
    encoded = encodeEntries(kept);
  }
  if (kept.length === 0 || encoded === undefined) return undefined;
  const { strings, shapes, ops, numbers } = encoded;
  const table = Buffer.from(JSON.stringify([strings, shapes]));
  const paths = Buffer.from(JSON.stringify(kept.map((entry) => entry.path)));
  const files = Float64Array.from(kept.flatMap((entry) => [entry.size, entry.mtimeMs]));
  const head = Buffer.alloc(BLOCK_HEAD);
  const body = [Buffer.from(files.buffer), Buffer.from(numbers.buffer), Buffer.from(ops.buffer), paths, table];
  head.writeUInt32LE(body.reduce((sum, part) => sum + part.length, 0), 0);
  head.writeUInt32LE(kept.length, 8);
  head.writeUInt32LE(ops.length, 12);
  head.writeUInt32LE(numbers.length, 16);
  head.writeUInt32LE(paths.length, 20);
  head.writeUInt32LE(table.length, 24);
  // Node's crc32 returns 0 for an empty buffer whatever the running value: empty parts are left out.
  head.writeUInt32LE(body.reduce((sum, part) => (part.length === 0 ? sum : crc32(part, sum)), crc32(head.subarray(8))), 4);
  return { bytes: Buffer.concat([head, ...body]), entries: kept.length };
}

/** The entries' extracts list by list, encoded; undefined when one holds what is not plain data. */
function encodeEntries(entries: readonly BlockEntry[]): EncodedRecords | undefined {
  const lists: Record<string, unknown> = {};
  const counts: Record<string, number[]> = {};
  entries.forEach((entry, i) => {
    for (const field in entry.extract) {
      const items = entry.extract[field];
      (counts[field] ??= new Array<number>(entries.length).fill(0))[i] = Array.isArray(items) ? items.length : 1;
      const list = (lists[field] ??= Array.isArray(items) ? [] : items);
      // Anything but a list is stored as it is, and the block refused when read.
      if (Array.isArray(items) && Array.isArray(list)) for (const item of items) list.push(item);
    }
  });
  const encoder = new RecordEncoder();
  try {
    encoder.add({ lists, counts });
  } catch (error) {
    if (error instanceof NotPlainDataError) return undefined;
    throw error;
  }
  return encoder.finish();
}

/** Where a block's parts begin, from its head; undefined when they do not add up to its length. */
function blockParts(bytes: Buffer): { count: number; numbersAt: number; opsAt: number; pathsAt: number; tableAt: number } | undefined {
  const count = bytes.readUInt32LE(8);
  const numbersAt = BLOCK_HEAD + 16 * count;
  const opsAt = numbersAt + 8 * bytes.readUInt32LE(16);
  const pathsAt = opsAt + 4 * bytes.readUInt32LE(12);
  const tableAt = pathsAt + bytes.readUInt32LE(20);
  return count > 0 && tableAt + bytes.readUInt32LE(24) === bytes.length ? { count, numbersAt, opsAt, pathsAt, tableAt } : undefined;
}

/** Typed arrays need aligned bytes: a copy of a block's part. */
const aligned = (bytes: Buffer, from: number, to: number): ArrayBuffer => (bytes.buffer as ArrayBuffer).slice(bytes.byteOffset + from, bytes.byteOffset + to);

/**
 * Reads a block whose checksum is right: its paths, sizes and times now, its table and
 * extracts when first taken.
 *
 * @returns the block, or undefined when it is not well formed.
 */
export function readBlock(bytes: Buffer): Block | undefined {
  const parts = blockParts(bytes);
  if (!parts) return undefined;
  let paths: unknown;
  try {
    paths = JSON.parse(bytes.toString('utf8', parts.pathsAt, parts.tableAt));
  } catch {
    return undefined;
  }
  if (!Array.isArray(paths) || paths.length !== parts.count || !paths.every((p) => typeof p === 'string')) return undefined;
  return { bytes, count: parts.count, paths: paths as string[], files: new Float64Array(aligned(bytes, BLOCK_HEAD, parts.numbersAt)) };
}

/**
 * Decodes a block's extracts and checks their shape: every list a known field's array, its
 * counts one whole number per entry adding up to its length.
 *
 * @returns the decoded block, or null when it is damaged.
 */
export function decodeBlock(block: Block): DecodedBlock | null {
  const bytes = block.bytes!;
  const parts = blockParts(bytes)!;
  let value: unknown;
  try {
    const table = JSON.parse(bytes.toString('utf8', parts.tableAt)) as unknown;
    if (!Array.isArray(table) || table.length !== 2 || !Array.isArray(table[0]) || !Array.isArray(table[1])) return null;
    const [strings, shapes] = table as [unknown[], string[][]];
    if (!strings.every((s) => typeof s === 'string')) return null;
    [value] = decodeRecords({
      strings: strings as string[], shapes,
      numbers: new Float64Array(aligned(bytes, parts.numbersAt, parts.opsAt)), ops: new Uint32Array(aligned(bytes, parts.opsAt, parts.pathsAt)),
    }, 1);
  } catch {
    return null;
  }
  const { lists, counts } = (value ?? {}) as { lists?: unknown; counts?: unknown };
  if (!isRecord(lists) || !isRecord(counts) || Object.keys(lists).length !== Object.keys(counts).length) return null;
  const offsets: DecodedBlock['offsets'] = {};
  for (const field in lists) {
    const items = lists[field];
    const perEntry = counts[field];
    if (!FIELDS.has(field) || !Array.isArray(items) || !Array.isArray(perEntry) || perEntry.length !== block.count) return null;
    const at = new Uint32Array(block.count + 1);
    for (let i = 0; i < block.count; i++) {
      const n = perEntry[i] as unknown;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return null;
      at[i + 1] = at[i]! + n;
    }
    if (at[block.count] !== items.length) return null;
    offsets[field as ExtractList] = at;
  }
  return { lists: lists as Partial<FileExtract>, offsets };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
