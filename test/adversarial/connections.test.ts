/**
 * The connection layer of `listen()` (docs/api.md §12) under attack, through raw sockets against
 * the real server on port 0, with small timeouts injected through its options: the connection
 * cap, slow headers, timeouts next to complete or unfinished responses, and the graceful stop.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { KEYS, startHarness, type Harness } from '../helpers/harness.js';
import { exchange, get, jsonBody, rawConnect, readUntilClosed, ResponseReader } from '../helpers/raw-http.js';
import type { TestContext } from 'node:test';
import type { ListenOptions } from '../../src/server.js';

/** Resolves when the server has accepted `count` more connections. */
function accepted(h: Harness, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  return new Promise((resolve) => {
    const onConnection = (socket: Socket): void => {
      sockets.push(socket);
      if (sockets.length === count) {
        h.server.server.off('connection', onConnection);
        resolve(sockets);
      }
    };
    h.server.server.on('connection', onConnection);
  });
}

const start = (t: TestContext, options: Partial<ListenOptions> = {}): Promise<Harness> => startHarness(t, options);

test('over --max-connections a new connection is closed at once, unanswered, and logged once; under it again, served', async (t) => {
  const h = await start(t, { maxConnections: 3 });
  const seen = accepted(h, 3);
  const held = await Promise.all([1, 2, 3].map(() => rawConnect(h.base)));
  const serverSide = await seen;
  for (let i = 0; i < 3; i++) {
    const over = await exchange(h.base, get('/healthz'));
    assert.deepEqual(over.responses, [], 'closed without an answer');
  }
  assert.equal(h.logs.filter((line) => line.includes('connection cap reached: 3 open')).length, 1, 'one log line, not one per connection');
  assert.equal(h.server.connections(), 3);
  const freed = new Promise((resolve) => serverSide[0]!.once('close', resolve));
  held[0]!.destroy();
  await freed;
  const served = await exchange(h.base, get('/healthz', { connection: 'close' }));
  assert.deepEqual(served.responses.map((r) => r.status), [200]);
  for (const socket of held) socket.destroy();
});

test('an accept failure (file descriptors run out) is logged once a minute, and the server keeps serving', async (t) => {
  const h = await start(t);
  for (let i = 0; i < 3; i++) h.server.server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' }));
  assert.equal(h.logs.filter((line) => line.includes('server error, still serving: accept EMFILE')).length, 1);
  h.clock.advance(60_000);
  h.server.server.emit('error', Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' }));
  assert.equal(h.logs.filter((line) => line.includes('accept EMFILE')).length, 2, 'again a minute later');
  assert.equal((await exchange(h.base, get('/healthz', { connection: 'close' }))).responses[0]?.status, 200);
});

test('slow headers get 408 request_timeout in the envelope after headersTimeoutMs, then the connection closes', async (t) => {
  const h = await start(t, { headersTimeoutMs: 100, requestTimeoutMs: 100 });
  const socket = await rawConnect(h.base);
  const { responses, rest } = await readUntilClosed(socket, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '));
  assert.equal(responses.length, 1);
  assert.equal(responses[0]!.status, 408);
  assert.equal(jsonBody(responses[0]!).error, 'request_timeout');
  assert.ok(responses[0]!.headers['x-request-id']);
  assert.equal(responses[0]!.headers.connection, 'close');
  assert.equal(rest, '');
});

test('a request timing out after a complete answer on a keep-alive connection gets 408 after it, never 400', async (t) => {
  const h = await start(t, { headersTimeoutMs: 100, requestTimeoutMs: 100 });
  const socket = await rawConnect(h.base);
  const { responses, rest } = await readUntilClosed(socket, () => socket.write(`${get('/healthz')}GET /healthz HTTP/1.1\r\nHo`));
  assert.deepEqual(responses.map((r) => r.status), [200, 408]);
  assert.equal(rest, '');
});

test('a request timing out while an answer is still being written waits for it: the 408 comes after, never inside', async (t) => {
  const h = await start(t, { headersTimeoutMs: 100, requestTimeoutMs: 100 });
  const socket = await rawConnect(h.base);
  socket.pause();
  const timedOut = once(h.server.server, 'clientError');
  // Many large answers unread (80 of 200 KB, more than the kernel's buffers take; fewer than the
  // 100 requests a connection may have waiting), then half a request that never ends.
  socket.write(`${get('/api/v1/openapi.json').repeat(80)}GET /healthz HTTP/1.1\r\nHo`);
  await timedOut;
  assert.ok(h.server.handler.inFlight() > 0, 'answers were still held when the request timed out');
  const { responses, rest } = await readUntilClosed(socket, () => socket.resume());
  assert.equal(responses.length, 81);
  assert.ok(responses.slice(0, 80).every((r) => r.status === 200 && jsonBody(r)?.openapi));
  assert.equal(responses[80]!.status, 408);
  assert.equal(rest, '');
});

test('keepAliveTimeoutMs is announced in Keep-Alive and closes an idle connection', async (t) => {
  const h = await start(t, { keepAliveTimeoutMs: 2_000 });
  const socket = await rawConnect(h.base);
  const reader = new ResponseReader();
  socket.setEncoding('latin1').on('data', (chunk: string) => reader.push(chunk));
  socket.write(get('/healthz'));
  await once(socket, 'data');
  assert.equal(reader.responses[0]?.headers['keep-alive'], 'timeout=2');
  socket.destroy();
});

test('a graceful stop answers every pipelined request received, says Connection: close on the last answer only, then closes', async (t) => {
  const h = await start(t, { keepAliveTimeoutMs: 50 });
  // Fewer than the 100 requests a connection may have waiting behind answers it has not taken.
  const requests = 80;
  const socket = await rawConnect(h.base);
  socket.pause();
  let seen = 0;
  const allSeen = new Promise<void>((resolve) => h.server.server.on('request', () => { if (++seen === requests) resolve(); }));
  socket.write(get('/api/v1/openapi.json').repeat(requests));
  await allSeen;
  const stopped = h.server.close();
  // Once stopping, nothing new is accepted.
  const refused = await new Promise<string>((resolve) => {
    rawConnect(h.base).then(() => resolve('connected'), (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
  assert.equal(refused, 'ECONNREFUSED');
  const { responses, rest, error } = await readUntilClosed(socket, () => socket.resume());
  assert.equal(responses.length, requests, 'every request received is answered');
  assert.ok(responses.every((r) => r.status === 200 && jsonBody(r)?.openapi), 'each answer complete');
  assert.equal(rest, '');
  assert.equal(error, undefined, 'closed, not reset');
  assert.deepEqual(await stopped, { open: 1, cut: 0 });
});

test('during a stop a request arriving on a keep-alive connection is answered with Connection: close; idle ones are closed', async (t) => {
  const h = await start(t, { keepAliveTimeoutMs: 200 });
  const busy = await rawConnect(h.base);
  const idle = await rawConnect(h.base);
  const reader = new ResponseReader();
  busy.setEncoding('latin1').on('data', (chunk: string) => reader.push(chunk));
  busy.write(get('/healthz'));
  await once(busy, 'data');
  assert.equal(reader.responses[0]?.headers.connection, 'keep-alive');
  const idleClosed = readUntilClosed(idle);
  const stopped = h.server.close();
  // Within the idle grace (the keep-alive timeout, 200 ms here), the client sends its next request.
  const busyClosed = new Promise((resolve) => busy.once('close', resolve));
  busy.write(get('/api/v1/finance/insiders', { 'x-api-key': KEYS.signal }));
  await busyClosed;
  assert.deepEqual(reader.responses.map((r) => [r.status, r.headers.connection]), [[200, 'keep-alive'], [200, 'close']]);
  assert.equal(reader.rest, '');
  assert.deepEqual((await idleClosed).responses, [], 'the idle connection is closed without a word');
  assert.deepEqual(await stopped, { open: 2, cut: 0 });
});

test('after shutdownTimeoutMs a stop closes what is left: a client that never reads', async (t) => {
  const h = await start(t, { shutdownTimeoutMs: 150, keepAliveTimeoutMs: 50 });
  const socket = await rawConnect(h.base);
  socket.pause();
  socket.on('error', () => {});
  let seen = 0;
  const allSeen = new Promise<void>((resolve) => h.server.server.on('request', () => { if (++seen === 100) resolve(); }));
  socket.write(get('/api/v1/openapi.json').repeat(100));
  await allSeen;
  const report = await h.server.close();
  assert.deepEqual(report, { open: 1, cut: 1 });
  const { responses } = await readUntilClosed(socket, () => socket.resume());
  assert.ok(responses.length < 100, 'the answers still held were dropped with the connection');
});
