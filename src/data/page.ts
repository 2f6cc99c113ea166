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
   * The last slice of `full` handed out by {@link pageSlice}, kept so that the next response of
   * the same size reuses the view instead of making one (a Buffer view is an allocation with a
   * constructor call, a visible cost per request). At most one per variant, so the cache is
   * bounded by the number of pages.
   */
  lastFullSlice: Buffer | undefined;
  /** Likewise for `facts`. */
  lastFactsSlice: Buffer | undefined;
}

/** A list with no rows. */
export const EMPTY_PAGE: Page = Object.freeze({
  length: 0, full: Buffer.alloc(0), facts: Buffer.alloc(0), fullEnds: new Uint32Array(0), factsEnds: new Uint32Array(0),
  lastFullSlice: undefined, lastFactsSlice: undefined,
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
    const end = page.fullEnds[count - 1]!;
    // Row ends strictly increase, so a cached view's length names its row count.
    const cached = page.lastFullSlice;
    if (cached !== undefined && cached.length === end) return cached;
    return (page.lastFullSlice = page.full.subarray(0, end));
  }
  if (count === page.length) return page.facts;
  const end = page.factsEnds[count - 1]!;
  const cached = page.lastFactsSlice;
  if (cached !== undefined && cached.length === end) return cached;
  return (page.lastFactsSlice = page.facts.subarray(0, end));
}

/**
 * Collects up to `capacity` rows, then freezes them into a {@link Page}. Rows are encoded into
 * growing buffers as they arrive, so their JSON strings die young: kept as strings until the
 * end, they were copied through V8's young generation and promoted, and GC was a fifth of a
 * 1M-filing load in the CPU profile.
 */
export class PageBuilder {
  private readonly full = new RowBytes();
  private readonly facts = new RowBytes();

  /** @param capacity - most rows kept; later rows are ignored (rows arrive in order). */
  constructor(private readonly capacity: number) {}

  /** Whether another row would still be kept. */
  get hasRoom(): boolean {
    return this.full.rows < this.capacity;
  }

  /**
   * Adds a row in both serialisations, as UTF-8 JSON. The bytes are copied.
   *
   * @param full - the row with written fields.
   * @param facts - the row without them: its bytes, and optionally bytes to append to them
   *   (so a row can be cut from `full` without allocating).
   */
  add(full: Uint8Array, facts: Uint8Array, factsSuffix?: Uint8Array): void {
    if (!this.hasRoom) return;
    this.full.append(full);
    this.facts.append(facts, factsSuffix);
  }

  /** The finished page; the builder is empty afterwards. */
  build(): Page {
    if (this.full.rows === 0) return EMPTY_PAGE;
    const length = this.full.rows;
    const [full, fullEnds] = this.full.take();
    const [facts, factsEnds] = this.facts.take();
    return { length, full, facts, fullEnds, factsEnds, lastFullSlice: undefined, lastFactsSlice: undefined };
  }
}

/** Smallest growing buffer, bytes. */
const MIN_CAPACITY = 1024;

/** Rows joined by commas as UTF-8 in a buffer that doubles when full, and each row's byte end. */
class RowBytes {
  private bytes: Buffer = EMPTY_PAGE.full;
  private size = 0;
  private ends: number[] = [];

  get rows(): number {
    return this.ends.length;
  }

  /** Appends one row: `bytes`, then `suffix` when given, after a comma unless it is the first. */
  append(bytes: Uint8Array, suffix?: Uint8Array): void {
    const needed = this.size + 1 + bytes.length + (suffix?.length ?? 0);
    if (needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2, MIN_CAPACITY));
      this.bytes.copy(grown, 0, 0, this.size);
      this.bytes = grown;
    }
    if (this.ends.length > 0) this.bytes[this.size++] = 0x2c; // ','
    this.bytes.set(bytes, this.size);
    this.size += bytes.length;
    if (suffix) {
      this.bytes.set(suffix, this.size);
      this.size += suffix.length;
    }
    this.ends.push(this.size);
  }

  /** The bytes, copied to their exact size, and the ends; then empties this list. */
  take(): [Buffer, Uint32Array] {
    const out = Buffer.from(this.bytes.subarray(0, this.size));
    const ends = Uint32Array.from(this.ends);
    this.bytes = EMPTY_PAGE.full;
    this.size = 0;
    this.ends = [];
    return [out, ends];
  }
}
