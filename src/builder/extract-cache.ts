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
 * Layout: `DIR/segment-*.eqfc`, each `EQFCACHE 6 LE <fingerprint>\n` (LE or BE: the byte order
 * of the blocks' typed arrays) then blocks of up to 256 entries (cache-block.ts). Opening the
 * cache checks every block's CRC and reads its paths, sizes and times; a block's extracts are
 * decoded when the build takes the first of them, so that the cache opens quickly, the walk runs
 * ahead to the files to parse, and the extract workers parse them while the rest is read back.
 * Entries are written in the order their files were walked, so a build meets them with a cursor
 * per segment as it walks (see {@link ExtractCache.find}).
 *
 * A build appends one segment with what it parsed; when dead entries outweigh live ones, or
 * segments pile up, it writes the live entries into one segment and removes the others.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { endianness } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { accessionFromName } from '../edgar/conventions.js';
import { BLOCK_ENTRIES, BLOCK_HEAD, compactExtract, decodeBlock, encodeBlock, entryPath, isEntryPath, readBlock, runExtract, type Block, type DecodedBlock } from './cache-block.js';
import type { FileExtract } from './file-extract.js';
import { walkOrder, type WalkedFile } from './walk.js';

/** Format 6 (a path inside an extract stored as a length of its entry's path), and the machine's byte order: sizes and times, numbers and operations are typed arrays written as they lie in memory. */
const MAGIC = `EQFCACHE 6 ${endianness()} `;
const SUFFIX = '.eqfc';
/** Segments kept before they are merged into one. */
const MAX_SEGMENTS = 8;
/** Blocks read between two turns of the event loop while the cache opens. */
const LOAD_TURN_BLOCKS = 4;

/**
 * A segment's blocks, whose entries are in walk order (a build writes them in the order it met
 * their files), and how far the walk has come through them: the next entry a file may match.
 */
interface Segment {
  blocks: Block[];
  block: number;
  entry: number;
}

/**
 * An entry this build found in the cache: its file's path, size and time are read from its
 * block, so that the hundred thousand of a rebuild are small objects that hold no string or
 * number of their own (they live as long as the build, and each young-generation collection
 * copies what lives).
 */
class FoundEntry {
  /** Whether its extract is whole (false once its block turned out damaged). */
  used = true;

  constructor(readonly block: Block, readonly index: number) {}

  /** The file's path when it was parsed, and the entry's key: paths inside the extract name it (a moved folder is parsed again). */
  get path(): string {
    return entryPath(this.block, this.index);
  }

  get size(): number {
    return this.block.files[2 * this.index]!;
  }

  get mtimeMs(): number {
    return this.block.files[2 * this.index + 1]!;
  }
}

/** An entry this build parsed. */
interface MadeEntry {
  path: string;
  size: number;
  mtimeMs: number;
  /** The extract without its empty lists (most of a file's eighteen lists are empty). */
  extract: Partial<FileExtract>;
  used: true;
}

/** An entry this build found in the cache or made. */
type Entry = FoundEntry | MadeEntry;

/** An entry of the cache (the file it was made from), as {@link ExtractCache.find} gives it to {@link ExtractCache.take}. */
export type CacheEntry = Readonly<Pick<Entry, 'path' | 'size' | 'mtimeMs'>>;

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

/** A cache folder opened for one build. */
export class ExtractCache {
  readonly #dir: string;
  readonly #fingerprint: string;
  /** This builder's segments, oldest first (their names begin with the time they were written). */
  readonly #segments: string[] = [];
  readonly #read: Segment[] = [];
  /** Segments of another builder (or not segments at all): this builder can never use them. */
  readonly #foreign: string[] = [];
  /** Entries found or made by this build, in the walk's order. */
  readonly #used: Entry[] = [];
  readonly #fresh: Entry[] = [];
  /** Blocks of entries found and not decoded yet, in the order found (see {@link decodeAhead}). */
  readonly #ahead: Block[] = [];
  /** Wakes {@link decodeAhead} when a block is found. */
  #wakeAhead: (() => void) | undefined;
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
        bytes = await readWhole(join(dir, name));
      } catch {
        continue; // Removed by a build that merged segments meanwhile.
      }
      const segment = await cache.#load(bytes);
      if (segment) {
        cache.#segments.push(name);
        cache.#read.push(segment);
      } else {
        cache.#foreign.push(name);
      }
    }
    return cache;
  }

  /**
   * Reads a segment's blocks; undefined when it is not this builder's. It lets other work in
   * every {@link LOAD_TURN_BLOCKS} blocks (a build walks its input meanwhile).
   */
  async #load(bytes: Buffer): Promise<Segment | undefined> {
    const segment: Segment = { blocks: [], block: 0, entry: 0 };
    const newline = bytes.indexOf(0x0a);
    if (newline === -1 || bytes.toString('utf8', 0, newline) !== `${MAGIC}${this.#fingerprint}`) {
      this.stats.foreign++;
      return undefined;
    }
    let at = newline + 1;
    while (at < bytes.length) {
      if (at + BLOCK_HEAD > bytes.length) {
        this.stats.corrupt++;
        return segment;
      }
      const length = bytes.readUInt32LE(at);
      const count = bytes.readUInt32LE(at + 8);
      const end = at + BLOCK_HEAD + length;
      if (end > bytes.length) {
        // A torn write: the rest of the segment cannot be framed.
        this.stats.corrupt += Math.max(1, count);
        return segment;
      }
      const sum = bytes.readUInt32LE(at + 4);
      const block = crc32(bytes.subarray(at + 8, end)) === sum ? readBlock(bytes.subarray(at, end)) : undefined;
      at = end;
      if (!block) {
        this.stats.corrupt += Math.max(1, count);
        continue;
      }
      segment.blocks.push(block);
      this.stats.loaded += block.count;
      if (segment.blocks.length % LOAD_TURN_BLOCKS === 0) await new Promise(setImmediate);
    }
    return segment;
  }

  /**
   * The entry made from this very file (same path, size and modification time), if the cache
   * holds one: then {@link take} gives its extract; else parse the file and {@link put} it.
   * Only the cache's index is read here, so a walk can run ahead to the files to parse.
   *
   * Call it once per file, in walk order (as the build does): each segment's entries are in
   * walk order, so each is met by a cursor rather than looked up, and no index of every path
   * is built. A file asked for out of order is not found (it is parsed again), never mistaken.
   * Where several segments hold a path, the newest decides.
   */
  find(file: WalkedFile): CacheEntry | undefined {
    for (let s = this.#read.length - 1; s >= 0; s--) {
      const segment = this.#read[s]!;
      const block = seek(segment, file.path);
      if (block === undefined) continue;
      const index = segment.entry++;
      if (block.files[2 * index] !== file.size || block.files[2 * index + 1] !== file.mtimeMs) break;
      // It keeps the block's path, not the walk's: the walk's strings (built by concatenation,
      // and flattened once compared) then die young instead of living as long as the build.
      const entry = new FoundEntry(block, index);
      this.#used.push(entry);
      if (block.decoded === undefined && this.#ahead.at(-1) !== block) {
        this.#ahead.push(block);
        this.#wakeAhead?.();
      }
      this.stats.hits++;
      return entry;
    }
    // Only files with an accession number are ever stored; the others are no misses.
    if (isCacheable(file.path)) this.stats.misses++;
    return undefined;
  }

  /**
   * The extract of an entry {@link find} gave, its block decoded on first use.
   *
   * @returns the decoded block and the entry's place in it, or undefined when its block turns
   *   out damaged (then parse the file and {@link put} it).
   */
  take(found: CacheEntry): { block: DecodedBlock; index: number } | undefined {
    if (!(found instanceof FoundEntry)) return undefined;
    const block = this.#decoded(found.block);
    if (block === undefined) {
      found.used = false;
      this.stats.hits--;
      this.stats.misses++;
      return undefined;
    }
    return { block, index: found.index };
  }

  /**
   * Decodes the blocks of the entries found so far before they are taken, one block (about a
   * millisecond) per turn of the event loop, until the returned function is called: a rebuild's
   * main thread waits for the walk's stats while the walk runs ahead of the merge, and decodes
   * meanwhile what the merge would decode later. Decoding is the same whenever it happens (a
   * damaged block is found so either way); blocks are decoded in the order their entries were
   * found, which is the order the merge takes them.
   *
   * @returns a function that stops the decoding after the block in hand.
   */
  decodeAhead(): () => void {
    let stopped = false;
    void (async () => {
      while (!stopped) {
        const block = this.#ahead.shift();
        if (block === undefined) {
          await new Promise<void>((wake) => (this.#wakeAhead = wake));
          this.#wakeAhead = undefined;
          continue;
        }
        this.#decoded(block);
        await new Promise(setImmediate);
      }
    })();
    return () => {
      stopped = true;
      this.#ahead.length = 0;
      this.#wakeAhead?.();
    };
  }

  #decoded(block: Block): DecodedBlock | undefined {
    if (block.decoded === undefined) {
      block.decoded = decodeBlock(block);
      block.bytes = null;
      if (block.decoded === null) this.stats.corrupt += block.count;
    }
    return block.decoded ?? undefined;
  }

  /** An entry's own extract, for writing it again; undefined when its block is damaged. */
  #extract(entry: Entry): Partial<FileExtract> | undefined {
    if (!(entry instanceof FoundEntry)) return entry.extract;
    const block = this.#decoded(entry.block);
    return block && runExtract({ block, start: entry.index, end: entry.index + 1 });
  }

  /** Stores a file's extract (written by {@link save}); files without an accession number, and failed reads, are not stored. */
  put(file: WalkedFile, extract: FileExtract): void {
    if (!isCacheable(file.path) || extract.deferred || extract.skipped.some((s) => s.reason.startsWith('cannot read'))) return;
    const entry: MadeEntry = { path: file.path, size: file.size, mtimeMs: file.mtimeMs, extract: compactExtract(extract), used: true };
    this.#used.push(entry);
    this.#fresh.push(entry);
  }

  /**
   * Writes what this build parsed as a new segment, or, when dead entries outweigh live ones or
   * segments pile up, all live entries as one segment in place of the others. A segment is
   * written under a temporary name and renamed, so a reader never sees half of one; it is
   * written block by block as each is encoded, so that saving a year of filings holds one
   * block's bytes at a time, not the whole segment twice over. Foreign segments are removed.
   */
  async save(): Promise<void> {
    await Promise.all(this.#foreign.map((segment) => rm(join(this.#dir, segment), { force: true })));
    const used = this.#used.filter((entry) => entry.used);
    const live = used.length;
    // Entries of files not walked, changed, or written again in a newer segment.
    const dead = this.stats.loaded + this.#fresh.length - live;
    const merge = this.#segments.length + 1 > MAX_SEGMENTS || dead > live;
    const entries = merge ? used : this.#fresh;
    if (entries.length === 0 && !merge) return;
    const name = `segment-${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}${SUFFIX}`;
    const temporary = join(this.#dir, `.${name}.tmp`);
    const file = await open(temporary, 'w');
    let written = 0;
    try {
      await file.write(`${MAGIC}${this.#fingerprint}\n`);
      for (let i = 0; i < entries.length; i += BLOCK_ENTRIES) {
        const block = encodeBlock(entries.slice(i, i + BLOCK_ENTRIES).flatMap((entry) => {
          const extract = this.#extract(entry);
          return extract ? [{ path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, extract }] : [];
        }));
        if (!block) continue;
        await file.write(block.bytes);
        written += block.entries;
      }
    } catch (error) {
      await file.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await file.close();
    await rename(temporary, join(this.#dir, name));
    this.stats.written = written;
    if (merge) await Promise.all(this.#segments.map((segment) => rm(join(this.#dir, segment), { force: true })));
  }
}

/**
 * A file's bytes in one read (readFile reads a large file in chunks of 512 KiB, each a trip
 * through the thread pool: a 40 MB segment took about 60 ms that way).
 */
async function readWhole(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await file.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes.subarray(0, at);
  } finally {
    await file.close();
  }
}

/**
 * Moves a segment's cursor to `path`: past the entries whose files the walk has gone by (they
 * sort before it: not walked this time, so dead), up to the first that does not.
 *
 * @returns the block whose entry at the cursor has this path, or undefined when the segment holds no entry of it.
 */
function seek(segment: Segment, path: string): Block | undefined {
  while (segment.block < segment.blocks.length) {
    const block = segment.blocks[segment.block]!;
    if (segment.entry >= block.count) {
      segment.block++;
      segment.entry = 0;
      continue;
    }
    if (isEntryPath(block, segment.entry, path)) return block;
    if (walkOrder(entryPath(block, segment.entry), path) > 0) return undefined;
    segment.entry++;
  }
  return undefined;
}
