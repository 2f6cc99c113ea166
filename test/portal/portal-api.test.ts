/**
 * The portal's changes as a running API sees them (docs/api.md §18): a real `serve` process
 * watching the keys file (`--watch-interval-ms 20`) and the portal rewriting it. A sign-up's key
 * answers 200 once the API has reloaded; a rotated key's successor works at once and the old key
 * until its grace ends; suspend → 402, deactivate → 403, revoke → 401, a plan change shows in meta.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { parseKeysFile } from '../../src/keys/keys-file.js';
import { formatDateTime } from '../../src/keys/lifecycle.js';
import { isWellFormedKey } from '../../src/keys/mint.js';
import { fixtureDir, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { adminAuth, formToken, keysReloaded, postJson, startPortal } from '../helpers/portal.js';

const WATCH_MS = 20;
const DAY = 86_400_000;

interface MetaAnswer {
  status: number;
  body: { error?: string; detail?: string; data?: { plan: string; account: string; key_id: string }[] };
}

async function meta(api: ServeProcess, key: string): Promise<MetaAnswer> {
  const response = await request(`${api.url}/api/v1/meta`, { headers: { 'x-api-key': key } });
  return { status: response.statusCode, body: await response.body.json() as MetaAnswer['body'] };
}

async function setUp(t: TestContext, now?: () => number, signupPerAddress = 3) {
  const fixture = await fixtureDir(t);
  const api = await startServe(t, fixture, ['--watch-interval-ms', String(WATCH_MS), '--access-log', 'off']);
  const portal = await startPortal(t, fixture.keys, { apiUrl: api.url, signupPerAddress, ...(now === undefined ? {} : { now }) });
  /** Runs a change and waits for the API to reload the keys. */
  const change = async <T>(action: () => Promise<T>): Promise<T> => {
    const from = api.stderr.text.length;
    const result = await action();
    await keysReloaded(api, from);
    return result;
  };
  return { fixture, api, portal, change };
}

test('a sign-up mints a free key that answers 200 on the API once it reloads the keys file (delay measured)', async (t) => {
  const { fixture, api, portal } = await setUp(t, undefined, 100);
  const token = await formToken(portal.url, '/signup');
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) {
    const from = api.stderr.text.length;
    const reply = await postJson(portal.url, '/signup', { name: `Ada Lovelace ${i}`, email: `ada${i}@example.com` }, { token });
    const answered = performance.now();
    assert.equal(reply.status, 201, reply.text);
    const key = reply.body.key as string;
    assert.ok(isWellFormedKey(key), 'a minted key with its checksum');
    assert.equal(reply.body.plan, 'free');
    assert.match(reply.body.account as string, new RegExp(`^ada-lovelace-${i}-[0-9a-f]{8}$`));
    await keysReloaded(api, from);
    delays.push(performance.now() - answered);
    const answer = await meta(api, key);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data![0]!.plan, 'free');
    assert.equal(answer.body.data![0]!.key_id, reply.body.key_id);
  }
  const records = parseKeysFile(await readFile(fixture.keys, 'utf8'), fixture.keys).records;
  const mine = records.find((r) => r.label === 'Ada Lovelace 0 <ada0@example.com>');
  assert.ok(mine, 'the e-mail is kept in the label');
  assert.ok(!JSON.stringify(records).includes('eqf_'), 'no plaintext key in the file');
  assert.ok(!portal.logs.join('\n').includes('eqf_'), 'no key in the log');
  delays.sort((a, b) => a - b);
  t.diagnostic(`sign-up answer → API reloaded (watch interval ${WATCH_MS} ms): min ${delays[0]!.toFixed(1)} ms, ` +
    `median ${delays[4]!.toFixed(1)} ms, max ${delays.at(-1)!.toFixed(1)} ms over ${delays.length}`);
});

test("a holder's rotation: the new key works at once, the old one until its 24 h grace ends; a grace already over answers 401", async (t) => {
  const start = Date.now();
  const { fixture, api, portal, change } = await setUp(t, () => start);
  const signed = await change(async () => postJson(portal.url, '/signup', { name: 'Grace', email: 'grace@example.com' }, { token: await formToken(portal.url, '/signup') }));
  const oldKey = signed.body.key as string;
  const rotateToken = await formToken(portal.url, '/account');
  const rotated = await change(() => postJson(portal.url, '/account/rotate', {}, { token: rotateToken, headers: { 'x-api-key': oldKey } }));
  assert.equal(rotated.status, 200, rotated.text);
  assert.equal(rotated.body.old_key_id, signed.body.key_id);
  assert.equal(rotated.body.old_expires_at, formatDateTime(start + DAY), 'the old key expires 24 h after the rotation');
  const records = parseKeysFile(await readFile(fixture.keys, 'utf8'), fixture.keys).records;
  assert.equal(records.find((r) => r.id === signed.body.key_id)!.expires_at, formatDateTime(start + DAY));
  assert.equal(records.find((r) => r.id === rotated.body.key_id)!.account, signed.body.account, 'same account');
  assert.equal((await meta(api, rotated.body.key as string)).status, 200, 'the new key works');
  assert.equal((await meta(api, oldKey)).status, 200, 'the old key works during its grace');
  // Bearer works as well as X-API-Key.
  const again = await change(() => postJson(portal.url, '/account/rotate', {}, { token: rotateToken, headers: { authorization: `Bearer ${rotated.body.key as string}` } }));
  assert.equal(again.status, 200, again.text);

  // A portal whose clock is 25 h behind the API's: the grace it gives is already over.
  const late = await startPortal(t, fixture.keys, { apiUrl: api.url, now: () => Date.now() - DAY - 3_600_000 });
  const expiring = again.body.key as string;
  const over = await change(async () => postJson(late.url, '/account/rotate', {}, { token: await formToken(late.url, '/account'), headers: { 'x-api-key': expiring } }));
  assert.equal(over.status, 200, over.text);
  const old = await meta(api, expiring);
  assert.equal(old.status, 401);
  assert.match(old.body.detail!, /expired/);
  assert.equal((await meta(api, over.body.key as string)).status, 200);
  const refused = await postJson(portal.url, '/account/rotate', {}, { token: rotateToken, headers: { 'x-api-key': 'not-a-key-at-all' } });
  assert.deepEqual([refused.status, refused.body.error], [401, 'invalid_api_key']);
  const missing = await postJson(portal.url, '/account/rotate', {}, { token: rotateToken });
  assert.deepEqual([missing.status, missing.body.error, missing.headers['www-authenticate']], [401, 'invalid_api_key', 'Bearer']);
});

test("the operator's changes: plan in meta, suspend → 402, deactivate → 403, reactivate → 200, revoke → 401, rotate with a grace", async (t) => {
  const { fixture, api, portal, change } = await setUp(t);
  const token = await formToken(portal.url, '/admin');
  const admin = (path: string, body: unknown) => postJson(portal.url, path, body, { token, headers: adminAuth() });
  const minted = await change(() => admin('/admin/keys', { account: 'acme', plan: 'signal', label: 'acme prod' }));
  assert.equal(minted.status, 201, minted.text);
  const key = minted.body.key as string;
  const id = minted.body.key_id as string;
  assert.equal((await meta(api, key)).body.data![0]!.plan, 'signal');

  await change(() => admin(`/admin/keys/${id}/plan`, { plan: 'insider' }));
  assert.equal((await meta(api, key)).body.data![0]!.plan, 'insider');

  const suspended = await change(() => admin(`/admin/keys/${id}/status`, { status: 'suspended' }));
  assert.equal(suspended.status, 200, suspended.text);
  let answer = await meta(api, key);
  assert.deepEqual([answer.status, answer.body.error], [402, 'subscription_suspended']);
  await change(() => admin(`/admin/keys/${id}/status`, { status: 'inactive' }));
  answer = await meta(api, key);
  assert.deepEqual([answer.status, answer.body.error], [403, 'account_unavailable']);
  await change(() => admin(`/admin/keys/${id}/status`, { status: 'active' }));
  assert.equal((await meta(api, key)).status, 200);

  const rotated = await change(() => admin(`/admin/keys/${id}/rotate`, { grace: '0s' }));
  assert.equal(rotated.status, 200, rotated.text);
  assert.equal((await meta(api, key)).status, 401, 'a grace of 0s ends the old key at once');
  const fresh = rotated.body.key as string;
  assert.equal((await meta(api, fresh)).status, 200);

  const revoked = await change(() => admin(`/admin/keys/${rotated.body.key_id as string}/revoke`, {}));
  assert.equal(revoked.status, 200, revoked.text);
  answer = await meta(api, fresh);
  assert.deepEqual([answer.status, answer.body.error], [401, 'invalid_api_key']);
  const listed = await request(`${portal.url}/admin/keys`, { headers: adminAuth() });
  const keys = (await listed.body.json() as { keys: { id: string; sha256?: string }[] }).keys;
  assert.ok(!keys.some((k) => k.id === rotated.body.key_id), 'revoked: gone from the list');
  assert.ok(keys.every((k) => k.sha256 === undefined), 'the list shows no hash');
  assert.equal(keys.length, parseKeysFile(await readFile(fixture.keys, 'utf8'), fixture.keys).records.length);
  const unknown = await admin('/admin/keys/k_nope/revoke', {});
  assert.deepEqual([unknown.status, unknown.body.error], [404, 'not_found']);
  const logs = portal.logs.join('\n');
  assert.ok(!logs.includes(key) && !logs.includes(fresh) && !logs.includes('eqf_'), 'no key in the log');
});
