/**
 * `tsx scripts/bench/load-paths.ts --snapshot DIR [--rounds 3] [--hash-only]`
 *
 * Start to ready of `serve` on one generated snapshot (`DIR` as written by
 * `scripts/gen-snapshot.ts --out DIR`), loaded from its index files and loaded the old way (the
 * same rows without index files, hard-linked beside it in `DIR/snapshots-unindexed`), in
 * alternating rounds: the time from spawning the compiled server (`npm run build` first) to its
 * first `/readyz` 200, and its peak RSS (VmHWM from /proc/PID/status, Node's own baseline
 * included) against the size of the NDJSON files. Then the cost of the SHA-256 check alone: every
 * file of the version hashed in this process (alone with `--hash-only`, which skips the starts).
 * The page cache is warm after the first round. Prints one JSON line per run and a summary;
 * asserts nothing (docs/api.md §17).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { medianRange, startToReady } from './start-to-ready.js';

const { values } = parseArgs({ options: { snapshot: { type: 'string' }, rounds: { type: 'string', default: '3' }, 'hash-only': { type: 'boolean', default: false } } });
if (values.snapshot === undefined) throw new Error('usage: tsx scripts/bench/load-paths.ts --snapshot DIR [--rounds 3] [--hash-only]');
const indexed = join(values.snapshot, 'snapshots');
const unindexed = join(values.snapshot, 'snapshots-unindexed');
const version = (await readFile(join(indexed, 'CURRENT'), 'utf8')).trim();
const versionDir = join(indexed, version);

/** The version without its index files: the rows hard-linked, the manifest without their entries. */
async function makeUnindexed(): Promise<void> {
  const dir = join(unindexed, version);
  await mkdir(dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(versionDir, 'manifest.json'), 'utf8')) as { files: Record<string, unknown> };
  for (const name of Object.keys(manifest.files)) {
    if (name.endsWith('.index')) delete manifest.files[name];
    else await link(join(versionDir, name), join(dir, name)).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'EEXIST') throw error; });
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(join(unindexed, 'CURRENT'), `${version}\n`);
}

async function ndjsonBytes(): Promise<number> {
  let total = 0;
  for (const name of await readdir(versionDir)) if (name.endsWith('.ndjson')) total += (await stat(join(versionDir, name))).size;
  return total;
}

/** Seconds to hash every file of the version, as a load does (64 KiB reads for rows, whole sections for index files: a stream here). */
async function hashSeconds(withIndexes: boolean): Promise<{ seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const name of await readdir(versionDir)) {
    if (!name.endsWith('.ndjson') && !(withIndexes && name.endsWith('.index'))) continue;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(join(versionDir, name), { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
    hash.digest();
  }
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

if (!values['hash-only']) await makeUnindexed();
const rowsBytes = await ndjsonBytes();
const runs: { path: 'indexed' | 'unindexed'; seconds: number; cpuSeconds: number; peakRssBytes: number }[] = [];
for (let round = 0; round < (values['hash-only'] ? 0 : Number(values.rounds)); round++) {
  const order = round % 2 === 0 ? (['unindexed', 'indexed'] as const) : (['indexed', 'unindexed'] as const);
  for (const path of order) {
    const run = { path, ...await startToReady(path === 'indexed' ? indexed : unindexed) };
    runs.push(run);
    console.log(JSON.stringify({ round, ...run, peakRssPerNdjson: run.peakRssBytes / rowsBytes }));
  }
}
const hashes: { seconds: number; cpuSeconds: number }[] = [];
for (let round = 0; round < Number(values.rounds); round++) hashes.push(await hashSeconds(true));


const summary: Record<string, string> = { version, ndjsonMiB: (rowsBytes / 2 ** 20).toFixed(0) };
for (const path of ['unindexed', 'indexed'] as const) {
  const mine = runs.filter((run) => run.path === path);
  if (mine.length === 0) continue;
  summary[`${path} start to ready, s`] = medianRange(mine.map((run) => run.seconds), 2);
  summary[`${path} CPU to ready, s`] = medianRange(mine.map((run) => run.cpuSeconds), 2);
  summary[`${path} peak RSS / NDJSON`] = medianRange(mine.map((run) => run.peakRssBytes / rowsBytes), 2);
}
summary['SHA-256 of every file, s'] = medianRange(hashes.map((hash) => hash.seconds), 2);
summary['SHA-256 of every file, CPU s'] = medianRange(hashes.map((hash) => hash.cpuSeconds), 2);
console.log(JSON.stringify(summary, null, 2));
