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
 * Layout: `DIR/segment-*.eqfc` (cache-segment.ts), each `EQFCACHE 6 LE <fingerprint>\n` (LE or
 * BE: the byte order of the blocks' typed arrays) then blocks of up to 256 entries
 * (cache-block.ts), and while a build writes one, `DIR/.segment-*.eqfc.tmp`. Opening the
 * cache checks every block's CRC and reads its paths, sizes and times; a block's extracts are
 * decoded when the build takes the first of them, so that the cache opens quickly, the walk runs
 * ahead to the files to parse, and the extract workers parse them while the rest is read back.
 * Entries are written in the order their files were walked, so a build meets them with a cursor
 * per segment as it walks (see {@link ExtractCache.find}).
 *
 * A build appends one segment with what it parsed, written a block at a time as it parses;
 * when dead entries outweigh live ones, or segments pile up, it also writes the live entries it
 * found into one segment and removes the segments it read.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { accessionFromName } from '../edgar/conventions.js';
import { BLOCK_ENTRIES, compactExtract, decodeBlock, entryPath, runExtract, type Block, type BlockEntry, type DecodedBlock } from './cache-block.js';
import type { FileExtract } from './file-extract.js';
import { readSegment, readWhole, removeStaleTemporaries, seek, SEGMENT_SUFFIX, segmentHead, SegmentWriter, type Segment } from './cache-segment.js';
import type { WalkedFile } from './walk.js';

/** Segments kept before they are merged into one. */
const MAX_SEGMENTS = 8;
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

/** An entry of the cache (the file it was made from), as {@link ExtractCache.find} gives it to {@link ExtractCache.take}. */
export type CacheEntry = Readonly<Pick<FoundEntry, 'path' | 'size' | 'mtimeMs'>>;

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
  /** Entries written by this build: what it parsed, and on a merge the live entries written again. */
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
  /** Entries found by this build, in the walk's order. */
  readonly #used: FoundEntry[] = [];
  /** Entries this build parsed and has not written yet, in the walk's order: fewer than a block. */
  readonly #pending: BlockEntry[] = [];
  /** The segment of what this build parsed, written a block at a time (see {@link put}). */
  #fresh: SegmentWriter | undefined;
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
    const all = await readdir(dir);
    await removeStaleTemporaries(dir, all);
    const names = all.filter((name) => name.endsWith(SEGMENT_SUFFIX)).sort();
    for (const name of names) {
      let bytes: Buffer;
      try {
        bytes = await readWhole(join(dir, name));
      } catch {
        continue; // Removed by a build that merged segments meanwhile.
      }
      const segment = await readSegment(bytes, segmentHead(fingerprint));
      if (segment) {
        cache.stats.loaded += segment.loaded;
        cache.stats.corrupt += segment.corrupt;
        cache.#segments.push(name);
        cache.#read.push(segment);
      } else {
        cache.stats.foreign++;
        cache.#foreign.push(name);
      }
    }
    return cache;
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
  #extract(entry: FoundEntry): Partial<FileExtract> | undefined {
    const block = this.#decoded(entry.block);
    return block && runExtract({ block, start: entry.index, end: entry.index + 1 });
  }

  /**
   * Stores a file's extract: files without an accession number, and failed reads, are not
   * stored. Call it in walk order. Each block's worth of entries is encoded and written to this
   * build's new segment at once (under a temporary name until {@link save}), so that the cache
   * holds no extract of its own: after the read of the first build with `--cache`, the live
   * heap is what it would be without the cache.
   */
  put(file: WalkedFile, extract: FileExtract): void {
    if (!isCacheable(file.path) || extract.deferred || extract.skipped.some((s) => s.reason.startsWith('cannot read'))) return;
    this.#pending.push({ path: file.path, size: file.size, mtimeMs: file.mtimeMs, extract: compactExtract(extract) });
    if (this.#pending.length === BLOCK_ENTRIES) void this.#freshSegment().add(this.#pending.splice(0));
  }

  #freshSegment(): SegmentWriter {
    this.#fresh ??= new SegmentWriter(this.#dir, segmentHead(this.#fingerprint));
    return this.#fresh;
  }

  /**
   * Ends the build's use of the cache: commits the segment of what it parsed, and when dead
   * entries outweigh live ones or segments pile up, first writes the live entries found as one
   * segment (block by block, one in memory at a time) in place of the segments read. Foreign
   * segments are removed.
   *
   * Call it once, at the end of the read: it lets go of every entry and block, so that what
   * the build computes next has the memory. A find after it finds nothing.
   *
   * @throws Error when a segment cannot be written; the temporary files are removed then.
   */
  async save(): Promise<void> {
    const used = this.#used.filter((entry) => entry.used);
    this.#used.length = 0;
    this.#read.length = 0;
    this.#ahead.length = 0;
    if (this.#pending.length > 0) void this.#freshSegment().add(this.#pending.splice(0));
    await Promise.all(this.#foreign.map((segment) => rm(join(this.#dir, segment), { force: true })));
    const fresh = this.#fresh?.entries ?? 0;
    // Entries of files not walked, changed, or written again in a newer segment.
    const dead = this.stats.loaded - used.length;
    const merge = this.#segments.length + 1 > MAX_SEGMENTS || dead > used.length + fresh;
    let written = 0;
    try {
      if (merge) {
        const live = new SegmentWriter(this.#dir, segmentHead(this.#fingerprint));
        try {
          for (let i = 0; i < used.length; i += BLOCK_ENTRIES) {
            await live.add(used.slice(i, i + BLOCK_ENTRIES).flatMap((entry) => {
              const extract = this.#extract(entry);
              return extract ? [{ path: entry.path, size: entry.size, mtimeMs: entry.mtimeMs, extract }] : [];
            }));
          }
          // No path is both in it and in the fresh segment (a file parsed again was not found), so their order does not matter.
          await live.commit();
        } catch (error) {
          await live.discard();
          throw error;
        }
        written += live.entries;
      }
      await this.#fresh?.commit();
    } catch (error) {
      await this.discard();
      throw error;
    }
    written += fresh;
    this.stats.written = written;
    if (merge) await Promise.all(this.#segments.map((segment) => rm(join(this.#dir, segment), { force: true })));
  }

  /** Abandons what this build would have written (a build that failed): its temporary segment is removed. Never throws. */
  async discard(): Promise<void> {
    this.#pending.length = 0;
    await this.#fresh?.discard();
  }
}

