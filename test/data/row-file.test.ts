/**
 * Reading rows from their file (row-file.ts) past every limit of 32-bit offsets: a sparse file of
 * 5 GiB (no disk is used for its hole) whose rows lie past 4 GiB is read back exactly, and a file
 * shorter than its positions say is refused per read. The pages kept stay within their limit, and
 * a thread refuses a file that is not the one its version checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fstatSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityOf, KEPT_PAGE_BYTES, KeptPages, readRowPrefix, readRun, reopenRowFile, rowFileOf } from '../../src/data/row-file.js';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { makeList, pageBytes, type RowTable } from '../../src/data/page.js';
import { tempVersion } from '../helpers/snapshot-files.js';

const GIB = 2 ** 30;

test('rows past 4 GiB in a file are read exactly, each newline between them a comma', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-row-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'rows.ndjson');
  const rows = ['{"a":1}', '{"b":"two"}', '{"c":[3]}'];
  const at = 5 * GIB + 7; // past 2^32 and not on a page boundary
  const fd = openSync(path, 'w+');
  writeSync(fd, Buffer.from(`${rows.join('\n')}\n`), 0, undefined, at);
  const lengths = Uint32Array.from(rows, (row) => row.length);
  const positions = new Float64Array(rows.length);
  rows.reduce((position, row, i) => { positions[i] = position; return position + row.length + 1; }, at);
  const file = rowFileOf(path, fd, identityOf(fstatSync(fd)), positions, new KeptPages());

  const out = Buffer.alloc(64, 0x20);
  const written = readRun(file, lengths, 0, 2, out, 3);
  assert.equal(out.subarray(3, 3 + written).toString(), rows.join(','));
  assert.equal(readRun(file, lengths, 1, 1, out, 0), rows[1]!.length);
  assert.equal(out.subarray(0, rows[1]!.length).toString(), rows[1]);
  readRowPrefix(file, 2, 5, out, 0);
  assert.equal(out.subarray(0, 5).toString(), rows[2]!.slice(0, 5));

  const short = rowFileOf(path, openSync(path, 'r'), file.identity, Float64Array.from([at + 10 * GIB]), new KeptPages());
  assert.throws(() => readRun(short, Uint32Array.of(4), 0, 0, out, 0), /rows\.ndjson changed after it was checked \(it ends before byte \d+\)/);
  const moved = rowFileOf(path, openSync(path, 'r'), file.identity, Float64Array.from([at + 1, at + 1 + rows[0]!.length + 1]), new KeptPages());
  assert.throws(() => readRun(moved, lengths, 0, 1, out, 0), /row 1 does not end where it did/);
});

test('pages kept from a version\'s files stay within their limit, the least recently used forgotten first, and a page asked again is the same bytes', async (t) => {
  const { root } = await tempVersion(t);
  const snapshot = await loadSnapshot(root, undefined, { rowsIn: 'file' });
  const loaded = snapshot.list('filings', null);
  const kept = new KeptPages(600);
  // The same rows and file, with a small limit: lists of one row each, so every page is a row.
  const table: RowTable = { ...loaded.table, file: { ...loaded.table.file!, kept } };
  const lists = Array.from({ length: 6 }, (_, i) => makeList('filings', null, table, loaded.length, Int32Array.of(i), false));
  const expected = lists.map((_, i) => pageBytes(loaded, 'full', i, 1).toString());
  for (const [i, list] of lists.entries()) {
    assert.equal(pageBytes(list, 'full', 0, 1).toString(), expected[i]);
    assert.ok(kept.bytes <= 600 || kept.lists.size === 1, `kept ${kept.bytes} bytes in ${kept.lists.size} lists`);
    assert.equal(kept.bytes, [...kept.lists].reduce((sum, l) => sum + l.lastSlice!.length, 0), 'the count is of the pages kept');
  }
  assert.ok(kept.lists.size < lists.length, 'some lists forgot their page');
  assert.ok(kept.lists.has(lists.at(-1)!), 'the most recent page is kept');
  const forgotten = lists.find((list) => !kept.lists.has(list))!;
  assert.equal(forgotten.lastSlice, undefined);
  const again = pageBytes(lists.at(-1)!, 'full', 0, 1);
  assert.equal(pageBytes(lists.at(-1)!, 'full', 0, 1), again, 'a kept page is answered from memory');
  assert.equal(pageBytes(lists.at(-1)!, 'facts', 0, 1).toString().endsWith('}'), true, 'another variant is read, not the kept one');
});

test('a kept page answered again gets a second chance: the page placed after it is forgotten first', async (t) => {
  const { root } = await tempVersion(t);
  const snapshot = await loadSnapshot(root, undefined, { rowsIn: 'file' });
  const loaded = snapshot.list('filings', null);
  const pages = [0, 1, 2].map((i) => pageBytes(loaded, 'full', i, 1).length);
  // Room for the first two pages only.
  const kept = new KeptPages(pages[0]! + pages[1]! + Math.min(...pages) - 1);
  const table: RowTable = { ...loaded.table, file: { ...loaded.table.file!, kept } };
  const [a, b, c] = [0, 1, 2].map((i) => makeList('filings', null, table, loaded.length, Int32Array.of(i), false));
  pageBytes(a!, 'full', 0, 1);
  pageBytes(b!, 'full', 0, 1);
  const answered = pageBytes(a!, 'full', 0, 1);
  pageBytes(c!, 'full', 0, 1);
  assert.equal(a!.lastSlice, answered, 'the page answered again is kept');
  assert.equal(b!.lastSlice, undefined, 'the page not answered again is forgotten, though placed after');
  assert.deepEqual([...kept.lists], [c, a], 'the list passed over is placed anew');
  assert.equal(kept.bytes, a!.lastSlice!.length + c!.lastSlice!.length);
});

test('a version keeps the answered pages it was loaded to keep: 0 keeps only the page last read', async (t) => {
  const { root } = await tempVersion(t);
  const byDefault = await loadSnapshot(root, undefined, { rowsIn: 'file' });
  assert.equal(byDefault.list('filings', null).table.file!.kept.limit, KEPT_PAGE_BYTES);
  const snapshot = await loadSnapshot(root, undefined, { rowsIn: 'file', keptPageBytes: 0 });
  const [first, second] = [snapshot.list('filings', 'AAPL'), snapshot.list('filings', 'MSFT')];
  assert.equal(first.table.file!.kept.limit, 0);
  pageBytes(first, 'full', 0, 1);
  assert.notEqual(first.lastSlice, undefined);
  pageBytes(second, 'full', 0, 1);
  assert.equal(first.lastSlice, undefined, 'forgotten once another list read its page');
  assert.notEqual(second.lastSlice, undefined);
});

test('a thread opening a file again refuses one that is not the file its version checked', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-row-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'rows.ndjson');
  await writeFile(path, '{"a":1}\n');
  const fd = openSync(path, 'r');
  const identity = identityOf(fstatSync(fd));
  assert.equal(reopenRowFile(path, identity, Float64Array.of(0), new KeptPages()).path, path);
  await writeFile(join(dir, 'other.ndjson'), '{"a":2}\n');
  await rename(join(dir, 'other.ndjson'), path); // a new file under the same name
  assert.throws(() => reopenRowFile(path, identity, Float64Array.of(0), new KeptPages()), /rows\.ndjson changed after it was checked \(it is not the file the load checked\)/);
});
