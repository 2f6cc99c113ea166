/**
 * The sections of a kind's index file that hold its {@link RowMeasure} (docs/api.md §17), and
 * their checks. Read from a file whose SHA-256 matched the manifest, the sections are still
 * checked against each other, the manifest's row count and the size of the rows' file, so that a
 * file that does not describe those rows is refused rather than served from.
 */
import { OrderKeys, MAX_ORDER_KEY_BYTES } from './order-key.js';
import type { IndexSection, IndexSections } from './index-file.js';
import { FACTS_APART, FACTS_ARE_FULL } from './page.js';
import type { RowMeasure } from './row-measure.js';
import { SnapshotError } from './snapshot-format.js';
import { TURN_CHECK_MASK, type Turns } from './row-layout.js';

/** Section names of a kind's measure in its index file. */
export const ROW_SECTIONS = Object.freeze({
  /** u32 per row: its JSON's byte length, without the newline. */
  lengths: 'rows.lengths',
  /** i32 per row: see `RowMeasure.factsEnds`. */
  factsEnds: 'rows.facts_ends',
  /** i32, ascending: the rows whose facts are apart. */
  otherFactsRows: 'rows.other_facts.rows',
  /** u32 per row of `otherFactsRows`: where its facts end in `otherFactsBytes`. */
  otherFactsEnds: 'rows.other_facts.ends',
  /** utf8: those rows' facts serialisations, one after another. */
  otherFactsBytes: 'rows.other_facts.bytes',
  /** i32 per row: its group. */
  groups: 'lists.groups',
  /** utf8: JSON array of each group's list keys (arrays of strings), by group id. */
  groupKeys: 'lists.group_keys',
  /** u8: every row's order key, one after another. */
  orderKeys: 'order.keys',
  /** u32 per row: where its order key ends in `orderKeys`. */
  orderEnds: 'order.ends',
});

/** The sections that store `measure`. */
export function measureSections(measure: RowMeasure): IndexSection[] {
  const apart = [...measure.otherFacts.keys()].sort((a, b) => a - b);
  const otherEnds = new Uint32Array(apart.length);
  let end = 0;
  apart.forEach((row, i) => { end += measure.otherFacts.get(row)!.length; otherEnds[i] = end; });
  return [
    { name: ROW_SECTIONS.lengths, type: 'u32', values: measure.lengths },
    { name: ROW_SECTIONS.factsEnds, type: 'i32', values: measure.factsEnds },
    { name: ROW_SECTIONS.otherFactsRows, type: 'i32', values: Int32Array.from(apart) },
    { name: ROW_SECTIONS.otherFactsEnds, type: 'u32', values: otherEnds },
    { name: ROW_SECTIONS.otherFactsBytes, type: 'utf8', values: Buffer.concat(apart.map((row) => measure.otherFacts.get(row)!)) },
    { name: ROW_SECTIONS.groups, type: 'i32', values: measure.groups },
    { name: ROW_SECTIONS.groupKeys, type: 'utf8', values: Buffer.from(JSON.stringify(measure.groupKeys)) },
    { name: ROW_SECTIONS.orderKeys, type: 'u8', values: measure.keys.bytes },
    { name: ROW_SECTIONS.orderEnds, type: 'u32', values: measure.keys.ends },
  ];
}

/**
 * The measure a kind's index file holds, checked: every per-row section has the manifest's row
 * count; the lengths and newlines add up to the rows' file size; each facts end is inside its
 * row, and the rows with facts apart are exactly those listed; group ids appear in order of first
 * use and each names a list of keys; order keys are at most {@link MAX_ORDER_KEY_BYTES} long, end
 * where the keys end, and never decrease from a row to the next (rows are in the kind's order).
 * What only the rows can show (each row ending with a newline where its length says, each facts
 * end at the opening of the written field) is checked as the rows are read.
 *
 * @param sections - the kind's index file, read.
 * @param rows - the manifest's row count for the kind.
 * @param fileBytes - the size of the kind's NDJSON file.
 * @throws SnapshotError naming the index file and what is wrong.
 */
export async function measureFromSections(sections: IndexSections, rows: number, fileBytes: number, turns: Turns): Promise<RowMeasure> {
  const fail = (reason: string): never => { throw new SnapshotError(sections.file, reason); };
  const perRow = <T extends { length: number }>(name: string, values: T): T => {
    if (values.length !== rows) fail(`section ${name} has ${values.length} values, manifest says ${rows} rows`);
    return values;
  };
  const lengths = perRow(ROW_SECTIONS.lengths, sections.u32(ROW_SECTIONS.lengths));
  const factsEnds = perRow(ROW_SECTIONS.factsEnds, sections.i32(ROW_SECTIONS.factsEnds));
  const groups = perRow(ROW_SECTIONS.groups, sections.i32(ROW_SECTIONS.groups));
  const orderEnds = perRow(ROW_SECTIONS.orderEnds, sections.u32(ROW_SECTIONS.orderEnds));
  const orderBytes = sections.u8(ROW_SECTIONS.orderKeys);

  let total = rows;
  for (let i = 0; i < rows; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const length = lengths[i]!;
    if (length === 0) fail(`row ${i + 1} has length 0`);
    total += length;
    const facts = factsEnds[i]!;
    if (facts !== FACTS_ARE_FULL && facts !== FACTS_APART && !(facts > 0 && facts < length)) fail(`row ${i + 1}: facts end ${facts} is not inside the row`);
  }
  if (total !== fileBytes) fail(`row lengths and newlines add up to ${total} bytes, the rows' file has ${fileBytes}`);

  const otherFacts = readOtherFacts(sections, factsEnds, fail);
  const groupKeys = readGroupKeys(sections.utf8(ROW_SECTIONS.groupKeys), fail);
  let nextGroup = 0;
  for (let i = 0; i < rows; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const group = groups[i]!;
    if (group === nextGroup) nextGroup++;
    else if (group < 0 || group > nextGroup) fail(`row ${i + 1}: group ${group} is not one seen before or the next (${nextGroup})`);
  }
  if (nextGroup !== groupKeys.length) fail(`rows use ${nextGroup} groups, ${ROW_SECTIONS.groupKeys} has ${groupKeys.length}`);

  const keys = new OrderKeys(Buffer.from(orderBytes.buffer, orderBytes.byteOffset, orderBytes.byteLength), orderEnds);
  let start = 0;
  for (let i = 0; i < rows; i++) {
    if ((i & TURN_CHECK_MASK) === 0) await turns.maybeYield();
    const end = orderEnds[i]!;
    if (end < start || end - start > MAX_ORDER_KEY_BYTES) fail(`row ${i + 1}: order key end ${end} is before its start or over ${MAX_ORDER_KEY_BYTES} bytes after it`);
    if (i > 0 && keys.compare(i - 1, keys.bytes, start, end) > 0) fail(`row ${i + 1}: order key sorts before the row before it`);
    start = end;
  }
  if (start !== orderBytes.length) fail(`order keys end at ${start}, ${ROW_SECTIONS.orderKeys} has ${orderBytes.length} bytes`);
  return { rows, lengths, factsEnds, otherFacts, groups, groupKeys, keys };
}

function readOtherFacts(sections: IndexSections, factsEnds: Int32Array, fail: (reason: string) => never): Map<number, Buffer> {
  const rows = sections.i32(ROW_SECTIONS.otherFactsRows);
  const ends = sections.u32(ROW_SECTIONS.otherFactsEnds);
  const bytes = sections.utf8Bytes(ROW_SECTIONS.otherFactsBytes);
  if (ends.length !== rows.length) fail(`${ROW_SECTIONS.otherFactsEnds} has ${ends.length} values, ${ROW_SECTIONS.otherFactsRows} ${rows.length}`);
  let apart = 0;
  for (const facts of factsEnds) if (facts === FACTS_APART) apart++;
  if (apart !== rows.length) fail(`${apart} rows have their facts apart, ${ROW_SECTIONS.otherFactsRows} lists ${rows.length}`);
  const out = new Map<number, Buffer>();
  let start = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const end = ends[i]!;
    if (factsEnds[row] !== FACTS_APART || (i > 0 && row <= rows[i - 1]!)) fail(`${ROW_SECTIONS.otherFactsRows}: row ${row + 1} is not the next row whose facts are apart`);
    if (end < start || end > bytes.length) fail(`${ROW_SECTIONS.otherFactsEnds}: ${end} is outside ${start}-${bytes.length}`);
    out.set(row, Buffer.from(bytes.subarray(start, end)));
    start = end;
  }
  if (start !== bytes.length) fail(`${ROW_SECTIONS.otherFactsBytes} has ${bytes.length - start} bytes after the last row's facts`);
  return out;
}

function readGroupKeys(text: string, fail: (reason: string) => never): (readonly string[])[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(`${ROW_SECTIONS.groupKeys} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((keys) => Array.isArray(keys) && keys.every((key) => typeof key === 'string' && key.length > 0))) {
    fail(`${ROW_SECTIONS.groupKeys} is not an array of arrays of keys`);
  }
  return parsed as string[][];
}
