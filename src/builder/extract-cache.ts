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
 * Layout: `DIR/segment-*.eqfc`, each `EQFCACHE 3 <fingerprint>\n` then blocks
 * `[u32 LE length][u32 LE CRC-32][u32 LE entries][u32 LE index length][index][extracts]`: the
 * index a v8-serialised `[paths, [size, mtimeMs, …]]`, the extracts a v8-serialised array of the
 * entries' extracts without their empty lists, the CRC covering everything after itself. Entries
 * go in blocks of {@link BLOCK_ENTRIES} because one `deserialize` call per entry costs more than
 * the entry. Opening the cache checks every block's CRC and reads the indexes only; a block's
 * extracts are deserialised when the build takes the first of them, so the walk can run ahead
 * to the files to parse and the extract workers parse them while the rest is read back.
 * A build appends one segment with what it parsed; when dead entries outweigh live ones, or
 * segments pile up, it writes the live entries into one segment and removes the others.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { accessionFromName } from '../edgar/conventions.js';
import type { FileExtract } from './file-extract.js';
import type { WalkedFile } from './walk.js';

const MAGIC = 'EQFCACHE 3 ';
const SUFFIX = '.eqfc';
/** Segments kept before they are merged into one. */
const MAX_SEGMENTS = 8;
/** Entries per block: few enough that a damaged block costs little, many enough that one `deserialize` call per block is cheap. */
export const BLOCK_ENTRIES = 256;
/** Bytes before a block's index: its length, CRC-32, entry count and the index's length. */
const BLOCK_HEAD = 16;

/** A block read from a segment: its extracts are deserialised when the first of them is taken. */
interface Block {
  /** The serialised array of extracts, until deserialised. */
  bytes: Buffer | null;
  /** The extracts, once deserialised; null when they turned out damaged. */
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

/** A block's index, `[paths, [size, mtimeMs, size, mtimeMs, …]]`, when well shaped. */
function isIndex(value: unknown, count: number): value is [string[], number[]] {
  if (!Array.isArray(value) || value.length !== 2) return false;
  const [paths, numbers] = value as unknown[];
  return Array.isArray(paths) && Array.isArray(numbers) && paths.length === count && numbers.length === 2 * count
    && paths.every((p) => typeof p === 'string') && numbers.every((n) => typeof n === 'number');
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
      const indexLength = bytes.readUInt32LE(at + 12);
      const end = at + BLOCK_HEAD + length;
      if (end > bytes.length || indexLength > length) {
        // A torn write: the rest of the segment cannot be framed.
        this.stats.corrupt += Math.max(1, count);
        return true;
      }
      const sum = bytes.readUInt32LE(at + 4);
      const counted = bytes.subarray(at + 8, end);
      const indexStart = at + BLOCK_HEAD;
      at = end;
      if (crc32(counted) !== sum) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      let index: unknown;
      try {
        index = deserialize(bytes.subarray(indexStart, indexStart + indexLength));
      } catch {
        index = undefined;
      }
      if (!isIndex(index, count)) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      const block: Block = { bytes: bytes.subarray(indexStart + indexLength, end), count };
      const [paths, numbers] = index;
      for (let i = 0; i < count; i++) {
        this.#entries.set(paths[i]!, { path: paths[i]!, size: numbers[2 * i]!, mtimeMs: numbers[2 * i + 1]!, block, index: i });
      }
      this.stats.loaded += count;
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
   * The extract of a file {@link has} found, deserialised with its block on first use.
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
        const extracts = deserialize(block.bytes!) as unknown;
        block.extracts = Array.isArray(extracts) && extracts.length === block.count ? extracts : null;
      } catch {
        block.extracts = null;
      }
      block.bytes = null;
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
    for (let i = 0; i < entries.length; i += BLOCK_ENTRIES) {
      const block = entries.slice(i, i + BLOCK_ENTRIES);
      const index = serialize([block.map((e) => e.path), block.flatMap((e) => [e.size, e.mtimeMs])]);
      const extracts = serialize(block.map((e) => e.extract));
      const head = Buffer.alloc(BLOCK_HEAD);
      head.writeUInt32LE(index.length + extracts.length, 0);
      head.writeUInt32LE(block.length, 8);
      head.writeUInt32LE(index.length, 12);
      head.writeUInt32LE(crc32(extracts, crc32(index, crc32(head.subarray(8)))), 4);
      parts.push(head, index, extracts);
    }
    const temporary = join(this.#dir, `.${name}.tmp`);
    await writeFile(temporary, Buffer.concat(parts));
    await rename(temporary, join(this.#dir, name));
    this.stats.written = entries.length;
    if (merge) await Promise.all(this.#segments.map((segment) => rm(join(this.#dir, segment), { force: true })));
  }
}
