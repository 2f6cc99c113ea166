/**
 * Rows read from their files per page (`rowsIn: 'file'`, the default; docs/api.md §17) through
 * the real server: a reload swaps versions while their files stay open, and a file changed in
 * place after its check is answered with the error envelope and logged, never served as rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readlink, writeFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { startHarness, withKey, writeFixtureSnapshot, KEYS } from '../helpers/harness.js';
import { fixtureRows } from '../fixtures/rows.js';

/** Descriptors this process has open on files under `dir` (through /proc/self/fd: Linux, as CI). */
async function openUnder(dir: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir)) count++;
  }
  return count;
}

test('a rows file changed in place after its check: pages not yet read answer 500 internal_error and are logged; the next version serves', async (t) => {
  const h = await startHarness(t);
  const path = '/api/v1/finance/filings?ticker=AAPL&limit=1';
  const first = await h.get(path, withKey(KEYS.signal));
  assert.equal(first.status, 200);
  // Truncated in place (same inode): the version's open descriptor sees it.
  await writeFile(join(h.snapshotsDir, 'v1', 'filings.ndjson'), '');
  const broken = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=2', withKey(KEYS.signal));
  assert.equal(broken.status, 500);
  assert.equal(broken.json.ok, false);
  assert.equal(broken.json.error, 'internal_error');
  assert.ok(!broken.text.includes('filings.ndjson'), 'the path stays in the log');
  assert.ok(h.logs.some((line) => /filings\.ndjson changed after it was checked/.test(line)), h.logs.join('\n'));
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', fixtureRows());
  assert.equal((await h.server.handler.reload()).snapshot, true);
  const after = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=2', withKey(KEYS.signal));
  assert.equal(after.status, 200);
  assert.equal(after.headers['x-snapshot-version'], 'v2');
});

test('after a reload the new version holds its files open and the old version\'s files are closed once it is released', async (t) => {
  const h = await startHarness(t);
  assert.equal((await h.get('/api/v1/finance/filings', withKey(KEYS.signal))).status, 200);
  const v1 = join(h.snapshotsDir, 'v1');
  assert.ok(await openUnder(v1) > 0, 'the serving version holds its files open');
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', fixtureRows());
  assert.equal((await h.server.handler.reload()).snapshot, true);
  assert.equal((await h.get('/api/v1/finance/filings', withKey(KEYS.signal))).headers['x-snapshot-version'], 'v2');
  // The old version is closed when it is collected: ask for a full collection until it is.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 50 && await openUnder(v1) > 0; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(await openUnder(v1), 0, 'no descriptor of the released version is left');
  assert.ok(await openUnder(join(h.snapshotsDir, 'v2')) > 0, 'the new version holds its own');
});
