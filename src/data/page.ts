/**
 * Row tables and lists: every row of a kind stored once, as UTF-8 JSON in one buffer (or a few,
 * past the split size: see {@link RowTable.chunks}), and every list (a kind's overview, one
 * ticker's or CIK's rows) a sequence of row numbers into it, so
 * that whole lists are reachable (docs/api.md §9) at the memory cost of the rows plus a few bytes
 * a row. The rows of a kind are laid out grouped by their list key (a company's filings one
 * after another, each followed by a comma), so a page of a per-key list is one slice of the
 * buffer: the socket writes it as it is, with no JSON work, no joins and no copy. The overview
 * of a kind with one row per key (insiders, reports, whales) is laid out in its own order and
 * is sliced the same way; a page of any other list is copied together from its rows. (Held as
 * strings, or copied per response, the rows were the largest cost after the syscall itself:
 * see docs/performance-notes.md.) That is `rowsIn: 'memory'`. With `rowsIn: 'file'` (the default)
 * a table holds no row bytes: a page is read from the rows' file when it is asked for, one read
 * per run of rows that follow each other in the file (row-file.ts), and the last page of each
 * list is kept for the next request for it.
 */
import type { RowKind } from '../rows/schemas.js';
import type { OrderKeys } from './order-key.js';
import { readRowPrefix, readRun, type RowFile } from './row-file.js';

/** The two serialisations of a row (docs/api.md §6: written fields are absent on the free plan). */
export type Variant = 'full' | 'facts';

/** In {@link RowTable.factsEnds}: the row has no written field; its facts are its full bytes. */
export const FACTS_ARE_FULL = -1;
/** In {@link RowTable.factsEnds}: the facts bytes are in {@link RowTable.otherFacts}. */
export const FACTS_APART = -2;

/** One kind's rows, by row number (the row's line in its file, counted from 0). */
export interface RowTable {
  /**
   * Every row's full JSON, each followed by `,`, grouped by list key: one buffer, or, when the
   * rows are more than the split size (1 GiB unless lowered: docs/development.md), several, each
   * at most that size, a row never split between two (Node's buffers and reads stop at 2 or 4 GiB).
   */
  readonly chunks: readonly Buffer[];
  /** The chunk of each row; null when there is one. */
  readonly chunkOf: Uint16Array | null;
  /** Offset of each row's JSON in its chunk. */
  readonly starts: Uint32Array;
  /** Byte length of each row's full JSON. */
  readonly lengths: Uint32Array;
  /**
   * How each row's facts serialisation is made: n ≥ 0, the first n bytes of the row and `}`
   * (the written field was its last member); {@link FACTS_ARE_FULL}; or {@link FACTS_APART}.
   */
  readonly factsEnds: Int32Array;
  /** Facts serialisations that are not a prefix of their row, by row number (rare). */
  readonly otherFacts: ReadonlyMap<number, Buffer>;
  /** The rows' order keys, for cursors. */
  readonly keys: OrderKeys;
  /**
   * When the rows are served from their file (row-file.ts): the file, and `chunks` and `starts`
   * are empty; null when they are in memory.
   */
  readonly file: RowFile | null;
}

/** One list: its rows in the kind's order. */
export interface RowList {
  readonly kind: RowKind;
  /** The filter value (a normalised ticker or a 10-digit CIK); null for the overview. */
  readonly key: string | null;
  readonly table: RowTable;
  /** Number of rows. */
  readonly length: number;
  /** Row numbers in list order; null when the list is every row of the table in file order. */
  readonly rows: Int32Array | null;
  /**
   * Whether each row of the list follows the one before it in the table's bytes (pages are
   * slices, those within one chunk).
   */
  readonly contiguous: boolean;
  /**
   * The last slice of full rows handed out, kept so that the next response for the same page
   * reuses the view instead of making one (a Buffer view is an allocation with a constructor
   * call, a visible cost per request). A hit is known from the numbers alone, so a repeated
   * response reads neither the row tables nor their memory. With rows in memory, copies are never
   * kept: memory stays the rows plus one view per list. With rows in their file, it is the page
   * last read, of either variant (`KEPT_PAGE_BYTES` of row-file.ts per version at most).
   */
  lastSlice: Buffer | undefined;
  /** Position of `lastSlice`'s first row (-1 when there is none). */
  lastPosition: number;
  /** Rows in `lastSlice`. */
  lastCount: number;
  /** The variant of `lastSlice` (always `full` when the rows are in memory). */
  lastVariant: Variant;
  /**
   * Whether `lastSlice` was answered again since its list was last placed among the pages kept
   * (rows in their file): such a list is moved behind the others instead of forgetting its page
   * (see `KeptPages`).
   */
  keptUsed: boolean;
  /**
   * Strings the request path derived for the last page answered (position, count and variant in
   * `memoPage`): its ETag and the cursor of the page after it. Repeated requests for a page (a
   * poller, a popular first page) reuse them instead of encoding them again.
   */
  memo: {
    position: number; count: number; variant: Variant; tag: string; next: string | undefined | null;
    /** The `Link` value last built for this page, and the request query it was built for. */
    linkQuery?: string; link?: string;
  } | undefined;
  /**
   * The last cursor token (as sent) that decoded, belonged to this list and had its position
   * found, so that the same token again is neither decoded nor searched for: a page asked for
   * again (a poller, clients following one `Link`) costs what a first page does. The list
   * belongs to one snapshot, so a reload starts afresh.
   */
  lastCursor: string | undefined;
  /** The filter value the request of {@link RowList.lastCursor} named (lists of unknown keys share one empty list). */
  lastCursorKey: string | null;
  /** Position {@link RowList.lastCursor} gave, from 0. */
  lastCursorPosition: number;
}

/** The buffer that holds a row. */
export function rowChunk(table: RowTable, row: number): Buffer {
  return table.chunks[table.chunkOf === null ? 0 : table.chunkOf[row]!]!;
}

/** The row number at list position `position`. */
export function rowAt(list: RowList, position: number): number {
  return list.rows === null ? position : list.rows[position]!;
}

/**
 * A list with its cache fields initialised.
 *
 * @param rows - row numbers in list order, or null for every row in file order.
 */
export function makeList(kind: RowKind, key: string | null, table: RowTable, length: number, rows: Int32Array | null, contiguous: boolean): RowList {
  return {
    kind, key, table, length, rows, contiguous, lastSlice: undefined, lastPosition: -1, lastCount: 0, lastVariant: 'full', keptUsed: false, memo: undefined,
    lastCursor: undefined, lastCursorKey: null, lastCursorPosition: 0,
  };
}

const EMPTY = Buffer.alloc(0);

/**
 * The UTF-8 JSON of `count` rows of a list from `position`, comma-separated (no brackets). Full
 * rows of a contiguous list are a view of the table; callers must not write to the bytes.
 *
 * @param list - the list.
 * @param variant - which serialisation.
 * @param position - first row, from 0.
 * @param count - rows wanted; the caller keeps `position + count <= list.length`.
 */
export function pageBytes(list: RowList, variant: Variant, position: number, count: number): Buffer {
  if (count <= 0) return EMPTY;
  if (list.table.file !== null) return filePage(list, variant, position, count);
  if (variant === 'full' && list.contiguous) {
    if (list.lastCount === count && list.lastPosition === position) return list.lastSlice!;
    const table = list.table;
    const first = rowAt(list, position);
    const last = rowAt(list, position + count - 1);
    const chunkOf = table.chunkOf;
    if (chunkOf === null || chunkOf[first] === chunkOf[last]) {
      const slice = rowChunk(table, first).subarray(table.starts[first]!, table.starts[last]! + table.lengths[last]!);
      list.lastSlice = slice;
      list.lastPosition = position;
      list.lastCount = count;
      return slice;
    }
  }
  return gather(list, variant, position, count);
}

/** A page of a list whose rows are in their file: the kept copy, or read and kept. */
function filePage(list: RowList, variant: Variant, position: number, count: number): Buffer {
  const keptPages = list.table.file!.kept;
  const kept = list.lastSlice;
  if (kept !== undefined && list.lastCount === count && list.lastPosition === position && list.lastVariant === variant) {
    // Marked, not moved: moving the list to the end of the set on every hit (a delete and an
    // add) cost about 1 % of filings req/s; the mark moves it when forgetting reaches it.
    list.keptUsed = true;
    return kept;
  }
  const page = gather(list, variant, position, count);
  if (kept !== undefined) {
    keptPages.lists.delete(list);
    keptPages.bytes -= kept.length;
  }
  list.lastSlice = page;
  list.lastPosition = position;
  list.lastCount = count;
  list.lastVariant = variant;
  list.keptUsed = false;
  keptPages.lists.add(list);
  keptPages.bytes += page.length;
  // Second chance (the clock algorithm): from the list placed longest ago, one answered again
  // since is placed anew, unmarked, and the first unmarked one forgets its page. A set's
  // iteration visits what is added during it, so a list passed over is reached again.
  for (const oldest of keptPages.lists) {
    if (keptPages.bytes <= keptPages.limit || oldest === list) break;
    const forgotten = oldest as RowList;
    keptPages.lists.delete(forgotten);
    if (forgotten.keptUsed) {
      forgotten.keptUsed = false;
      keptPages.lists.add(forgotten);
      continue;
    }
    keptPages.bytes -= forgotten.lastSlice!.length;
    forgotten.lastSlice = undefined;
    forgotten.lastCount = 0;
    forgotten.lastPosition = -1;
  }
  return page;
}

/** Copies a page together from its rows (pages of lists whose rows are apart or in two chunks, and facts pages). */
function gather(list: RowList, variant: Variant, position: number, count: number): Buffer {
  const table = list.table;
  const { starts, lengths, factsEnds } = table;
  let total = count - 1;
  for (let p = position; p < position + count; p++) total += rowLength(table, variant, rowAt(list, p));
  const out = Buffer.allocUnsafe(total);
  if (table.file !== null) {
    readFromFile(list, table.file, variant, position, count, out);
    return out;
  }
  let at = 0;
  for (let p = position; p < position + count; p++) {
    if (p > position) out[at++] = 0x2c; // ','
    const row = rowAt(list, p);
    const bytes = rowChunk(table, row);
    const start = starts[row]!;
    const facts = variant === 'facts' ? factsEnds[row]! : FACTS_ARE_FULL;
    if (facts === FACTS_ARE_FULL) {
      at += bytes.copy(out, at, start, start + lengths[row]!);
    } else if (facts === FACTS_APART) {
      at += table.otherFacts.get(row)!.copy(out, at);
    } else {
      at += bytes.copy(out, at, start, start + facts);
      out[at++] = 0x7d; // '}'
    }
  }
  return out;
}

/**
 * Reads a page from the rows' file into `out` (sized by the caller): one read per run of rows
 * that follow each other in the file for full rows; for facts, each row's part.
 */
function readFromFile(list: RowList, file: RowFile, variant: Variant, position: number, count: number, out: Buffer): void {
  const { lengths, factsEnds, otherFacts } = list.table;
  const end = position + count;
  let at = 0;
  let p = position;
  while (p < end) {
    if (p > position) out[at++] = 0x2c; // ','
    const first = rowAt(list, p);
    if (variant === 'full') {
      let last = first;
      while (p + 1 < end && rowAt(list, p + 1) === last + 1) {
        p++;
        last++;
      }
      at += readRun(file, lengths, first, last, out, at);
    } else {
      const facts = factsEnds[first]!;
      if (facts === FACTS_APART) {
        at += otherFacts.get(first)!.copy(out, at);
      } else if (facts === FACTS_ARE_FULL) {
        at += readRun(file, lengths, first, first, out, at);
      } else {
        readRowPrefix(file, first, facts, out, at);
        at += facts;
        out[at++] = 0x7d; // '}'
      }
    }
    p++;
  }
}

/** Bytes of one row in a variant. */
function rowLength(table: RowTable, variant: Variant, row: number): number {
  if (variant === 'full') return table.lengths[row]!;
  const facts = table.factsEnds[row]!;
  if (facts === FACTS_ARE_FULL) return table.lengths[row]!;
  if (facts === FACTS_APART) return table.otherFacts.get(row)!.length;
  return facts + 1;
}

/**
 * Byte length of a page without building it (for headers of a 304, which must be those of the
 * 200 it stands for: `Vary` depends on whether the body would be compressed).
 */
export function pageLength(list: RowList, variant: Variant, position: number, count: number): number {
  if (count <= 0) return 0;
  const table = list.table;
  const first = rowAt(list, position);
  const last = rowAt(list, position + count - 1);
  if (variant === 'full' && list.contiguous && table.file === null && (table.chunkOf === null || table.chunkOf[first] === table.chunkOf[last])) {
    return table.starts[last]! + table.lengths[last]! - table.starts[first]!;
  }
  let total = count - 1;
  for (let p = position; p < position + count; p++) total += rowLength(table, variant, rowAt(list, p));
  return total;
}

/**
 * Where the page after a cursor starts (docs/api.md §9): after the row whose order key is
 * `key[from, to)`, having skipped `ties` rows with that same key (rows whose keys are equal keep
 * their file order). Exact in any snapshot: when the row is gone, the page starts at the first
 * row after its key.
 *
 * @param hint - the position the cursor's own snapshot gave the next page; it is used when the
 *   row before it has the key and is the first with it (no search then), else ignored.
 * @returns a position from 0 to `list.length`.
 */
export function positionAfter(list: RowList, key: Uint8Array, from: number, to: number, ties: number, hint: number): number {
  const keys = list.table.keys;
  const length = list.length;
  if (ties === 1 && hint >= 1 && hint <= length && keys.compare(rowAt(list, hint - 1), key, from, to) === 0
    && (hint === 1 || keys.compare(rowAt(list, hint - 2), key, from, to) !== 0)) {
    return hint;
  }
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys.compare(rowAt(list, middle), key, from, to) < 0) low = middle + 1;
    else high = middle;
  }
  let position = low;
  while (position < low + ties && position < length && keys.compare(rowAt(list, position), key, from, to) === 0) position++;
  return position;
}

/**
 * How many rows up to and including `position` share its order key (1 unless the snapshot has
 * rows whose keys are equal): the `ties` a cursor after this row carries.
 */
export function tiesAt(list: RowList, position: number): number {
  const keys = list.table.keys;
  const row = rowAt(list, position);
  const start = keys.start(row);
  const end = keys.ends[row]!;
  let ties = 1;
  while (position - ties >= 0 && keys.compare(rowAt(list, position - ties), keys.bytes, start, end) === 0) ties++;
  return ties;
}
