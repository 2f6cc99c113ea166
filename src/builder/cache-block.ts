/**
 * A block of the build cache (extract-cache.ts): up to {@link BLOCK_ENTRIES} entries, each a
 * file (path, size, mtimeMs) and its extract, stored and checked as one unit.
 *
 * Layout: a head of seven u32 LE (the length of what follows the head, the CRC-32 of everything
 * after itself, the entries, the operations, the numbers, the paths' bytes, the table's bytes),
 * then per entry its size and mtimeMs (f64), the numbers (f64), the operations (u32), the
 * entries' paths (UTF-8, each ended by a NUL) and the table (UTF-8 JSON `[strings, shapes]`). The typed arrays
 * are in the machine's byte order, which the segment's first line names. The extracts, without
 * their empty lists, are stored list by list (see {@link encodeEntries}), encoded by
 * record-codec.ts: one table of strings and object shapes shared by the block's entries, each
 * entry's path as the reference string of its items (a path in an extract is stored as a
 * length), and a run of consecutive entries merged list by list rather than file by file. Reading a block takes its paths, sizes and
 * times; its table and extracts are decoded when first needed.
 */
import { crc32 } from 'node:zlib';
import type { FileExtract } from './file-extract.js';
import { NotPlainDataError, RecordEncoder, recordReader, type EncodedRecords } from './record-codec.js';

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
  /** The entries' paths, each ended by a NUL (no path holds one): one string, not one per entry (see {@link entryPath}). */
  paths: string;
  /** Where each entry's path begins in `paths`, and where the next would: count + 1 offsets. */
  starts: Uint32Array;
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
 * Encodes entries as one block (layout in the module comment), the extracts list by list (see
 * {@link encodeEntries}). An entry whose extract is not plain data (record-codec.ts), or holds
 * a field that is not one of an extract's lists, is left out: its file is parsed again next time.
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
  const paths = Buffer.from(kept.map((entry) => `${entry.path}\0`).join(''));
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

/**
 * The entries' extracts list by list, encoded: first the counts (`{ [field]: items per entry }`),
 * then for each field in that order each entry's items, one value each, with the entry's path
 * as reference string (record-codec.ts), so that a path inside an extract is stored as a length.
 * Undefined when an extract holds what is not plain data, or a field that is not a known list.
 */
function encodeEntries(entries: readonly BlockEntry[]): EncodedRecords | undefined {
  const counts: Record<string, number[]> = {};
  for (let i = 0; i < entries.length; i++) {
    const extract = entries[i]!.extract;
    for (const field in extract) {
      const items = extract[field];
      if (!FIELDS.has(field) || !Array.isArray(items)) return undefined;
      (counts[field] ??= new Array<number>(entries.length).fill(0))[i] = items.length;
    }
  }
  const encoder = new RecordEncoder();
  try {
    encoder.add(counts);
    for (const field in counts) {
      for (const { path, extract } of entries) for (const item of (extract[field] as unknown[] | undefined) ?? []) encoder.add(item, path);
    }
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
  const paths = bytes.toString('utf8', parts.pathsAt, parts.tableAt);
  const starts = new Uint32Array(parts.count + 1);
  let at = 0;
  for (let i = 0; i < parts.count; i++) {
    const end = paths.indexOf('\0', at);
    // An empty path, or fewer paths than entries: not a block this builder wrote.
    if (end <= at) return undefined;
    at = end + 1;
    starts[i + 1] = at;
  }
  if (at !== paths.length) return undefined;
  return { bytes, count: parts.count, paths, starts, files: new Float64Array(aligned(bytes, BLOCK_HEAD, parts.numbersAt)) };
}

/**
 * An entry's path: a slice of the block's paths, which V8 keeps as a view of them rather than
 * a copy.
 */
export function entryPath(block: Block, index: number): string {
  return block.paths.slice(block.starts[index]!, block.starts[index + 1]! - 1);
}

/** Whether an entry's path is `path`, without making a string of it. */
export function isEntryPath(block: Block, index: number, path: string): boolean {
  const start = block.starts[index]!;
  return block.starts[index + 1]! - 1 - start === path.length && block.paths.startsWith(path, start);
}

/**
 * Decodes a block's extracts and checks their shape: the counts one whole number per entry for
 * known fields, and exactly as many items as they add up to.
 *
 * @returns the decoded block, or null when it is damaged.
 */
export function decodeBlock(block: Block): DecodedBlock | null {
  const bytes = block.bytes!;
  const parts = blockParts(bytes)!;
  const lists: Record<string, unknown[]> = {};
  const offsets: DecodedBlock['offsets'] = {};
  try {
    const table = JSON.parse(bytes.toString('utf8', parts.tableAt)) as unknown;
    if (!Array.isArray(table) || table.length !== 2 || !Array.isArray(table[0]) || !Array.isArray(table[1])) return null;
    const [strings, shapes] = table as [unknown[], string[][]];
    if (!strings.every((s) => typeof s === 'string')) return null;
    const ops = new Uint32Array(aligned(bytes, parts.opsAt, parts.pathsAt));
    const reader = recordReader({ strings: strings as string[], shapes, numbers: new Float64Array(aligned(bytes, parts.numbersAt, parts.opsAt)), ops });
    const counts = reader.read();
    if (!isRecord(counts)) return null;
    for (const field in counts) {
      const perEntry = counts[field];
      if (!FIELDS.has(field) || !Array.isArray(perEntry) || perEntry.length !== block.count) return null;
      const at = new Uint32Array(block.count + 1);
      for (let i = 0; i < block.count; i++) {
        const n = perEntry[i] as unknown;
        // Each item takes one operation at least: a larger count is damage, not a list to allocate.
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || at[i]! + n > ops.length) return null;
        at[i + 1] = at[i]! + n;
      }
      const items = new Array<unknown>(at[block.count]!);
      for (let i = 0, k = 0; i < block.count; i++) {
        if (at[i] === at[i + 1]) continue;
        const path = entryPath(block, i);
        for (let j = at[i]!; j < at[i + 1]!; j++) items[k++] = reader.read(path);
      }
      lists[field] = items;
      offsets[field as ExtractList] = at;
    }
    reader.end();
  } catch {
    return null;
  }
  return { lists: lists as Partial<FileExtract>, offsets };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
