/**
 * One queue of changes (docs/api.md §18): 1,000 sign-ups sent at once, with operator changes
 * among them, leave a keys file that parses with every minted key in it exactly once and every
 * operator change applied; the file is never seen half-written by a reader polling it meanwhile;
 * `keys` commands run meanwhile lose nothing and make the portal lose nothing (the file's lock).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { writeKeysFile } from '../../src/keys/keys-file-write.js';
import { runKeysCommand } from '../../src/keys/keys-command.js';
import { hashKey, parseKeysFile } from '../../src/keys/keys-file.js';
import { KEY_RECORDS } from '../helpers/harness.js';
import { adminAuth, formToken, startPortal } from '../helpers/portal.js';

const SIGNUPS = 1000;

test(`${SIGNUPS} concurrent sign-ups and operator changes lose nothing: each minted key is in the file exactly once`, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-portal-burst-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  await writeKeysFile(file, KEY_RECORDS);
  const portal = await startPortal(t, file, { signupPerAddress: SIGNUPS, signupPerDay: SIGNUPS });
  const signupToken = await formToken(portal.url, '/signup');
  const adminToken = await formToken(portal.url, '/admin');
  const agent = new Agent({ connections: 128 });
  t.after(() => agent.close());
  const post = async (path: string, body: unknown, token: string, extra: Record<string, string> = {}) => {
    const response = await request(`${portal.url}${path}`, {
      method: 'POST', dispatcher: agent, body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', origin: portal.url, 'x-form-token': token, ...extra },
    });
    return { status: response.statusCode, body: await response.body.json() as { key?: string; key_id?: string } };
  };
  // A reader polling the file the whole time: every read must parse (the rewrite is atomic).
  let reads = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      parseKeysFile(await readFile(file, 'utf8'), file);
      reads++;
    }
  })();
  const started = performance.now();
  const [signups, changes] = await Promise.all([
    Promise.all(Array.from({ length: SIGNUPS }, (_, i) => post('/signup', { name: `User ${i}`, email: `user${i}@example.com` }, signupToken))),
    Promise.all([
      post('/admin/keys/k_free/status', { status: 'suspended' }, adminToken, adminAuth()),
      post('/admin/keys/k_signal/plan', { plan: 'founders' }, adminToken, adminAuth()),
      post('/admin/keys/k_dash/revoke', {}, adminToken, adminAuth()),
    ]),
  ]);
  const elapsed = performance.now() - started;
  polling = false;
  await poller;
  assert.deepEqual(signups.filter((s) => s.status !== 201), [], 'every sign-up answered 201');
  assert.deepEqual(changes.map((c) => c.status), [200, 200, 200]);

  const table = parseKeysFile(await readFile(file, 'utf8'), file);
  assert.equal(table.records.length, KEY_RECORDS.length - 1 + SIGNUPS);
  for (const { body } of signups) {
    assert.equal(table.records.filter((r) => r.sha256 === hashKey(body.key!)).length, 1, 'the key is in the file once');
    assert.equal(table.find(body.key!)!.id, body.key_id);
  }
  assert.equal(new Set(signups.map((s) => s.body.key_id)).size, SIGNUPS, 'distinct ids');
  assert.equal(table.records.find((r) => r.id === 'k_free')!.status, 'suspended');
  assert.equal(table.records.find((r) => r.id === 'k_signal')!.plan, 'founders');
  assert.equal(table.records.find((r) => r.id === 'k_dash'), undefined);
  t.diagnostic(`${SIGNUPS} sign-ups + 3 operator changes in ${elapsed.toFixed(0)} ms; the file parsed on each of ${reads} reads meanwhile`);
});

test('keys add commands run while the portal mints keys: neither writer drops the other\'s keys (the file lock)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-portal-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  await writeKeysFile(file, KEY_RECORDS);
  const portal = await startPortal(t, file, { signupPerAddress: 200, signupPerDay: 200 });
  const token = await formToken(portal.url, '/signup');
  const agent = new Agent({ connections: 32 });
  t.after(() => agent.close());
  const signup = async (i: number): Promise<string> => {
    const response = await request(`${portal.url}/signup`, {
      method: 'POST', dispatcher: agent, body: JSON.stringify({ name: `User ${i}`, email: `user${i}@example.com` }),
      headers: { 'content-type': 'application/json', origin: portal.url, 'x-form-token': token },
    });
    assert.equal(response.statusCode, 201);
    return ((await response.body.json()) as { key: string }).key;
  };
  const command = async (i: number): Promise<string> => {
    let out = '';
    const code = await runKeysCommand(['add', '--file', file, '--plan', 'signal', '--account', `cli-${i}`], { out: (s) => { out += s; }, err: () => {} });
    assert.equal(code, 0);
    return out.trim();
  };
  const keys = (await Promise.all([
    ...Array.from({ length: 200 }, (_, i) => signup(i)),
    ...Array.from({ length: 30 }, (_, i) => command(i)),
  ]));
  const table = parseKeysFile(await readFile(file, 'utf8'), file);
  assert.equal(table.records.length, KEY_RECORDS.length + 230);
  for (const key of keys) assert.equal(table.records.filter((r) => r.sha256 === hashKey(key)).length, 1, 'each key once');
});
