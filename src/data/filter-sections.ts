/**
 * A kind's filter indexes (filter-index.ts) as sections of its index file (docs/api.md §17), so
 * that a server answers filters (docs/api.md §15) of a version it loaded without parsing a row.
 * Read from a file whose SHA-256 matched the manifest, the sections are still checked against
 * the row count and the route table's plan, so a file that does not describe the rows is refused.
 *
 * Per postings index `X`: `filters.X.values` (utf8, a JSON array of the normalised values, each
 * once), `filters.X.starts` (i32, values + 1 offsets into the rows) and `filters.X.rows` (i32, row
 * numbers ascending within each value's run). Per date field `F`: `filters.date.F` (i32 per row,
 * days since 1970-01-01, never increasing along the rows).
 */
import type { IndexSection, IndexSections } from './index-file.js';
import { Postings, type IndexPlan, type KindFilterIndex } from './filter-index.js';
import { SnapshotError } from './snapshot-format.js';

const valuesOf = (index: string): string => `filters.${index}.values`;
const startsOf = (index: string): string => `filters.${index}.starts`;
const rowsOf = (index: string): string => `filters.${index}.rows`;
const datesOf = (field: string): string => `filters.date.${field}`;

/** The sections that store `index`. */
export function filterSections(index: KindFilterIndex): IndexSection[] {
  const sections: IndexSection[] = [];
  for (const [name, postings] of index.postings) {
    sections.push(
      { name: valuesOf(name), type: 'utf8', values: Buffer.from(JSON.stringify(postings.values)) },
      { name: startsOf(name), type: 'i32', values: postings.starts },
      { name: rowsOf(name), type: 'i32', values: postings.rows },
    );
  }
  for (const [field, days] of index.dates) sections.push({ name: datesOf(field), type: 'i32', values: days });
  return sections;
}

/**
 * The filter indexes the plan asks for, read from a kind's index file and checked: each value a
 * distinct string its filter would read as itself, the offsets from 0 to the rows' count without
 * decreasing, each row number inside the kind and ascending within its value, and each date column
 * one day number per row, never increasing.
 *
 * @param sections - the kind's index file, read.
 * @param plan - what the route table indexes of the kind.
 * @param rows - the kind's row count (the manifest's).
 * @returns the indexes; undefined when the file has no filter sections at all (written before
 *   them: the caller loads the kind by reading its rows).
 * @throws SnapshotError naming the index file when a section is missing or fails a check.
 */
export function filtersFromSections(sections: IndexSections, plan: IndexPlan, rows: number): KindFilterIndex | undefined {
  const names = [...plan.postings.map((spec) => valuesOf(spec.index)), ...plan.dates.map(datesOf)];
  if (names.length > 0 && !names.some((name) => sections.has(name))) return undefined;
  const fail = (reason: string): never => { throw new SnapshotError(sections.file, reason); };
  const need = (name: string): void => { if (!sections.has(name)) fail(`has no section ${name}`); };
  const postings = new Map<string, Postings>();
  for (const spec of plan.postings) {
    for (const name of [valuesOf(spec.index), startsOf(spec.index), rowsOf(spec.index)]) need(name);
    let values: unknown;
    try {
      values = JSON.parse(sections.utf8(valuesOf(spec.index)));
    } catch {
      fail(`${valuesOf(spec.index)} is not JSON`);
    }
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string' || spec.value.read(value) !== value)) {
      fail(`${valuesOf(spec.index)} is not a list of ${spec.name} values as a query reads them`);
    }
    const list = values as string[];
    if (new Set(list).size !== list.length) fail(`${valuesOf(spec.index)} names a value twice`);
    const starts = sections.i32(startsOf(spec.index));
    const numbers = sections.i32(rowsOf(spec.index));
    if (starts.length !== list.length + 1 || starts[0] !== 0 || starts[list.length] !== numbers.length) fail(`${startsOf(spec.index)} does not span ${rowsOf(spec.index)}`);
    for (let id = 0; id < list.length; id++) {
      const from = starts[id]!;
      const to = starts[id + 1]!;
      if (to < from) fail(`${startsOf(spec.index)} decreases`);
      for (let i = from; i < to; i++) {
        const row = numbers[i]!;
        if (row < 0 || row >= rows || (i > from && row <= numbers[i - 1]!)) fail(`${rowsOf(spec.index)} is not ascending row numbers below ${rows}`);
      }
    }
    postings.set(spec.index, new Postings(list, starts, numbers));
  }
  const dates = new Map<string, Int32Array>();
  for (const field of plan.dates) {
    need(datesOf(field));
    const days = sections.i32(datesOf(field));
    if (days.length !== rows) fail(`${datesOf(field)} has ${days.length} values for ${rows} rows`);
    for (let i = 1; i < days.length; i++) if (days[i]! > days[i - 1]!) fail(`${datesOf(field)} increases at row ${i + 1}`);
    dates.set(field, days);
  }
  return Object.freeze({ postings, dates });
}
