/**
 * How the read shares its work (read-inputs.ts, extract-pool.ts): while the merge would wait
 * for the workers, the main thread parses the walk's next files itself, and the extracts are
 * still merged in walk order; a rebuild's pool starts one worker fewer and the rest once the
 * files to parse reach `growAt`.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractFile } from '../../src/builder/extract-file.js';
import { createExtractPool, type ExtractPool } from '../../src/builder/extract-pool.js';
import type { FileExtract } from '../../src/builder/file-extract.js';
import { BATCH_FILES, readInputs } from '../../src/builder/read-inputs.js';
import type { WalkedFile } from '../../src/builder/walk.js';

/** Files that the builder does not read: each gives one `skipped` entry naming it, in merge order. */
async function files(t: TestContext, count: number): Promise<WalkedFile[]> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-read-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return Promise.all(Array.from({ length: count }, async (_, i) => {
    const path = join(dir, `note-${String(i).padStart(4, '0')}.txt`);
    await writeFile(path, 'not an EDGAR file');
    return { path, size: 17, mtimeMs: 0 };
  }));
}

/** A pool with one worker running that parses what it is asked once `open` is called, and counts what it was asked. */
function gatedPool(): ExtractPool & { asked: string[][]; grown: number; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const pool = {
    asked: [] as string[][],
    grown: 0,
    open,
    started: 1,
    extract: async (paths: readonly string[]): Promise<FileExtract[]> => {
      pool.asked.push([...paths]);
      await gate;
      return Promise.all(paths.map(extractFile));
    },
    warm: () => {},
    grow: () => { pool.grown++; },
    close: async () => {},
  };
  return pool;
}

// Without the main thread's help the read would wait for the worker forever: the timeout makes that a failure.
test('while the merge waits for a worker, the main thread parses the walk\'s next files, and the extracts are merged in walk order', { timeout: 20_000 }, async (t) => {
  const walked = await files(t, 5 * BATCH_FILES);
  const pool = gatedPool();
  // The worker answers only once the walk is over: every later file was parsed by the main thread meanwhile.
  const walk = (function* () {
    // In chunks that do not line up with the batches, as a walk's need not.
    for (let i = 0; i < walked.length; i += 7) yield walked.slice(i, i + 7);
    pool.open();
  })();
  const inputs = await readInputs(walk, { pool, inFlight: 1 });
  // The pool had one batch (inFlight 1), and one more once the main thread began to help (two at most then); the main thread parsed the other three.
  assert.deepEqual(pool.asked, [walked.slice(0, BATCH_FILES).map((f) => f.path), walked.slice(BATCH_FILES, 2 * BATCH_FILES).map((f) => f.path)]);
  assert.equal(inputs.filesRead, walked.length);
  assert.deepEqual(inputs.skipped.map((s) => s.path), walked.map((f) => f.path));
});

test('the pool is told to grow once the files sent to it reach growAt, and not before', async (t) => {
  const walked = await files(t, 4 * BATCH_FILES);
  for (const [growAt, grown] of [[3 * BATCH_FILES, true], [4 * BATCH_FILES + 1, false]] as const) {
    const pool = gatedPool();
    pool.open();
    // Without workers running, the merge does not parse in their stead: every batch goes to the pool.
    const inputs = await readInputs([walked], { pool: { ...pool, started: 0 }, growAt });
    assert.equal(pool.asked.length, 4);
    assert.equal(pool.grown > 0, grown, `growAt ${growAt}`);
    assert.equal(inputs.filesRead, walked.length);
  }
});

test('a pool made with fewer workers to start starts the others when told to grow, and never more than its workers', async (t) => {
  const [file] = await files(t, 1);
  const pool = createExtractPool(2, { initial: 1 });
  t.after(() => pool.close());
  assert.equal(pool.started, 0, 'none before the first batch');
  const [extract] = await pool.extract([file!.path]);
  assert.equal(extract!.skipped[0]!.path, file!.path);
  assert.equal(pool.started, 1);
  pool.grow();
  pool.grow();
  assert.equal(pool.started, 2);
  const [again] = await pool.extract([file!.path]);
  assert.deepEqual(again, extract);
  const capped = createExtractPool(2, { initial: 5 });
  t.after(() => capped.close());
  capped.warm();
  assert.equal(capped.started, 2);
});
