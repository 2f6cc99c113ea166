/**
 * The incremental build cache (`build --cache DIR`): a rebuild parses only what is new and
 * gives the rows a build without the cache gives; a damaged, foreign or stale entry is
 * ignored and its file parsed again, never trusted.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rename, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { buildSnapshot, type BuildResult } from '../../src/builder/build.js';
import { encodeBlock } from '../../src/builder/cache-block.js';
import { isCacheable } from '../../src/builder/extract-cache.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { SEC_DATA, secDataSkip as skip } from '../helpers/real-build.js';

/** Musk's TSLA Forms 4 of November 2022 (each XML with its .header.json), and one more for the "new day". */
const FILINGS = ['0000899243-22-035390', '0000899243-22-035393', '0000899243-22-035394', '0000899243-22-038522', '0000899243-21-043382'];
const NEW_DAY = '0000899243-21-036608';

async function workspace(t: TestContext): Promise<{ from: string; cache: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-cache-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const from = join(dir, 'from');
  for (const accession of FILINGS) await copyFiling(accession, from);
  return { from, cache: join(dir, 'cache'), dir };
}

async function copyFiling(accession: string, from: string): Promise<void> {
  for (const ext of ['.xml', '.header.json']) await cp(join(SEC_DATA, 'ownership/datamule_paypal', accession + ext), join(from, 'ownership', accession + ext));
}

let builds = 0;
async function build(from: string, out: string, cache?: string, workers = 0): Promise<{ result: BuildResult; rows: string[] }> {
  const version = `v${++builds}`;
  const result = await buildSnapshot({
    from, out, asOf: '2022-12-31', windowDays: 730, filingsDays: 365, version, publish: false, workers, cache,
    now: () => new Date('2023-01-02T00:00:00Z'), log: () => {}, progress: false,
  });
  const rows = await Promise.all(ROW_KINDS.map((kind) => readFile(join(result.dir, `${kind}.ndjson`), 'utf8')));
  return { result, rows };
}

const segments = async (cache: string): Promise<string[]> => (await readdir(cache)).filter((n) => n.endsWith('.eqfc')).map((n) => join(cache, n));

test(skip ? `cache rebuild (${skip})` : 'a rebuild with --cache parses only the new filing and gives the rows of a build without the cache', { skip }, async (t) => {
  const { from, cache, dir } = await workspace(t);
  const first = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([first.result.cache?.hits, first.result.cache?.misses, first.result.cache?.written], [0, 10, 10]);
  await copyFiling(NEW_DAY, from);
  const second = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([second.result.cache?.loaded, second.result.cache?.hits, second.result.cache?.misses, second.result.cache?.written], [10, 10, 2, 2]);
  const plain = await build(from, join(dir, 'out'));
  assert.equal(plain.result.cache, undefined);
  assert.deepEqual(second.rows, plain.rows);
  assert.deepEqual(second.result.rows, plain.result.rows);
  assert.ok(plain.result.rows.insiders > 0);
  // A third build finds everything in the two segments.
  const third = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([third.result.cache?.hits, third.result.cache?.misses], [12, 0]);
});

test(skip ? `cache rebuild with workers (${skip})` : 'with worker threads (started while the cache is read), a rebuild parses only the new filing and gives the rows of a build without the cache', { skip }, async (t) => {
  const { from, cache, dir } = await workspace(t);
  await build(from, join(dir, 'out'), cache, 2);
  await copyFiling(NEW_DAY, from);
  const second = await build(from, join(dir, 'out'), cache, 2);
  assert.deepEqual([second.result.cache?.hits, second.result.cache?.misses, second.result.cache?.written], [10, 2, 2]);
  const plain = await build(from, join(dir, 'out'));
  assert.deepEqual(second.rows, plain.rows);
  // Everything from the cache: the workers started for nothing are stopped all the same.
  const third = await build(from, join(dir, 'out'), cache, 2);
  assert.deepEqual([third.result.cache?.hits, third.result.cache?.misses], [12, 0]);
  assert.deepEqual(third.rows, plain.rows);
});

test(skip ? `damaged cache (${skip})` : 'a damaged entry, a torn segment, a foreign segment and a well-framed entry of the wrong shape are ignored and their files parsed again', { skip }, async (t) => {
  const { from, cache, dir } = await workspace(t);
  const clean = await build(from, join(dir, 'out'));
  await build(from, join(dir, 'out'), cache);
  const [segment] = await segments(cache);
  const bytes = await readFile(segment!);
  // One letter changed inside an entry: it still deserialises, as a wrong record; only its block's checksum tells, and the whole block (here all ten entries) is passed over.
  const at = bytes.lastIndexOf('Musk Elon');
  assert.ok(at > 0);
  bytes[at + 1] = 'o'.charCodeAt(0);
  await writeFile(segment!, bytes);
  const flipped = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([flipped.result.cache?.corrupt, flipped.result.cache?.hits, flipped.result.cache?.misses], [10, 0, 10]);
  assert.deepEqual(flipped.rows, clean.rows);

  // Torn: every segment cut short mid-entry.
  for (const path of await segments(cache)) await truncate(path, (await readFile(path)).length - 10);
  const torn = await build(from, join(dir, 'out'), cache);
  assert.ok((torn.result.cache?.corrupt ?? 0) >= 1);
  assert.deepEqual(torn.rows, clean.rows);

  // Foreign: another builder's fingerprint, and a file that is no segment at all.
  await rm(cache, { recursive: true, force: true });
  await build(from, join(dir, 'out'), cache);
  const [own] = await segments(cache);
  const text = await readFile(own!);
  const newline = text.indexOf(0x0a);
  await writeFile(own!, Buffer.concat([Buffer.from(`${text.toString('utf8', 0, newline).split(' ').slice(0, -1).join(' ')} 0123456789abcdef0123456789abcdef`), text.subarray(newline)]));
  await writeFile(join(cache, 'segment-junk.eqfc'), 'not a cache segment');
  const foreign = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([foreign.result.cache?.foreign, foreign.result.cache?.hits, foreign.result.cache?.misses], [2, 0, 10]);
  assert.deepEqual(foreign.rows, clean.rows);
  assert.equal((await segments(cache)).length, 1, 'foreign segments removed, one of this builder written');

  // Well framed, right checksum, fingerprint of this builder, but not an entry's shape: ignored.
  const [current] = await segments(cache);
  const header = (await readFile(current!)).subarray(0, (await readFile(current!)).indexOf(0x0a) + 1);
  // Its index matches the file as it is, so the build counts on it until it takes the extract.
  const path = join(from, 'ownership', `${FILINGS[0]}.xml`);
  const { size, mtimeMs } = await stat(path);
  // encodeBlock writes only extracts' lists: a list's name is changed in the table afterwards, and the checksum made right again.
  const block = encodeBlock([{ path, size, mtimeMs, extract: { skipped: [{ path, reason: 'cannot read' }] } }])!.bytes;
  block.write('"skippex"', block.lastIndexOf('"skipped"'));
  block.writeUInt32LE(crc32(block.subarray(8)), 4);
  await writeFile(join(cache, 'segment-zz.eqfc'), Buffer.concat([header, block]));
  const shaped = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([shaped.result.cache?.corrupt, shaped.result.cache?.hits, shaped.result.cache?.misses], [1, 9, 1]);
  assert.deepEqual(shaped.rows, clean.rows);
});

test(skip ? `stale cache entry (${skip})` : 'a file changed since it was cached (same accession number) is parsed again, not read from the cache', { skip }, async (t) => {
  const { from, cache, dir } = await workspace(t);
  await build(from, join(dir, 'out'), cache);
  // The same accession number now holds another filing's XML (a different size and time).
  const path = join(from, 'ownership', `${FILINGS[0]}.xml`);
  await cp(join(SEC_DATA, 'ownership/datamule_paypal', `${NEW_DAY}.xml`), path);
  await utimes(path, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
  const changed = await build(from, join(dir, 'out'), cache);
  assert.deepEqual([changed.result.cache?.hits, changed.result.cache?.misses], [9, 1]);
  const plain = await build(from, join(dir, 'out'));
  assert.deepEqual(changed.rows, plain.rows);
});

test('a file is cached when its name or its EDGAR Archives folder names an accession number, and only then', () => {
  assert.equal(isCacheable('/in/ownership/0000899243-22-035394.xml'), true);
  assert.equal(isCacheable('/in/Archives/edgar/data/1318605/000089924322035394/doc4.xml'), true);
  assert.equal(isCacheable('/in/submissions/CIK0001318605.json'), false);
  assert.equal(isCacheable('/in/files/company_tickers.json'), false);
});

test(skip ? `moved input folder (${skip})` : 'an entry made from a file at another path is not used: paths inside an extract name the file', { skip }, async (t) => {
  const { from, cache, dir } = await workspace(t);
  await build(from, join(dir, 'out'), cache);
  const moved = join(dir, 'moved');
  await rename(from, moved);
  const again = await build(moved, join(dir, 'out'), cache);
  assert.deepEqual([again.result.cache?.hits, again.result.cache?.misses], [0, 10]);
});
