/**
 * The indexes behind filters (docs/api.md §15), so that no request scans the rows of a kind:
 * built by the builder from each row it checks and written into the kind's index file
 * (filter-sections.ts), or, for a version without them, built at load as the rows are read. Per kind:
 *
 * - postings: per filter index (`form`, `cik`, `item`, …), every normalised value with the row
 *   numbers whose row holds it, ascending. Row numbers are lines of the kind's file, which is in
 *   the kind's order, so ascending row numbers are list order, and a filter is a merge of sorted
 *   arrays (filter-scan.ts);
 * - dates: per date filter field (the field that leads the kind's order, `filed_at` on filings),
 *   each row's date as days since 1970-01-01, non-increasing along the rows, so a `since`/`until`
 *   range is a run of rows found by binary search.
 *
 * Everything is a typed array or a string table (`Postings`: values, starts, rows), so an index
 * is written to disk at build time and read back as it is. The index a kind's own lists are
 * keyed by (ticker, or cik on whales) is not built again: those lists are its postings.
 */
import type { FilterSpec } from '../filters.js';
import { dayNumber } from '../calendar-date.js';
import { ROUTES, type Route } from '../routes.js';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import { IntColumn } from './int-column.js';
import { ORDER_KEY_PARTS } from './order-key.js';
import { FILTER_FIELD } from './row-measure.js';
import { sharedArray } from './shared-memory.js';

/** A row's date in a date column when the row has none: below every date, as nulls sort last in a descending order. */
export const NO_DATE = -2147483648;

/**
 * One index: a string table of values and, for value i, its rows at `rows[starts[i]]` up to
 * `rows[starts[i + 1]]`, ascending.
 */
export class Postings {
  #values: readonly string[] | undefined;
  readonly #valuesJson: string | undefined;
  /** Made at the first look-up: a `serve --workers` thread builds it only for the filters it is asked. */
  #ids: Map<string, number> | undefined;

  /**
   * @param values - the normalised values, each once (in order of first appearance when built
   *   here); or them as one JSON array, parsed at first use (a thread's copy: one string to post).
   * @param starts - `values.length + 1` offsets into `rows`, non-decreasing, the last `rows.length`.
   * @param rows - row numbers, ascending within each value's run.
   */
  constructor(values: readonly string[] | { readonly json: string }, readonly starts: Int32Array, readonly rows: Int32Array) {
    if (Array.isArray(values)) this.#values = values;
    else this.#valuesJson = (values as { readonly json: string }).json;
  }

  /** The values, by id. */
  get values(): readonly string[] {
    return (this.#values ??= JSON.parse(this.#valuesJson!) as string[]);
  }

  /** The rows holding `value` (a view, ascending), or undefined when none does. */
  get(value: string): Int32Array | undefined {
    this.#ids ??= new Map(this.values.map((v, id) => [v, id]));
    const id = this.#ids.get(value);
    return id === undefined ? undefined : this.rows.subarray(this.starts[id]!, this.starts[id + 1]!);
  }
}

/** One kind's filter indexes. */
export interface KindFilterIndex {
  /** Postings by index name (`FilterSpec.index`). */
  readonly postings: ReadonlyMap<string, Postings>;
  /** Date columns by field: a row's date in days since 1970-01-01, {@link NO_DATE} where it has none. */
  readonly dates: ReadonlyMap<string, Int32Array>;
}

/** Every kind's filter indexes. */
export type FilterIndex = Readonly<Record<RowKind, KindFilterIndex>>;

/** What to build for one kind: postings per index (with the filter that reads it), date columns per field. */
export interface IndexPlan {
  readonly postings: readonly FilterSpec[];
  readonly dates: readonly string[];
}

/** The filter index a kind's own lists answer: its name and the row fields the lists are keyed by. */
export interface ListedIndex {
  readonly index: string;
  readonly fields: readonly string[];
}

/**
 * What each kind's filters need, from the route table: a postings index per `key`/`keys` filter
 * index except the one the kind's own lists answer (they are its postings), a date column per
 * date field.
 *
 * @param listedBy - per kind, the index its lists answer (snapshot-index.ts).
 * @param routes - the route table.
 * @throws Error on a bug in the route table: a date filter's field that does not lead its kind's
 *   order descending (a range would not be a run of rows), or a filter on the lists' index that
 *   reads other fields than the lists are keyed by.
 */
export function indexPlans(listedBy: Readonly<Record<RowKind, ListedIndex>>, routes: readonly Route[] = ROUTES): Record<RowKind, IndexPlan> {
  const plans = {} as Record<RowKind, { postings: FilterSpec[]; dates: string[] }>;
  for (const kind of ROW_KINDS) plans[kind] = { postings: [], dates: [] };
  for (const route of routes) {
    if (route.target.kind !== 'rows') continue;
    const kind = route.target.rows;
    const plan = plans[kind];
    for (const spec of route.filters) {
      if (spec.kind === 'date-from' || spec.kind === 'date-to') {
        const lead = ORDER_KEY_PARTS[kind][0]!;
        if (lead.field !== spec.index || !lead.descending) throw new Error(`${route.path}: ${spec.name} is on ${spec.index}, which does not lead the order of ${kind} descending`);
        if (!plan.dates.includes(spec.index)) plan.dates.push(spec.index);
      } else if (spec.index === listedBy[kind].index) {
        if (spec.fields.join(',') !== listedBy[kind].fields.join(',')) {
          throw new Error(`${route.path}: ${spec.name} reads ${spec.fields.join(', ')}, but the lists of ${kind} it is answered by are keyed by ${listedBy[kind].fields.join(', ')}`);
        }
      } else if (!plan.postings.some((known) => known.index === spec.index)) {
        plan.postings.push(spec);
      }
    }
  }
  return plans;
}

/** Builds one index from the rows as they come (row numbers ascending). */
class PostingsBuilder {
  readonly #ids = new Map<string, number>();
  readonly #values: string[] = [];
  readonly #pairIds = new IntColumn();
  readonly #pairRows = new IntColumn();
  /** Ids of the row being added so far (a row holds a value once, however many fields hold it). */
  readonly #rowIds: number[] = [];

  constructor(readonly spec: FilterSpec) {}

  add(number: number, row: Record<string, unknown>): void {
    this.#rowIds.length = 0;
    for (const field of this.spec.fields) {
      const value = row[field];
      if (typeof value === 'string') this.#value(number, value);
      else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') this.#value(number, item);
    }
  }

  /** Adds one value of row `number` unless the row has it already. */
  #value(number: number, text: string): void {
    const value = this.spec.value.read(text);
    // A value no query can name (an 8-K "item" that is a date, say) is not indexed.
    if (value === undefined) return;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#ids.set(value, id);
      this.#values.push(value);
    } else if (this.#rowIds.includes(id)) {
      return;
    }
    this.#rowIds.push(id);
    this.#pairIds.push(id);
    this.#pairRows.push(number);
  }

  /** The postings: a counting sort of the pairs by value, rows staying ascending. */
  finish(): Postings {
    const ids = this.#pairIds.toInt32();
    const pairRows = this.#pairRows.toInt32();
    const starts = sharedArray(Int32Array, this.#values.length + 1);
    for (let i = 0; i < ids.length; i++) starts[ids[i]! + 1]!++;
    for (let id = 0; id < this.#values.length; id++) starts[id + 1]! += starts[id]!;
    const filled = starts.slice(0, this.#values.length);
    const rows = sharedArray(Int32Array, ids.length);
    for (let i = 0; i < ids.length; i++) rows[filled[ids[i]!]!++] = pairRows[i]!;
    return new Postings(this.#values, starts, rows);
  }
}

/**
 * Builds one kind's filter indexes from its rows as they are read (row numbers ascending): the
 * builder at build time, where they are written into the kind's index file (filter-sections.ts),
 * and the loader of a version without index files.
 */
export class KindFilterIndexBuilder {
  readonly #postings: PostingsBuilder[];
  readonly #dates: { field: string; days: IntColumn }[];

  /** @param plan - what to build for the kind ({@link indexPlans}). */
  constructor(plan: IndexPlan) {
    this.#postings = plan.postings.map((spec) => new PostingsBuilder(spec));
    this.#dates = plan.dates.map((field) => ({ field, days: new IntColumn() }));
  }

  /** Indexes row `number` (its line in the file, from 0), as parsed. */
  add(number: number, row: Record<string, unknown>): void {
    for (const builder of this.#postings) builder.add(number, row);
    for (const { field, days } of this.#dates) {
      const value = row[field];
      days.push(typeof value === 'string' ? dayNumber(value) ?? NO_DATE : NO_DATE);
    }
  }

  /** The indexes; the builder is not used after. */
  finish(): KindFilterIndex {
    return Object.freeze({
      postings: new Map(this.#postings.map((builder) => [builder.spec.index, builder.finish()])),
      // A copy the column's exact length: the column's own buffer has room to grow.
      dates: new Map(this.#dates.map(({ field, days }) => [field, days.toInt32().slice()])),
    });
  }
}

/** A kind's filter indexes when it has no rows (a kind the version was built before). */
export function emptyFilterIndex(plan: IndexPlan): KindFilterIndex {
  return new KindFilterIndexBuilder(plan).finish();
}

/**
 * The filter index each kind's own lists answer (docs/api.md §15), with the row fields the lists
 * are keyed by (row-measure.ts `listKeys`): `ticker` on `tickers`, else `ticker`; `cik` on `cik`.
 */
export const LISTED_BY: Readonly<Record<RowKind, ListedIndex>> = listedBy();

function listedBy(): Record<RowKind, ListedIndex> {
  const listed = {} as Record<RowKind, ListedIndex>;
  for (const kind of ROW_KINDS) listed[kind] = FILTER_FIELD[kind] === 'cik' ? { index: 'cik', fields: ['cik'] } : { index: 'ticker', fields: ['tickers', 'ticker'] };
  return Object.freeze(listed);
}

let plans: Record<RowKind, IndexPlan> | undefined;

/** What the route table asks to index of `kind` ({@link indexPlans} over every route), computed once. */
export function indexPlanOf(kind: RowKind): IndexPlan {
  plans ??= indexPlans(LISTED_BY);
  return plans[kind];
}
