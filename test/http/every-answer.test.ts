/**
 * Whatever step of the pipeline answers, and however it frames the answer (an envelope, a 304, a
 * preflight's 204, a docs file), the answer carries the fields every response must have
 * (decisions §12: `X-Content-Type-Options`, `X-Request-Id`) and the access log gets one line for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startHarness, withKey } from '../helpers/harness.js';

test('every kind of answer carries nosniff and its request id, and writes one access log line with its status', async (t) => {
  const lines: string[] = [];
  const h = await startHarness(t, { accessLog: (line) => lines.push(line) });
  const list = await h.get('/api/v1/finance/filings?limit=2', withKey(KEYS.signal));
  const document = await h.get('/api/v1/openapi.json');
  const docs = await h.get('/docs');
  const asks: [string, Record<string, string>, string, number][] = [
    ['/healthz', {}, 'GET', 200],
    ['/readyz', {}, 'GET', 200],
    ['/api/v1/finance/filings?limit=2', withKey(KEYS.signal), 'GET', 200],
    ['/api/v1/finance/filings?limit=2', { ...withKey(KEYS.signal), 'if-none-match': String(list.headers.etag) }, 'GET', 304],
    ['/api/v1/openapi.json', { 'if-none-match': String(document.headers.etag) }, 'GET', 304],
    ['/api/v1/finance/filings', { origin: 'https://example.org', 'access-control-request-method': 'GET' }, 'OPTIONS', 204],
    ['/api/v1/finance/filings', {}, 'OPTIONS', 405],
    ['/api/v1/finance/filings', {}, 'GET', 401],
    ['/nowhere', {}, 'GET', 404],
    ['/api/v1/meta', withKey(KEYS.free), 'HEAD', 200],
  ];
  if (docs.status === 200) asks.push(['/docs', { 'if-none-match': String(docs.headers.etag) }, 'GET', 304]);
  const before = lines.length;
  for (const [path, headers, method, status] of asks) {
    const reply = await h.get(path, headers, method);
    assert.equal(reply.status, status, `${method} ${path}`);
    assert.equal(reply.headers['x-content-type-options'], 'nosniff', `${method} ${path} ${status} carries nosniff`);
    assert.match(String(reply.headers['x-request-id']), /^[0-9a-f]{8}-[0-9a-z]+$/, `${method} ${path} ${status} carries its request id`);
  }
  const logged = lines.slice(before).map((line) => JSON.parse(line) as { status: number; method: string });
  assert.deepEqual(logged.map((line) => `${line.method} ${line.status}`), asks.map(([, , method, status]) => `${method} ${status}`),
    'one access log line per answer, in order, with its status');
});
