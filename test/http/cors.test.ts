/**
 * Browsers (docs/api.md §12): every response under /api/v1 may be read from any origin and exposes
 * the fields a client needs; a preflight is answered 204 without a key or a token; any other
 * OPTIONS stays 405.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';

const ORIGIN = { origin: 'https://app.example.test' };

test('responses under /api/v1 allow any origin and expose the rate-limit, ETag, Link and id fields, refusals included', async (t) => {
  const h = await startHarness(t);
  const replies = [
    await h.get('/api/v1/finance/filings?ticker=AAPL&limit=2', { ...ORIGIN, ...withKey(KEYS.signal) }),
    await h.get('/api/v1/finance/filings', ORIGIN), // 401
    await h.get('/api/v1/nope', ORIGIN), // 404
    await h.get('/api/v1/openapi.json', ORIGIN),
  ];
  assert.deepEqual(replies.map((r) => r.status), [200, 401, 404, 200]);
  for (const reply of replies) {
    assert.equal(reply.headers['access-control-allow-origin'], '*');
    const exposed = String(reply.headers['access-control-expose-headers']).split(', ');
    for (const name of ['ETag', 'Link', 'Retry-After', 'X-Request-Id', 'X-Snapshot-Version', 'X-RateLimit-Remaining-Minute', 'RateLimit', 'RateLimit-Policy']) {
      assert.ok(exposed.includes(name), name);
    }
    assert.equal(reply.headers['access-control-allow-credentials'], undefined, 'no cookies, no credentials');
  }
  assert.equal((await h.get('/healthz', ORIGIN)).headers['access-control-allow-origin'], undefined, 'outside /api/v1: none');
});

test('a preflight gets 204 with the allowed methods and headers, needs no key and takes no token', async (t) => {
  const h = await startHarness(t);
  const before = await h.get('/api/v1/meta', withKey(KEYS.signal));
  for (const method of ['GET', 'HEAD']) {
    const reply = await h.get('/api/v1/finance/filings', {
      ...ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'x-api-key, if-none-match',
    }, 'OPTIONS');
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assert.equal(reply.headers['access-control-allow-origin'], '*');
    assert.equal(reply.headers['access-control-allow-methods'], 'GET, HEAD');
    assert.equal(reply.headers['access-control-allow-headers'], 'Authorization, X-API-Key, If-None-Match');
    assert.ok(Number(reply.headers['access-control-max-age']) > 0);
    assert.ok(reply.headers['x-request-id']);
  }
  const after = await h.get('/api/v1/meta', withKey(KEYS.signal));
  assert.deepEqual(after.json.data[0].usage, before.json.data[0].usage, 'no token taken');
});

test('an OPTIONS that is not a preflight for GET or HEAD stays 405 with Allow; a preflight for an unknown path is 404', async (t) => {
  const h = await startHarness(t);
  const cases: [Record<string, string>, string][] = [
    [{}, '/api/v1/finance/filings'],
    [ORIGIN, '/api/v1/finance/filings'],
    [{ 'access-control-request-method': 'GET' }, '/api/v1/finance/filings'],
    [{ ...ORIGIN, 'access-control-request-method': 'POST' }, '/api/v1/finance/filings'],
    [{ ...ORIGIN, 'access-control-request-method': 'GET' }, '/healthz'],
  ];
  for (const [headers, path] of cases) {
    const reply = await h.get(path, headers, 'OPTIONS');
    assert.equal(reply.status, 405, JSON.stringify(headers));
    assert.equal(reply.headers.allow, 'GET, HEAD');
    assert.equal(reply.json.error, 'method_not_allowed');
  }
  const unknown = await h.get('/api/v1/finance/nope', { ...ORIGIN, 'access-control-request-method': 'GET' }, 'OPTIONS');
  assert.equal(unknown.status, 404);
});

test('while the breaker is open a preflight gets 503 like every request under /api/v1, still readable cross-origin', async (t) => {
  const h = await startHarness(t);
  h.server.handler.breaker.toggleForced();
  const reply = await h.get('/api/v1/finance/filings', { ...ORIGIN, 'access-control-request-method': 'GET' }, 'OPTIONS');
  assert.equal(reply.status, 503);
  assert.equal(reply.headers['access-control-allow-origin'], '*');
});
