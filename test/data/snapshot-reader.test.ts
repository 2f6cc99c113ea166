/**
 * The snapshot is checked whole and a failure names the file and line (docs/api.md §7). These
 * versions have no index files, so every row is read and checked as it loads; versions with them
 * are checked in index-load.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { SnapshotError } from '../../src/data/snapshot-format.js';
import { writeFixtureSnapshot } from '../helpers/harness.js';
import { asBuiltBefore } from '../helpers/older-version.js';
import { createHash } from 'node:crypto';

async function fixture(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'eqf-snap-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFixtureSnapshot(root, 'v1', undefined, true, false);
  return root;
}

/** Rewrites a file and fixes its manifest entry, so only the row checks can fail. */
async function rewrite(root: string, name: string, edit: (text: string) => string, fixManifest = true): Promise<void> {
  const file = join(root, 'v1', name);
  const text = edit(await readFile(file, 'utf8'));
  await writeFile(file, text);
  if (!fixManifest) return;
  const manifestFile = join(root, 'v1', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  manifest.files[name] = { sha256: createHash('sha256').update(text).digest('hex'), rows: text.split('\n').length - 1, bytes: Buffer.byteLength(text) };
  await writeFile(manifestFile, JSON.stringify(manifest));
}

async function refusal(root: string): Promise<string> {
  const error = await loadSnapshot(root).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof SnapshotError, `expected a SnapshotError, got ${String(error)}`);
  return error.message;
}

test('a valid snapshot loads with its row counts', async (t) => {
  const root = await fixture(t);
  const snapshot = await loadSnapshot(root);
  assert.equal(snapshot.version, 'v1');
  assert.deepEqual(snapshot.rowCounts, { reports: 3, insiders: 3, whales: 2, earnings: 3, filings: 27, 'insider-transactions': 9, financials: 7, holders: 4 });
});

test('a version written before the added kinds existed (no file, no manifest entry) loads with 0 rows of each', async (t) => {
  const root = await fixture(t);
  const whole = await loadSnapshot(root);
  await asBuiltBefore(join(root, 'v1'), 'financials');
  await asBuiltBefore(join(root, 'v1'), 'insider-transactions');
  await asBuiltBefore(join(root, 'v1'), 'holders');
  const old = await loadSnapshot(root);
  assert.deepEqual(old.rowCounts, { reports: 3, insiders: 3, whales: 2, earnings: 3, filings: 27, 'insider-transactions': 0, financials: 0, holders: 0 });
  for (const kind of ['financials', 'insider-transactions', 'holders'] as const) {
    assert.equal(old.list(kind, null).length, 0);
    assert.equal(old.list(kind, 'AAPL').length, 0);
  }
  assert.equal(old.list('filings', 'AAPL').length, whole.list('filings', 'AAPL').length, 'the other kinds are served as before');
  assert.notEqual(old.tag, whole.tag, 'different files, different tags');
});

test('only a kind added later may be missing: a manifest without filings.ndjson is refused, and a financials entry that is present is checked', async (t) => {
  const root = await fixture(t);
  await asBuiltBefore(join(root, 'v1'), 'filings');
  assert.match(await refusal(root), /manifest\.json: files has no entry for filings\.ndjson/);
  const other = await fixture(t);
  await rewrite(other, 'financials.ndjson', (text) => text.replace(/\n$/, '\n{"type":"financials"}\n'), true);
  assert.match(await refusal(other), /v1\/financials\.ndjson:8: \$: missing required property ticker/);
});

test('a row of the wrong shape is refused with file, line and path', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'filings.ndjson', (text) => text.replace(/"cik":"0000320193"/, '"cik":320193'));
  assert.match(await refusal(root), /v1\/filings\.ndjson:\d+: \$\.cik: expected string, got integer/);
});

test('a line that is not JSON is refused with its line number', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'whales.ndjson', (text) => text.replace(/\n$/, '\n{oops\n'));
  assert.match(await refusal(root), /whales\.ndjson:3: not JSON/);
});

test('rows out of order are refused', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'insiders.ndjson', (text) => {
    const lines = text.trimEnd().split('\n');
    return `${[lines[1], lines[0], ...lines.slice(2)].join('\n')}\n`;
  });
  assert.match(await refusal(root), /insiders\.ndjson:2: row is out of order/);
});

test('a sha256 or row count that does not match the manifest is refused', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'reports.ndjson', (text) => text.replace('profile', 'profile!'), false);
  assert.match(await refusal(root), /reports\.ndjson: sha256 is [0-9a-f]{64}, manifest says/);
});

test('a manifest of another format, or naming another version, is refused', async (t) => {
  const root = await fixture(t);
  const manifestFile = join(root, 'v1', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  await writeFile(manifestFile, JSON.stringify({ ...manifest, format: 'other/2' }));
  assert.match(await refusal(root), /manifest\.json: format is "other\/2"/);
  await writeFile(manifestFile, JSON.stringify({ ...manifest, version: 'v9' }));
  assert.match(await refusal(root), /does not match its folder/);
});

test('a missing CURRENT, or a last row without newline, is refused', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'earnings.ndjson', (text) => text.trimEnd());
  assert.match(await refusal(root), /earnings\.ndjson:3: last row does not end with a newline/);
  await rm(join(root, 'CURRENT'));
  assert.match(await refusal(root), /CURRENT: cannot read: ENOENT/);
});

test('invalid UTF-8 is refused', async (t) => {
  const root = await fixture(t);
  const file = join(root, 'v1', 'reports.ndjson');
  const bytes = await readFile(file);
  const broken = Buffer.concat([bytes.subarray(0, 20), Buffer.from([0xff, 0xfe]), bytes.subarray(22)]);
  await writeFile(file, broken);
  const manifestFile = join(root, 'v1', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  manifest.files['reports.ndjson'].sha256 = createHash('sha256').update(broken).digest('hex');
  manifest.files['reports.ndjson'].bytes = broken.length;
  await writeFile(manifestFile, JSON.stringify(manifest));
  assert.match(await refusal(root), /reports\.ndjson:1: not valid UTF-8/);
});

test('a kind of the first version is still required, and an added kind\'s file is checked like the others', async (t) => {
  const root = await fixture(t);
  await rewrite(root, 'insider-transactions.ndjson', (text) => text.replace('"code":"S"', '"code":"s"'));
  assert.match(await refusal(root), /insider-transactions\.ndjson:\d+: \$\.code: /);
  await rewrite(root, 'insider-transactions.ndjson', (text) => text.replace('"code":"s"', '"code":"S"').replace('Doe Jane', 'Doe Jone'), false);
  assert.match(await refusal(root), /insider-transactions\.ndjson: sha256 is [0-9a-f]{64}, manifest says/);
  const other = await fixture(t);
  await asBuiltBefore(join(other, 'v1'), 'whales');
  assert.match(await refusal(other), /manifest\.json: files has no entry for whales\.ndjson/);
});
