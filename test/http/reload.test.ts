/**
 * Snapshot and keys reload while requests run; broken ones are refused and the old keep serving
 * (docs/api.md §4, §7).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHarness, withKey, KEYS, KEY_RECORDS, writeFixtureSnapshot } from '../helpers/harness.js';
import { publishVersion } from '../../src/data/snapshot-writer.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { hashKey } from '../../src/keys/keys-file.js';
import { fixtureRows } from '../fixtures/rows.js';
import { editFile, editIndexSections } from '../helpers/snapshot-files.js';
import { ROW_SECTIONS } from '../../src/data/row-index.js';

test('a new snapshot is swapped in while requests run, and no request fails', async (t) => {
  const h = await startHarness(t);
  const rows = fixtureRows();
  rows.insiders = rows.insiders.slice(0, 1);
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', rows);
  const versions = new Set<string>();
  let stop = false;
  const traffic = (async () => {
    let failures = 0;
    for (let i = 0; !stop || i < 20; i++) {
      const reply = await h.get('/api/v1/finance/insiders', withKey(KEYS.founders));
      if (reply.status !== 200) failures++;
      versions.add(`${reply.headers['x-snapshot-version']}:${reply.json.count}`);
      h.clock.advance(1_000);
    }
    return failures;
  })();
  const result = await h.server.handler.reload();
  stop = true;
  assert.deepEqual(result, { snapshot: true, keys: true });
  assert.equal(await traffic, 0);
  const last = await h.get('/api/v1/finance/insiders', withKey(KEYS.founders));
  assert.equal(last.headers['x-snapshot-version'], 'v2');
  assert.equal(last.json.count, 1);
  for (const seen of versions) assert.ok(['v1:3', 'v2:1'].includes(seen), `each response saw one whole snapshot: ${seen}`);
});

test('a broken snapshot is refused with its file and line, and the old one keeps serving', async (t) => {
  const h = await startHarness(t);
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', fixtureRows(), true, false); // no index files: every row is checked
  const file = join(h.snapshotsDir, 'v2', 'insiders.ndjson');
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[1] = lines[1]!.replace('"net_usd":', '"net_usd":"x","was":');
  await writeFile(file, lines.join('\n'));
  const result = await h.server.handler.reload();
  assert.equal(result.snapshot, false);
  assert.ok(h.logs.some((line) => /reload refused.*v2\/insiders\.ndjson:2: \$\.net_usd: expected number/.test(line)), h.logs.join('\n'));
  const reply = await h.get('/api/v1/finance/insiders', withKey(KEYS.signal));
  assert.equal(reply.status, 200);
  assert.equal(reply.headers['x-snapshot-version'], 'v1');
});

for (const rowsIn of ['memory', 'file'] as const) {
  test(`a version whose index file or rows differ from its manifest, or whose index file does not describe its rows, is refused and the old one keeps serving (rows in ${rowsIn})`, async (t) => {
    const h = await startHarness(t, { rowsIn });
    const damages: [string, (dir: string) => Promise<void>, RegExp][] = [
      ['index byte flipped', (dir) => editFile(dir, 'insiders.index', (bytes) => { bytes[bytes.length - 9]! ^= 1; return bytes; }, false), /v\d\/insiders\.index: sha256 is/],
      ['rows byte flipped', (dir) => editFile(dir, 'insiders.ndjson', (bytes) => { bytes[12]! ^= 1; return bytes; }, false), /v\d\/insiders\.ndjson: sha256 is/],
      ['index rehashed, a length wrong', (dir) => editIndexSections(dir, 'insiders.index', (sections) => { (sections.get(ROW_SECTIONS.lengths)!.values as Uint32Array)[0]! += 1; }), /v\d\/insiders\.index: row lengths and newlines add up/],
    ];
    let n = 2;
    for (const [what, damage, message] of damages) {
      const version = `v${n++}`;
      await writeFixtureSnapshot(h.snapshotsDir, version);
      await damage(join(h.snapshotsDir, version));
      assert.equal((await h.server.handler.reload()).snapshot, false, what);
      assert.ok(h.logs.some((line) => line.includes('reload refused') && message.test(line) && line.includes(version)), `${what}: ${h.logs.join('\n')}`);
      const reply = await h.get('/api/v1/finance/insiders', withKey(KEYS.signal));
      assert.equal(reply.status, 200, what);
      assert.equal(reply.headers['x-snapshot-version'], 'v1', what);
    }
  });
}

test('changing CURRENT is noticed by the watch and reloads', async (t) => {
  const h = await startHarness(t, { watchIntervalMs: 20 });
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', fixtureRows(), false);
  const reloaded = once(h.server.handler.events, 'reloaded');
  await publishVersion(h.snapshotsDir, 'v2');
  assert.deepEqual(await reloaded, ['snapshot']);
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).json.data[0].snapshot.version, 'v2');
});

test('a keys-file change takes effect: a new key works, a suspended one gets 402', async (t) => {
  const h = await startHarness(t);
  const records = KEY_RECORDS.map((record) => (record.id === 'k_signal' ? { ...record, status: 'suspended' as const } : record));
  records.push({ id: 'k_new', sha256: hashKey('brand-new-key'), account: 'new', plan: 'free', status: 'active', created_at: '2026-11-21T00:00:00Z' });
  await writeKeysFile(h.keysFile, records);
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  assert.equal((await h.get('/api/v1/meta', withKey('brand-new-key'))).status, 200);
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 402);
});

test('a broken keys file is refused whole and the old keys keep working', async (t) => {
  const h = await startHarness(t);
  await appendFile(h.keysFile, '{ not json');
  assert.equal((await h.server.handler.reload()).keys, false);
  assert.ok(h.logs.some((line) => line.includes('keys: reload refused') && line.includes('not JSON')));
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 200);
  await writeFile(h.keysFile, JSON.stringify({ format: 'equity-facts-keys/1', keys: [{ id: 'bad id!' }] }));
  assert.equal((await h.server.handler.reload()).keys, false);
  assert.ok(h.logs.some((line) => line.includes('keys[0]: id must be')));
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 200);
});

