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
import { toShared } from './shared-memory.js';

/** What a {@link SnapshotIndex} is made of. */
export interface SnapshotParts {
  readonly version: string;
  readonly tag: string;
  readonly manifest: SnapshotManifest;
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  readonly filters: FilterIndex;
  readonly lists: Readonly<Record<RowKind, KindLists>>;
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
interface PackedTable extends Omit<RowTable, 'chunks' | 'keys' | 'otherFacts'> {
  readonly chunks: readonly Uint8Array[];
  readonly otherFacts: ReadonlyMap<number, Uint8Array>;
  readonly keyBytes: Uint8Array;
  readonly keyEnds: Uint32Array;
}

/** A list as data: [key, length, row numbers or null, contiguous]. */
type PackedList = readonly [key: string | null, length: number, rows: Int32Array | null, contiguous: boolean];

/** One kind as data. */
interface PackedKind {
  readonly table: PackedTable;
  readonly overview: PackedList;
  readonly byKey: readonly PackedList[];
  readonly postings: readonly (readonly [name: string, values: readonly string[], starts: Int32Array, rows: Int32Array])[];
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
    const table = packTable(overview.table);
    const filters = parts.filters[kind];
    kinds[kind] = {
      table,
      overview: packList(overview),
      byKey: [...byKey.values()].map(packList),
      postings: [...filters.postings].map(([name, p]) => [name, p.values, toShared(p.starts), toShared(p.rows)] as const),
      dates: [...filters.dates].map(([field, days]) => [field, toShared(days)] as const),
    };
  }
  return { version: index.version, tag: index.tag, manifest: index.manifest, rowCounts: index.rowCounts, kinds };
}

/** Rebuilds, in the receiving thread, the snapshot {@link packSnapshot} described. */
export function unpackSnapshot(packed: PackedSnapshot): SnapshotIndex {
  const lists = {} as Record<RowKind, KindLists>;
  const filters = {} as Record<RowKind, KindFilterIndex>;
  for (const kind of ROW_KINDS) {
    const data = packed.kinds[kind];
    const t = data.table;
    const table: RowTable = {
      chunks: t.chunks.map(asBuffer), chunkOf: t.chunkOf, starts: t.starts, lengths: t.lengths, factsEnds: t.factsEnds,
      otherFacts: new Map([...t.otherFacts].map(([row, bytes]) => [row, asBuffer(bytes)])),
      keys: new OrderKeys(asBuffer(t.keyBytes), t.keyEnds),
    };
    const list = ([key, length, rows, contiguous]: PackedList): RowList => makeList(kind, key, table, length, rows, contiguous);
    const emptyTable = { ...table, keys: new OrderKeys(Buffer.alloc(0), new Uint32Array(0)) };
    lists[kind] = {
      overview: list(data.overview),
      byKey: new Map(data.byKey.map((packedList) => [packedList[0]!, list(packedList)])),
      empty: makeList(kind, null, emptyTable, 0, new Int32Array(0), true),
    };
    filters[kind] = Object.freeze({
      postings: new Map(data.postings.map(([name, values, starts, rows]) => [name, new Postings(values, starts, rows)])),
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
  };
}

/** A list's rows are views of the kind's members (shared), or its own small array. */
function packList(list: RowList): PackedList {
  return [list.key, list.length, list.rows && toShared(list.rows), list.contiguous];
}

/** A Buffer over the same memory as `bytes` (a posted Buffer arrives as a plain Uint8Array). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
