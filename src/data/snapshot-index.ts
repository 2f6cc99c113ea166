/**
 * A loaded snapshot: the verified manifest and, per row kind, every row stored once (a
 * {@link RowTable}) with its overview list and its lists by ticker (by CIK for whales). Built
 * whole from a snapshot that passed every check, then used read-only; a reload builds a new one
 * and swaps it in.
 *
 * Loading reads each file twice. The first read checks every row (the reader's checks) and
 * measures it: its length, its list keys, its order key and where its written field starts. The
 * second read, checked against the manifest's SHA-256 again, copies each row straight to its
 * place in the layout (rows grouped by list key), so the rows are copied once and never held
 * twice: a layout decided after the first read would otherwise need the rows in memory twice
 * while they were moved.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ROW_KINDS, WRITTEN_FIELD, type RowKind } from '../rows/schemas.js';
import { fileOfKind, SnapshotError, type SnapshotManifest } from './snapshot-format.js';
import { readCurrentVersion, readLines, readSnapshot } from './snapshot-reader.js';
import { FACTS_APART, FACTS_ARE_FULL, makeList, type RowList, type RowTable } from './page.js';
import { ORDER_KEY_PARTS, OrderKeys, OrderKeyWriter } from './order-key.js';
import { IntColumn } from './int-column.js';
import { FilterIndexBuilder, indexPlans, type FilterIndex, type ListedIndex } from './filter-index.js';

/** The field each kind's lists are keyed by (docs/api.md §1: ticker, or cik on whales). */
export const FILTER_FIELD: Readonly<Record<RowKind, 'ticker' | 'cik'>> = Object.freeze({
  reports: 'ticker', insiders: 'ticker', whales: 'cik', earnings: 'ticker', filings: 'ticker',
});

/**
 * The filter index each kind's own lists answer (docs/api.md §15), with the row fields
 * {@link listKeys} reads: `ticker` on `tickers`, else `ticker`; `cik` on `cik`.
 */
export const LISTED_BY: Readonly<Record<RowKind, ListedIndex>> = listedBy();

function listedBy(): Record<RowKind, ListedIndex> {
  const listed = {} as Record<RowKind, ListedIndex>;
  for (const kind of ROW_KINDS) listed[kind] = FILTER_FIELD[kind] === 'cik' ? { index: 'cik', fields: ['cik'] } : { index: 'ticker', fields: ['tickers', 'ticker'] };
  return Object.freeze(listed);
}

/** An immutable, fully indexed snapshot. */
export interface SnapshotIndex {
  /** Version label (also sent as `X-Snapshot-Version`). */
  readonly version: string;
  /**
   * A short digest of the version and its files' SHA-256s: the snapshot part of list ETags
   * (docs/api.md §10), different for any two snapshots whose rows differ.
   */
  readonly tag: string;
  readonly manifest: SnapshotManifest;
  /** Rows read per kind. */
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  /**
   * The list for a kind: the overview when `key` is null, else the rows whose list keys hold
   * `key` (a normalised ticker, or a 10-digit CIK); an empty list when none do.
   */
  list(kind: RowKind, key: string | null): RowList;
  /** The indexes of the filters that the kind's own lists do not answer (docs/api.md §15). */
  readonly filters: FilterIndex;
}

/** What the first read learns of one kind's rows. */
class KindMeasure {
  rows = 0;
  readonly lengths = new IntColumn();
  readonly factsEnds = new IntColumn();
  /** Group of each row: rows with the same list keys share one; a row with none has its own. */
  readonly groups = new IntColumn();
  readonly otherFacts = new Map<number, Buffer>();
  readonly keys = new OrderKeyWriter();
  readonly groupIds = new Map<string, number>();
  /** List keys of each group, by group id (ids in order of first appearance). */
  readonly groupKeys: (readonly string[])[] = [];
}

/**
 * The keys a row is listed under: every ticker of its company (`tickers`, primary first, where
 * the row has them), else its `ticker`; its `cik` on whales (docs/api.md §6, "Tickers").
 */
function listKeys(kind: RowKind, row: Record<string, unknown>): readonly string[] {
  if (FILTER_FIELD[kind] === 'cik') return typeof row.cik === 'string' ? [row.cik] : [];
  const { tickers } = row;
  if (Array.isArray(tickers) && tickers.length > 0) return tickers.filter((t): t is string => typeof t === 'string');
  return typeof row.ticker === 'string' ? [row.ticker] : [];
}

/**
 * Loads the version that `<root>/CURRENT` names, or `version` when given, checking it whole.
 *
 * @param root - the snapshots folder.
 * @param version - a version label to load instead of CURRENT's.
 * @throws SnapshotError naming the file and line of the first failure.
 */
export async function loadSnapshot(root: string, version?: string): Promise<SnapshotIndex> {
  const chosen = version ?? await readCurrentVersion(root);
  const dir = join(root, chosen);
  const measures = {} as Record<RowKind, KindMeasure>;
  for (const kind of ROW_KINDS) measures[kind] = new KindMeasure();
  const filters = new FilterIndexBuilder(indexPlans(LISTED_BY));

  const manifest = await readSnapshot(dir, chosen, (kind, row, line) => {
    const m = measures[kind];
    const number = m.rows++;
    filters.add(kind, number, row);
    m.lengths.push(line.length);
    const keys = listKeys(kind, row);
    const groupKey = keys.join(' ');
    let group = keys.length === 0 ? undefined : m.groupIds.get(groupKey);
    if (group === undefined) {
      group = m.groupKeys.length;
      m.groupKeys.push(keys);
      if (keys.length > 0) m.groupIds.set(groupKey, group);
    }
    m.groups.push(group);
    const facts = factsOf(row, line, WRITTEN_FIELD[kind]);
    if (facts === line) m.factsEnds.push(FACTS_ARE_FULL);
    else if (facts.buffer === line.buffer && facts.byteOffset === line.byteOffset) m.factsEnds.push(facts.length);
    else {
      m.factsEnds.push(FACTS_APART);
      m.otherFacts.set(number, Buffer.from(facts));
    }
    try {
      m.keys.add(ORDER_KEY_PARTS[kind], row);
    } catch (error) {
      throw new SnapshotError(join(dir, fileOfKind(kind)), (error as Error).message, number + 1);
    }
  });

  const lists = {} as Record<RowKind, { overview: RowList; byKey: Map<string, RowList>; empty: RowList }>;
  for (const kind of ROW_KINDS) lists[kind] = await layOut(kind, measures[kind], join(dir, fileOfKind(kind)), manifest.files[fileOfKind(kind)]!.sha256);

  const tagHash = createHash('sha256').update(manifest.version);
  for (const kind of ROW_KINDS) tagHash.update(`\n${manifest.files[fileOfKind(kind)]!.sha256}`);
  const rowCounts = {} as Record<RowKind, number>;
  for (const kind of ROW_KINDS) rowCounts[kind] = measures[kind].rows;
  return Object.freeze({
    version: manifest.version,
    tag: tagHash.digest('base64url').slice(0, 12),
    manifest,
    rowCounts: Object.freeze(rowCounts),
    filters: filters.finish(),
    list(kind: RowKind, key: string | null): RowList {
      const kindLists = lists[kind];
      return key === null ? kindLists.overview : kindLists.byKey.get(key) ?? kindLists.empty;
    },
  });
}

/**
 * Lays one kind's rows out grouped by list key (groups in order of their first row, rows in
 * file order within a group), reads the file again into that layout, and builds its lists.
 */
async function layOut(kind: RowKind, m: KindMeasure, file: string, sha256: string): Promise<{ overview: RowList; byKey: Map<string, RowList>; empty: RowList }> {
  const n = m.rows;
  const lengths = m.lengths.toUint32();
  const groups = m.groups.toInt32();
  const groupCount = m.groupKeys.length;
  // Bytes and rows per group, then where each group starts.
  const groupBytes = new Float64Array(groupCount);
  const groupRows = new Int32Array(groupCount + 1);
  const turns = new Turns();
  for (let i = 0; i < n; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const g = groups[i]!;
    groupBytes[g] = groupBytes[g]! + lengths[i]! + 1;
    groupRows[g + 1] = groupRows[g + 1]! + 1;
  }
  const groupStart = new Float64Array(groupCount);
  let total = 0;
  for (let g = 0; g < groupCount; g++) {
    groupStart[g] = total;
    total += groupBytes[g]!;
    groupRows[g + 1] = groupRows[g + 1]! + groupRows[g]!;
  }
  if (total > 0xffffffff) throw new SnapshotError(file, `holds ${total} bytes of rows; at most 4 GiB per kind can be served`);
  // Each row's place, and each group's rows (a counting sort, file order kept within a group).
  const starts = new Uint32Array(n);
  const members = new Int32Array(n);
  const filled = groupRows.slice(0, groupCount);
  let contiguous = true;
  for (let i = 0; i < n; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const g = groups[i]!;
    starts[i] = groupStart[g]!;
    groupStart[g] = groupStart[g]! + lengths[i]! + 1;
    members[filled[g]!] = i;
    filled[g] = filled[g]! + 1;
    if (i > 0 && starts[i] !== starts[i - 1]! + lengths[i - 1]! + 1) contiguous = false;
  }

  const bytes = Buffer.allocUnsafeSlow(total);
  await readLines(file, sha256, n, (line, number) => {
    const row = number - 1;
    if (line.length !== lengths[row]) throw new SnapshotError(file, 'changed while it was read', number);
    const at = starts[row]!;
    line.copy(bytes, at);
    bytes[at + line.length] = 0x2c; // ','
  });

  const table: RowTable = {
    bytes, starts, lengths, factsEnds: m.factsEnds.toInt32(), otherFacts: m.otherFacts, keys: m.keys.finish(),
  };
  // Each key's groups: one (the usual case) makes a contiguous list; several are merged.
  const keyGroups = new Map<string, number[]>();
  for (let g = 0; g < groupCount; g++) {
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
  return { overview: makeList(kind, null, table, n, null, contiguous), byKey, empty };
}

/** Rows (or lists) between two looks at the clock in the layout's loops. */
const TURN_CHECK_MASK = 0xffff;

/**
 * Longest run of layout work before requests get a turn, in ms: a reload runs while the old
 * snapshot serves, and a 1M-row kind's loops take tens of ms in all.
 */
const TURN_MS = 5;

/** Gives the event loop a turn when the work since the last one took over {@link TURN_MS}. */
class Turns {
  #since = performance.now();

  async maybeYield(): Promise<void> {
    if (performance.now() - this.#since < TURN_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}

const QUOTE_BRACE = Buffer.from('"}');
const memberOpenings = new Map<string, Buffer>();

/**
 * The row's JSON without its written field. The line as stored is the row with it (any valid
 * JSON of the row is, and it was just parsed), so it is served as it is. When the written field
 * is the line's last member, as the writer (JSON.stringify) puts it, the facts variant is the
 * line up to that member, and the caller appends `}`. The check allocates nothing: the tail
 * where the member would start (from its canonical length) must open with the raw bytes
 * `,"summary":"` and the line must end with `"}`. Unescaped quotes cannot occur inside a JSON
 * string and a nested object would end with `}}`, so such a tail can only be the top-level last
 * member. Any other layout is re-serialised. (A CPU profile of a 1M-filing load showed
 * JSON.stringify and UTF-8 encoding of kept rows as a quarter of the load before rows were
 * taken from the file as they are.)
 *
 * @returns `line` itself when the row has no written field; else the facts bytes, which end
 *   without their closing brace when they are a view of `line`, and are whole otherwise.
 */
function factsOf(row: Record<string, unknown>, line: Uint8Array, writtenField: string): Uint8Array {
  const written = row[writtenField];
  if (written === undefined) return line;
  if (typeof written === 'string') {
    let opening = memberOpenings.get(writtenField);
    if (!opening) {
      opening = Buffer.from(`,${JSON.stringify(writtenField)}:"`);
      memberOpenings.set(writtenField, opening);
    }
    // `,"summary":"` + the rest of the JSON string after its opening quote + `}`.
    const start = line.length - opening.length - Buffer.byteLength(JSON.stringify(written));
    if (start > 0 && startsWith(line, opening, start) && startsWith(line, QUOTE_BRACE, line.length - 2)) return line.subarray(0, start);
  }
  const { [writtenField]: _written, ...facts } = row;
  return Buffer.from(JSON.stringify(facts));
}

/** Whether `bytes` holds `expected` at `offset`. */
function startsWith(bytes: Uint8Array, expected: Uint8Array, offset: number): boolean {
  if (offset < 0 || offset + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected[i]) return false;
  return true;
}
