/**
 * One writer of a keys file at a time (docs/api.md §4): concurrent `keys` commands lose no
 * change, a lock left by a writer that died is taken over once stale, and a live one held too
 * long refuses the change with a message naming the lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, utimes, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKeysCommand } from '../../src/keys/keys-command.js';
import { hashKey, parseKeysFile } from '../../src/keys/keys-file.js';
import { lockFileOf, withKeysFileLock } from '../../src/keys/keys-file-lock.js';

async function tempFile(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-keys-lock-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'keys.json');
}

function add(file: string, account: string): Promise<{ code: number; key: string }> {
  let key = '';
  return runKeysCommand(['add', '--file', file, '--plan', 'signal', '--account', account], {
    out: (s) => { key += s; }, err: () => {},
  }).then((code) => ({ code, key: key.trim() }));
}

test('40 keys add commands at once leave every minted key in the file exactly once', async (t) => {
  const file = await tempFile(t);
  const minted = await Promise.all(Array.from({ length: 40 }, (_, i) => add(file, `acct-${i}`)));
  assert.deepEqual(minted.map((m) => m.code), minted.map(() => 0));
  const table = parseKeysFile(await readFile(file, 'utf8'), file);
  assert.equal(table.records.length, 40);
  for (const { key } of minted) assert.equal(table.records.filter((r) => r.sha256 === hashKey(key)).length, 1);
  await assert.rejects(access(lockFileOf(file)), /ENOENT/, 'the lock is gone once the commands end');
});

test('a lock older than the stale age is taken over; a fresh one held past the wait refuses the change naming the lock', async (t) => {
  const file = await tempFile(t);
  await writeFile(lockFileOf(file), '999999\n');
  const now = Date.now();
  // Fresh (written just now) and the wait already over: refused, the work never runs.
  let ran = false;
  await assert.rejects(withKeysFileLock(file, async () => { ran = true; }, { waitMs: 0, now: () => now }),
    /another writer has held .*keys\.json\.lock for over 0 s; if no keys command or portal is changing the file, remove the lock/);
  assert.equal(ran, false);
  // The same lock an hour old (its writer died mid-change): taken over.
  const hourAgo = new Date(now - 3_600_000);
  await utimes(lockFileOf(file), hourAgo, hourAgo);
  assert.equal(await withKeysFileLock(file, async () => 'done', { waitMs: 0 }), 'done');
  await assert.rejects(access(lockFileOf(file)), /ENOENT/);
  // A lock released when the work throws.
  await assert.rejects(withKeysFileLock(file, async () => { throw new Error('step failed'); }), /step failed/);
  await assert.rejects(access(lockFileOf(file)), /ENOENT/);
});
