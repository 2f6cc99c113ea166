/**
 * Kinds added after the first versions of the snapshot format (docs/api.md §7): a version built
 * before a kind existed has neither its file nor its manifest entry, and still loads, with no
 * rows of that kind; where the file is there, it is checked like any other.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { ADDED_KINDS, SnapshotError, fileOfKind } from '../../src/data/snapshot-format.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { writeFixtureSnapshot } from '../helpers/harness.js';
import { asBuiltBefore } from '../helpers/older-version.js';

async function fixture(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'eqf-added-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFixtureSnapshot(root, 'v1');
  return root;
}

async function refusal(root: string): Promise<string> {
  const error = await loadSnapshot(root).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof SnapshotError, `expected a SnapshotError, got ${String(error)}`);
  return error.message;
}

test('holders is a kind added after the first versions', () => {
  assert.ok(ADDED_KINDS.has('holders'));
  for (const kind of ['reports', 'insiders', 'whales', 'earnings', 'filings'] as const) assert.ok(!ADDED_KINDS.has(kind), kind);
  for (const kind of ADDED_KINDS) assert.ok(ROW_KINDS.includes(kind), kind);
});

test('a version built before holders existed loads, with 0 holder rows and every other row', async (t) => {
  const root = await fixture(t);
  const before = await loadSnapshot(root);
  await asBuiltBefore(join(root, 'v1'), 'holders');
  const old = await loadSnapshot(root);
  assert.equal(old.rowCounts.holders, 0);
  assert.equal(old.list('holders', null).length, 0);
  assert.equal(old.list('holders', 'AAPL').length, 0);
  assert.equal(old.manifest.files[fileOfKind('holders')], undefined);
  for (const kind of ROW_KINDS.filter((k) => k !== 'holders')) assert.equal(old.rowCounts[kind], before.rowCounts[kind], kind);
});

test('a version without a file of the first kinds is still refused', async (t) => {
  const root = await fixture(t);
  await asBuiltBefore(join(root, 'v1'), 'whales');
  assert.match(await refusal(root), /manifest\.json: files has no entry for whales\.ndjson/);
});

test('a holders file the manifest names is checked like the others', async (t) => {
  const root = await fixture(t);
  const file = join(root, 'v1', fileOfKind('holders'));
  // Named in the manifest but missing on disk.
  const text = await readFile(file, 'utf8');
  await rm(file);
  assert.match(await refusal(root), /holders\.ndjson: cannot read: ENOENT/);
  // There, but not what the manifest says.
  await writeFile(file, text.replace('"weight":', '"weight":1,"x":'));
  assert.match(await refusal(root), /holders\.ndjson: (sha256 is [0-9a-f]{64}|is \d+ bytes), manifest says/);
});
