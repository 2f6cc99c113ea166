/**
 * The keys lifecycle: `expires_at` checked at request time, `keys revoke`, `keys rotate --grace`,
 * and `keys add` refusing a plan that is not an API plan. Commands run as the CLI runs them
 * (one through a real process), answers come from the real server on port 0.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKeysCommand, writeKeysFile } from '../../src/keys/keys-command.js';
import { hashKey, parseKeysFile, type KeyRecord } from '../../src/keys/keys-file.js';
import { KEYS, KEY_RECORDS, ManualClock, startHarness, withKey, type Harness } from '../helpers/harness.js';
import { runCli } from '../helpers/run-cli.js';

const HOUR = 3_600_000;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => { out.push(s); }, err: (s: string) => { err.push(s); } } };
}


async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-keys-life-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const meta = (h: Harness, key: string) => h.get('/api/v1/meta', withKey(key));

test('keys add refuses a plan that is not an API plan, suggests the nearest, and writes nothing; --no-api-plan mints it', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'keys.json');
  const typo = await runCli(['keys', 'add', '--file', file, '--plan', 'signall', '--account', 'acme']);
  assert.equal(typo.code, 2, typo.stderr);
  assert.equal(typo.stdout, '', 'no key is printed');
  assert.match(typo.stderr, /--plan "signall" is not an API plan \(did you mean signal\?\)/);
  assert.match(typo.stderr, /free, signal, insider, founders/);
  assert.match(typo.stderr, /--no-api-plan/);
  assert.doesNotMatch(typo.stderr, /\n\s+at /, 'no stack trace');
  assert.deepEqual(await readdir(dir), [], 'no file is written');

  const meant = await runCli(['keys', 'add', '--file', file, '--plan', 'dashboard', '--account', 'acme', '--no-api-plan']);
  assert.equal(meant.code, 0, meant.stderr);
  const record = parseKeysFile(await readFile(file, 'utf8'), file).find(meant.stdout.trim());
  assert.equal(record?.plan, 'dashboard');

  const contradiction = await runCli(['keys', 'add', '--file', file, '--plan', 'signal', '--account', 'acme', '--no-api-plan']);
  assert.equal(contradiction.code, 2);
  assert.match(contradiction.stderr, /--no-api-plan .*signal is an API plan/);
  assert.equal(parseKeysFile(await readFile(file, 'utf8'), file).records.length, 1);
});

test('an expired key answers 401 invalid_api_key saying it expired, checked against the clock at each request', async (t) => {
  const h = await startHarness(t);
  const expiring: KeyRecord = {
    id: 'k_exp', sha256: hashKey('test-expiring-key'), account: 'acme', plan: 'signal', status: 'active',
    created_at: '2026-11-01T00:00:00Z', expires_at: new Date(h.clock.ms + HOUR).toISOString(),
  };
  await writeKeysFile(h.keysFile, [...KEY_RECORDS, expiring]);
  assert.equal((await h.server.handler.reload()).keys, true);
  assert.equal((await meta(h, 'test-expiring-key')).status, 200, 'before expires_at');
  h.clock.advance(HOUR - 1);
  assert.equal((await meta(h, 'test-expiring-key')).status, 200, 'a millisecond before expires_at');
  h.clock.advance(1);
  const expired = await meta(h, 'test-expiring-key');
  assert.equal(expired.status, 401);
  assert.equal(expired.json.error, 'invalid_api_key');
  assert.match(expired.json.detail, /expired at 2026-11-21T13:00:00(\.000)?Z/);
  assert.equal(expired.headers['www-authenticate'], 'Bearer');
  assert.equal(expired.headers['x-ratelimit-limit-minute'], undefined, 'a 401 never reaches the limiter');
  assert.equal((await meta(h, KEYS.signal)).status, 200, 'other keys are untouched');
});

test('keys rotate: the new key answers 200 at once, the old one 200 within its grace and 401 expired after it', async (t) => {
  const h = await startHarness(t);
  await chmod(h.keysFile, 0o640);
  const rotated = io();
  assert.equal(await runKeysCommand(['rotate', '--file', h.keysFile, 'k_signal', '--grace', '2h'], rotated.io, h.clock.now), 0, rotated.err.join(''));
  const newKey = rotated.out.join('').trim();
  assert.match(newKey, /^eqf_[0-9A-Za-z]{38}$/, 'the new key is printed once on stdout, alone');
  assert.equal((await stat(h.keysFile)).mode & 0o777, 0o640, 'the file keeps its mode');
  const table = parseKeysFile(await readFile(h.keysFile, 'utf8'), h.keysFile);
  const old = table.records.find((r) => r.id === 'k_signal')!;
  assert.equal(Date.parse(old.expires_at!), h.clock.ms + 2 * HOUR);
  const fresh = table.find(newKey)!;
  assert.equal(fresh.account, old.account);
  assert.equal(fresh.plan, old.plan);
  assert.equal(fresh.expires_at, undefined);
  assert.match(rotated.err.join(''), new RegExp(`${fresh.id}.*k_signal`));

  assert.equal((await h.server.handler.reload()).keys, true);
  assert.equal((await meta(h, newKey)).status, 200, 'the new key works at once');
  h.clock.advance(2 * HOUR - 1);
  assert.equal((await meta(h, KEYS.signal)).status, 200, 'the old key works within its grace');
  h.clock.advance(1);
  const after = await meta(h, KEYS.signal);
  assert.equal(after.status, 401);
  assert.match(after.json.detail, /expired/);
  assert.equal((await meta(h, newKey)).status, 200);

  const again = io();
  assert.equal(await runKeysCommand(['rotate', '--file', h.keysFile, fresh.id], again.io, h.clock.now), 0);
  const renewed = parseKeysFile(await readFile(h.keysFile, 'utf8'), h.keysFile).records.find((r) => r.id === fresh.id)!;
  assert.equal(Date.parse(renewed.expires_at!), h.clock.ms + 24 * HOUR, 'the default grace is 24h');
});

test('rotate keeps an earlier expires_at, and refuses a bad --grace or an unknown id without changing the file', async (t) => {
  const dir = await tempDir(t);
  const file = join(dir, 'keys.json');
  const clock = new ManualClock();
  const soon = new Date(clock.ms + HOUR).toISOString();
  await writeKeysFile(file, [...KEY_RECORDS.slice(0, 2), { ...KEY_RECORDS[2]!, expires_at: soon }]);
  const before = await readFile(file, 'utf8');
  for (const grace of ['24', '1w', '-1h', '1.5h', 'h', '24 h', '366d']) {
    const bad = io();
    assert.equal(await runKeysCommand(['rotate', '--file', file, 'k_signal', `--grace=${grace}`], bad.io, clock.now), 2, grace);
    assert.match(bad.err.join(''), /--grace must be a number and s, m, h or d \(e\.g\. 24h\)/, grace);
  }
  const unknown = io();
  assert.equal(await runKeysCommand(['rotate', '--file', file, 'k_signl'], unknown.io, clock.now), 1);
  assert.match(unknown.err.join(''), /no key with id "k_signl" \(did you mean k_signal\?\)/);
  assert.equal(await readFile(file, 'utf8'), before, 'nothing changed');

  const kept = io();
  assert.equal(await runKeysCommand(['rotate', '--file', file, 'k_insider', '--grace', '7d'], kept.io, clock.now), 0);
  const insider = parseKeysFile(await readFile(file, 'utf8'), file).records.find((r) => r.id === 'k_insider')!;
  assert.equal(insider.expires_at, soon, 'a rotation never extends a key that expires sooner');
});

test('keys revoke removes the key at once for the server; an unknown id exits 1 naming it', async (t) => {
  const h = await startHarness(t);
  const revoked = io();
  assert.equal(await runKeysCommand(['revoke', '--file', h.keysFile, 'k_founders'], revoked.io, h.clock.now), 0);
  assert.match(revoked.out.join(''), /k_founders: revoked/);
  const records = parseKeysFile(await readFile(h.keysFile, 'utf8'), h.keysFile).records;
  assert.deepEqual(records.map((r) => r.id), KEY_RECORDS.map((r) => r.id).filter((id) => id !== 'k_founders'));
  assert.equal((await h.server.handler.reload()).keys, true);
  const answer = await meta(h, KEYS.founders);
  assert.equal(answer.status, 401);
  assert.equal(answer.json.error, 'invalid_api_key');

  const before = await readFile(h.keysFile, 'utf8');
  const again = io();
  assert.equal(await runKeysCommand(['revoke', '--file', h.keysFile, 'k_founders'], again.io, h.clock.now), 1);
  assert.match(again.err.join(''), /no key with id "k_founders"/);
  const usage = io();
  assert.equal(await runKeysCommand(['revoke', '--file', h.keysFile], usage.io, h.clock.now), 2);
  assert.match(usage.err.join(''), /usage: equity-facts keys revoke/);
  assert.equal(await readFile(h.keysFile, 'utf8'), before);
});

test('a keys file with a malformed expires_at is refused whole, and the server keeps the keys it had', async (t) => {
  const h = await startHarness(t);
  for (const expiresAt of ['2026-02-30T00:00:00Z', '2026-02-29T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-01', 'tomorrow', '2026-11-01T00:00:00', 1793491200000, null]) {
    const text = JSON.stringify({ format: 'equity-facts-keys/1', keys: [{ ...KEY_RECORDS[0], expires_at: expiresAt }] });
    assert.throws(() => parseKeysFile(text, 'k.json'), /k\.json: keys\[0\]: expires_at must be an RFC 3339 date-time/, String(expiresAt));
  }
  for (const expiresAt of ['2026-11-21T12:00:00.5+01:00', '2028-02-29T00:00:00Z', '0050-01-01T00:00:00z']) {
    const good = { ...KEY_RECORDS[0]!, expires_at: expiresAt };
    assert.equal(parseKeysFile(JSON.stringify({ format: 'equity-facts-keys/1', keys: [good] }), 'k.json').records[0]!.expires_at, expiresAt);
  }

  await writeFile(h.keysFile, JSON.stringify({ format: 'equity-facts-keys/1', keys: [{ ...KEY_RECORDS[1], expires_at: 'soon' }] }));
  assert.equal((await h.server.handler.reload()).keys, false);
  assert.equal((await meta(h, KEYS.founders)).status, 200, 'the old keys keep serving');
  const listed = io();
  assert.equal(await runKeysCommand(['list', '--file', h.keysFile], listed.io), 1);
  assert.match(listed.err.join(''), /expires_at must be an RFC 3339 date-time/);
});
