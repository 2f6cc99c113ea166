/**
 * What the connection layer answers (docs/api.md §12), through raw sockets against the real
 * server on port 0: HTTP/1.1's own refusals (Host, Expect) and Node's parser refusals in the
 * error envelope with X-Request-Id, nothing written inside or after a response already under
 * way, and a request body that is never read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startHarness } from '../helpers/harness.js';
import { exchange, get, jsonBody, rawConnect, readUntilClosed, type RawResponse } from '../helpers/raw-http.js';

/** Asserts the error envelope with the headers every answer has. */
function assertEnvelope(response: RawResponse | undefined, status: number, code: string): void {
  assert.ok(response, `a ${status} answer`);
  assert.equal(response.status, status);
  const body = jsonBody(response);
  assert.equal(body?.ok, false, response.body);
  assert.equal(body.error, code);
  assert.match(body.license, /public domain/);
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(response.headers['x-content-type-options'], 'nosniff');
  assert.match(response.headers['x-request-id'] ?? '', /^[0-9a-f]{8}-[0-9a-z]+$/);
  assert.ok(response.headers.date, 'Date (RFC 9110 §6.6.1)');
  assert.equal(response.headers.connection, 'close');
}

test('HTTP/1.1 without Host is 400 bad_request in the envelope, then the connection closes; HTTP/1.0 needs none', async (t) => {
  const h = await startHarness(t);
  const noHost = await exchange(h.base, 'GET /healthz HTTP/1.1\r\n\r\n' + get('/healthz'));
  assert.equal(noHost.responses.length, 1, 'nothing after the refusal, not even the pipelined request');
  assertEnvelope(noHost.responses[0], 400, 'bad_request');
  assert.match(jsonBody(noHost.responses[0]!).detail, /Host/);
  assert.equal(noHost.rest, '');
  const old = await exchange(h.base, 'GET /healthz HTTP/1.0\r\n\r\n');
  assert.equal(old.responses[0]?.status, 200);
});

test('two Host lines are 400 bad_request in the envelope, then the connection closes (RFC 9112 §3.2), in HTTP/1.1 and 1.0', async (t) => {
  const h = await startHarness(t);
  for (const version of ['1.1', '1.0']) {
    const twice = await exchange(h.base, `GET /healthz HTTP/${version}\r\nHost: a\r\nHost: b\r\n\r\n` + get('/healthz'));
    assert.equal(twice.responses.length, 1, 'nothing after the refusal, not even the pipelined request');
    assertEnvelope(twice.responses[0], 400, 'bad_request');
    assert.match(jsonBody(twice.responses[0]!).detail, /one Host/);
    assert.equal(twice.rest, '');
  }
  const same = await exchange(h.base, 'GET /healthz HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n');
  assertEnvelope(same.responses[0], 400, 'bad_request');
});

test('an absolute-form target is routed by its path (RFC 9112 §3.2.2): http and https, any case, with a query or no path', async (t) => {
  const h = await startHarness(t);
  const cases: [string, number, string | undefined][] = [
    ['http://api.example.com/healthz', 200, 'live'],
    ['HTTPS://API.example.com:8443/healthz', 200, 'live'],
    ['http://user@x/readyz', 200, 'ready'],
    ['http://x/api/v1/openapi.json?limit=1', 400, undefined],
    ['http://x', 404, undefined],
    ['http://x?a=1', 404, undefined],
    ['http://x/nope', 404, undefined],
  ];
  for (const [target, status, live] of cases) {
    const { responses } = await exchange(h.base, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(responses[0]?.status, status, target);
    if (live !== undefined) assert.equal(jsonBody(responses[0]!)?.status, live, target);
  }
  const path = await exchange(h.base, 'GET http://x/nope?q=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(jsonBody(path.responses[0]!)?.detail, 'No such path: "/nope"', 'the 404 names the path, not the whole target');
  const root = await exchange(h.base, 'GET http://x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(jsonBody(root.responses[0]!)?.detail, 'No such path: "/"', 'an empty path is /');
  const other = await exchange(h.base, 'GET ftp://x/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(other.responses[0]?.status, 404, 'another scheme is no target of this server');
});

test('Expect other than 100-continue is 417 expectation_failed; 100-continue is answered at once, without an interim 100', async (t) => {
  const h = await startHarness(t);
  const foo = await exchange(h.base, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
  assert.equal(foo.responses.length, 1);
  assertEnvelope(foo.responses[0], 417, 'expectation_failed');
  const socket = await rawConnect(h.base);
  const closed = readUntilClosed(socket, () => socket.end('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n'));
  const { responses, rest } = await closed;
  assert.deepEqual(responses.map((r) => r.status), [200], 'the final answer only (a 100 would not parse as a whole response here)');
  assert.equal(rest, '');
});

test('CONNECT is 405 method_not_allowed in the envelope with Allow, after the answers before it, then the connection closes', async (t) => {
  const h = await startHarness(t);
  const { responses, rest } = await exchange(h.base, `${get('/healthz')}CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\ntunnel bytes`);
  assert.deepEqual(responses.map((r) => r.status), [200, 405]);
  assertEnvelope(responses[1], 405, 'method_not_allowed');
  assert.equal(responses[1]!.headers.allow, 'GET, HEAD');
  assert.equal(rest, '');
});

test('every parser refusal is a complete envelope with X-Request-Id, nosniff and Date: bad request line, bad header, headers too large', async (t) => {
  const h = await startHarness(t);
  const cases: [string, number, string][] = [
    ['NONSENSE\r\n\r\n', 400, 'bad_request'],
    ['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400, 'bad_request'],
    ['GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 400, 'bad_request'],
    [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request_header_fields_too_large'],
  ];
  const ids = new Set<string>();
  for (const [payload, status, code] of cases) {
    const { responses, rest } = await exchange(h.base, payload, { end: true });
    assert.equal(responses.length, 1, JSON.stringify(payload.slice(0, 40)));
    assertEnvelope(responses[0], status, code);
    assert.equal(rest, '');
    ids.add(responses[0]!.headers['x-request-id']!);
  }
  assert.equal(ids.size, cases.length, 'each answer has its own request id');
});

test('a parse error after pipelined requests is written after their complete responses, never inside them', async (t) => {
  const h = await startHarness(t);
  const { responses, rest } = await exchange(h.base, get('/healthz').repeat(3) + 'BROKEN\r\n\r\n');
  assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 400]);
  assert.equal(rest, '');
});

test('a parse error while responses are still queued is answered only after every one of them is complete', async (t) => {
  const h = await startHarness(t);
  // Fewer than the 100 requests a connection may have waiting behind answers it has not taken.
  const requests = 80;
  const socket = await rawConnect(h.base);
  socket.pause();
  // Many large responses, unread: most of them wait in the process when the garbage is parsed.
  let seen = 0;
  const allSeen = new Promise<void>((resolve) => h.server.server.on('request', () => { if (++seen === requests) resolve(); }));
  const refused = once(h.server.server, 'clientError');
  socket.write(get('/api/v1/openapi.json').repeat(requests) + 'BROKEN\r\n\r\n');
  await Promise.all([allSeen, refused]);
  assert.ok(h.server.handler.inFlight() > 0, 'responses were still held when the parser refused');
  const { responses, rest } = await readUntilClosed(socket, () => socket.resume());
  assert.equal(responses.length, requests + 1);
  assert.ok(responses.slice(0, requests).every((r) => r.status === 200 && jsonBody(r)?.openapi === '3.1.0'), 'every request before the garbage is answered whole');
  assertEnvelope(responses[requests], 400, 'bad_request');
  assert.equal(rest, '');
});

test('a request with a body is answered, then the connection closes: a 32 GB body is never read', async (t) => {
  const h = await startHarness(t);
  for (const head of [
    'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 34359738368\r\n\r\n',
    'DELETE /api/v1/finance/insiders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
  ]) {
    const socket = await rawConnect(h.base);
    socket.on('error', () => {});
    const chunk = Buffer.alloc(1 << 20, head.startsWith('GET') ? 0x61 : 0x30);
    const limit = 256;
    let written = 0;
    let closed = false;
    socket.once('close', () => { closed = true; });
    const done = readUntilClosed(socket, () => {
      socket.write(head);
      // Keep sending the body as fast as the server takes it, until it closes or 256 MB went.
      const pump = (): void => {
        while (!closed && written < limit) {
          written++;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    const { responses, rest } = await done;
    assert.ok(written < limit, `closed after ${written} MB of body were sent, not read to the end`);
    assert.equal(responses.length, 1, head);
    assert.equal(responses[0]!.status, head.startsWith('GET') ? 200 : 405);
    assert.equal(responses[0]!.headers.connection, 'close');
    assert.equal(rest, '', 'nothing after a response that said Connection: close');
  }
});
