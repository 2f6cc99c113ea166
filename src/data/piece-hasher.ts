/**
 * SHA-256 of the pieces a load reads, computed beside the load (docs/api.md §17): the rows'
 * files are read in pieces, and each piece is hashed while its rows are copied to their places.
 * When a core is likely free the hashing runs on a worker thread, from the very memory the piece
 * was read into (shared memory, never written again until the hash is past it), so the bytes
 * hashed are the bytes kept; otherwise it runs inline, as it did before (a worker that must share
 * a core with the loader made a 1M load slower, not faster: docs/performance-notes.md). Either way
 * a file whose digest differs from its manifest's refuses the version before it serves.
 *
 * Pieces go round a ring of {@link RING_PIECES} buffers: the loader asks for the next one
 * ({@link PieceHasher.next}), reads into it, hands it over ({@link PieceHasher.hash}) and copies
 * its rows while the worker hashes it. A file ends with {@link PieceHasher.digest}.
 */
import { createHash, type Hash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Hashes the pieces of one file after another, in the order they are handed over. */
export interface PieceHasher {
  /**
   * The memory to read the next piece into (the hasher's piece size long): waits until the hash
   * is past what it held. Each call is followed by one {@link PieceHasher.hash} before the next.
   */
  next(): Promise<Buffer>;
  /** Hands over the first `length` bytes of the buffer `next` gave last, to be hashed in turn (0 for none). */
  hash(length: number): void;
  /** The SHA-256, lower-case hex, of the bytes handed over since the last digest; a new file starts. */
  digest(): Promise<string>;
  /** Stops the worker, if any. Idempotent. */
  close(): Promise<void>;
}

/** How to hash. */
export interface HasherOptions {
  /** Hash on a worker thread (true) or inline (false). Default: {@link freeCoreLikely}. */
  onWorker?: boolean;
  /** Bytes of each piece, from 1. @default {@link PIECE_BYTES} (tests lower it to turn the ring often) */
  pieceBytes?: number;
}

/**
 * Bytes read at a time: large enough that reads cost little per byte, small enough that a
 * reload delays requests by about a millisecond per piece (the copies of its rows).
 */
export const PIECE_BYTES = 1 << 20;

/** Pieces in the worker's ring: the one read, the one copied, and two the worker may still be hashing. */
export const RING_PIECES = 4;

/**
 * Whether a core is likely free for a hashing worker: the machine has two cores or more, and its
 * 1-minute load average leaves one of them idle (at most cores − 1). A worker pays only on a core
 * of its own: on the 2-core machine of BENCHMARKS.md it took a 1M load from 1.6-1.7 s to 1.4-1.6 s
 * when the machine was quiet, and from 2.0-2.3 s to 2.5-2.8 s at a load average of 4.
 *
 * @param cores - cores the process may use. @default os.availableParallelism()
 * @param load - the 1-minute load average (0 where the system has none, as on Windows). @default os.loadavg()[0]
 */
export function freeCoreLikely(cores = availableParallelism(), load = loadavg()[0]!): boolean {
  return cores >= 2 && load <= cores - 1;
}

/** Starts a hasher: see {@link HasherOptions.onWorker}. */
export function startHasher(options: HasherOptions = {}): PieceHasher {
  const pieceBytes = options.pieceBytes ?? PIECE_BYTES;
  if (!Number.isSafeInteger(pieceBytes) || pieceBytes < 1) throw new TypeError(`pieceBytes must be a whole number from 1, got ${pieceBytes}`);
  return (options.onWorker ?? freeCoreLikely()) ? new WorkerHasher(pieceBytes) : new InlineHasher(pieceBytes);
}

/** Hashes each piece as it is handed over, on the calling thread, from two buffers in turn. */
class InlineHasher implements PieceHasher {
  readonly #pieces: Buffer[];
  #which = 0;
  #hash: Hash | undefined;

  constructor(pieceBytes: number) {
    this.#pieces = [Buffer.allocUnsafeSlow(pieceBytes), Buffer.allocUnsafeSlow(pieceBytes)];
  }

  async next(): Promise<Buffer> {
    this.#which ^= 1;
    return this.#pieces[this.#which]!;
  }

  hash(length: number): void {
    this.#hash ??= createHash('sha256');
    this.#hash.update(this.#pieces[this.#which]!.subarray(0, length));
  }

  async digest(): Promise<string> {
    const digest = (this.#hash ?? createHash('sha256')).digest('hex');
    this.#hash = undefined;
    return digest;
  }

  async close(): Promise<void> {}
}

// Control words of the worker's ring (an Int32Array over shared memory).
/** Entries handed over so far. */
const SUBMITTED = 0;
/** Entries the worker is done with. */
const DONE = 1;
/** Entry i's length is at LENGTHS + i % RING_PIECES: bytes to hash, or {@link DIGEST}. */
const LENGTHS = 2;
/**
 * How long the worker sleeps when nothing waits, in ms, before it looks again. The loader never
 * wakes it: a wake (Atomics.notify) let the scheduler run the worker on the loader's own core,
 * which then waited for it; in a profile of a 1M start, the loader spent 350 ms in its wakes, a
 * sixth of the load. The worker's own timer wakes it on its own core instead. A piece takes the
 * loader about 1 ms to copy, and the ring holds four, so the worker is never far behind.
 */
const POLL_MS = 0.2;
/** Mark: write the digest of the file so far at the start of the entry's piece, and start a new one. */
const DIGEST = -1;

/**
 * The worker: waits for entries, hashes each in turn, and says it is done with each. Plain
 * CommonJS evaluated as a string, so that it runs the same compiled and from source.
 */
const WORKER_CODE = `
const { workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { memory, control, pieces, pieceBytes } = workerData;
const words = new Int32Array(control);
const bytes = Buffer.from(memory);
let hash = createHash('sha256');
for (let done = 0; ; done++) {
  while (Atomics.load(words, ${SUBMITTED}) === done) Atomics.wait(words, ${SUBMITTED}, done, ${POLL_MS});
  const at = (done % pieces) * pieceBytes;
  const length = words[${LENGTHS} + (done % pieces)];
  if (length === ${DIGEST}) {
    hash.digest().copy(bytes, at);
    hash = createHash('sha256');
  } else hash.update(bytes.subarray(at, at + length));
  Atomics.store(words, ${DONE}, done + 1);
  Atomics.notify(words, ${DONE});
}
`;

/** Longest wait for the worker at a time, in ms, before its state is looked at again. */
const WAIT_MS = 1000;

/** Hashes on a worker thread, from a ring of pieces in shared memory. */
class WorkerHasher implements PieceHasher {
  readonly #pieceBytes: number;
  /** The ring; a piece is at least 32 bytes, to hold a digest. */
  readonly #memory: SharedArrayBuffer;
  readonly #words = new Int32Array(new SharedArrayBuffer((LENGTHS + RING_PIECES) * 4));
  readonly #worker: Worker;
  /** Entries given out (by `next` or a mark). */
  #issued = 0;
  #failure: Error | undefined;
  #closed = false;

  constructor(pieceBytes: number) {
    this.#pieceBytes = pieceBytes;
    this.#memory = new SharedArrayBuffer(RING_PIECES * Math.max(pieceBytes, 32));
    this.#worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { memory: this.#memory, control: this.#words.buffer, pieces: RING_PIECES, pieceBytes: Math.max(pieceBytes, 32) },
    });
    this.#worker.on('error', (error) => { this.#failure ??= error; });
    this.#worker.on('exit', (code) => { if (!this.#closed) this.#failure ??= new Error(`the hashing worker stopped (exit code ${code})`); });
  }

  async next(): Promise<Buffer> {
    const entry = await this.#issue();
    return Buffer.from(this.#memory, this.#at(entry), this.#pieceBytes);
  }

  hash(length: number): void {
    this.#submit(length);
  }

  async digest(): Promise<string> {
    const entry = await this.#issue();
    this.#submit(DIGEST);
    await this.#doneWith(entry + 1);
    return Buffer.from(this.#memory, this.#at(entry), 32).toString('hex');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Terminating interrupts the worker's wait for the next entry.
    await this.#worker.terminate();
  }

  /** Where entry's piece starts in the ring. */
  #at(entry: number): number {
    return (entry % RING_PIECES) * Math.max(this.#pieceBytes, 32);
  }

  /** The next entry, once its piece is free (the worker is past the entry that used it last). */
  async #issue(): Promise<number> {
    const entry = this.#issued++;
    await this.#doneWith(entry - RING_PIECES + 1);
    return entry;
  }

  /** Hands over the entry last issued, with its length or mark (the worker finds it within {@link POLL_MS}). */
  #submit(length: number): void {
    const entry = this.#issued - 1;
    this.#words[LENGTHS + (entry % RING_PIECES)] = length;
    Atomics.store(this.#words, SUBMITTED, entry + 1);
  }

  /** Waits until the worker is done with `count` entries. */
  async #doneWith(count: number): Promise<void> {
    for (;;) {
      if (this.#failure !== undefined) throw this.#failure;
      const done = Atomics.load(this.#words, DONE);
      if (done >= count) return;
      const wait = waitAsync(this.#words, DONE, done, WAIT_MS);
      if (wait.async) await wait.value;
    }
  }
}

/** `Atomics.waitAsync` (ES2024; in Node since 16), typed here because the project's lib is ES2023. */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;
