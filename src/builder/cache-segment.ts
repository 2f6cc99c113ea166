/**
 * One segment file of the build cache (extract-cache.ts): its first line
 * (`EQFCACHE 6 LE <fingerprint>`), then blocks of entries (cache-block.ts) in the order their
 * files were walked. Reading one checks every block's CRC-32 and frame ({@link readSegment});
 * a build meets its entries with a cursor as it walks ({@link seek}). Writing one
 * ({@link SegmentWriter}) goes block by block under a temporary name until it is committed: a
 * reader never sees half of one, and a build holds a block's bytes until they are written
 * rather than every extract until the end (a year of Forms 4 is 500,000 entries, about 250 MB
 * of extracts).
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { BLOCK_HEAD, encodeBlock, entryPath, isEntryPath, readBlock, type Block, type BlockEntry } from './cache-block.js';
import { walkOrder } from './walk.js';

/** Format 6 (a path inside an extract stored as a length of its entry's path), and the machine's byte order: sizes and times, numbers and operations are typed arrays written as they lie in memory. */
const MAGIC = `EQFCACHE 6 ${endianness()} `;

/** Blocks read between two turns of the event loop while the cache opens. */
const LOAD_TURN_BLOCKS = 4;

/** A segment's first line, newline included, for a builder's fingerprint (fingerprint.ts): a builder reads only its own. */
export const segmentHead = (fingerprint: string): string => `${MAGIC}${fingerprint}\n`;

/**
 * A segment's blocks, whose entries are in walk order (a build writes them in the order it met
 * their files), and how far the walk has come through them: the next entry a file may match.
 */
export interface Segment {
  blocks: Block[];
  block: number;
  entry: number;
}

/**
 * Reads a segment's blocks, letting other work in every {@link LOAD_TURN_BLOCKS} blocks (a
 * build walks its input meanwhile). A block of bad length or checksum, or not well formed, is
 * passed over; a torn end stops the read.
 *
 * @param bytes - the whole segment file.
 * @param head - the first line this builder writes ({@link segmentHead}).
 * @returns the segment with the entries it holds (`loaded`) and those passed over as damaged
 *   (`corrupt`), or undefined when it is not this builder's (another head, or no segment at all).
 */
export async function readSegment(bytes: Buffer, head: string): Promise<(Segment & { loaded: number; corrupt: number }) | undefined> {
  const newline = bytes.indexOf(0x0a);
  if (newline === -1 || bytes.toString('utf8', 0, newline + 1) !== head) return undefined;
  const segment = { blocks: [] as Block[], block: 0, entry: 0, loaded: 0, corrupt: 0 };
  let at = newline + 1;
  while (at < bytes.length) {
    if (at + BLOCK_HEAD > bytes.length) {
      segment.corrupt++;
      return segment;
    }
    const length = bytes.readUInt32LE(at);
    const count = bytes.readUInt32LE(at + 8);
    const end = at + BLOCK_HEAD + length;
    if (end > bytes.length) {
      // A torn write: the rest of the segment cannot be framed.
      segment.corrupt += Math.max(1, count);
      return segment;
    }
    const sum = bytes.readUInt32LE(at + 4);
    const block = crc32(bytes.subarray(at + 8, end)) === sum ? readBlock(bytes.subarray(at, end)) : undefined;
    at = end;
    if (!block) {
      segment.corrupt += Math.max(1, count);
      continue;
    }
    segment.blocks.push(block);
    segment.loaded += block.count;
    if (segment.blocks.length % LOAD_TURN_BLOCKS === 0) await new Promise(setImmediate);
  }
  return segment;
}

/**
 * Moves a segment's cursor to `path`: past the entries whose files the walk has gone by (they
 * sort before it: not walked this time, so dead), up to the first that does not.
 *
 * @returns the block whose entry at the cursor has this path, or undefined when the segment holds no entry of it.
 */
export function seek(segment: Segment, path: string): Block | undefined {
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

/**
 * A file's bytes in one read (readFile reads a large file in chunks of 512 KiB, each a trip
 * through the thread pool: a 40 MB segment took about 60 ms that way).
 */
export async function readWhole(path: string): Promise<Buffer> {
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

/** How a segment file's name ends (`segment-<time>-<pid>-<random>.eqfc`). */
export const SEGMENT_SUFFIX = '.eqfc';

/** Temporary segments are named `.segment-*.eqfc.tmp`; one left by a build that died is removed after this long. */
export const STALE_TEMPORARY_MS = 24 * 60 * 60 * 1000;

/** Whether a name in the cache folder is a temporary segment (see {@link SegmentWriter}). */
const isTemporarySegment = (name: string): boolean => name.startsWith('.segment-') && name.endsWith(`${SEGMENT_SUFFIX}.tmp`);

/**
 * Removes the temporary segments among `names` (the cache folder's) that are
 * {@link STALE_TEMPORARY_MS} old or more: left by builds that died while writing them (a
 * running build's are younger). A file that cannot be stat'ed or removed is left.
 *
 * @param dir - the cache folder.
 * @param names - the names in it (readdir).
 * @param now - the time to judge age by, ms since the epoch.
 */
export async function removeStaleTemporaries(dir: string, names: readonly string[], now = Date.now()): Promise<void> {
  for (const name of names.filter(isTemporarySegment)) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs >= STALE_TEMPORARY_MS) await rm(path, { force: true }).catch(() => {});
  }
}

/** A new segment's name, `segment-<time>-<pid>-<random>.eqfc`: a later one sorts after an earlier one. */
const segmentName = (): string => `segment-${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}${SEGMENT_SUFFIX}`;

/** One segment being written; see the module's comment. */
export class SegmentWriter {
  readonly #dir: string;
  readonly #head: string;
  readonly #temporary: string;
  /** The temporary file, opened (and its head written) with the first block. */
  #file: Promise<FileHandle> | undefined;
  /** The writes queued, in order; it never rejects (the first failure is kept in {@link #failure}). */
  #queue: Promise<void> = Promise.resolve();
  #failure: { error: unknown } | undefined;
  /** Entries encoded into blocks so far. */
  entries = 0;

  /**
   * @param dir - the cache folder.
   * @param head - the segment's first line ({@link segmentHead}).
   */
  constructor(dir: string, head: string) {
    this.#dir = dir;
    this.#head = head;
    this.#temporary = join(dir, `.${segmentName()}.tmp`);
  }

  /**
   * Encodes entries, in their order, as one block (see encodeBlock: an entry whose extract is
   * not plain data is left out) and queues its write.
   *
   * @param entries - at most BLOCK_ENTRIES.
   * @returns a promise that settles, never rejecting, once the block is written or the writer
   *   has failed: a caller that encodes many blocks at once awaits it to hold one at a time.
   */
  add(entries: readonly BlockEntry[]): Promise<void> {
    const block = encodeBlock(entries);
    if (!block) return this.#queue;
    this.entries += block.entries;
    if (this.#file === undefined) {
      this.#file = open(this.#temporary, 'w').then(async (file) => {
        await file.write(this.#head);
        return file;
      });
      // Awaited in the queue; it must not count as unhandled while earlier writes run.
      this.#file.catch(() => {});
    }
    const file = this.#file;
    this.#queue = this.#queue
      .then(async () => {
        if (!this.#failure) await (await file).write(block.bytes);
      })
      .catch((error: unknown) => {
        this.#failure ??= { error };
      });
    return this.#queue;
  }

  /**
   * Waits for the writes, closes the file and renames it into the folder as a new segment.
   * Nothing is written when no block was.
   *
   * @throws the first error of a write, the close or the rename; the temporary file is removed then.
   */
  async commit(): Promise<void> {
    if (this.#file === undefined) return;
    await this.#queue;
    try {
      const file = await this.#file;
      await file.close();
      if (this.#failure) throw this.#failure.error;
      await rename(this.#temporary, join(this.#dir, segmentName()));
    } catch (error) {
      await rm(this.#temporary, { force: true });
      throw error;
    }
  }

  /** Abandons the segment: waits for the writes, closes and removes the temporary file. Never throws. */
  async discard(): Promise<void> {
    if (this.#file === undefined) return;
    await this.#queue;
    await this.#file.then((file) => file.close()).catch(() => {});
    await rm(this.#temporary, { force: true }).catch(() => {});
  }
}
