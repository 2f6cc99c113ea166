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
 * Layout: `DIR/segment-*.eqfc`, each `EQFCACHE 2 <fingerprint>\n` then blocks
 * `[u32 LE length][u32 LE CRC-32][u32 LE entries][v8-serialised array of {path, size, mtimeMs, extract without its empty lists}]`,
 * the CRC covering the entry count and the array. Entries go in blocks of {@link BLOCK_ENTRIES}
 * because one `deserialize` call per entry costs more than the entry (a rebuild reads back
 * every filing's). A build appends one segment with what it parsed; when dead entries outweigh
 * live ones, or segments pile up, it writes the live entries into one segment and removes the
 * others.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { accessionFromName } from '../edgar/conventions.js';
import type { FileExtract } from './file-extract.js';
import type { WalkedFile } from './walk.js';

const MAGIC = 'EQFCACHE 2 ';
const SUFFIX = '.eqfc';
/** Segments kept before they are merged into one. */
const MAX_SEGMENTS = 8;
/** Entries per block: few enough that a damaged block costs little, many enough that one `deserialize` call per block is cheap. */
export const BLOCK_ENTRIES = 256;
/** Bytes before a block's array: its length, CRC-32 and entry count. */
const BLOCK_HEAD = 12;

interface Entry {
  /** The file's path when it was parsed, and the entry's key: paths inside the extract name it (a moved folder is parsed again). */
  path: string;
  size: number;
  mtimeMs: number;
  /** The extract without its empty lists: most of a file's eighteen lists are empty, and each costs an object to store and to read back. */
  extract: Partial<FileExtract>;
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
 * The accession number and name of a file, which make it cacheable (its accession number from
 * its name, or its folder as in EDGAR's Archives layout); undefined for a file that names no
 * accession number, which is read every time.
 */
export function cacheKey(path: string): string | undefined {
  const accession = accessionFromName(basename(path)) ?? accessionFromName(basename(dirname(path)));
  return accession ? `${accession}/${basename(path)}` : undefined;
}

const ARRAY_FIELDS = ['tickers', 'companies', 'filings', 'ownership', 'thirteenF', 'looseThirteenF', 'looseHtml', 'looseOwnership', 'headerJson',
  'companyFacts', 'submissionsAcceptance', 'plainTextOwnership', 'headerProfiles', 'unmappedItemTitles', 'skipped', 'dataSetOwnership', 'dataSetThirteenF', 'dataSets'] as const;
const FIELDS: ReadonlySet<string> = new Set(ARRAY_FIELDS);

function isEntry(value: unknown): value is Entry {
  const entry = value as Entry | null;
  if (typeof entry !== 'object' || entry === null || typeof entry.path !== 'string' || typeof entry.size !== 'number' || typeof entry.mtimeMs !== 'number') return false;
  const extract = entry.extract as unknown as Record<string, unknown> | null;
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
   * @param fingerprint - the builder's fingerprint ({@link builderFingerprint}); segments of another are ignored.
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
      const payload = bytes.subarray(at + BLOCK_HEAD, end);
      const counted = bytes.subarray(at + 8, end);
      at = end;
      if (crc32(counted) !== sum) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      let entries: unknown;
      try {
        entries = deserialize(payload);
      } catch {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      if (!Array.isArray(entries)) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      for (const entry of entries) {
        if (!isEntry(entry)) {
          this.stats.corrupt++;
          continue;
        }
        this.#entries.set(entry.path, entry);
        this.stats.loaded++;
      }
    }
    return true;
  }

  /**
   * The cached extract of a file, when the cache holds one made from this very file (same path,
   * size and modification time).
   *
   * @returns the extract, or undefined (then parse the file and {@link put} it).
   */
  get(file: WalkedFile): Partial<FileExtract> | undefined {
    const entry = this.#entries.get(file.path);
    if (entry && entry.size === file.size && entry.mtimeMs === file.mtimeMs) {
      this.#used.add(file.path);
      this.stats.hits++;
      return entry.extract;
    }
    // Only files with an accession number are ever stored; the others are no misses.
    if (cacheKey(file.path) !== undefined) this.stats.misses++;
    return undefined;
  }

  /** Stores a file's extract (written by {@link save}); files without an accession number, and failed reads, are not stored. */
  put(file: WalkedFile, extract: FileExtract): void {
    if (cacheKey(file.path) === undefined || extract.deferred || extract.skipped.some((s) => s.reason.startsWith('cannot read'))) return;
    const entry = { path: file.path, size: file.size, mtimeMs: file.mtimeMs, extract: compact(extract) };
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
    const entries = merge ? [...this.#used].map((key) => this.#entries.get(key)!) : this.#fresh;
    if (entries.length === 0 && !merge) return;
    const name = `segment-${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}${SUFFIX}`;
    const parts: Buffer[] = [Buffer.from(`${MAGIC}${this.#fingerprint}\n`)];
    for (let i = 0; i < entries.length; i += BLOCK_ENTRIES) {
      const block = entries.slice(i, i + BLOCK_ENTRIES);
      const payload = serialize(block);
      const head = Buffer.alloc(BLOCK_HEAD);
      head.writeUInt32LE(payload.length, 0);
      head.writeUInt32LE(block.length, 8);
      head.writeUInt32LE(crc32(payload, crc32(head.subarray(8))), 4);
      parts.push(head, payload);
    }
    const temporary = join(this.#dir, `.${name}.tmp`);
    await writeFile(temporary, Buffer.concat(parts));
    await rename(temporary, join(this.#dir, name));
    this.stats.written = entries.length;
    if (merge) await Promise.all(this.#segments.map((segment) => rm(join(this.#dir, segment), { force: true })));
  }
}

/**
 * A fingerprint of the builder's code: the SHA-256 of the readers', the builder's and the
 * computations' own files (source or compiled, whichever runs), so that a cache written by
 * another version of the builder is never used.
 */
export async function builderFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const folder of ['../edgar/', './', '../facts/']) {
    const dir = new URL(folder, import.meta.url);
    for (const name of (await readdir(dir)).filter((n) => /\.(ts|js)$/.test(n) && !n.endsWith('.d.ts')).sort()) {
      hash.update(name).update(await readFile(new URL(name, dir)));
    }
  }
  return hash.digest('hex').slice(0, 32);
}
