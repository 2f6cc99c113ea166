/**
 * Reading rows from their file (row-file.ts) past every limit of 32-bit offsets: a sparse file of
 * 5 GiB (no disk is used for its hole) whose rows lie past 4 GiB is read back exactly, and a file
 * shorter than its positions say is refused per read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fstatSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityOf, KeptPages, readRowPrefix, readRun, rowFileOf } from '../../src/data/row-file.js';

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
