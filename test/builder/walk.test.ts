/**
 * The walk (walk.ts): the same files in the same order with their sizes and modification times,
 * whether stat'ed in the main thread or by a stat function set while it runs (the extract
 * pool's), whatever order that function answers in; a file that cannot be stat'ed comes with
 * size and mtime 0; a failing stat function fails the walk, and nothing else.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { createExtractPool } from '../../src/builder/extract-pool.js';
import { STAT_CHUNK, walkAhead, walkFiles, walkOrder, type StatFiles, type WalkedFile, type WalkStats } from '../../src/builder/walk.js';

/** A tree of files over several folders, more than a few chunks of them, with hidden entries. */
async function tree(t: TestContext): Promise<{ root: string; files: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'eqf-walk-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const files: string[] = [];
  for (const folder of ['b', 'a/y', 'a/x', 'c']) {
    await mkdir(join(root, folder), { recursive: true });
    const count = folder === 'c' ? 3 : Math.ceil(1.3 * STAT_CHUNK);
    for (let i = 0; i < count; i++) {
      const path = join(root, folder, `f${String(i).padStart(5, '0')}.xml`);
      await writeFile(path, 'x'.repeat(i % 7));
      files.push(path);
    }
  }
  await writeFile(join(root, 'a', '.hidden'), 'no');
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'HEAD'), 'no');
  return { root, files: files.sort() };
}

async function walkAll(root: string, stats?: WalkStats, setAfter?: { files: number; stat: StatFiles }): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  for await (const chunk of walkFiles(root, stats)) {
    assert.ok(chunk.length > 0 && chunk.length <= STAT_CHUNK);
    out.push(...chunk);
    if (setAfter && out.length >= setAfter.files) stats!.stat ??= setAfter.stat;
  }
  return out;
}

/** A stat function that answers later chunks first. */
const reversed = (): StatFiles => {
  let delay = 40;
  return async (paths) => {
    const found = new Float64Array(2 * paths.length);
    for (const [i, path] of paths.entries()) {
      const s = await stat(path);
      found.set([s.size, s.mtimeMs], 2 * i);
    }
    delay = Math.max(0, delay - 10);
    // Each chunk waits less than the one before: answers come back out of order.
    for (let i = 0; i < delay; i++) await new Promise(setImmediate);
    return found;
  };
};

test('files come sorted with their size and mtime, hidden entries passed over, however they are stat\'ed', async (t) => {
  const { root, files } = await tree(t);
  const inline = await walkAll(root);
  assert.deepEqual(inline.map((f) => f.path), files);
  for (const f of inline) {
    const s = await stat(f.path);
    assert.deepEqual([f.size, f.mtimeMs], [s.size, s.mtimeMs]);
  }
  assert.deepEqual(await walkAll(root, { stat: reversed() }), inline, 'a stat function answering out of order');
  assert.deepEqual(await walkAll(root, {}, { files: 1, stat: reversed() }), inline, 'a stat function set after the first chunk');
  const pool = createExtractPool(2);
  t.after(() => pool.close());
  assert.deepEqual(await walkAll(root, { stat: pool.stat! }), inline, 'the extract workers');
});

test('a file that cannot be stat\'ed comes with size and mtime 0 (its read then fails and is reported)', async (t) => {
  const { root, files } = await tree(t);
  const gone = new Set([files[0], files[STAT_CHUNK + 3]]);
  const walked = await walkAll(root, {
    stat: async (paths) => Float64Array.from(paths.flatMap((path) => (gone.has(path) ? [NaN, NaN] : [1, 2]))),
  });
  assert.deepEqual(walked.filter((f) => f.size === 0).map((f) => [f.path, f.mtimeMs]), [...gone].map((path) => [path, 0]));
  // And a path removed between listing and stat, in the workers.
  const pool = createExtractPool(1);
  t.after(() => pool.close());
  const found = await pool.stat!([files[1]!, join(root, 'no-such-file.xml')]);
  assert.equal(found[0], (await stat(files[1]!)).size);
  assert.deepEqual([...found.subarray(2)], [NaN, NaN]);
});

test('a stat function that fails fails the walk with its error, and no later chunk\'s failure goes unhandled', async (t) => {
  const { root } = await tree(t);
  let chunks = 0;
  const failing: StatFiles = async () => {
    chunks++;
    throw new Error(`stat failed (chunk ${chunks})`);
  };
  await assert.rejects(walkAll(root, { stat: failing }), /stat failed \(chunk 1\)/);
  assert.ok(chunks > 1, 'several chunks were in flight');
});

test('walkOrder sorts paths as the walk meets them: folder by folder, names compared as strings', async () => {
  const { default: fc } = await import('fast-check');
  const name = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', '0', 'Z', '_', '~', 'é'), minLength: 1, maxLength: 3 });
  const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(sep));
  // The walk's own rule, written the plain way: compare the names of each folder level in turn.
  const byFolders = (a: string, b: string): number => {
    const x = a.split(sep);
    const y = b.split(sep);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return x.length - y.length;
  };
  fc.assert(fc.property(path, path, (a, b) => Math.sign(walkOrder(a, b)) === Math.sign(byFolders(a, b))), { numRuns: 5000 });
});

test('walkOrder agrees with the order of a real walk', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'eqf-order-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const p of ['a/x', 'a-b', 'a.b/y', 'a/b/z', 'ab', 'A', 'a0/q', '~', 'é']) {
    await mkdir(join(root, p, '..'), { recursive: true });
    await writeFile(join(root, p), '');
  }
  const walked = (await walkAll(root)).map((f) => f.path);
  assert.deepEqual([...walked].sort(walkOrder), walked);
  assert.deepEqual([...walked].reverse().sort(walkOrder), walked);
});

test('walkAhead hands on the walk in order, holds at most its limit while nobody reads, and throws a walk failure where the reader meets it', async () => {
  const made: number[] = [];
  /** 50 chunks of 2 files. */
  async function* source(fail?: number): AsyncGenerator<WalkedFile[]> {
    for (let i = 0; i < 50; i++) {
      if (i === fail) throw new Error(`walk failed at ${i}`);
      made.push(i);
      yield [0, 1].map((j) => ({ path: `/in/${i}/${j}`, size: i, mtimeMs: i }));
    }
  }
  const ahead = walkAhead(source(), 10);
  // Nobody reads for a while: the walk stops at the limit (10 files, 5 chunks).
  for (let i = 0; i < 50; i++) await new Promise(setImmediate);
  assert.equal(made.length, 5);
  const read: string[] = [];
  for await (const chunk of ahead) read.push(...chunk.map((file) => file.path));
  assert.deepEqual(read, Array.from({ length: 100 }, (_, i) => `/in/${i >> 1}/${i & 1}`));

  const failing = walkAhead(source(20), 1000);
  const got: string[] = [];
  await assert.rejects((async () => {
    for await (const chunk of failing) got.push(...chunk.map((file) => file.path));
  })(), /walk failed at 20/);
  assert.equal(got.length, 40, 'every file before the failure is handed on first');
});
