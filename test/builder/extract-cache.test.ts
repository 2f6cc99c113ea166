/**
 * The cache's blocks (extract-cache.ts), through its own interface: entries written in blocks
 * come back whole; a damaged block loses its own entries and no other block's; an entry is
 * found only for the same path, size and modification time; segments are compacted when dead
 * entries outweigh live ones or they pile up; what a build parses is written as it goes, under
 * a temporary name.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCK_ENTRIES, runExtract } from '../../src/builder/cache-block.js';
import { ExtractCache } from '../../src/builder/extract-cache.js';
import { emptyExtract, type FileExtract } from '../../src/builder/file-extract.js';
import type { WalkedFile } from '../../src/builder/walk.js';

const FINGERPRINT = 'f'.repeat(32);
const COUNT = 2 * BLOCK_ENTRIES + 88;

/** The i-th file: a Form 4 XML named by its accession number. */
const file = (i: number): WalkedFile => ({ path: `/in/ownership/0000899243-22-${String(i).padStart(6, '0')}.xml`, size: 1000 + i, mtimeMs: 1_700_000_000_000 + i / 8 });
const extractOf = (i: number): FileExtract => ({ ...emptyExtract(), plainTextOwnership: [`marker-${String(i).padStart(6, '0')}`] });

/** The extract of a file the cache holds, as the build merges it. */
const taken = (cache: ExtractCache, f: WalkedFile): unknown => {
  const found = cache.find(f);
  const entry = found && cache.take(found);
  return entry && runExtract({ block: entry.block, start: entry.index, end: entry.index + 1 });
};

async function written(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-blocks-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  for (let i = 0; i < COUNT; i++) {
    assert.equal(cache.find(file(i)), undefined);
    cache.put(file(i), extractOf(i));
  }
  await cache.save();
  assert.equal(cache.stats.written, COUNT);
  return dir;
}

test('entries written in several blocks come back whole, each taken from its block', async (t) => {
  const dir = await written(t);
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  assert.equal(cache.stats.loaded, COUNT);
  for (let i = 0; i < COUNT; i++) {
    assert.deepEqual(taken(cache, file(i)), { plainTextOwnership: [`marker-${String(i).padStart(6, '0')}`] });
  }
  assert.deepEqual([cache.stats.hits, cache.stats.misses, cache.stats.corrupt], [COUNT, 0, 0]);
});

test('a flipped byte in the second block loses that block\'s entries and no other\'s', async (t) => {
  const dir = await written(t);
  const [segment] = (await readdir(dir)).filter((n) => n.endsWith('.eqfc'));
  const bytes = await readFile(join(dir, segment!));
  const at = bytes.indexOf(`marker-${String(BLOCK_ENTRIES + 5).padStart(6, '0')}`);
  assert.ok(at > 0);
  bytes[at] = 'M'.charCodeAt(0);
  await writeFile(join(dir, segment!), bytes);
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  assert.deepEqual([cache.stats.loaded, cache.stats.corrupt], [COUNT - BLOCK_ENTRIES, BLOCK_ENTRIES]);
  const found = Array.from({ length: COUNT }, (_, i) => (i === COUNT - 1 ? taken(cache, file(i)) : cache.find(file(i))) !== undefined);
  assert.deepEqual(found, Array.from({ length: COUNT }, (_, i) => i < BLOCK_ENTRIES || i >= 2 * BLOCK_ENTRIES));
  assert.deepEqual(taken(await ExtractCache.open(dir, FINGERPRINT), file(COUNT - 1)), { plainTextOwnership: [`marker-${String(COUNT - 1).padStart(6, '0')}`] });
});

test('an entry is found only for the same path, size and modification time; files without an accession number are no misses', async (t) => {
  const dir = await written(t);
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  assert.equal(cache.find({ ...file(3), size: file(3).size + 1 }), undefined);
  assert.equal(cache.find({ ...file(3), mtimeMs: file(3).mtimeMs + 1 }), undefined);
  assert.equal(cache.find({ ...file(3), path: `/elsewhere/ownership/0000899243-22-000003.xml` }), undefined);
  assert.equal(cache.find({ path: '/in/submissions/CIK0001318605.json', size: 1, mtimeMs: 1 }), undefined);
  assert.deepEqual([cache.stats.hits, cache.stats.misses], [0, 3]);
  // A builder with another fingerprint finds nothing.
  const other = await ExtractCache.open(dir, '0'.repeat(32));
  assert.deepEqual([other.stats.loaded, other.stats.foreign], [0, 1]);
});

test('a run of entries taken together gives their lists in entry order, as their extracts one by one would', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-runs-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const writer = await ExtractCache.open(dir, FINGERPRINT);
  // Entries with different lists, some with none, one with several items.
  const extracts = Array.from({ length: 9 }, (_, i): FileExtract => ({
    ...emptyExtract(),
    plainTextOwnership: i % 3 === 0 ? [] : [`a-${i}`, ...(i === 4 ? ['a-4b', 'a-4c'] : [])],
    unmappedItemTitles: i % 2 === 0 ? [`t-${i}`] : [],
  }));
  extracts.forEach((extract, i) => writer.put(file(i), extract));
  await writer.save();
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  const entries = extracts.map((_, i) => cache.take(cache.find(file(i))!)!);
  assert.ok(entries.every((e) => e.block === entries[0]!.block));
  for (const [start, end] of [[0, 9], [2, 6], [3, 4], [5, 5]] as const) {
    const expected = { plainTextOwnership: extracts.slice(start, end).flatMap((e) => e.plainTextOwnership), unmappedItemTitles: extracts.slice(start, end).flatMap((e) => e.unmappedItemTitles) };
    const run = runExtract({ block: entries[0]!.block, start, end }) as Record<string, unknown[]>;
    assert.deepEqual(run, Object.fromEntries(Object.entries(expected).filter(([, list]) => list.length > 0)), `entries ${start} to ${end}`);
  }
});

test('files are found in walk order: entries of files not walked are passed over, a file asked out of order is not found, and the newest segment decides', async (t) => {
  const dir = await written(t);
  // A second build: file 7 changed (another size) and parsed again, and a new file; a second segment.
  const newer = await ExtractCache.open(dir, FINGERPRINT);
  for (let i = 0; i < COUNT; i++) {
    if (i !== 7) assert.ok(newer.find(file(i)));
    else newer.put({ ...file(7), size: 1 }, extractOf(7000));
  }
  newer.put(file(COUNT + 1), extractOf(COUNT + 1));
  await newer.save();
  assert.equal((await readdir(dir)).filter((n) => n.endsWith('.eqfc')).length, 2);
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  // Files 0-4 are gone (not walked); 5 is found; 7 at its old size is not (the newer segment's entry decides), at its new size it is.
  assert.ok(cache.find(file(5)));
  assert.equal(cache.find(file(7)), undefined);
  const again = await ExtractCache.open(dir, FINGERPRINT);
  assert.deepEqual(taken(again, { ...file(7), size: 1 }), { plainTextOwnership: ['marker-007000'] });
  // Out of order, in the segment that gave the last file: 7 asked for again is not found, and the walk goes on from there.
  assert.equal(again.find({ ...file(7), size: 1 }), undefined);
  assert.ok(again.find(file(8)));
  assert.deepEqual(taken(again, file(COUNT + 1)), { plainTextOwnership: [`marker-${String(COUNT + 1).padStart(6, '0')}`] });
});

const segmentsIn = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.eqfc')).sort();
const temporariesIn = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.tmp'));

test('when dead entries outweigh live ones, the live ones found are written again and the segments read removed; what was parsed is a segment of its own', async (t) => {
  const dir = await written(t);
  const [old] = await segmentsIn(dir);
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  // Only files 100-199 are walked again (480 of 600 entries dead), and two new ones.
  for (let i = 100; i < 200; i++) assert.ok(cache.find(file(i)));
  cache.put(file(COUNT + 1), extractOf(COUNT + 1));
  cache.put(file(COUNT + 2), extractOf(COUNT + 2));
  await cache.save();
  assert.equal(cache.stats.written, 102);
  const now = await segmentsIn(dir);
  assert.equal(now.length, 2);
  assert.ok(!now.includes(old!), 'the segment read is removed');
  assert.deepEqual(await temporariesIn(dir), []);
  const again = await ExtractCache.open(dir, FINGERPRINT);
  assert.equal(again.stats.loaded, 102);
  for (let i = 100; i < 200; i++) assert.deepEqual(taken(again, file(i)), { plainTextOwnership: [`marker-${String(i).padStart(6, '0')}`] }, `file ${i}`);
  assert.deepEqual(taken(again, file(COUNT + 2)), { plainTextOwnership: [`marker-${String(COUNT + 2).padStart(6, '0')}`] });
});

test('segments do not pile up: past eight, the live entries are written as one again', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-blocks-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Each build finds every file before and adds one.
  for (let build = 0; build < 12; build++) {
    const cache = await ExtractCache.open(dir, FINGERPRINT);
    for (let i = 0; i < build; i++) assert.ok(cache.find(file(i)), `build ${build}, file ${i}`);
    cache.put(file(build), extractOf(build));
    await cache.save();
    assert.ok((await segmentsIn(dir)).length <= 8, `build ${build}: ${(await segmentsIn(dir)).length} segments`);
  }
  const last = await ExtractCache.open(dir, FINGERPRINT);
  assert.equal(last.stats.loaded, 12);
  for (let i = 0; i < 12; i++) assert.deepEqual(taken(last, file(i)), { plainTextOwnership: [`marker-${String(i).padStart(6, '0')}`] });
});

test('what a build parsed is written a block at a time under a temporary name: renamed by save, removed by discard; one a day old is removed when the cache opens', { timeout: 20_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-blocks-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const cache = await ExtractCache.open(dir, FINGERPRINT);
  for (let i = 0; i < BLOCK_ENTRIES - 1; i++) cache.put(file(i), extractOf(i));
  assert.deepEqual(await temporariesIn(dir), [], 'less than a block: nothing written yet');
  cache.put(file(BLOCK_ENTRIES - 1), extractOf(BLOCK_ENTRIES - 1));
  cache.put(file(BLOCK_ENTRIES), extractOf(BLOCK_ENTRIES));
  // A whole block is written at once, while the build goes on: waited for turn by turn (were it
  // written only at save, this would wait until the test's timeout).
  const blockWritten = async (): Promise<boolean> => {
    const [temporary] = await temporariesIn(dir);
    return temporary !== undefined && (await readFile(join(dir, temporary))).length > BLOCK_ENTRIES * 10;
  };
  while (!(await blockWritten())) await setImmediatePromise();
  await cache.discard();
  assert.deepEqual([await temporariesIn(dir), await segmentsIn(dir)], [[], []]);

  // Left by builds that died: one a day old, one of a build still running.
  const stale = join(dir, '.segment-old-1-aa.eqfc.tmp');
  const running = join(dir, '.segment-new-2-bb.eqfc.tmp');
  await writeFile(stale, 'x');
  await writeFile(running, 'x');
  const dayAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000);
  await utimes(stale, dayAgo, dayAgo);
  const next = await ExtractCache.open(dir, FINGERPRINT);
  assert.deepEqual(await temporariesIn(dir), ['.segment-new-2-bb.eqfc.tmp']);
  next.put(file(0), extractOf(0));
  await next.save();
  assert.deepEqual([(await segmentsIn(dir)).length, next.stats.written], [1, 1]);
});
