/**
 * A page list: the first rows of one list (a kind's overview, or one ticker's or CIK's rows),
 * serialised once at load time in both plan variants and encoded as UTF-8. A response of `n`
 * rows is one slice of a prepared buffer, so the request path does no JSON work, no per-row
 * joins and no copy of the rows: the socket writes the slice as it is. (Held as strings, the
 * rows were flattened, copied and UTF-8 encoded on every response; a CPU profile under wrk
 * showed that as the largest cost after the syscall itself.)
 */

/** The two serialisations of a row (decisions §6: written fields are absent on the free plan). */
export type Variant = 'full' | 'facts';

/** Prepared rows of one list. */
export interface Page {
  /** Number of rows held (at most the largest page size of any plan). */
  readonly length: number;
  /** Rows as UTF-8 JSON, joined by commas, with written fields. */
  readonly full: Buffer;
  /** Same rows without written fields. */
  readonly facts: Buffer;
  /** `fullEnds[i]`: byte end of row `i` in `full`, so `full.subarray(0, fullEnds[n - 1])` holds n rows. */
  readonly fullEnds: Uint32Array;
  /** Likewise for `facts`. */
  readonly factsEnds: Uint32Array;
  /**
   * The last slice of `full` handed out by {@link pageBytes}, kept so that the next response of
   * the same size reuses the view instead of making one (a Buffer view is an allocation with a
   * constructor call, a visible cost per request). At most one per variant, so the cache is
   * bounded by the number of pages.
   */
  lastFullSlice: Buffer | undefined;
  /**
   * Rows in `lastFullSlice` (0 when there is none). A hit is known from this number alone, so
   * a repeated response reads neither `fullEnds` nor its memory: each page is cold when a
   * request comes for it, and every object touched is a cache (and TLB) miss of its own.
   */
  lastFullCount: number;
  /** Likewise for `facts`. */
  lastFactsSlice: Buffer | undefined;
  /** Likewise for `facts`. */
  lastFactsCount: number;
}

/** A list with no rows. */
export const EMPTY_PAGE: Page = Object.freeze({
  length: 0, full: Buffer.alloc(0), facts: Buffer.alloc(0), fullEnds: new Uint32Array(0), factsEnds: new Uint32Array(0),
  lastFullSlice: undefined, lastFullCount: 0, lastFactsSlice: undefined, lastFactsCount: 0,
});

/**
 * The UTF-8 JSON of the first `n` rows of a page, comma-separated (no brackets). The bytes are
 * a view of the page, not a copy; callers must not write to them.
 *
 * @param page - the list.
 * @param variant - which serialisation.
 * @param n - rows wanted; more than the page holds gives all of them.
 */
export function pageSlice(page: Page, variant: Variant, n: number): { bytes: Buffer; count: number } {
  const count = Math.min(n, page.length);
  return { bytes: pageBytes(page, variant, count), count };
}

/**
 * The UTF-8 JSON of the first `count` rows of a page, comma-separated (no brackets): the request
 * path's form of {@link pageSlice}. The bytes are a view of the page, not a copy; callers must
 * not write to them.
 *
 * @param page - the list.
 * @param variant - which serialisation.
 * @param count - rows wanted, from 0 to `page.length`.
 */
export function pageBytes(page: Page, variant: Variant, count: number): Buffer {
  if (count === 0) return EMPTY_PAGE.full;
  if (variant === 'full') {
    if (count === page.length) return page.full;
    if (page.lastFullCount === count) return page.lastFullSlice!;
    const slice = page.full.subarray(0, page.fullEnds[count - 1]!);
    page.lastFullSlice = slice;
    page.lastFullCount = count;
    return slice;
  }
  if (count === page.length) return page.facts;
  if (page.lastFactsCount === count) return page.lastFactsSlice!;
  const slice = page.facts.subarray(0, page.factsEnds[count - 1]!);
  page.lastFactsSlice = slice;
  page.lastFactsCount = count;
  return slice;
}

/** Bytes per chunk of a {@link RowStore}; a row longer than this gets a chunk of its own. */
const STORE_CHUNK_BYTES = 4 << 20;

/** Int32 fields per row in a {@link RowStore}'s table. */
const ROW_FIELDS = 6;

/**
 * Where the rows kept during one load wait until their pages are built: their bytes appended
 * to large chunks, and per row one entry in a table of numbers. Keeping a row costs one copy
 * and no allocation of its own, and a row kept by two lists (the overview and its ticker's) is
 * stored once. (Growing one buffer per list by doubling, then copying it to its exact size,
 * was a fifth of a 1M-filing load in the CPU profile, and its large short-lived buffers made
 * much of the GC time.) Drop the store once the pages are built.
 */
export class RowStore {
  readonly #chunks: Buffer[] = [];
  #chunk: Buffer = Buffer.alloc(0);
  #used = 0;
  /** Per row: chunk, offset and length of the full bytes; chunk, offset and length of the facts bytes (negative: append `}`). */
  #table = new Int32Array(ROW_FIELDS * 4096);
  #rows = 0;

  /**
   * Keeps a row in both serialisations.
   *
   * @param full - the row with written fields, UTF-8 JSON.
   * @param facts - the row without them: `full` itself, a view of `full` that starts where it
   *   starts (stored once, as part of `full`), or other bytes (stored apart).
   * @param closeFacts - whether `}` follows `facts` (it was cut from `full` before a last member).
   * @returns the row's number in this store.
   */
  keep(full: Uint8Array, facts: Uint8Array, closeFacts: boolean): number {
    const row = this.#rows++;
    if ((row + 1) * ROW_FIELDS > this.#table.length) {
      const grown = new Int32Array(this.#table.length * 2);
      grown.set(this.#table);
      this.#table = grown;
    }
    const at = row * ROW_FIELDS;
    const table = this.#table;
    this.#put(full, at);
    if (facts === full || (facts.buffer === full.buffer && facts.byteOffset === full.byteOffset && facts.length <= full.length)) {
      table[at + 3] = table[at]!;
      table[at + 4] = table[at + 1]!;
    } else {
      this.#put(facts, at + 3);
    }
    table[at + 5] = closeFacts ? -facts.length - 1 : facts.length;
    return row;
  }

  /** Bytes of a row's full serialisation. */
  fullLength(row: number): number {
    return this.#table[row * ROW_FIELDS + 2]!;
  }

  /** Bytes of a row's facts serialisation, its closing `}` included. */
  factsLength(row: number): number {
    const length = this.#table[row * ROW_FIELDS + 5]!;
    return length < 0 ? -length : length;
  }

  /** Copies a row's full bytes into `target` at `at`; returns the offset after them. */
  copyFull(row: number, target: Buffer, at: number): number {
    const i = row * ROW_FIELDS;
    const table = this.#table;
    const length = table[i + 2]!;
    const chunk = this.#chunks[table[i]!]!;
    target.set(chunk.subarray(table[i + 1]!, table[i + 1]! + length), at);
    return at + length;
  }

  /** Copies a row's facts bytes (and its `}`) into `target` at `at`; returns the offset after them. */
  copyFacts(row: number, target: Buffer, at: number): number {
    const i = row * ROW_FIELDS;
    const table = this.#table;
    const stored = table[i + 5]!;
    const length = stored < 0 ? -stored - 1 : stored;
    const chunk = this.#chunks[table[i + 3]!]!;
    target.set(chunk.subarray(table[i + 4]!, table[i + 4]! + length), at);
    if (stored >= 0) return at + length;
    target[at + length] = 0x7d; // '}'
    return at + length + 1;
  }

  /** Appends bytes to the current chunk (a new one when they do not fit); writes chunk and offset at `table[at]`, length at `table[at + 2]`. */
  #put(bytes: Uint8Array, at: number): void {
    if (this.#used + bytes.length > this.#chunk.length) {
      this.#chunk = Buffer.allocUnsafeSlow(Math.max(STORE_CHUNK_BYTES, bytes.length));
      this.#chunks.push(this.#chunk);
      this.#used = 0;
    }
    this.#chunk.set(bytes, this.#used);
    this.#table[at] = this.#chunks.length - 1;
    this.#table[at + 1] = this.#used;
    this.#table[at + 2] = bytes.length;
    this.#used += bytes.length;
  }
}

/** Bytes per slab of a {@link PageSlabs}; a page larger than a quarter of it gets its own buffer. */
const SLAB_BYTES = 4 << 20;

/**
 * Memory for built pages: large slabs cut into exact-size views, so that tens of thousands of
 * small pages are a few allocations, not one each. A slab lives as long as any page in it; all
 * pages of a snapshot are dropped together when it is replaced.
 */
export class PageSlabs {
  #slab: Buffer = Buffer.alloc(0);
  #used = 0;

  /** A view of `bytes` fresh bytes (uninitialised). */
  take(bytes: number): Buffer {
    if (bytes > SLAB_BYTES / 4) return Buffer.allocUnsafeSlow(bytes);
    if (this.#used + bytes > this.#slab.length) {
      this.#slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.#used = 0;
    }
    const view = this.#slab.subarray(this.#used, this.#used + bytes);
    this.#used += bytes;
    return view;
  }
}

/**
 * Collects up to `capacity` rows of one list as row numbers of a {@link RowStore}, then builds
 * them into a {@link Page}: each variant's rows joined by commas into one exact-size buffer.
 */
export class PageBuilder {
  readonly #rows: number[] = [];

  /**
   * @param capacity - most rows kept; later rows are ignored (rows arrive in order).
   * @param store - where the rows' bytes are.
   */
  constructor(private readonly capacity: number, private readonly store: RowStore) {}

  /** Whether another row would still be kept. */
  get hasRoom(): boolean {
    return this.#rows.length < this.capacity;
  }

  /** Adds a row kept in the store (ignored when the list is full). */
  add(row: number): void {
    if (this.#rows.length < this.capacity) this.#rows.push(row);
  }

  /**
   * The finished page, its bytes taken from `slabs`.
   *
   * @param slabs - memory for the page's two buffers.
   */
  build(slabs: PageSlabs): Page {
    const rows = this.#rows;
    const length = rows.length;
    if (length === 0) return EMPTY_PAGE;
    const store = this.store;
    let fullBytes = length - 1;
    let factsBytes = length - 1;
    for (let i = 0; i < length; i++) {
      fullBytes += store.fullLength(rows[i]!);
      factsBytes += store.factsLength(rows[i]!);
    }
    const full = slabs.take(fullBytes);
    const facts = slabs.take(factsBytes);
    const fullEnds = new Uint32Array(length);
    const factsEnds = new Uint32Array(length);
    let fullAt = 0;
    let factsAt = 0;
    for (let i = 0; i < length; i++) {
      if (i > 0) {
        full[fullAt++] = 0x2c; // ','
        facts[factsAt++] = 0x2c;
      }
      fullAt = store.copyFull(rows[i]!, full, fullAt);
      factsAt = store.copyFacts(rows[i]!, facts, factsAt);
      fullEnds[i] = fullAt;
      factsEnds[i] = factsAt;
    }
    return { length, full, facts, fullEnds, factsEnds, lastFullSlice: undefined, lastFullCount: 0, lastFactsSlice: undefined, lastFactsCount: 0 };
  }
}
