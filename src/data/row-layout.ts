/**
 * Where each row of a kind goes in memory, and its lists (docs/api.md §9, §17). Rows are laid out
 * grouped by list key (groups in order of their first row, rows in file order within a group), so
 * that a page of one ticker's list is one slice; the bytes are split into chunks of at most the
 * split size, a row never straddling two. The plan comes from a {@link RowMeasure} alone, so a
 * version loaded from its index files and one measured by reading its rows get the same layout.
 */
import type { RowKind } from '../rows/schemas.js';
import { OrderKeys } from './order-key.js';
import { makeList, type RowList, type RowTable } from './page.js';
import type { RowMeasure } from './row-measure.js';
import type { RowFile } from './row-file.js';
import { SnapshotError } from './snapshot-format.js';
import { sharedArray, sharedBytes } from './shared-memory.js';

/**
 * Default split size in bytes: 1 GiB, under every limit of Node that a buffer or a read meets
 * (fs reads of at most 2 GiB, buffers of at most 4 GiB on Node 20 and 24).
 */
export const DEFAULT_SPLIT_BYTES = 1 << 30;

/** Chunks a kind may have: chunk ids are 16 bits. */
const MAX_CHUNKS = 0x10000;

/** Where a kind's rows go, and the memory they go to (allocated, not yet filled). */
export interface RowLayout {
  /** The chunks, each sized to its rows and their commas. */
  readonly chunks: readonly Buffer[];
  /** Chunk of each row; null when there is one chunk. */
  readonly chunkOf: Uint16Array | null;
  /** Offset of each row in its chunk. */
  readonly starts: Uint32Array;
  /** Row numbers in layout order. */
  readonly members: Int32Array;
  /** Group g's rows are `members[groupRows[g], groupRows[g + 1])`. */
  readonly groupRows: Int32Array;
  /** Whether the layout keeps file order (the overview's pages are then slices). */
  readonly inFileOrder: boolean;
}

/** A kind's lists. */
export interface KindLists {
  readonly overview: RowList;
  readonly byKey: ReadonlyMap<string, RowList>;
  /** The list of a key no row has. */
  readonly empty: RowList;
}

/** Rows (or lists) between two looks at the clock in the load's loops (a mask: every 65,536). */
export const TURN_CHECK_MASK = 0xffff;

/**
 * Longest run of load work before requests get a turn, in ms: a reload runs while the old
 * snapshot serves, and a 1M-row kind's loops take tens of ms in all.
 */
const TURN_MS = 5;

/** Gives the event loop a turn when the work since the last one took over {@link TURN_MS}. */
export class Turns {
  #since = performance.now();

  /** Yields to the event loop when the work since the last turn took long enough. */
  async maybeYield(): Promise<void> {
    if (performance.now() - this.#since < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}

/**
 * Plans a kind's layout and allocates its chunks.
 *
 * @param m - the kind's measure.
 * @param splitBytes - largest chunk, in bytes (a row longer than it gets a chunk of its own).
 * @param file - the rows' file, for messages.
 * @param inMemory - whether the rows will be copied to memory (false: they are read from their
 *   file per page, row-file.ts, and only the lists are planned: no chunks, empty `starts`).
 * @throws SnapshotError when the rows would need more than 65,536 chunks.
 */
export async function planLayout(m: RowMeasure, splitBytes: number, file: string, turns: Turns, inMemory = true): Promise<RowLayout> {
  const { rows: n, lengths, groups } = m;
  const groupCount = m.groupKeys.length;
  const groupRows = new Int32Array(groupCount + 1);
  for (let i = 0; i < n; i++) groupRows[groups[i]! + 1]!++;
  for (let g = 0; g < groupCount; g++) groupRows[g + 1]! += groupRows[g]!;
  // Each group's rows, in file order (a counting sort).
  const members = sharedArray(Int32Array, n);
  const filled = groupRows.slice(0, groupCount);
  for (let i = 0; i < n; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    members[filled[groups[i]!]!++] = i;
  }
  if (!inMemory) {
    let inFileOrder = true;
    for (let p = 0; p < n && inFileOrder; p++) inFileOrder = members[p] === p;
    return { chunks: [], chunkOf: null, starts: new Uint32Array(0), members, groupRows, inFileOrder };
  }
  const starts = sharedArray(Uint32Array, n);
  let chunkOf: Uint16Array | null = null;
  const sizes: number[] = [];
  let used = 0;
  let inFileOrder = true;
  for (let p = 0; p < n; p++) {
    if ((p & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const row = members[p]!;
    if (row !== p) inFileOrder = false;
    const size = lengths[row]! + 1;
    if (used > 0 && used + size > splitBytes) {
      sizes.push(used);
      used = 0;
      if (sizes.length === MAX_CHUNKS) throw new SnapshotError(file, `needs more than ${MAX_CHUNKS} chunks of ${splitBytes} bytes`);
      chunkOf ??= sharedArray(Uint16Array, n);
    }
    if (chunkOf !== null) chunkOf[row] = sizes.length;
    starts[row] = used;
    used += size;
  }
  sizes.push(used);
  return { chunks: sizes.map((size) => sharedBytes(size)), chunkOf, starts, members, groupRows, inFileOrder };
}

/**
 * The row table of a laid-out kind (its chunks filled or being filled), or of a kind whose rows
 * are read from `rowFile`.
 */
export function tableOf(m: RowMeasure, layout: RowLayout, rowFile: RowFile | null = null): RowTable {
  return {
    chunks: layout.chunks, chunkOf: layout.chunkOf, starts: layout.starts, lengths: m.lengths,
    factsEnds: m.factsEnds, otherFacts: m.otherFacts, keys: m.keys, file: rowFile,
  };
}

/**
 * The lists of a laid-out kind: its overview, one list per key, and the empty list.
 *
 * @param rowFile - the rows' file when they are read from it per page; null when in memory.
 */
export async function buildLists(kind: RowKind, m: RowMeasure, layout: RowLayout, turns: Turns, rowFile: RowFile | null = null): Promise<KindLists> {
  const table = tableOf(m, layout, rowFile);
  const { members, groupRows } = layout;
  // Each key's groups: one (the usual case) makes a contiguous list; several are merged.
  const keyGroups = new Map<string, number[]>();
  for (let g = 0; g < m.groupKeys.length; g++) {
    for (const key of m.groupKeys[g]!) {
      const known = keyGroups.get(key);
      if (known) known.push(g);
      else keyGroups.set(key, [g]);
    }
  }
  const byKey = new Map<string, RowList>();
  for (const [key, keyed] of keyGroups) {
    if ((byKey.size & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    if (keyed.length === 1) {
      const g = keyed[0]!;
      byKey.set(key, makeList(kind, key, table, groupRows[g + 1]! - groupRows[g]!, members.subarray(groupRows[g], groupRows[g + 1]), true));
    } else {
      const rows = Int32Array.from(keyed.flatMap((g) => [...members.subarray(groupRows[g], groupRows[g + 1])])).sort();
      byKey.set(key, makeList(kind, key, table, rows.length, rows, false));
    }
  }
  const empty = makeList(kind, null, { ...table, keys: new OrderKeys(Buffer.alloc(0), new Uint32Array(0)) }, 0, new Int32Array(0), true);
  return { overview: makeList(kind, null, table, m.rows, null, layout.inFileOrder), byKey, empty };
}
