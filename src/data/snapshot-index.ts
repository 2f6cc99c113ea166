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
import { EMPTY_PAGE, PageBuilder, type Page } from './page.js';

/** The field each kind's lists are keyed by (decisions §1: ticker, or cik on whales). */
export const FILTER_FIELD: Readonly<Record<RowKind, 'ticker' | 'cik'>> = Object.freeze({
  reports: 'ticker', insiders: 'ticker', whales: 'cik', earnings: 'ticker', filings: 'ticker',
});

/** Pages built per event-loop turn at the end of a load (each a few hundred rows at most). */
const PAGES_PER_TURN = 200;

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
  const overview = new Map<RowKind, PageBuilder>();
  const byKey = new Map<RowKind, Map<string, PageBuilder>>();
  const rowCounts = {} as Record<RowKind, number>;
  for (const kind of ROW_KINDS) {
    overview.set(kind, new PageBuilder(MAX_PAGE_SIZE_OF_ANY_PLAN));
    byKey.set(kind, new Map());
    rowCounts[kind] = 0;
  }

  const manifest = await readSnapshot(join(root, chosen), chosen, (kind, row) => {
    rowCounts[kind]++;
    const all = overview.get(kind)!;
    const key = row[FILTER_FIELD[kind]];
    const keyed = typeof key === 'string' ? builderFor(byKey.get(kind)!, key) : undefined;
    if (!all.hasRoom && !keyed?.hasRoom) return;
    const [fullJson, factsJson] = serialise(row, WRITTEN_FIELD[kind]);
    all.add(fullJson, factsJson);
    keyed?.add(fullJson, factsJson);
  });

  const lists = new Map<RowKind, KindLists>();
  let built = 0;
  for (const kind of ROW_KINDS) {
    const pages = new Map<string, Page>();
    for (const [key, builder] of byKey.get(kind)!) {
      pages.set(key, builder.build());
      // Let requests in between (a reload runs while the old snapshot serves).
      if (++built % PAGES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    lists.set(kind, { overview: overview.get(kind)!.build(), byKey: pages });
  }
  return Object.freeze({
    version: manifest.version,
    manifest,
    rowCounts: Object.freeze(rowCounts),
    list(kind: RowKind, key: string | null): Page {
      const kindLists = lists.get(kind)!;
      return key === null ? kindLists.overview : kindLists.byKey.get(key) ?? EMPTY_PAGE;
    },
  });
}

function builderFor(map: Map<string, PageBuilder>, key: string): PageBuilder {
  let builder = map.get(key);
  if (!builder) {
    builder = new PageBuilder(MAX_PAGE_SIZE_OF_ANY_PLAN);
    map.set(key, builder);
  }
  return builder;
}

/**
 * The row as JSON with and without its written field. The second is cut from the first when the
 * written field is the row's last member (as the builder writes rows): JSON.stringify keeps
 * member order, so `{…,"summary":"…"}` minus its last member is exactly the JSON of the row
 * without it, and the match cannot come from inside a string, where every quote is escaped.
 * A CPU profile of a 1M-filing load showed the second JSON.stringify and the object rest copy
 * as 13% of the load; any other layout takes that slower path.
 */
function serialise(row: Record<string, unknown>, writtenField: string): [string, string] {
  const fullJson = JSON.stringify(row);
  const written = row[writtenField];
  if (written === undefined) return [fullJson, fullJson];
  if (typeof written === 'string') {
    const member = `,${JSON.stringify(writtenField)}:${JSON.stringify(written)}}`;
    if (fullJson.endsWith(member)) return [fullJson, `${fullJson.slice(0, fullJson.length - member.length)}}`];
  }
  const { [writtenField]: _written, ...facts } = row;
  return [fullJson, JSON.stringify(facts)];
}
