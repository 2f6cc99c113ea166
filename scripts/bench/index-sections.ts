/**
 * `tsx scripts/bench/index-sections.ts --snapshots DIR [--markdown]`: what each index of the
 * current version costs, from the section tables of its index files (src/data/index-file.ts): per
 * kind and per index (a filter's `filters.X.values`/`starts`/`rows` together, a date column
 * `filters.date.F`, and the rows' own sections by the first part of their name), the bytes and the bytes per row
 * of the kind. The server holds the i32 sections as typed arrays of the same size; a postings
 * index's values are parsed from their JSON into strings, which take about as much again (V8
 * one-byte strings plus a pointer each), so for those the file bytes are a lower bound.
 * Reads only the tables, not the sections. Prints JSON, or a Markdown table with --markdown.
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ELEMENT_BYTES, HEADER_BYTES, MAX_TABLE_BYTES, readTable } from '../../src/data/index-file.js';

/** Bytes of each index of one kind. */
export interface IndexCost {
  kind: string;
  rows: number;
  /** Index name ("rows", "lists", "order", "filters.X", "filters.date.F") to its bytes. */
  bytes: Record<string, number>;
}

/**
 * The index of a section: `filters.date.F` and `filters.X` for filter sections, else the first
 * part of its name (row-index.ts): "rows" (each row's place and facts), "lists" (the lists keyed
 * by ticker) and "order" (the order keys cursors are read against).
 */
function indexOf(section: string): string {
  if (section.startsWith('filters.date.')) return section;
  const filter = /^filters\.([^.]+)\./.exec(section);
  return filter ? `filters.${filter[1]!}` : section.split('.')[0]!;
}

/** The index costs of the version `CURRENT` names under `snapshotsDir`, kind by kind in manifest order. */
export async function indexCosts(snapshotsDir: string): Promise<IndexCost[]> {
  const dir = join(snapshotsDir, (await readFile(join(snapshotsDir, 'CURRENT'), 'utf8')).trim());
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { files: Record<string, { rows?: number; bytes: number }> };
  const costs: IndexCost[] = [];
  for (const [name, entry] of Object.entries(manifest.files)) {
    if (!name.endsWith('.index')) continue;
    const kind = name.slice(0, -'.index'.length);
    const handle = await open(join(dir, name), 'r');
    try {
      const head = Buffer.alloc(Math.min(entry.bytes, HEADER_BYTES + MAX_TABLE_BYTES));
      await handle.read(head, 0, head.length, 0);
      const bytes: Record<string, number> = {};
      for (const section of readTable(head, entry.bytes, name).entries) {
        const index = indexOf(section.name);
        const size = section.count * ELEMENT_BYTES[section.type];
        bytes[index] = (bytes[index] ?? 0) + size;
      }
      costs.push({ kind, rows: manifest.files[`${kind}.ndjson`]?.rows ?? 0, bytes });
    } finally {
      await handle.close();
    }
  }
  return costs;
}

/** A Markdown table of `costs`: one line per kind and index, with bytes per row of the kind. */
export function costTable(costs: readonly IndexCost[]): string {
  const lines = ['| kind | rows | index | MiB | bytes per row |', '|---|---|---|---|---|'];
  for (const cost of costs) {
    for (const [index, bytes] of Object.entries(cost.bytes)) {
      lines.push(`| ${cost.kind} | ${cost.rows.toLocaleString('en-US')} | ${index} | ${(bytes / 2 ** 20).toFixed(1)} | ${cost.rows === 0 ? '' : (bytes / cost.rows).toFixed(1)} |`);
    }
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { snapshots: { type: 'string' }, markdown: { type: 'boolean' } }, strict: true });
  if (values.snapshots === undefined) throw new Error('usage: tsx scripts/bench/index-sections.ts --snapshots DIR [--markdown]');
  const costs = await indexCosts(values.snapshots);
  process.stdout.write(`${values.markdown ? costTable(costs) : JSON.stringify(costs, null, 2)}\n`);
}
