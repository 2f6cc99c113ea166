/**
 * `tsx scripts/bench/load-compare.ts --snapshots A --against B [--dist D] [--against-dist E] [--rows-in M] [--against-rows-in N] [--rounds 3]`:
 * start to ready and peak RSS of the compiled server (`npm run build` first) on two snapshots
 * folders (such as gen-snapshot's `DIR/snapshots`), in alternating rounds (A then B, then B then
 * A, …), with the rows and index bytes of each version: issue 26's snapshot of 1M filings with
 * the §16 kinds at scale against the 1M-filing one. With `--dist`/`--against-dist` each side runs
 * its own build (another tree's `dist/`, copied aside), so that one snapshot (`--against` the same
 * folder) compares two builds, and with `--rows-in`/`--against-rows-in` (memory or file) two ways of holding rows. Method: start-to-ready.ts. Prints one JSON line per run and a
 * Markdown table of medians with their ranges; asserts nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { medianRange, startToReady, type ReadyRun } from './start-to-ready.js';

const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' }, against: { type: 'string' }, dist: { type: 'string' }, 'against-dist': { type: 'string' }, 'rows-in': { type: 'string' }, 'against-rows-in': { type: 'string' }, rounds: { type: 'string', default: '3' },
  },
  strict: true,
});
if (values.snapshots === undefined || values.against === undefined) {
  throw new Error('usage: tsx scripts/bench/load-compare.ts --snapshots A --against B [--dist D] [--against-dist E] [--rounds 3]');
}
/** Each side: its snapshots folder, its build (undefined: this tree's dist/) and its label. */
const sideOf = (folder: string, dist: string | undefined, rowsIn: string | undefined): { folder: string; dist: string | undefined; args: string[]; label: string } => ({
  folder, dist, args: rowsIn === undefined ? [] : ['--rows-in', rowsIn],
  label: [folder, dist && `(${dist})`, rowsIn && `rows in ${rowsIn}`].filter(Boolean).join(' '),
});
const sides = [sideOf(values.snapshots, values.dist, values['rows-in']), sideOf(values.against, values['against-dist'], values['against-rows-in'])];

/** Rows and bytes of the NDJSON and index files of the version `CURRENT` names. */
async function sizes(snapshotsDir: string): Promise<{ version: string; rows: Record<string, number>; ndjson: number; index: number }> {
  const version = (await readFile(join(snapshotsDir, 'CURRENT'), 'utf8')).trim();
  const manifest = JSON.parse(await readFile(join(snapshotsDir, version, 'manifest.json'), 'utf8')) as { files: Record<string, { rows?: number; bytes: number }> };
  const result = { version, rows: {} as Record<string, number>, ndjson: 0, index: 0 };
  for (const [name, entry] of Object.entries(manifest.files)) {
    if (name.endsWith('.ndjson')) {
      result.ndjson += entry.bytes;
      result.rows[name.slice(0, -'.ndjson'.length)] = entry.rows ?? 0;
    } else if (name.endsWith('.index')) result.index += entry.bytes;
  }
  return result;
}

const runs = new Map<string, ReadyRun[]>(sides.map((side) => [side.label, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    const run = await startToReady(side.folder, side.dist, side.args);
    runs.get(side.label)!.push(run);
    console.log(JSON.stringify({ round, side: side.label, ...run }));
  }
}
const mib = 2 ** 20;
const lines = ['| snapshot | rows | NDJSON MiB | index MiB | start to ready, s | CPU to ready, s | peak RSS MiB |', '|---|---|---|---|---|---|---|'];
for (const { folder, label } of sides) {
  const size = await sizes(folder);
  const mine = runs.get(label)!;
  const rows = Object.entries(size.rows).filter(([, n]) => n > 0).map(([kind, n]) => `${kind} ${n.toLocaleString('en-US')}`).join(', ');
  lines.push(`| ${label} | ${rows} | ${(size.ndjson / mib).toFixed(0)} | ${(size.index / mib).toFixed(0)} | ${medianRange(mine.map((r) => r.seconds), 1)} | ` +
    `${medianRange(mine.map((r) => r.cpuSeconds), 1)} | ${medianRange(mine.map((r) => r.peakRssBytes / mib), 0)} |`);
}
console.log(lines.join('\n'));
