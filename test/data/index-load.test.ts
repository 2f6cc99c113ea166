/**
 * Versions with index files load without parsing their rows (docs/api.md §17), and are refused
 * whole when any file differs from its manifest entry or an index file does not describe its
 * rows; a version without them, or with a manifest that does not name them, loads the old way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSnapshot, type LoadOptions, type SnapshotIndex } from '../../src/data/snapshot-index.js';
import { pageBytes, type Variant } from '../../src/data/page.js';
import type { IndexSection } from '../../src/data/index-file.js';
import { ROW_SECTIONS } from '../../src/data/row-index.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { editFile, editIndexSections, readManifestJson, refusal, tempVersion } from '../helpers/snapshot-files.js';

/** Every page of every list a request can name, in both variants, at a few page sizes. */
function everyPage(snapshot: SnapshotIndex): string[] {
  const out: string[] = [];
  const keys = ['AAPL', 'GOOG', 'GOOGL', 'MSFT', 'NVDA', 'TSLA', 'BRK-B', 'ZZZZ', '0001045810', '0001061165', 'NONE'];
  for (const kind of ROW_KINDS) {
    for (const key of [null, ...keys]) {
      const list = snapshot.list(kind, key);
      for (const size of [1, 3, 7, 100]) {
        for (const variant of ['full', 'facts'] as Variant[]) {
          for (let at = 0; at < list.length; at += size) out.push(`${kind} ${key} ${variant} ${at}: ${pageBytes(list, variant, at, Math.min(size, list.length - at)).toString()}`);
        }
      }
    }
  }
  return out;
}

test('a version with index files gives the same rows, lists and pages as the same version without', async (t) => {
  const withIndexes = await loadSnapshot((await tempVersion(t, true)).root);
  const without = await loadSnapshot((await tempVersion(t, false)).root);
  assert.deepEqual(withIndexes.rowCounts, without.rowCounts);
  assert.equal(withIndexes.tag, without.tag, 'list ETags depend on the rows alone');
  assert.deepEqual(everyPage(withIndexes), everyPage(without));
});

test('the manifest names every index file with its SHA-256 and size, and the rows\' files with their size', async (t) => {
  const { dir } = await tempVersion(t);
  const { files } = await readManifestJson(dir);
  for (const kind of ROW_KINDS) {
    assert.match(files[`${kind}.index`]!.sha256, /^[0-9a-f]{64}$/);
    assert.ok(files[`${kind}.index`]!.bytes! > 0);
    assert.ok(Number.isInteger(files[`${kind}.ndjson`]!.bytes) && Number.isInteger(files[`${kind}.ndjson`]!.rows));
  }
});

/** The two ways a version's rows are held (`rowsIn`): every check refuses the same damage in both. */
const MODES: readonly LoadOptions[] = [{ rowsIn: 'memory' }, { rowsIn: 'file' }, { rowsIn: 'file', pieceBytes: 97 }];
const named = (options: LoadOptions): string => `rows in ${options.rowsIn}${options.pieceBytes ? `, read in pieces of ${options.pieceBytes} bytes` : ''}`;

for (const options of MODES) {
  test(`an index file changed on disk, or rows changed on disk, is refused by its SHA-256 (${named(options)})`, async (t) => {
    const { root, dir } = await tempVersion(t);
    await editFile(dir, 'filings.index', (bytes) => { bytes[bytes.length - 9]! ^= 1; return bytes; }, false);
    assert.match(await refusal(root, options), /v1\/filings\.index: sha256 is [0-9a-f]{64}, manifest says/);
    const other = await tempVersion(t);
    await editFile(other.dir, 'filings.ndjson', (bytes) => { bytes[10]! ^= 1; return bytes; }, false);
    assert.match(await refusal(other.root, options), /v1\/filings\.ndjson: sha256 is [0-9a-f]{64}, manifest says/);
    await editFile(other.dir, 'filings.ndjson', (bytes) => Buffer.concat([bytes, Buffer.from('{}\n')]), false);
    assert.match(await refusal(other.root, options), /v1\/filings\.ndjson: is \d+ bytes, manifest says \d+/);
  });
}

test('a version whose rows are read from their files per page gives the same pages as one in memory, whatever the pieces it was checked in', async (t) => {
  const { root } = await tempVersion(t);
  const inMemory = everyPage(await loadSnapshot(root, undefined, { rowsIn: 'memory' }));
  for (const pieceBytes of [undefined, 1, 97, 4096]) {
    const fromFile = await loadSnapshot(root, undefined, { rowsIn: 'file', pieceBytes });
    const table = fromFile.list('filings', null).table;
    assert.ok(table.file !== null && table.chunks.length === 0, 'the rows are not in memory');
    assert.deepEqual(everyPage(fromFile), inMemory, `pieces of ${pieceBytes ?? 'the default'} bytes`);
  }
});

test('a file changed in place after its version loaded answers an error, never other bytes', async (t) => {
  const { root, dir } = await tempVersion(t);
  const snapshot = await loadSnapshot(root, undefined, { rowsIn: 'file' });
  const list = snapshot.list('filings', null);
  const good = pageBytes(list, 'full', 0, 3).toString();
  await writeFile(join(dir, 'filings.ndjson'), ''); // same inode, truncated: the load's descriptor sees it
  assert.throws(() => pageBytes(list, 'full', 3, 3), /filings\.ndjson changed after it was checked \(it ends before byte \d+\)/);
  assert.equal(pageBytes(list, 'full', 0, 3).toString(), good, 'a page read before the change is the one kept');
});

test('index files are read ahead of their kinds, yet the first damage in kind order is the one reported', async (t) => {
  const { root, dir } = await tempVersion(t);
  // insiders load before filings (ROW_KINDS): filings' damaged index file is read first, and
  // its failure must neither win nor go unhandled.
  await editFile(dir, 'filings.index', (bytes) => { bytes[bytes.length - 9]! ^= 1; return bytes; }, false);
  await editFile(dir, 'insiders.ndjson', (bytes) => { bytes[12]! ^= 1; return bytes; }, false);
  assert.match(await refusal(root), /v1\/insiders\.ndjson: sha256 is [0-9a-f]{64}, manifest says/);
  await editFile(dir, 'reports.index', (bytes) => { bytes[bytes.length - 9]! ^= 1; return bytes; }, false);
  assert.match(await refusal(root), /v1\/reports\.index: sha256 is [0-9a-f]{64}, manifest says/);
});

/** Damages of an index file whose manifest entry was made to match: each is refused by what it says. */
const WRONG_CONTENT: [string, (sections: Map<string, IndexSection>) => void, RegExp][] = [
  ['a row one byte longer', (s) => { (s.get(ROW_SECTIONS.lengths)!.values as Uint32Array)[0]! += 1; }, /filings\.index: row lengths and newlines add up to/],
  ['two rows whose lengths still add up', (s) => {
    const lengths = s.get(ROW_SECTIONS.lengths)!.values as Uint32Array;
    lengths[0]! += 1;
    lengths[1]! -= 1;
  }, /filings\.ndjson:1: row does not end where its index says/],
  ['a group never seen', (s) => { (s.get(ROW_SECTIONS.groups)!.values as Int32Array)[3] = 99; }, /filings\.index: row 4: group 99 is not one seen before/],
  ['order keys out of order', (s) => { (s.get(ROW_SECTIONS.orderKeys)!.values as Uint8Array)[0] = 1; }, /filings\.index: row 2: order key sorts before the row before it/],
  ['a written field that does not start where it says', (s) => { (s.get(ROW_SECTIONS.factsEnds)!.values as Int32Array)[0]! -= 1; }, /filings\.ndjson:1: its index says the row's summary starts at byte/],
  ['a section missing', (s) => { s.delete(ROW_SECTIONS.orderEnds); }, /filings\.index: has no section order\.ends/],
  ['a section of another type', (s) => {
    const groups = s.get(ROW_SECTIONS.groups)!;
    s.set(ROW_SECTIONS.groups, { ...groups, type: 'u32', values: new Uint32Array(groups.values.buffer.slice(0)) });
  }, /filings\.index: section lists\.groups is u32, expected i32/],
  ['a row fewer', (s) => {
    const lengths = s.get(ROW_SECTIONS.lengths)!;
    s.set(ROW_SECTIONS.lengths, { ...lengths, values: lengths.values.slice(1) });
  }, /filings\.index: section rows\.lengths has \d+ values, manifest says \d+ rows/],
  ['group keys that are not JSON', (s) => { s.set(ROW_SECTIONS.groupKeys, { name: ROW_SECTIONS.groupKeys, type: 'utf8', values: Buffer.from('[["A"]') }); }, /lists\.group_keys is not JSON/],
];

for (const [what, edit, message] of WRONG_CONTENT) {
  test(`an index file with the right SHA-256 but wrong content is refused, rows in memory or read from their file: ${what}`, async (t) => {
    const { root, dir } = await tempVersion(t);
    await editIndexSections(dir, 'filings.index', edit);
    for (const options of MODES) assert.match(await refusal(root, options), message, named(options));
  });
}

test('a manifest that names no index file loads the rows the old way; one that names a missing or unknown file is refused', async (t) => {
  const { root, dir } = await tempVersion(t);
  const expected = everyPage(await loadSnapshot(root));
  const manifest = await readManifestJson(dir);
  const { ['filings.index']: _dropped, ...rest } = manifest.files;
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: rest }));
  assert.deepEqual(everyPage(await loadSnapshot(root)), expected, 'filings read and checked row by row, the rest from their index files');
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: { ...manifest.files, 'filings.index': { sha256: manifest.files['filings.index']!.sha256 } } }));
  assert.match(await refusal(root), /files\["filings\.index"\]\.bytes is not a whole number/);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: { ...manifest.files, 'extra.index': manifest.files['filings.index'] } }));
  assert.match(await refusal(root), /files names an unknown file extra\.index/);
  await rm(join(dir, 'filings.index'));
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  assert.match(await refusal(root), /filings\.index: cannot read: ENOENT/);
});

test('rows larger than the split size are held in several chunks, a row never split, and serve the same pages', async (t) => {
  const { root } = await tempVersion(t);
  const whole = await loadSnapshot(root, undefined, { rowsIn: 'memory' });
  const split = await loadSnapshot(root, undefined, { splitBytes: 2_000, rowsIn: 'memory' });
  const table = split.list('filings', null).table;
  assert.ok(table.chunks.length > 10, `${table.chunks.length} chunks`);
  assert.ok(table.chunks.every((chunk) => chunk.length <= 2_000));
  assert.equal(whole.list('filings', null).table.chunks.length, 1);
  assert.deepEqual(everyPage(split), everyPage(whole));
  const tiny = await loadSnapshot(root, undefined, { splitBytes: 1, rowsIn: 'memory' });
  assert.equal(tiny.list('filings', null).table.chunks.length, tiny.rowCounts.filings, 'a row longer than the split size has a chunk of its own');
  assert.deepEqual(everyPage(tiny), everyPage(whole));
  await assert.rejects(loadSnapshot(root, undefined, { splitBytes: 0 }), /splitBytes must be a whole number of bytes from 1 to 1073741824/);
});
