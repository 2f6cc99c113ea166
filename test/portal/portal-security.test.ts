/**
 * The portal as an attacker meets it (docs/api.md §18): cross-site POSTs (another Origin, none, a
 * missing, wrong, expired or other form's token), missing or wrong admin tokens, sign-ups over
 * each limit, bodies too large, of the wrong type or not JSON, other methods, path tricks, a
 * broken keys file, and pages without admin or sign-up. Every refusal is the error envelope and
 * leaves the keys file as it was.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKeysFile } from '../../src/keys/keys-file-write.js';
import { KEY_RECORDS, KEYS, ManualClock } from '../helpers/harness.js';
import { exchange, get, jsonBody } from '../helpers/raw-http.js';
import { ADMIN_TOKEN, adminAuth, formToken, getPortal, postJson, startPortal, type PortalReply } from '../helpers/portal.js';

async function keysFile(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-portal-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'keys.json');
  await writeKeysFile(file, KEY_RECORDS);
  return file;
}

/** Asserts an error envelope with this status and code. */
function refused(reply: PortalReply, status: number, error: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body.ok, false);
  assert.equal(reply.body.error, error);
  assert.equal(typeof reply.body.detail, 'string');
  assert.equal(typeof reply.body.license, 'string');
  assert.match(String(reply.headers['content-type']), /^application\/json/);
}

const ADA = { name: 'Ada', email: 'ada@example.com' };

test('cross-site POSTs are refused: another Origin, no Origin, no token, a wrong, expired or other form\'s token', async (t) => {
  const file = await keysFile(t);
  const clock = new ManualClock();
  const portal = await startPortal(t, file, { now: clock.now, signupPerAddress: 100 });
  const before = await readFile(file, 'utf8');
  const token = await formToken(portal.url, '/signup');
  refused(await postJson(portal.url, '/signup', ADA, { token, origin: 'https://evil.example' }), 403, 'cross_site_request');
  refused(await postJson(portal.url, '/signup', ADA, { token, origin: null }), 403, 'cross_site_request');
  refused(await postJson(portal.url, '/signup', ADA, { token, origin: 'null' }), 403, 'cross_site_request');
  refused(await postJson(portal.url, '/signup', ADA, { token, origin: `${portal.url}.evil.example` }), 403, 'cross_site_request');
  refused(await postJson(portal.url, '/signup', ADA, { token: null }), 403, 'invalid_form_token');
  refused(await postJson(portal.url, '/signup', ADA, { token: `${token.slice(0, -2)}AA` }), 403, 'invalid_form_token');
  refused(await postJson(portal.url, '/signup', ADA, { token: await formToken(portal.url, '/account') }), 403, 'invalid_form_token');
  refused(await postJson(portal.url, '/signup', ADA, { token: 'x'.repeat(5000) }), 403, 'invalid_form_token');
  // A holder's rotation and an operator's change are forms too.
  refused(await postJson(portal.url, '/account/rotate', {}, { origin: 'https://evil.example', token: await formToken(portal.url, '/account'), headers: { 'x-api-key': KEYS.signal } }), 403, 'cross_site_request');
  refused(await postJson(portal.url, '/admin/keys', { account: 'x', plan: 'free' }, { token: null, headers: adminAuth() }), 403, 'invalid_form_token');
  assert.equal(await readFile(file, 'utf8'), before, 'nothing written');
  // A token lives two hours.
  clock.advance(2 * 3_600_000 + 1);
  refused(await postJson(portal.url, '/signup', ADA, { token }), 403, 'invalid_form_token');
  assert.equal((await postJson(portal.url, '/signup', ADA, { token: await formToken(portal.url, '/signup') })).status, 201);
});

test('the admin token: missing or wrong → 401 with WWW-Authenticate, on the list and on every change; no token file → no admin paths', async (t) => {
  const file = await keysFile(t);
  const portal = await startPortal(t, file);
  const token = await formToken(portal.url, '/admin');
  const before = await readFile(file, 'utf8');
  for (const headers of [{}, adminAuth('wrong-token-0123456789abcdef'), adminAuth(`${ADMIN_TOKEN}x`), adminAuth(ADMIN_TOKEN.slice(0, -1)), { authorization: `Basic ${ADMIN_TOKEN}` }, { 'x-api-key': ADMIN_TOKEN }]) {
    const list = await getPortal(portal.url, '/admin/keys', headers);
    refused(list, 401, 'invalid_admin_token');
    assert.equal(list.headers['www-authenticate'], 'Bearer');
    refused(await postJson(portal.url, '/admin/keys', { account: 'x', plan: 'free' }, { token, headers }), 401, 'invalid_admin_token');
    refused(await postJson(portal.url, '/admin/keys/k_free/status', { status: 'inactive' }, { token, headers }), 401, 'invalid_admin_token');
    refused(await postJson(portal.url, '/admin/keys/k_free/revoke', {}, { token, headers }), 401, 'invalid_admin_token');
  }
  assert.equal(await readFile(file, 'utf8'), before, 'nothing written');
  assert.equal((await getPortal(portal.url, '/admin/keys', adminAuth())).status, 200);
  assert.ok(!portal.logs.join('\n').includes(ADMIN_TOKEN.slice(0, 10)), 'the token is in no log line');

  const closed = await startPortal(t, file, { admin: false, signup: 'off' });
  for (const path of ['/admin', '/admin/keys', '/admin/keys/k_free/revoke', '/signup']) refused(await getPortal(closed.url, path, adminAuth()), 404, 'not_found');
  refused(await postJson(closed.url, '/admin/keys', { account: 'x', plan: 'free' }, { token, headers: adminAuth() }), 404, 'not_found');
  refused(await postJson(closed.url, '/signup', ADA, { token: await formToken(portal.url, '/signup') }), 404, 'not_found');
  const home = await getPortal(closed.url, '/');
  assert.ok(!home.text.includes('/signup'), 'no sign-up link without --signup free');
});

test('sign-ups over the per-address limit, then over the per-day limit, are refused 429 with Retry-After until the window moves', async (t) => {
  const file = await keysFile(t);
  const clock = new ManualClock();
  const portal = await startPortal(t, file, { now: clock.now, signupPerAddress: 2, signupPerDay: 3, trustProxy: '127.0.0.1' });
  const token = await formToken(portal.url, '/signup');
  const from = (address: string) => ({ token, headers: { 'x-forwarded-for': address } });
  assert.equal((await postJson(portal.url, '/signup', ADA, from('203.0.113.7'))).status, 201);
  clock.advance(600_000);
  assert.equal((await postJson(portal.url, '/signup', ADA, from('203.0.113.7'))).status, 201);
  const third = await postJson(portal.url, '/signup', ADA, from('203.0.113.7'));
  refused(third, 429, 'signup_limited_address');
  assert.equal(third.headers['retry-after'], String(50 * 60), 'the first sign-up leaves the hour in 50 minutes');
  // Another address of the same IPv6 /64 counts with it; another /64 does not.
  assert.equal((await postJson(portal.url, '/signup', ADA, from('2001:db8:1:2::1'))).status, 201);
  const sameNet = await postJson(portal.url, '/signup', ADA, from('2001:db8:1:2:ffff::9'));
  refused(sameNet, 429, 'signup_limited_day');
  const day = await postJson(portal.url, '/signup', ADA, from('198.51.100.1'));
  refused(day, 429, 'signup_limited_day');
  assert.equal(day.headers['retry-after'], String(86_400 - 600), 'the day frees its first sign-up 24 h after it');
  clock.advance(86_400_000 - 600_000);
  const fresh = { token: await formToken(portal.url, '/signup'), headers: { 'x-forwarded-for': '198.51.100.1' } };
  assert.equal((await postJson(portal.url, '/signup', ADA, fresh)).status, 201, 'the window moved');
  // A refused or invalid sign-up is not counted.
  refused(await postJson(portal.url, '/signup', { name: 'x', email: 'not-an-address' }, { ...fresh, headers: { 'x-forwarded-for': '192.0.2.1' } }), 400, 'invalid_parameter');
});

test('bodies: too large → 413 (declared or sent), not JSON → 415, bad JSON or not an object → 400; fields checked', async (t) => {
  const file = await keysFile(t);
  const portal = await startPortal(t, file, { signupPerAddress: 100 });
  const token = await formToken(portal.url, '/signup');
  const before = await readFile(file, 'utf8');
  const big = JSON.stringify({ name: 'A'.repeat(20_000), email: 'a@example.com' });
  refused(await postJson(portal.url, '/signup', null, { token, raw: big }), 413, 'payload_too_large');
  refused(await postJson(portal.url, '/signup', null, { token, raw: 'name=Ada&email=a%40example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  refused(await postJson(portal.url, '/signup', null, { token, raw: '{"name":"Ada",', headers: {} }), 400, 'invalid_body');
  refused(await postJson(portal.url, '/signup', null, { token, raw: '["Ada"]' }), 400, 'invalid_body');
  refused(await postJson(portal.url, '/signup', null, { token, raw: Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1') }), 400, 'invalid_body');
  refused(await postJson(portal.url, '/signup', { name: 'Ada' }, { token }), 400, 'invalid_parameter');
  refused(await postJson(portal.url, '/signup', { name: 'Ada\u0000', email: 'a@example.com' }, { token }), 400, 'invalid_parameter');
  refused(await postJson(portal.url, '/signup', { name: ['Ada'], email: 'a@example.com' }, { token }), 400, 'invalid_parameter');
  refused(await postJson(portal.url, '/signup', { name: 'Ada', email: 'a@example.com', __proto__: { x: 1 } }, { token, raw: '{"__proto__":{"name":"x"},"email":"a@example.com"}' }), 400, 'invalid_parameter');
  const admin = await formToken(portal.url, '/admin');
  refused(await postJson(portal.url, '/admin/keys', { account: 'acme', plan: 'gold' }, { token: admin, headers: adminAuth() }), 400, 'invalid_parameter');
  refused(await postJson(portal.url, '/admin/keys/k_free/status', { status: 'deleted' }, { token: admin, headers: adminAuth() }), 400, 'invalid_parameter');
  refused(await postJson(portal.url, '/admin/keys/k_free/rotate', { grace: '400d' }, { token: admin, headers: adminAuth() }), 400, 'invalid_parameter');
  assert.equal(await readFile(file, 'utf8'), before, 'nothing written');

  // A body that never ends past the bound: answered 413 and the connection closed, not read on.
  const { port } = new URL(portal.url);
  const socket = connect(Number(port), '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk) => { text += chunk; }).on('close', () => resolve(text));
  });
  socket.write(`POST /signup HTTP/1.1\r\nHost: ${new URL(portal.url).host}\r\nOrigin: ${portal.url}\r\nX-Form-Token: ${token}\r\n` +
    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
  const chunk = `4000\r\n${'a'.repeat(0x4000)}\r\n`;
  socket.write(chunk);
  socket.write(chunk);
  const text = await answer;
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.match(text, /"error":"payload_too_large"/);
});

test('methods, paths and a broken keys file: 405 with Allow, 404 for every other spelling, 503 leaving the file untouched', async (t) => {
  const file = await keysFile(t);
  const portal = await startPortal(t, file);
  for (const path of ['/', '/account', '/signup', '/admin', '/healthz', '/assets/portal.css', '/assets/portal.js', '/favicon.ico']) {
    const got = await getPortal(portal.url, path);
    assert.equal(got.status, 200, path);
    const head = await getPortal(portal.url, path, {}, 'HEAD');
    assert.deepEqual([head.status, head.text], [200, ''], `HEAD ${path}`);
    assert.match(String(got.headers['content-security-policy']), /^default-src 'self'; connect-src 'self' http:\/\/127\.0\.0\.1:8080;/);
    assert.equal(got.headers['x-frame-options'], 'DENY');
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
    assert.equal(got.headers['cache-control'], 'no-store');
  }
  const options = await getPortal(portal.url, '/signup', { origin: 'https://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS');
  refused(options, 405, 'method_not_allowed');
  assert.equal(options.headers.allow, 'GET, HEAD, POST');
  assert.equal(options.headers['access-control-allow-origin'], undefined, 'no CORS on the portal');
  refused(await getPortal(portal.url, '/', {}, 'PUT'), 405, 'method_not_allowed');
  refused(await getPortal(portal.url, '/account/rotate'), 405, 'method_not_allowed');
  for (const path of ['/admin/', '/ADMIN', '//admin', '/admin%2fkeys', '/assets/portal.js/', '/admin/keys/k_free/delete', '/.env', '/signup%00']) {
    refused(await getPortal(portal.url, path, adminAuth()), 404, 'not_found');
  }
  // Dot segments as sent on the wire (undici, like browsers, resolves them before sending).
  const raw = await exchange(portal.url, ['/admin/../admin/keys', '/assets/%2e%2e/assets/portal.js', '/x/../admin/keys', 'http://evil.example/admin/keys']
    .map((path) => get(path, adminAuth())).join('').replace(/Host: test/g, `Host: ${new URL(portal.url).host}`), { end: true });
  assert.deepEqual(raw.responses.map((r) => [r.status, jsonBody(r)?.error]), [[404, 'not_found'], [404, 'not_found'], [404, 'not_found'], [400, 'bad_request']]);
  const admin = await formToken(portal.url, '/admin');
  refused(await postJson(portal.url, '/admin/keys/..%2Fk_free/revoke', {}, { token: admin, headers: adminAuth() }), 404, 'not_found');

  await writeFile(file, '{"format":"equity-facts-keys/1","keys":[{"id":');
  const broken = await readFile(file, 'utf8');
  const change = await postJson(portal.url, '/admin/keys', { account: 'acme', plan: 'free' }, { token: admin, headers: adminAuth() });
  refused(change, 503, 'keys_file_unavailable');
  assert.ok(change.headers['retry-after']);
  assert.ok(!change.text.includes(file), 'the answer names no path');
  refused(await getPortal(portal.url, '/admin/keys', adminAuth()), 503, 'keys_file_unavailable');
  assert.equal(await readFile(file, 'utf8'), broken, 'the broken file is left as it was');
  assert.match(portal.logs.join('\n'), /change refused, the keys file is unusable: .*not JSON/);
});
