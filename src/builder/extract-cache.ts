/**
 * The incremental build cache (`build --cache DIR`): the extracts of filing documents that
 * earlier builds parsed, of files that name an accession number, by path. EDGAR never changes a
 * filing's documents once accepted, so a daily rebuild parses only the new filings. Files
 * without an accession number in their name or folder (ticker files, submissions and company
 * facts JSON, which EDGAR rewrites every night, and the bulk archives) are read every time.
 *
 * An entry is used only when it is whole and the builder's own: each segment file starts with
 * the fingerprint of the builder's code (a new builder ignores an old cache), each block of
 * entries carries the CRC-32 of its bytes, and the file's path, size and modification time must
 * match what the entry was made from. Anything else (a torn write, a flipped bit, another
 * program's file, a changed file) is ignored and the file parsed again; it is never trusted: a
 * damaged block loses all its entries.
 *
 * Layout: `DIR/segment-*.eqfc`, each `EQFCACHE 4 LE <fingerprint>\n` (LE or BE: the byte order
 * of the typed arrays below, as they lie in memory) then blocks of up to {@link BLOCK_ENTRIES}
 * entries: a head of six u32 LE (the length of what follows the head, the CRC-32 of everything
 * after itself, the entries, the operations, the numbers, the table's bytes), then the index
 * (per entry its path as an index into the strings, its size and its mtimeMs, f64), the numbers
 * (f64), the operations (u32) and the table (UTF-8 JSON `[strings, shapes]`) of the entries' extracts without their empty lists, encoded by
 * record-codec.ts. A block is one unit: one checksum, one table of strings and shapes shared
 * by its entries, one decode. Opening the cache checks every block's CRC and reads its table
 * and index; a block's extracts are decoded when the build takes the first of them, so the
 * walk can run ahead to the files to parse and the extract workers parse them while the rest is
 * read back.
 * A build appends one segment with what it parsed; when dead entries outweigh live ones, or
 * segments pile up, it writes the live entries into one segment and removes the others.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { accessionFromName } from '../edgar/conventions.js';
import type { FileExtract } from './file-extract.js';
import { decodeRecords, NotPlainDataError, RecordEncoder, type EncodedRecords } from './record-codec.js';
import type { WalkedFile } from './walk.js';

/** Format 4, and the machine's byte order: the index, numbers and operations are typed arrays written as they lie in memory. */
const MAGIC = `EQFCACHE 4 ${endianness()} `;
const SUFFIX = '.eqfc';
/** Segments kept before they are merged into one. */
const MAX_SEGMENTS = 8;
/** Entries per block: few enough that a damaged block costs little, many enough that its table of strings is shared widely. */
export const BLOCK_ENTRIES = 256;
/** Bytes of a block's head: its length, CRC-32, entries, operations, numbers and table bytes. */
const BLOCK_HEAD = 24;

/** A block read from a segment: its extracts are decoded when the first of them is taken. */
interface Block {
  /** The encoded extracts, until decoded. */
  encoded: EncodedRecords | null;
  /** The extracts, once decoded; null when they turned out damaged. */
  extracts?: unknown[] | null;
  count: number;
}

interface Entry {
  /** The file's path when it was parsed, and the entry's key: paths inside the extract name it (a moved folder is parsed again). */
  path: string;
  size: number;
  mtimeMs: number;
  /** The extract without its empty lists (most of a file's eighteen lists are empty); absent until taken from its block. */
  extract?: Partial<FileExtract>;
  block?: Block;
  /** The entry's place in its block. */
  index: number;
}

/** What the cache did in one build. */
export interface CacheStats {
  /** Entries read from the cache folder. */
  loaded: number;
  /** Files whose extract came from the cache. */
  hits: number;
  /** Cacheable files parsed (new, changed, or without a usable entry). */
  misses: number;
  /** Entries passed over as damaged (in a block of bad length or checksum, or of a bad shape). */
  corrupt: number;
  /** Segments passed over as another builder's (or not a cache segment at all). */
  foreign: number;
  /** Entries written at the end of the build. */
  written: number;
}

/**
 * Whether a file may be cached: whether it names an accession number, in its name or in its
 * folder as in EDGAR's Archives layout (`…/<cik>/<accession>/<document>`). Other files (ticker
 * files, submissions and company facts JSON, bulk archives) are read every time.
 */
export function isCacheable(path: string): boolean {
  return accessionFromName(basename(path)) !== undefined || accessionFromName(basename(dirname(path))) !== undefined;
}

const ARRAY_FIELDS = ['tickers', 'companies', 'filings', 'ownership', 'thirteenF', 'looseThirteenF', 'looseHtml', 'looseOwnership', 'headerJson',
  'companyFacts', 'submissionsAcceptance', 'plainTextOwnership', 'headerProfiles', 'unmappedItemTitles', 'skipped', 'dataSetOwnership', 'dataSetThirteenF', 'dataSets'] as const;
const FIELDS: ReadonlySet<string> = new Set(ARRAY_FIELDS);

function isExtract(value: unknown): value is Partial<FileExtract> {
  const extract = value as Record<string, unknown> | null;
  return typeof extract === 'object' && extract !== null && Object.keys(extract).every((field) => FIELDS.has(field) && Array.isArray(extract[field]));
}

/** Drops the empty lists of an extract for storage. */
function compact(extract: FileExtract): Partial<FileExtract> {
  const out: Record<string, unknown> = {};
  for (const field of ARRAY_FIELDS) if (extract[field].length > 0) out[field] = extract[field];
  return out as Partial<FileExtract>;
}

/** A cache folder opened for one build. */
export class ExtractCache {
  readonly #dir: string;
  readonly #fingerprint: string;
  readonly #entries = new Map<string, Entry>();
  readonly #segments: string[] = [];
  /** Segments of another builder (or not segments at all): this builder can never use them. */
  readonly #foreign: string[] = [];
  readonly #used = new Set<string>();
  readonly #fresh: Entry[] = [];
  readonly stats: CacheStats = { loaded: 0, hits: 0, misses: 0, corrupt: 0, foreign: 0, written: 0 };

  private constructor(dir: string, fingerprint: string) {
    this.#dir = dir;
    this.#fingerprint = fingerprint;
  }

  /**
   * Opens (and creates) a cache folder and reads its entries.
   *
   * @param dir - the folder.
   * @param fingerprint - the builder's fingerprint (fingerprint.ts); segments of another are ignored.
   * @throws Error when the folder cannot be created or read.
   */
  static async open(dir: string, fingerprint: string): Promise<ExtractCache> {
    const cache = new ExtractCache(dir, fingerprint);
    await mkdir(dir, { recursive: true });
    const names = (await readdir(dir)).filter((name) => name.endsWith(SUFFIX)).sort();
    for (const name of names) {
      let bytes: Buffer;
      try {
        bytes = await readFile(join(dir, name));
      } catch {
        continue; // Removed by a build that merged segments meanwhile.
      }
      if (cache.#load(bytes)) cache.#segments.push(name);
      else cache.#foreign.push(name);
    }
    return cache;
  }

  /** Reads a segment's entries; false when it is not this builder's. */
  #load(bytes: Buffer): boolean {
    const newline = bytes.indexOf(0x0a);
    if (newline === -1 || bytes.toString('utf8', 0, newline) !== `${MAGIC}${this.#fingerprint}`) {
      this.stats.foreign++;
      return false;
    }
    let at = newline + 1;
    while (at < bytes.length) {
      if (at + BLOCK_HEAD > bytes.length) {
        this.stats.corrupt++;
        return true;
      }
      const length = bytes.readUInt32LE(at);
      const count = bytes.readUInt32LE(at + 8);
      const end = at + BLOCK_HEAD + length;
      if (end > bytes.length) {
        // A torn write: the rest of the segment cannot be framed.
        this.stats.corrupt += Math.max(1, count);
        return true;
      }
      const sum = bytes.readUInt32LE(at + 4);
      const block = crc32(bytes.subarray(at + 8, end)) === sum ? readBlock(bytes.subarray(at, end)) : undefined;
      at = end;
      if (!block) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      for (const entry of block) this.#entries.set(entry.path, entry);
      this.stats.loaded += block.length;
    }
    return true;
  }

  /**
   * Whether the cache holds an entry made from this very file (same path, size and modification
   * time): then {@link take} gives its extract; else parse the file and {@link put} it. Only
   * the cache's index is read here, so a walk can run ahead to the files to parse.
   */
  has(file: WalkedFile): boolean {
    const entry = this.#entries.get(file.path);
    if (entry && entry.size === file.size && entry.mtimeMs === file.mtimeMs) {
      this.#used.add(file.path);
      this.stats.hits++;
      return true;
    }
    // Only files with an accession number are ever stored; the others are no misses.
    if (isCacheable(file.path)) this.stats.misses++;
    return false;
  }

  /**
   * The extract of a file {@link has} found, decoded with its block on first use.
   *
   * @returns the extract, or undefined when its block turns out damaged (then parse the file and {@link put} it).
   */
  take(file: WalkedFile): Partial<FileExtract> | undefined {
    const entry = this.#entries.get(file.path);
    const extract = entry ? this.#extract(entry) : undefined;
    if (extract === undefined) {
      this.#used.delete(file.path);
      this.stats.hits--;
      this.stats.misses++;
    }
    return extract;
  }

  #extract(entry: Entry): Partial<FileExtract> | undefined {
    if (entry.extract !== undefined || entry.block === undefined) return entry.extract;
    const block = entry.block;
    if (block.extracts === undefined) {
      try {
        block.extracts = decodeRecords(block.encoded!, block.count);
      } catch {
        block.extracts = null;
      }
      block.encoded = null;
      if (block.extracts === null) this.stats.corrupt += block.count;
    }
    const extract = block.extracts?.[entry.index];
    entry.block = undefined;
    if (!isExtract(extract)) {
      if (block.extracts) this.stats.corrupt++;
      return undefined;
    }
    entry.extract = extract;
    return extract;
  }

  /** Stores a file's extract (written by {@link save}); files without an accession number, and failed reads, are not stored. */
  put(file: WalkedFile, extract: FileExtract): void {
    if (!isCacheable(file.path) || extract.deferred || extract.skipped.some((s) => s.reason.startsWith('cannot read'))) return;
    const entry = { path: file.path, size: file.size, mtimeMs: file.mtimeMs, extract: compact(extract), index: 0 };
    this.#entries.set(file.path, entry);
    this.#used.add(file.path);
    this.#fresh.push(entry);
  }

  /**
   * Writes what this build parsed as a new segment, or, when dead entries outweigh live ones or
   * segments pile up, all live entries as one segment in place of the others. A segment is
   * written under a temporary name and renamed, so a reader never sees half of one. Foreign
   * segments are removed.
   */
  async save(): Promise<void> {
    await Promise.all(this.#foreign.map((segment) => rm(join(this.#dir, segment), { force: true })));
    const live = this.#used.size;
    const dead = this.#entries.size - live;
    const merge = this.#segments.length + 1 > MAX_SEGMENTS || dead > live;
    const entries = (merge ? [...this.#used].map((key) => this.#entries.get(key)!) : this.#fresh).filter((entry) => this.#extract(entry) !== undefined);
    if (entries.length === 0 && !merge) return;
    const name = `segment-${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}${SUFFIX}`;
    const parts: Buffer[] = [Buffer.from(`${MAGIC}${this.#fingerprint}\n`)];
    let written = 0;
    for (let i = 0; i < entries.length; i += BLOCK_ENTRIES) {
      const block = encodeBlock(entries.slice(i, i + BLOCK_ENTRIES).map((e) => ({ path: e.path, size: e.size, mtimeMs: e.mtimeMs, extract: e.extract })));
      if (block) {
        parts.push(block.bytes);
        written += block.entries;
      }
    }
    const temporary = join(this.#dir, `.${name}.tmp`);
    await writeFile(temporary, Buffer.concat(parts));
    await rename(temporary, join(this.#dir, name));
    this.stats.written = written;
    if (merge) await Promise.all(this.#segments.map((segment) => rm(join(this.#dir, segment), { force: true })));
  }
}

/** One entry of a block to write: a file and its extract. */
export interface BlockEntry {
  path: string;
  size: number;
  mtimeMs: number;
  extract: unknown;
}

/**
 * Encodes entries as one block (layout in the module comment). An entry whose extract is not
 * plain data (record-codec.ts) is left out: its file is parsed again next time.
 *
 * @returns the block's bytes and how many entries it holds, or undefined when it holds none.
 */
export function encodeBlock(entries: readonly BlockEntry[]): { bytes: Buffer; entries: number } | undefined {
  const encoder = new RecordEncoder();
  const index: number[] = [];
  for (const entry of entries) {
    try {
      encoder.add(entry.extract);
    } catch (error) {
      if (error instanceof NotPlainDataError) continue;
      throw error;
    }
    index.push(encoder.string(entry.path), entry.size, entry.mtimeMs);
  }
  if (encoder.count === 0) return undefined;
  const { strings, shapes, ops, numbers } = encoder.finish();
  const table = Buffer.from(JSON.stringify([strings, shapes]));
  const head = Buffer.alloc(BLOCK_HEAD);
  const body = [Buffer.from(Float64Array.from(index).buffer), Buffer.from(numbers.buffer), Buffer.from(ops.buffer), table];
  head.writeUInt32LE(body.reduce((sum, part) => sum + part.length, 0), 0);
  head.writeUInt32LE(encoder.count, 8);
  head.writeUInt32LE(ops.length, 12);
  head.writeUInt32LE(numbers.length, 16);
  head.writeUInt32LE(table.length, 20);
  // Node's crc32 returns 0 for an empty buffer whatever the running value: empty parts are left out.
  head.writeUInt32LE(body.reduce((sum, part) => (part.length === 0 ? sum : crc32(part, sum)), crc32(head.subarray(8))), 4);
  return { bytes: Buffer.concat([head, ...body]), entries: encoder.count };
}

/**
 * Reads a block whose checksum is right: its table and index now, its extracts when first taken.
 *
 * @returns its entries, or undefined when it is not well formed.
 */
function readBlock(bytes: Buffer): Entry[] | undefined {
  const count = bytes.readUInt32LE(8);
  const ops = bytes.readUInt32LE(12);
  const numbers = bytes.readUInt32LE(16);
  const tableBytes = bytes.readUInt32LE(20);
  const indexAt = BLOCK_HEAD;
  const numbersAt = indexAt + 24 * count;
  const opsAt = numbersAt + 8 * numbers;
  const tableAt = opsAt + 4 * ops;
  if (count === 0 || tableAt + tableBytes !== bytes.length) return undefined;
  let table: unknown;
  try {
    table = JSON.parse(bytes.toString('utf8', tableAt, tableAt + tableBytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(table) || table.length !== 2 || !Array.isArray(table[0]) || !Array.isArray(table[1])) return undefined;
  const [strings, shapes] = table as [unknown[], unknown[]];
  if (!strings.every((s) => typeof s === 'string')) return undefined;
  // Typed arrays need aligned bytes: copies of their parts.
  const aligned = (from: number, to: number): ArrayBuffer => (bytes.buffer as ArrayBuffer).slice(bytes.byteOffset + from, bytes.byteOffset + to);
  const index = new Float64Array(aligned(indexAt, numbersAt));
  const block: Block = {
    encoded: { strings: strings as string[], shapes: shapes as string[][], numbers: new Float64Array(aligned(numbersAt, opsAt)), ops: new Uint32Array(aligned(opsAt, tableAt)) },
    count,
  };
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const path = strings[index[3 * i]!];
    if (typeof path !== 'string') return undefined;
    entries.push({ path, size: index[3 * i + 1]!, mtimeMs: index[3 * i + 2]!, block, index: i });
  }
  return entries;
}
