/**
 * Clients that pipeline thousands of requests and never read the answers, against the real
 * server on port 0 (backlog.ts, connections.ts): what a connection holds is bounded, its
 * backlog never opens the breaker for other clients, a client that reads gets every answer in
 * order, and a connection whose client takes none of its bytes is closed after the send timeout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { Agent, request } from 'undici';
import { KEY_RECORDS, ManualClock, writeFixtureSnapshot } from '../helpers/harness.js';
import { get, rawConnect, readUntilClosed } from '../helpers/raw-http.js';
import { requestsSeen } from '../helpers/requests-seen.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { MAX_WAITING_REQUESTS } from '../../src/http/backlog.js';
import { listen, type ListenOptions, type RunningServer } from '../../src/server.js';

/** The real server with the real load sampler (sampled by hand) and a manual clock. */
async function start(t: TestContext, options: Partial<ListenOptions>): Promise<{ running: RunningServer; clock: ManualClock; logs: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-backpressure-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const clock = new ManualClock();
  const logs: string[] = [];
  const running = await listen({
    port: 0, snapshotsDir: join(dir, 'snapshots'), keysFile: join(dir, 'keys.json'), now: clock.now, log: (line) => logs.push(line), watchIntervalMs: 0,
    breaker: { maxInFlight: 50, coolDownMs: 5_000, sampleIntervalMs: 3_600_000 }, ...options,
  });
  t.after(async () => {
    await running.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { running, clock, logs };
}


/** A client that writes `requests` pipelined GETs of `path` and reads nothing. */
async function nonReader(url: string, path: string, requests: number): Promise<Socket> {
  const socket = await rawConnect(url);
  socket.pause();
  socket.on('error', () => {});
  socket.write(get(path).repeat(requests));
  return socket;
}

/**
 * The next connection the server accepts, and a promise of its close. (A client that reads
 * nothing never sees its connection close: its side is not read.)
 */
function nextServerSide(running: RunningServer): Promise<{ closed: Promise<void>; isClosed: () => boolean }> {
  return new Promise((resolve) => running.server.once('connection', (socket: Socket) => {
    let done = false;
    const closed = new Promise<void>((ended) => socket.once('close', () => { done = true; ended(); }));
    resolve({ closed, isClosed: () => done });
  }));
}

test('connections that pipeline thousands of requests and read nothing never open the breaker: another client gets its 200s', async (t) => {
  const { running } = await start(t, { sendTimeoutMs: 3_600_000 });
  // Large answers on some (each queued one holds 200 KB), small ones on others (many fit under the mark).
  const paths = ['/api/v1/openapi.json', '/api/v1/openapi.json', `/api/v1/${'x'.repeat(200)}`, `/api/v1/${'x'.repeat(200)}`];
  const attackers = paths.length;
  const seen = requestsSeen(running, attackers * 80);
  const sockets = await Promise.all(paths.map((path) => nonReader(running.url, path, 2_000)));
  t.after(() => { for (const socket of sockets) socket.destroy(); });
  await seen;
  const breaker = running.handler.breaker;
  breaker.sampleNow();
  assert.ok(running.handler.inFlight() <= attackers, `each connection counts at most once in flight (${running.handler.inFlight()})`);
  assert.equal(breaker.state, 'closed', 'their backlog is not load');
  const agent = new Agent();
  t.after(() => agent.close());
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    const reply = await request(`${running.url}/api/v1/openapi.json`, { dispatcher: agent });
    await reply.body.dump();
    statuses.push(reply.statusCode);
    breaker.sampleNow();
  }
  assert.deepEqual(statuses, Array(20).fill(200), 'no 503 for the probe');
});

test('a connection with more than 100 requests waiting behind answers its client has not taken is closed, and says so in the log', { timeout: 60_000 }, async (t) => {
  const { running, logs } = await start(t, { unsentHighWaterBytes: 1, sendTimeoutMs: 3_600_000 });
  const serverSide = nextServerSide(running);
  const socket = await nonReader(running.url, '/api/v1/openapi.json', 3_000);
  t.after(() => socket.destroy());
  await (await serverSide).closed;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(running.handler.inFlight(), 0, 'nothing is held once it is closed');
  assert.ok(logs.some((line) => /over 100 requests waiting/.test(line)), logs.join('\n'));
});

test('a connection closed for too many waiting requests has none of the rest of what it sent parsed', { timeout: 60_000 }, async (t) => {
  // Node parses a whole read (64 KiB: 1,300 of these requests) before it looks at the socket
  // again; each request it parses is held, and on close aborted with an error and its stack:
  // 100 such connections held the event loop for most of a second and 250 MB.
  const { running } = await start(t, { unsentHighWaterBytes: 1, sendTimeoutMs: 3_600_000 });
  const serverSide = nextServerSide(running);
  let received = 0;
  const count = (): void => { received++; };
  running.server.on('request', count);
  t.after(() => running.server.off('request', count));
  const socket = await nonReader(running.url, '/api/v1/openapi.json', 3_000);
  t.after(() => socket.destroy());
  await (await serverSide).closed;
  await new Promise((resolve) => setImmediate(resolve));
  // Answered at once: the first, and the next queued behind it while the kernel took the first
  // whole; then 100 waiting, and the one that closed the connection.
  assert.ok(received <= MAX_WAITING_REQUESTS + 3, `${received} requests received on the closed connection`);
  assert.equal(running.handler.inFlight(), 0);
});

test('a client that reads gets every pipelined answer in order, whole, with a high-water mark of 1 byte', async (t) => {
  const { running } = await start(t, { unsentHighWaterBytes: 1 });
  const paths = Array.from({ length: 90 }, (_, i) => (i % 3 === 0 ? '/api/v1/openapi.json' : i % 3 === 1 ? '/healthz' : `/nope-${i}`));
  const socket = await rawConnect(running.url);
  const { responses, rest } = await readUntilClosed(socket, () => socket.write(paths.map((path) => get(path)).join('') + get('/healthz', { connection: 'close' })));
  assert.deepEqual(responses.map((r) => r.status), [...paths.map((path) => (path === '/healthz' || path.endsWith('.json') ? 200 : 404)), 200]);
  for (let i = 2; i < paths.length; i += 3) assert.match(responses[i]!.body, new RegExp(`nope-${i}`), 'each answer is its own request\'s');
  assert.equal(rest, '');
});

test('a connection whose client takes none of its answers is closed once the send timeout passes, and says so in the log', { timeout: 60_000 }, async (t) => {
  // No request ever waits here (a mark of 1 GiB): only the send timeout can close the connection.
  const { running, clock, logs } = await start(t, { unsentHighWaterBytes: 2 ** 30, sendTimeoutMs: 1_000 });
  const seen = requestsSeen(running, 150);
  const serverSide = nextServerSide(running);
  // 150 answers of 200 KB: far more than the kernel's buffers take.
  const socket = await nonReader(running.url, '/api/v1/openapi.json', 150);
  t.after(() => socket.destroy());
  const { closed, isClosed } = await serverSide;
  await seen;
  assert.equal(isClosed(), false, 'the clock has not moved: open');
  // The clock runs on while the client takes nothing; the check (every 100 ms) then closes it.
  while (!isClosed()) {
    clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await closed;
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(logs.some((line) => /took none of its answers/.test(line)), logs.join('\n'));
  assert.equal(running.handler.inFlight(), 0);
});
