/**
 * Whatever step of the pipeline answers, and however it frames the answer (an envelope, a 304, a
 * preflight's 204, a docs file), the answer carries the fields every response must have
 * (docs/api.md §12: `X-Content-Type-Options`, `X-Request-Id`) and the access log gets one line for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
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

test('a request the parser refuses is answered in the envelope and writes its access log line too, naming no method or path', async (t) => {
  const lines: string[] = [];
  const h = await startHarness(t, { accessLog: (line) => lines.push(line) });
  const { port } = new URL(h.base);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk) => { text += chunk; }).on('end', () => resolve(text)).on('error', reject);
  });
  assert.match(answer, /^HTTP\/1\.1 400 /);
  const requestId = /X-Request-Id: (\S+)/.exec(answer)![1];
  await h.get('/healthz'); // the refusal's line is written before any later answer's
  const line = JSON.parse(lines[0]!) as Record<string, unknown>;
  assert.deepEqual([line.request_id, line.method, line.path, line.status, line.error, line.key_id],
    [requestId, null, '-', 400, 'bad_request', null]);
  assert.equal(line.bytes, Buffer.byteLength(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
});
