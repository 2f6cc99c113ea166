/**
 * Decisions §1 (requests) and §2 (errors), row by row, through the real server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';
import { ERRORS } from '../../src/errors.js';
import { exchange, jsonBody } from '../helpers/raw-http.js';
import { PreparedBody } from '../../src/http/respond.js';

const INSIDERS = '/api/v1/finance/insiders';

function assertError(reply: { status: number; json: any; headers: Record<string, unknown> }, status: number, code: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.json));
  assert.equal(reply.json.ok, false);
  assert.equal(reply.json.error, code);
  assert.equal(typeof reply.json.detail, 'string');
  assert.match(reply.json.license, /public domain/);
  assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(reply.headers['x-content-type-options'], 'nosniff');
  assert.ok(reply.headers['x-request-id']);
  assert.equal(reply.headers['www-authenticate'], status === 401 ? 'Bearer' : undefined, 'a 401, and only a 401, names the Bearer scheme');
}

test('unknown paths, a trailing slash and the bare prefix are 404 not_found', async (t) => {
  const h = await startHarness(t);
  // Also paths of a route's length that differ from it, a route's path with more after it, and
  // a route's path that appears only in the query: routes are matched by length and then in place.
  for (const path of ['/nope', `${INSIDERS}/`, '/api/v1', '/api/v1/', '/api/v2/meta', '/API/V1/META',
    '/api/v1/mete', `${INSIDERS.slice(0, -1)}x?limit=1`, `${INSIDERS}x`, '/nope?/api/v1/meta']) {
    assertError(await h.get(path, withKey(KEYS.signal)), 404, 'not_found');
  }
  const reply = await h.get('/api/v1/nope?ticker=AAPL', withKey(KEYS.signal));
  assert.equal(reply.json.detail, 'No such path: "/api/v1/nope"');
});

test('details quote client input JSON-escaped, at most 100 characters, and never a key: in the path, a parameter name or value', async (t) => {
  const h = await startHarness(t);
  const minted = 'eqf_O4fTdfnqXNNdQMMAlCyNfYImM75IxpsU3jZ1Yj';
  const detail = async (path: string): Promise<string> => (await h.get(path, withKey(KEYS.signal))).json.detail;
  // A key of the table (not of the minted shape), a minted-shape key, percent-encoded, and cut in two by the limit.
  for (const path of [`/api/v1/${KEYS.founders}`, `/${minted}`, `/api/v1/x/${encodeURIComponent(KEYS.founders).replace(/-/g, '%2D')}`,
    `/${'a'.repeat(80)}/${minted}`, `${INSIDERS}?${minted}=1`, `${INSIDERS}?ticker=${KEYS.founders}`, `${INSIDERS}?limit=${minted}`,
    `/api/v1/openapi.json?${minted}`]) {
    const text = await detail(path);
    assert.doesNotMatch(text, new RegExp(`${KEYS.founders}|eqf_O4fT|O4fTdfnq`), path);
    assert.match(text, /not shown: it holds an API key/, path);
  }
  const long = await detail(`/${'b'.repeat(300)}`);
  assert.equal(long, `No such path: "/${'b'.repeat(98)}…"`, 'cut to 100 characters');
  // Through a raw socket: a client library would percent-encode these.
  const { responses } = await exchange(h.base, 'GET /api/v1/x"y\\z HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(jsonBody(responses[0]!)?.detail, 'No such path: "/api/v1/x\\"y\\\\z"', 'quotes and backslashes JSON-escaped inside the quote');
  assert.match(await detail(`${INSIDERS}?ticker=${'c'.repeat(500)}`), /^ticker must be .*, got "c{99}…"$/);
  assert.match(await detail(`${INSIDERS}?${'n'.repeat(500)}=1`), /^unknown query parameter "n{99}…"/);
});

test('a known path with another method is 405 with Allow: GET, HEAD', async (t) => {
  const h = await startHarness(t);
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const reply = await h.get(INSIDERS, withKey(KEYS.signal), method);
    assertError(reply, 405, 'method_not_allowed');
    assert.equal(reply.headers.allow, 'GET, HEAD');
  }
});

test('HEAD answers the same status and headers as GET without a body, and counts like GET', async (t) => {
  const h = await startHarness(t);
  const get = await h.get(`${INSIDERS}?limit=2`, withKey(KEYS.signal));
  const head = await h.get(`${INSIDERS}?limit=2`, withKey(KEYS.signal), 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.equal(head.headers['content-length'], get.headers['content-length']);
  assert.equal(head.headers['content-type'], get.headers['content-type']);
  assert.equal(Number(head.headers['x-ratelimit-remaining-minute']), Number(get.headers['x-ratelimit-remaining-minute']) - 1);
  const headError = await h.get('/nope', {}, 'HEAD');
  assert.equal(headError.status, 404);
  assert.equal(headError.text, '');
});

test('limit: absent is 20 then clamped; digits only with leading zeros allowed; < 1 or non-digits are 400 naming limit', async (t) => {
  const h = await startHarness(t);
  const founders = withKey(KEYS.founders);
  assert.equal((await h.get('/api/v1/finance/filings', founders)).json.count, 20);
  assert.equal((await h.get('/api/v1/finance/filings', withKey(KEYS.free))).json.count, 10);
  assert.equal((await h.get('/api/v1/finance/filings?limit=05', founders)).json.count, 5);
  for (const bad of ['+5', '1.5', '-1', 'abc', '', '0', '000', '1e2', '%205', ' 5']) {
    const reply = await h.get(`/api/v1/finance/filings?limit=${encodeURIComponent(bad)}`, founders);
    assertError(reply, 400, 'invalid_parameter');
    assert.match(reply.json.detail, /limit/);
  }
});

test('limit above max_page_size is clamped, not rejected', async (t) => {
  const h = await startHarness(t);
  const free = await h.get('/api/v1/finance/filings?limit=100000000000000000000000', withKey(KEYS.free));
  assert.equal(free.status, 200);
  assert.equal(free.json.count, 10);
  assert.equal((await h.get('/api/v1/finance/filings?limit=999', withKey(KEYS.founders))).json.count, 27);
});

test('ticker is case-insensitive, reads . and / as -, and refuses other characters or more than 12', async (t) => {
  const h = await startHarness(t);
  const key = withKey(KEYS.founders);
  for (const form of ['brk.b', 'BRK/B', 'Brk-B', 'brk%2Fb']) {
    const reply = await h.get(`/api/v1/finance/filings?ticker=${form}`, key);
    assert.equal(reply.status, 200, form);
    assert.deepEqual(reply.json.data.map((row: any) => row.ticker), ['BRK-B'], form);
  }
  for (const bad of ['', 'ABCDEFGHIJKLM', 'AA%20PL', 'A_B', '%C3%A9']) {
    const reply = await h.get(`/api/v1/finance/filings?ticker=${bad}`, key);
    assertError(reply, 400, 'invalid_parameter');
    assert.match(reply.json.detail, /ticker/);
  }
});

test('cik ignores leading zeros and rows show it zero-padded; non-digits or more than 20 digits are 400', async (t) => {
  const h = await startHarness(t);
  const key = withKey(KEYS.founders);
  for (const form of ['1045810', '0001045810', '000000000000001045810'.slice(-20)]) {
    const reply = await h.get(`/api/v1/finance/whales?cik=${form}`, key);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json.data.map((row: any) => row.cik), ['0001045810']);
  }
  for (const bad of ['', 'abc', '-1', '123456789012345678901', '10 45']) {
    assertError(await h.get(`/api/v1/finance/whales?cik=${encodeURIComponent(bad)}`, key), 400, 'invalid_parameter');
  }
});

test('a parameter the endpoint does not list is 400: form outside filings, ticker on whales, anything on meta', async (t) => {
  const h = await startHarness(t);
  const key = withKey(KEYS.signal);
  for (const path of [`${INSIDERS}?form=4`, '/api/v1/finance/whales?ticker=AAPL', '/api/v1/meta?limit=5', `${INSIDERS}?foo=1`, '/api/v1/openapi.json?x=1']) {
    const reply = await h.get(path, path.includes('openapi') ? {} : key);
    assertError(reply, 400, 'invalid_parameter');
  }
});

test('a parameter given twice is 400', async (t) => {
  const h = await startHarness(t);
  const reply = await h.get(`${INSIDERS}?limit=1&limit=2`, withKey(KEYS.signal));
  assertError(reply, 400, 'invalid_parameter');
  assert.match(reply.json.detail, /more than once/);
});

test('malformed percent-encoding is 400 invalid_parameter', async (t) => {
  const h = await startHarness(t);
  assertError(await h.get(`${INSIDERS}?ticker=%E0%A4%A`, withKey(KEYS.signal)), 400, 'invalid_parameter');
});

test('unknown ticker or cik is 200 with count 0 and data []', async (t) => {
  const h = await startHarness(t);
  for (const path of [`${INSIDERS}?ticker=NOPE`, '/api/v1/finance/whales?cik=42', '/api/v1/finance/reports?ticker=X']) {
    const reply = await h.get(path, withKey(KEYS.signal));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.count, 0);
    assert.deepEqual(reply.json.data, []);
  }
});

test('a key in the query string is 401 whatever its name case, and says keys go in headers', async (t) => {
  const h = await startHarness(t);
  for (const name of ['api_key', 'APIKEY', 'key', 'Token', 'access_token']) {
    const reply = await h.get(`${INSIDERS}?${name}=${KEYS.signal}`, withKey(KEYS.signal));
    assertError(reply, 401, 'invalid_api_key');
    assert.match(reply.json.detail, /headers only/);
    assert.equal(reply.headers['x-ratelimit-limit-minute'], undefined);
  }
  assert.ok(h.logs.every((line) => !line.includes(KEYS.signal)), 'the key never reaches the log');
});

test('both header forms work; both present and different is 401; another scheme is 401', async (t) => {
  const h = await startHarness(t);
  assert.equal((await h.get(INSIDERS, { authorization: `Bearer ${KEYS.signal}` })).status, 200);
  assert.equal((await h.get(INSIDERS, { authorization: `bEaReR ${KEYS.signal}` })).status, 200);
  assert.equal((await h.get(INSIDERS, { 'x-api-key': KEYS.signal })).status, 200);
  assert.equal((await h.get(INSIDERS, { authorization: `Bearer ${KEYS.signal}`, 'x-api-key': KEYS.signal })).status, 200);
  assertError(await h.get(INSIDERS, { authorization: `Bearer ${KEYS.signal}`, 'x-api-key': KEYS.founders }), 401, 'invalid_api_key');
  assertError(await h.get(INSIDERS, { authorization: `Basic ${KEYS.signal}` }), 401, 'invalid_api_key');
  assertError(await h.get(INSIDERS, { authorization: 'Bearer' }), 401, 'invalid_api_key');
  assertError(await h.get(INSIDERS, { authorization: 'Bearer    ' }), 401, 'invalid_api_key');
});

test('missing or unknown key is 401 and no X-RateLimit headers', async (t) => {
  const h = await startHarness(t);
  for (const headers of [{}, withKey('eqf_not-a-real-key'), withKey('')]) {
    const reply = await h.get(INSIDERS, headers);
    assertError(reply, 401, 'invalid_api_key');
    assert.equal(reply.headers['x-ratelimit-remaining-minute'], undefined);
  }
  assert.equal(h.server.handler.limiter.size, 0, 'bad keys allocate no bucket');
});

test('account status and plan: suspended 402, inactive 403 account_unavailable, non-API plan 403 api_not_available_on_plan', async (t) => {
  const h = await startHarness(t);
  const suspended = await h.get(INSIDERS, withKey(KEYS.suspended));
  assertError(suspended, 402, 'subscription_suspended');
  assertError(await h.get(INSIDERS, withKey(KEYS.inactive)), 403, 'account_unavailable');
  assertError(await h.get(INSIDERS, withKey(KEYS.nonApi)), 403, 'api_not_available_on_plan');
  assert.equal(suspended.headers['x-ratelimit-limit-minute'], undefined);
  assert.equal(h.server.handler.limiter.size, 0);
});

test('order of checks: route before key, key before parameters, 400 after the limiter has taken a token', async (t) => {
  const h = await startHarness(t);
  assertError(await h.get('/nope?limit=abc'), 404, 'not_found');
  assertError(await h.get(`${INSIDERS}?limit=abc`), 401, 'invalid_api_key');
  assertError(await h.get(`${INSIDERS}?limit=abc`, withKey(KEYS.suspended)), 402, 'subscription_suspended');
  const bad = await h.get(`${INSIDERS}?limit=abc`, withKey(KEYS.signal));
  assertError(bad, 400, 'invalid_parameter');
  assert.equal(bad.headers['x-ratelimit-remaining-minute'], '59', 'a 400 consumed a token and carries the headers');
});

test('every response says X-Content-Type-Options: nosniff: success, error, HEAD, health and the document', async (t) => {
  const h = await startHarness(t);
  for (const [path, method] of [[INSIDERS, 'GET'], [INSIDERS, 'HEAD'], ['/healthz', 'GET'], ['/readyz', 'GET'], ['/api/v1/openapi.json', 'GET'], ['/api/v1/meta', 'GET']] as const) {
    const reply = await h.get(path, withKey(KEYS.signal), method);
    assert.equal(reply.status, 200, path);
    assert.equal(reply.headers['x-content-type-options'], 'nosniff', `${method} ${path}`);
    assert.equal(reply.headers['www-authenticate'], undefined);
  }
  assert.equal((await h.get('/nope')).headers['x-content-type-options'], 'nosniff');
});

test('authenticated responses carry Cache-Control private, no-cache, Vary and X-Snapshot-Version', async (t) => {
  const h = await startHarness(t);
  const reply = await h.get(INSIDERS, withKey(KEYS.signal));
  assert.equal(reply.headers['cache-control'], 'private, no-cache');
  assert.match(String(reply.headers.vary), /^Authorization, X-API-Key/);
  assert.equal(reply.headers['x-snapshot-version'], 'v1');
});

test('each header field is sent once: Vary gains Accept-Encoding over 1 KiB, errors replace Cache-Control with no-store', async (t) => {
  const h = await startHarness(t);
  const large = await h.get('/api/v1/finance/filings?limit=20', withKey(KEYS.founders));
  assert.equal(large.status, 200);
  assert.equal(large.headers.vary, 'Authorization, X-API-Key, Accept-Encoding', 'one Vary field naming all three');
  assert.equal(large.headers['cache-control'], 'private, no-cache');
  const unknownKey = await h.get(INSIDERS, withKey('eqf_not_a_key'));
  assertError(unknownKey, 401, 'invalid_api_key');
  assert.equal(unknownKey.headers['cache-control'], 'no-store', 'one Cache-Control field, no-store');
  assert.equal(unknownKey.headers.vary, 'Authorization, X-API-Key');
  const missing = await h.get('/nope');
  assert.equal(missing.headers['cache-control'], 'no-store');
  assert.equal(typeof missing.headers['x-request-id'], 'string', 'one X-Request-Id field');
});

test('bodies over 1 KiB are compressed with br or gzip when accepted, never when not', async (t) => {
  const h = await startHarness(t);
  const { request } = await import('undici');
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const plain = await h.get('/api/v1/finance/filings?limit=20', withKey(KEYS.founders));
  assert.equal(plain.headers['content-encoding'], undefined);
  for (const [accept, encoding, decode] of [['gzip', 'gzip', gunzipSync], ['gzip;q=0.5, br', 'br', brotliDecompressSync], ['br;q=0, gzip', 'gzip', gunzipSync]] as const) {
    const response = await request(`${h.base}/api/v1/finance/filings?limit=20`, { headers: { ...withKey(KEYS.founders), 'accept-encoding': accept }, dispatcher: h.agent });
    assert.equal(response.headers['content-encoding'], encoding);
    const body = JSON.parse(decode(Buffer.from(await response.body.arrayBuffer())).toString('utf8'));
    assert.equal(body.count, 20);
  }
  const small = await h.get('/healthz', { 'accept-encoding': 'gzip' });
  assert.equal(small.headers['content-encoding'], undefined);
});

test('the OpenAPI document is compressed once per encoding, not per request', async (t) => {
  const h = await startHarness(t);
  const { request } = await import('undici');
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const plain = await h.get('/api/v1/openapi.json');
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    const bodies = await Promise.all([1, 2, 3].map(async () => {
      const response = await request(`${h.base}/api/v1/openapi.json`, { headers: { 'accept-encoding': encoding }, dispatcher: h.agent });
      assert.equal(response.headers['content-encoding'], encoding);
      return Buffer.from(await response.body.arrayBuffer());
    }));
    assert.equal(decode(bodies[0]!).toString('utf8'), plain.text);
    assert.ok(bodies.every((body) => body.equals(bodies[0]!)));
  }
  // The mechanism: the prepared body hands out the one buffer it compressed.
  const prepared = new PreparedBody(plain.text);
  assert.equal(prepared.encoded('br'), prepared.encoded('br'));
  assert.equal(prepared.encoded('gzip'), prepared.encoded('gzip'));
});

test('a request Node cannot parse gets the error envelope: 400, or 431 for oversized headers', async (t) => {
  const h = await startHarness(t);
  const raw = async (payload: string): Promise<string> => new Promise((resolve, reject) => {
    const url = new URL(h.base);
    const socket = connect(Number(url.port), url.hostname, () => socket.end(payload));
    let data = '';
    socket.on('data', (chunk) => { data += chunk; });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  const bad = await raw('NONSENSE\r\n\r\n');
  assert.match(bad, /^HTTP\/1\.1 400 /);
  assert.equal(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4)).error, 'bad_request');
  const huge = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`);
  assert.match(huge, /^HTTP\/1\.1 431 /);
  const body = JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4));
  assert.equal(body.error, 'request_header_fields_too_large');
  assert.match(body.license, /public domain/);
});

test('every error in the table has a status, and 429/503 are the ones with Retry-After', () => {
  for (const [code, spec] of Object.entries(ERRORS)) {
    assert.ok(spec.status >= 400 && spec.status < 600, code);
    assert.equal(spec.retryAfter, spec.status === 429 || spec.status === 503, code);
  }
});

test('a bug answers 500 internal_error with the request id, no stack trace, and a log line without the query string', async (t) => {
  let broken = false;
  const clock = { ms: Date.parse('2026-11-21T12:00:00Z') };
  const h = await startHarness(t, { now: () => { if (broken) throw new Error('clock broke'); return clock.ms; } });
  broken = true;
  const reply = await h.get(`${INSIDERS}?ticker=TSLA&secret=hunter2`, withKey(KEYS.signal));
  assertError(reply, 500, 'internal_error');
  const requestId = String(reply.headers['x-request-id']);
  assert.ok(reply.json.detail.includes(requestId), 'detail carries the request id');
  assert.doesNotMatch(reply.text, /clock broke|at .*\.ts/, 'no error message or stack trace in the body');
  const line = h.logs.find((entry) => entry.includes(`internal error ${requestId}`));
  assert.ok(line, 'the error is logged under the request id');
  assert.match(line, /clock broke/);
  assert.doesNotMatch(line, /hunter2|ticker=/, 'the query string is never logged');
  broken = false;
  assert.equal((await h.get(INSIDERS, withKey(KEYS.signal))).status, 200, 'the server keeps serving');
});
