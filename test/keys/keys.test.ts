/**
 * Keys: the minted format (docs/api.md §4), the file checks, and the keys commands.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { BASE62, isWellFormedKey, mintKey, toBase62 } from '../../src/keys/mint.js';
import { hashKey, parseKeysFile, readKeysFile } from '../../src/keys/keys-file.js';
import { locateJsonError } from '../../src/json-error.js';
import fc from 'fast-check';
import { runKeysCommand } from '../../src/keys/keys-command.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => { out.push(s); }, err: (s: string) => { err.push(s); } } };
}

test('minted keys are eqf_ + 32 base62 + 6 base62 of the CRC32 of what precedes', () => {
  for (let i = 0; i < 200; i++) {
    const key = mintKey();
    assert.match(key, /^eqf_[0-9A-Za-z]{38}$/);
    const checksum = key.slice(-6);
    let value = 0;
    for (const char of checksum) value = value * 62 + BASE62.indexOf(char);
    assert.equal(value, crc32(Buffer.from(key.slice(0, -6))));
    assert.ok(isWellFormedKey(key));
  }
  assert.equal(toBase62(0, 6), '000000');
  assert.equal(toBase62(61, 1), 'z');
  assert.equal(toBase62(62, 1), '10');
  assert.equal(isWellFormedKey(`eqf_${'A'.repeat(32)}000000`), false, 'a wrong checksum is caught');
});

test('keys add prints the key once, stores only its hash, and writes atomically', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-keys-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  const first = io();
  assert.equal(await runKeysCommand(['add', '--file', file, '--plan', 'signal', '--account', 'acme', '--label', 'acme prod'], first.io), 0);
  const key = first.out.join('').trim();
  assert.ok(isWellFormedKey(key));
  const text = await readFile(file, 'utf8');
  assert.ok(!text.includes(key), 'the plaintext key is not stored');
  const table = parseKeysFile(text, file);
  const record = table.find(key);
  assert.equal(record?.plan, 'signal');
  assert.equal(record?.account, 'acme');
  assert.equal(record?.label, 'acme prod');
  assert.equal(record?.status, 'active');
  assert.equal((await stat(file)).mode & 0o777, 0o600);

  const listed = io();
  assert.equal(await runKeysCommand(['list', '--file', file], listed.io), 0);
  assert.match(listed.out.join(''), new RegExp(`${record!.id}\\s+acme\\s+signal\\s+active`));
  assert.ok(!listed.out.join('').includes(key) && !listed.out.join('').includes(record!.sha256), 'list never shows secrets');

  const set = io();
  assert.equal(await runKeysCommand(['set-status', '--file', file, record!.id, 'suspended'], set.io), 0);
  assert.equal(parseKeysFile(await readFile(file, 'utf8'), file).records[0]!.status, 'suspended');
});

test('keys commands refuse bad usage (exit 2) and a broken file (exit 1) without changing it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-keys-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  assert.equal(await runKeysCommand(['add', '--file', file, '--plan', 'signal'], io().io), 2);
  assert.equal(await runKeysCommand(['frobnicate'], io().io), 2);
  assert.equal(await runKeysCommand(['set-status', '--file', file, 'k_1', 'deleted'], io().io), 2);
  await writeFile(file, '{"format":"equity-facts-keys/1","keys":[{"id":"a"}]}');
  const broken = io();
  assert.equal(await runKeysCommand(['add', '--file', file, '--plan', 'signal', '--account', 'x'], broken.io), 1);
  assert.match(broken.err.join(''), /keys\[0\]: sha256 must be/);
  assert.equal(await readFile(file, 'utf8'), '{"format":"equity-facts-keys/1","keys":[{"id":"a"}]}');
});

test('a keys file that is not JSON is refused naming the file, line and column, on every Node version', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-keys-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  const cases: [string, string][] = [
    ['{\n  "format": "equity-facts-keys/1",\n  "keys": [\n    { "id": "k_1", },\n  ]\n}\n', 'line 4, column 20: unexpected "}"'],
    ['{\n  "format": "equity-facts-keys/1"\n  "keys": []\n}', 'line 3, column 3: unexpected "\\""'],
    ['{"format": "equity-facts-keys/1", "keys": [', 'line 1, column 44: unexpected end of text'],
  ];
  for (const [text, where] of cases) {
    await writeFile(file, text);
    await assert.rejects(readKeysFile(file), (error: Error) => {
      assert.equal(error.name, 'KeysFileError');
      assert.equal(error.message, `${file}: not JSON: ${where}`);
      return true;
    });
  }
  const listed = io();
  assert.equal(await runKeysCommand(['list', '--file', file], listed.io), 1);
  assert.match(listed.err.join(''), /not JSON: line 1, column 44/);
});

test('the JSON error locator agrees with JSON.parse on any text, and points inside it', () => {
  fc.assert(fc.property(fc.oneof(fc.json(), fc.string(), fc.json().map((json) => json.slice(0, -1)), fc.json().chain((json) =>
    fc.tuple(fc.nat(json.length), fc.constantFrom(',', '}', ']', '"', ':', 'x', '\n')).map(([at, c]) => `${json.slice(0, at)}${c}${json.slice(at)}`))), (text) => {
    let valid = true;
    try { JSON.parse(text); } catch { valid = false; }
    const place = locateJsonError(text);
    assert.equal(place === undefined, valid, JSON.stringify(text));
    if (place) assert.ok(place.line >= 1 && place.line <= text.split('\n').length && place.column >= 1);
  }), { numRuns: 3000 });
});

test('the keys file refuses duplicate ids and duplicate hashes', () => {
  const entry = { id: 'k_1', sha256: hashKey('x'), account: 'a', plan: 'free', status: 'active', created_at: '2026-01-01T00:00:00Z' };
  assert.throws(() => parseKeysFile(JSON.stringify({ format: 'equity-facts-keys/1', keys: [entry, entry] }), 'f'), /duplicate id/);
  assert.throws(() => parseKeysFile(JSON.stringify({ format: 'equity-facts-keys/1', keys: [entry, { ...entry, id: 'k_2' }] }), 'f'), /duplicate sha256/);
});

test('find looks a presented key up by its digest: every key of a large file, and no unknown key', () => {
  // 300 keys in a table of 1,024 places: many share their first probe, so the probing is exercised.
  // One key is non-ASCII: both indexes hash the key's UTF-8 bytes.
  const keys = [...Array.from({ length: 299 }, (_, i) => `eqf_find_test_${i}`), 'ключ-🙂'];
  const text = JSON.stringify({
    format: 'equity-facts-keys/1',
    keys: keys.map((key, i) => ({ id: `k_${i}`, sha256: hashKey(key), account: `a${i}`, plan: 'signal', status: 'active', created_at: '2026-11-01T00:00:00Z' })),
  });
  const table = parseKeysFile(text, 'keys.json');
  keys.forEach((key, i) => assert.equal(table.find(key)?.id, `k_${i}`, key));
  for (let i = 0; i < 300; i++) assert.equal(table.find(`eqf_unknown_${i}`), undefined);
  assert.equal(table.find(''), undefined);
  const empty = parseKeysFile(JSON.stringify({ format: 'equity-facts-keys/1', keys: [] }), 'keys.json');
  assert.equal(empty.find(keys[0]!), undefined, 'an empty file finds nothing');
});
