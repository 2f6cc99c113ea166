/**
 * A loaded snapshot: the verified manifest and, per row kind, its overview list and its lists
 * by ticker (by CIK for whales), each prepared as a {@link Page}. Built whole from a snapshot
 * that passed every check, then used read-only; a reload builds a new one and swaps it in.
 */
import { join } from 'node:path';
import { MAX_PAGE_SIZE_OF_ANY_PLAN } from '../plans.js';
import { ROW_KINDS, WRITTEN_FIELD, type RowKind } from '../rows/schemas.js';
import type { SnapshotManifest } from './snapshot-format.js';
import { readCurrentVersion, readSnapshot } from './snapshot-reader.js';
import { EMPTY_PAGE, PageBuilder, PageSlabs, RowStore, type Page } from './page.js';

/** The field each kind's lists are keyed by (decisions §1: ticker, or cik on whales). */
export const FILTER_FIELD: Readonly<Record<RowKind, 'ticker' | 'cik'>> = Object.freeze({
  reports: 'ticker', insiders: 'ticker', whales: 'cik', earnings: 'ticker', filings: 'ticker',
});

/**
 * Longest run of page building at the end of a load before requests get a turn, in ms. A page
 * copies up to 200 rows in two variants from wherever they were read, so the time a page takes
 * varies a hundredfold; the build yields by the clock, not by a count of pages.
 */
const BUILD_SLICE_MS = 5;

interface KindLists {
  readonly overview: Page;
  readonly byKey: ReadonlyMap<string, Page>;
}

/** An immutable, fully indexed snapshot. */
export interface SnapshotIndex {
  /** Version label (also sent as `X-Snapshot-Version`). */
  readonly version: string;
  readonly manifest: SnapshotManifest;
  /** Rows read per kind. */
  readonly rowCounts: Readonly<Record<RowKind, number>>;
  /**
   * The list for a kind: the overview when `key` is null, else the rows whose filter field
   * equals `key` (a normalised ticker, or a 10-digit CIK); an empty page when none match.
   */
  list(kind: RowKind, key: string | null): Page;
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
  const store = new RowStore();
  const overview = new Map<RowKind, PageBuilder>();
  const byKey = new Map<RowKind, Map<string, PageBuilder>>();
  const rowCounts = {} as Record<RowKind, number>;
  for (const kind of ROW_KINDS) {
    overview.set(kind, new PageBuilder(MAX_PAGE_SIZE_OF_ANY_PLAN, store));
    byKey.set(kind, new Map());
    rowCounts[kind] = 0;
  }

  const manifest = await readSnapshot(join(root, chosen), chosen, (kind, row, line) => {
    rowCounts[kind]++;
    const all = overview.get(kind)!;
    const keyed = filterKeys(row, FILTER_FIELD[kind]).map((key) => builderFor(byKey.get(kind)!, key, store));
    if (!all.hasRoom && !keyed.some((builder) => builder.hasRoom)) return;
    const facts = factsOf(row, line, WRITTEN_FIELD[kind]);
    const kept = store.keep(line, facts, facts !== line);
    all.add(kept);
    for (const builder of keyed) builder.add(kept);
  });

  const lists = {} as Record<RowKind, KindLists>;
  const slabs = new PageSlabs();
  let sliceStart = performance.now();
  for (const kind of ROW_KINDS) {
    const pages = new Map<string, Page>();
    for (const [key, builder] of byKey.get(kind)!) {
      pages.set(key, builder.build(slabs));
      // Let requests in between (a reload runs while the old snapshot serves).
      if (performance.now() - sliceStart > BUILD_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    lists[kind] = { overview: overview.get(kind)!.build(slabs), byKey: pages };
  }
  return Object.freeze({
    version: manifest.version,
    manifest,
    rowCounts: Object.freeze(rowCounts),
    list(kind: RowKind, key: string | null): Page {
      const kindLists = lists[kind];
      return key === null ? kindLists.overview : kindLists.byKey.get(key) ?? EMPTY_PAGE;
    },
  });
}

/**
 * The keys a row is listed under: for `ticker`, every entry of the row's `tickers` (all the
 * company's tickers, primary first; decisions §6 "Tickers"), falling back to `ticker` for rows
 * without that array; for `cik`, the CIK.
 */
function filterKeys(row: Record<string, unknown>, field: 'ticker' | 'cik'): string[] {
  const tickers = field === 'ticker' ? row.tickers : undefined;
  if (Array.isArray(tickers) && tickers.length > 0) return [...new Set(tickers.filter((t): t is string => typeof t === 'string'))];
  const key = row[field];
  return typeof key === 'string' ? [key] : [];
}

function builderFor(map: Map<string, PageBuilder>, key: string, store: RowStore): PageBuilder {
  let builder = map.get(key);
  if (!builder) {
    builder = new PageBuilder(MAX_PAGE_SIZE_OF_ANY_PLAN, store);
    map.set(key, builder);
  }
  return builder;
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
 *   without their closing brace (a view of `line`, or a new buffer).
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
  return Buffer.from(JSON.stringify(facts).slice(0, -1));
}

/** Whether `bytes` holds `expected` at `offset`. */
function startsWith(bytes: Uint8Array, expected: Uint8Array, offset: number): boolean {
  if (offset < 0 || offset + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected[i]) return false;
  return true;
}
