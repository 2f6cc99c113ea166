/**
 * What serving needs to know of one kind's rows besides their bytes (docs/api.md §17): each
 * row's length, where its written field starts (so the free variant is a prefix of the row), the
 * keys it is listed under and its order key. The builder learns it by reading the rows it wrote
 * and stores it in the kind's index file; a server learns it from that file, or, for a version
 * without one, by reading the rows as the builder does. Both ways give the same measure, so a
 * version serves the same bytes either way.
 */
import { ORDER_KEY_PARTS, OrderKeyWriter, type OrderKeys } from './order-key.js';
import { IntColumn } from './int-column.js';
import { FACTS_APART, FACTS_ARE_FULL } from './page.js';
import { readKindRows } from './snapshot-reader.js';
import { SnapshotError, type FileEntry } from './snapshot-format.js';
import { WRITTEN_FIELD, type RowKind } from '../rows/schemas.js';

/** The field each kind's lists are keyed by (docs/api.md §1: ticker, or cik on whales). */
export const FILTER_FIELD: Readonly<Record<RowKind, 'ticker' | 'cik'>> = Object.freeze({
  reports: 'ticker', insiders: 'ticker', whales: 'cik', earnings: 'ticker', filings: 'ticker',
  'insider-transactions': 'ticker', financials: 'ticker', holders: 'ticker',
});

/** One kind's rows measured, by row number (the row's line in its file, from 0). */
export interface RowMeasure {
  /** Number of rows. */
  readonly rows: number;
  /** Byte length of each row's JSON (without its newline). */
  readonly lengths: Uint32Array;
  /**
   * How each row's facts serialisation is made (docs/api.md §6: written fields are absent on the
   * free plan): n ≥ 0, the first n bytes of the row and `}`; {@link FACTS_ARE_FULL}; or
   * {@link FACTS_APART}, the facts bytes being in `otherFacts`.
   */
  readonly factsEnds: Int32Array;
  /** Facts serialisations that are not a prefix of their row, by row number (rare). */
  readonly otherFacts: ReadonlyMap<number, Buffer>;
  /** Group of each row: rows with the same list keys share one; a row with none has its own. Ids in order of first appearance. */
  readonly groups: Int32Array;
  /** List keys of each group, by group id. */
  readonly groupKeys: readonly (readonly string[])[];
  /** The rows' order keys. */
  readonly keys: OrderKeys;
}

/**
 * The keys a row is listed under: every ticker of its company (`tickers`, primary first, where
 * the row has them), else its `ticker`; its `cik` on whales (docs/api.md §6, "Tickers").
 */
export function listKeys(kind: RowKind, row: Record<string, unknown>): readonly string[] {
  if (FILTER_FIELD[kind] === 'cik') return typeof row.cik === 'string' ? [row.cik] : [];
  const { tickers } = row;
  if (Array.isArray(tickers) && tickers.length > 0) return tickers.filter((t): t is string => typeof t === 'string');
  return typeof row.ticker === 'string' ? [row.ticker] : [];
}

/** Measures the rows of one kind as they are read, in file order. */
export class RowMeasurer {
  #rows = 0;
  readonly #lengths = new IntColumn();
  readonly #factsEnds = new IntColumn();
  readonly #groups = new IntColumn();
  readonly #otherFacts = new Map<number, Buffer>();
  readonly #keys = new OrderKeyWriter();
  readonly #groupIds = new Map<string, number>();
  readonly #groupKeys: (readonly string[])[] = [];

  constructor(readonly kind: RowKind) {}

  /**
   * Measures the next row.
   *
   * @param row - the row, parsed from `line` and checked against its schema.
   * @param line - the row's UTF-8 JSON as stored, without its newline; not kept.
   * @throws Error when the row's order key cannot be made (see `OrderKeyWriter.add`).
   */
  add(row: Record<string, unknown>, line: Uint8Array): void {
    const number = this.#rows++;
    this.#lengths.push(line.length);
    const keys = listKeys(this.kind, row);
    const groupKey = keys.join(' ');
    let group = keys.length === 0 ? undefined : this.#groupIds.get(groupKey);
    if (group === undefined) {
      group = this.#groupKeys.length;
      this.#groupKeys.push(keys);
      if (keys.length > 0) this.#groupIds.set(groupKey, group);
    }
    this.#groups.push(group);
    const facts = factsOf(row, line, WRITTEN_FIELD[this.kind]);
    if (facts === line) this.#factsEnds.push(FACTS_ARE_FULL);
    else if (facts.buffer === line.buffer && facts.byteOffset === line.byteOffset) this.#factsEnds.push(facts.length);
    else {
      this.#factsEnds.push(FACTS_APART);
      this.#otherFacts.set(number, Buffer.from(facts));
    }
    this.#keys.add(ORDER_KEY_PARTS[this.kind], row);
  }

  /** The measure of every row added (views of the measurer's memory: add no more rows after). */
  finish(): RowMeasure {
    return {
      rows: this.#rows,
      lengths: this.#lengths.toUint32(),
      factsEnds: this.#factsEnds.toInt32(),
      otherFacts: this.#otherFacts,
      groups: this.#groups.toInt32(),
      groupKeys: this.#groupKeys,
      keys: this.#keys.finish(),
    };
  }
}

/**
 * Reads, checks and measures a kind's rows: every check of `readKindRows` (docs/api.md §7), and
 * each row's order key must be one a cursor can carry.
 *
 * @param file - the kind's NDJSON file.
 * @param entry - its manifest entry.
 * @param onRow - also receives each checked row with its number (its line, from 0), e.g. to
 *   build the kind's filter indexes from the same read.
 * @throws SnapshotError naming the file and line of the first failure.
 */
export async function measureRows(file: string, kind: RowKind, entry: FileEntry, onRow?: (number: number, row: Record<string, unknown>) => void): Promise<RowMeasure> {
  const measurer = new RowMeasurer(kind);
  let line = 0;
  await readKindRows(file, kind, entry.sha256, entry.rows, (row, bytes) => {
    line++;
    try {
      measurer.add(row, bytes);
      onRow?.(line - 1, row);
    } catch (error) {
      throw new SnapshotError(file, (error as Error).message, line);
    }
  });
  return measurer.finish();
}

const QUOTE_BRACE = Buffer.from('"}');
const memberOpenings = new Map<string, Buffer>();

/** The bytes `,"<field>":"` that open a written field written as the row's last member. */
export function memberOpening(writtenField: string): Buffer {
  let opening = memberOpenings.get(writtenField);
  if (!opening) {
    opening = Buffer.from(`,${JSON.stringify(writtenField)}:"`);
    memberOpenings.set(writtenField, opening);
  }
  return opening;
}

/**
 * Whether `line[0, factsEnd)` + `}` is the row without its written field: the written field's
 * opening `,"<field>":"` at `factsEnd` and the line ending with `"}` (see {@link factsOf}).
 */
export function isFactsCut(line: Uint8Array, lineStart: number, lineLength: number, factsEnd: number, opening: Uint8Array): boolean {
  return factsEnd > 0 && startsWith(line, opening, lineStart + factsEnd, lineStart + lineLength)
    && startsWith(line, QUOTE_BRACE, lineStart + lineLength - 2, lineStart + lineLength);
}

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
    const opening = memberOpening(writtenField);
    // `,"summary":"` + the rest of the JSON string after its opening quote + `}`.
    const start = line.length - opening.length - Buffer.byteLength(JSON.stringify(written));
    if (isFactsCut(line, 0, line.length, start, opening)) return line.subarray(0, start);
  }
  const { [writtenField]: _written, ...facts } = row;
  return Buffer.from(JSON.stringify(facts));
}

/** Whether `bytes` holds `expected` at `offset`, within `bytes[0, end)`. */
function startsWith(bytes: Uint8Array, expected: Uint8Array, offset: number, end: number): boolean {
  if (offset < 0 || offset + expected.length > end) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[offset + i] !== expected[i]) return false;
  return true;
}
