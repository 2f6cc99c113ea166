/**
 * A loaded version handed to the threads that serve it (`serve --workers N`, docs/api.md §11,
 * §17). The main thread loads a version once; {@link packSnapshot} describes it as plain data
 * whose large arrays are shared memory (shared-memory.ts), so `postMessage` hands the threads the
 * same bytes instead of copies; each thread rebuilds the objects around them with
 * {@link unpackSnapshot} (Buffers, order keys, postings and lists lose their classes on the
 * way). The rows, offsets, keys and postings exist once in the process whatever the number of
 * threads; each thread holds only its own small objects (a list per ticker) over them, and a
 * version's memory goes back once no thread refers to it.
 */
import type { RowKind } from '../rows/schemas.js';
import { ROW_KINDS } from '../rows/schemas.js';
import type { SnapshotManifest } from './snapshot-format.js';
import { makeList, type RowList, type RowTable } from './page.js';
import { OrderKeys } from './order-key.js';
import { Postings, type FilterIndex, type KindFilterIndex } from './filter-index.js';
import type { KindLists } from './row-layout.js';
import type { SnapshotIndex } from './snapshot-index.js';
import { isShared, toShared } from './shared-memory.js';
import { KeptPages, reopenRowFile, type FileIdentity } from './row-file.js';

/** A kind's lists as a snapshot serves them: a loaded version's {@link KindLists}, or a thread's, made on first use. */
export interface ServedLists {
  readonly overview: RowList;
  readonly byKey: { get(key: string): RowList | undefined };
  readonly empty: RowList;
}

/** What a {@link SnapshotIndex} is made of. */
export interface SnapshotParts {
  readonly version: string;
  readonly tag: string;
  readonly manifest: SnapshotManifest;
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  readonly filters: FilterIndex;
  readonly lists: Readonly<Record<RowKind, ServedLists>>;
}

const PARTS = new WeakMap<SnapshotIndex, SnapshotParts>();

/** The snapshot made of `parts` (frozen; its parts can be packed for threads). */
export function assembleSnapshot(parts: SnapshotParts): SnapshotIndex {
  const { lists } = parts;
  const index: SnapshotIndex = Object.freeze({
    version: parts.version,
    tag: parts.tag,
    manifest: parts.manifest,
    rowCounts: parts.rowCounts,
    filters: parts.filters,
    list(kind: RowKind, key: string | null): RowList {
      const kindLists = lists[kind];
      return key === null ? kindLists.overview : kindLists.byKey.get(key) ?? kindLists.empty;
    },
  });
  PARTS.set(index, parts);
  return index;
}

/** A row table as data: its Buffers as byte views, its order keys as their two arrays. */
interface PackedTable extends Omit<RowTable, 'chunks' | 'keys' | 'otherFacts' | 'file'> {
  readonly chunks: readonly Uint8Array[];
  /** The rows' file when they are read from it: each thread opens it again (row-file.ts). */
  readonly file: { readonly path: string; readonly identity: FileIdentity; readonly positions: Float64Array } | null;
  readonly otherFacts: ReadonlyMap<number, Uint8Array>;
  readonly keyBytes: Uint8Array;
  readonly keyEnds: Uint32Array;
}

/** A list as data: [key, length, row numbers or null, contiguous]. */
type PackedList = readonly [key: string | null, length: number, rows: Int32Array | null, contiguous: boolean];

/**
 * A kind's lists by key as columns (one object per list would cost each thread tens of MiB at a
 * year of EDGAR): list i is `keys[i]`, of `lengths[i]` rows, contiguous when `contiguous[i]` is
 * 1; its rows are `members[from[i], from[i] + lengths[i])`, or `own.get(i)` when `from[i]` is -1.
 */
interface PackedKeyLists {
  readonly keys: readonly string[];
  readonly lengths: Int32Array;
  readonly contiguous: Uint8Array;
  readonly from: Int32Array;
  /** The kind's list members (shared), which most lists are slices of; null when no list is. */
  readonly members: Int32Array | null;
  readonly own: ReadonlyMap<number, Int32Array>;
}

/** One kind as data. */
interface PackedKind {
  readonly table: PackedTable;
  readonly overview: PackedList;
  readonly byKey: PackedKeyLists;
  /** Each index's values as one JSON array (one string to post instead of thousands). */
  readonly postings: readonly (readonly [name: string, valuesJson: string, starts: Int32Array, rows: Int32Array])[];
  readonly dates: readonly (readonly [field: string, days: Int32Array])[];
}

/** A loaded version as data for `postMessage` (structured clone); large arrays are shared memory. */
export interface PackedSnapshot {
  readonly version: string;
  readonly tag: string;
  readonly manifest: SnapshotManifest;
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  readonly kinds: Readonly<Record<RowKind, PackedKind>>;
}

/**
 * Describes a loaded version as data to post to threads. Arrays the load did not allocate in
 * shared memory are copied there once when large ({@link toShared}); small ones are copied by
 * `postMessage`.
 *
 * @throws TypeError when the snapshot was not made by {@link assembleSnapshot}.
 */
export function packSnapshot(index: SnapshotIndex): PackedSnapshot {
  const parts = PARTS.get(index);
  if (parts === undefined) throw new TypeError('packSnapshot: not a loaded snapshot');
  const kinds = {} as Record<RowKind, PackedKind>;
  for (const kind of ROW_KINDS) {
    const { overview, byKey } = parts.lists[kind];
    if (!(byKey instanceof Map)) throw new TypeError('packSnapshot: only a loaded snapshot is packed');
    const table = packTable(overview.table);
    const filters = parts.filters[kind];
    kinds[kind] = {
      table,
      overview: packList(overview),
      byKey: packKeyLists(byKey as ReadonlyMap<string, RowList>),
      postings: [...filters.postings].map(([name, p]) => [name, JSON.stringify(p.values), toShared(p.starts), toShared(p.rows)] as const),
      dates: [...filters.dates].map(([field, days]) => [field, toShared(days)] as const),
    };
  }
  return { version: index.version, tag: index.tag, manifest: index.manifest, rowCounts: index.rowCounts, kinds };
}

/**
 * Rebuilds, in the receiving thread, the snapshot {@link packSnapshot} described.
 *
 * @param keptPageBytes - bytes of answered pages this thread keeps for the version (rows in their
 *   files). Default: `KEPT_PAGE_BYTES` of row-file.ts.
 */
export function unpackSnapshot(packed: PackedSnapshot, keptPageBytes?: number): SnapshotIndex {
  const lists = {} as Record<RowKind, ServedLists>;
  const filters = {} as Record<RowKind, KindFilterIndex>;
  const kept = new KeptPages(keptPageBytes);
  for (const kind of ROW_KINDS) {
    const data = packed.kinds[kind];
    const t = data.table;
    const table: RowTable = {
      chunks: t.chunks.map(asBuffer), chunkOf: t.chunkOf, starts: t.starts, lengths: t.lengths, factsEnds: t.factsEnds,
      otherFacts: new Map([...t.otherFacts].map(([row, bytes]) => [row, asBuffer(bytes)])),
      keys: new OrderKeys(asBuffer(t.keyBytes), t.keyEnds),
      file: t.file && reopenRowFile(t.file.path, t.file.identity, t.file.positions, kept),
    };
    const [key, length, rows, contiguous] = data.overview;
    const emptyTable = { ...table, keys: new OrderKeys(Buffer.alloc(0), new Uint32Array(0)) };
    lists[kind] = {
      overview: makeList(kind, key, table, length, rows, contiguous),
      byKey: new LazyLists(kind, table, data.byKey),
      empty: makeList(kind, null, emptyTable, 0, new Int32Array(0), true),
    };
    filters[kind] = Object.freeze({
      postings: new Map(data.postings.map(([name, json, starts, rows]) => [name, new Postings({ json }, starts, rows)])),
      dates: new Map(data.dates),
    });
  }
  return assembleSnapshot({
    version: packed.version, tag: packed.tag, manifest: packed.manifest, rowCounts: packed.rowCounts,
    filters: Object.freeze(filters), lists,
  });
}

function packTable(table: RowTable): PackedTable {
  return {
    chunks: table.chunks.map(toShared), chunkOf: table.chunkOf && toShared(table.chunkOf), starts: toShared(table.starts),
    lengths: toShared(table.lengths), factsEnds: toShared(table.factsEnds), otherFacts: table.otherFacts,
    keyBytes: toShared(table.keys.bytes), keyEnds: toShared(table.keys.ends),
    file: table.file && { path: table.file.path, identity: table.file.identity, positions: toShared(table.file.positions) },
  };
}

/** The overview: its rows are null (file order) or its own array. */
function packList(list: RowList): PackedList {
  return [list.key, list.length, list.rows && toShared(list.rows), list.contiguous];
}

/** A kind's lists by key as columns; the rows of most are slices of one shared array of members. */
function packKeyLists(byKey: ReadonlyMap<string, RowList>): PackedKeyLists {
  const n = byKey.size;
  const keys: string[] = [];
  const lengths = new Int32Array(n);
  const contiguous = new Uint8Array(n);
  const from = new Int32Array(n);
  const own = new Map<number, Int32Array>();
  let members: Int32Array | null = null;
  let i = 0;
  for (const [key, list] of byKey) {
    keys.push(key);
    lengths[i] = list.length;
    contiguous[i] = list.contiguous ? 1 : 0;
    const rows = list.rows ?? new Int32Array(0);
    if (members === null && isShared(rows)) members = new Int32Array(rows.buffer, 0, rows.buffer.byteLength / 4);
    if (members !== null && rows.buffer === members.buffer) from[i] = rows.byteOffset / 4;
    else {
      from[i] = -1;
      own.set(i, rows);
    }
    i++;
  }
  return { keys, lengths: toShared(lengths), contiguous: toShared(contiguous), from: toShared(from), members, own };
}

/**
 * A thread's lists by key: the index of each key at first, each list made when first asked for
 * (a thread answers a few thousand tickers of the tens of thousands a version lists).
 */
class LazyLists {
  readonly #index: Map<string, number>;
  readonly #made = new Map<number, RowList>();

  constructor(readonly kind: RowKind, readonly table: RowTable, readonly packed: PackedKeyLists) {
    this.#index = new Map(packed.keys.map((key, i) => [key, i]));
  }

  get(key: string): RowList | undefined {
    const i = this.#index.get(key);
    if (i === undefined) return undefined;
    let list = this.#made.get(i);
    if (list === undefined) {
      const { lengths, contiguous, from, members, own } = this.packed;
      const length = lengths[i]!;
      const rows = from[i] === -1 ? own.get(i)! : members!.subarray(from[i]!, from[i]! + length);
      list = makeList(this.kind, key, this.table, length, rows, contiguous[i] === 1);
      this.#made.set(i, list);
    }
    return list;
  }
}

/** A Buffer over the same memory as `bytes` (a posted Buffer arrives as a plain Uint8Array). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
