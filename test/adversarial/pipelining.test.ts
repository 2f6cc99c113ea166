/**
 * Pipelined requests against the real server on port 0, through raw sockets: clients that
 * write many requests without reading and hang up. The count in flight counts each connection
 * once, comes back to 0, and the breaker ends closed (docs/api.md §8, §12).
 */
import { test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { KEY_RECORDS, ManualClock, writeFixtureSnapshot } from '../helpers/harness.js';
import { exchange, get, rawConnect, ResponseReader } from '../helpers/raw-http.js';
import { requestsSeen } from '../helpers/requests-seen.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { listen, type ListenOptions, type RunningServer } from '../../src/server.js';

/** The real server with the real load sampler (the count comes from the handler) and a manual clock. */
async function start(t: TestContext, options: Partial<ListenOptions> = {}): Promise<{ running: RunningServer; clock: ManualClock }> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-pipelining-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const clock = new ManualClock();
  const running = await listen({
    port: 0, snapshotsDir: join(dir, 'snapshots'), keysFile: join(dir, 'keys.json'), now: clock.now, log: () => {}, watchIntervalMs: 0,
    breaker: { maxInFlight: 20, coolDownMs: 5_000, sampleIntervalMs: 3_600_000 }, ...options,
  });
  t.after(async () => {
    await running.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { running, clock };
}


/** Resolves once every connection the server has accepted so far has closed, and the loop has turned once. */
function serverSocketsClosed(sockets: Set<Socket>): Promise<void> {
  // Not events.once: it rejects on the 'error' (ECONNRESET) that a reset connection emits first.
  return Promise.all([...sockets].map((s) => (s.closed ? undefined : new Promise((resolve) => s.once('close', resolve)))))
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)));
}

test('pipelined requests on connections that hang up without reading leave nothing in flight, and count once per connection meanwhile', async (t) => {
  // A mark of 1 GiB: every request is answered, and the answers queue in the process.
  const { running, clock } = await start(t, { unsentHighWaterBytes: 2 ** 30 });
  let serverSockets = new Set<Socket>();
  running.server.on('connection', (socket: Socket) => serverSockets.add(socket));
  const breaker = running.handler.breaker;
  const perConnection = 400;
  for (let round = 0; round < 3; round++) {
    // Two clients write hundreds of requests for the largest body (the OpenAPI document) and read nothing.
    serverSockets = new Set();
    const clients = await Promise.all([rawConnect(running.url), rawConnect(running.url)]);
    const seen = requestsSeen(running, 100);
    for (const client of clients) {
      client.pause();
      client.on('error', () => {});
      client.write(get('/api/v1/openapi.json').repeat(perConnection));
    }
    await seen;
    const held = running.handler.inFlight();
    assert.ok(held >= 1 && held <= 2, `a connection's queued answers count once in flight (${held})`);
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed', 'two connections\' backlog is not load');
    // Both hang up; whatever was queued behind the first response on each is gone with them.
    for (const client of clients) client.destroy();
    await serverSocketsClosed(serverSockets);
    assert.equal(running.handler.inFlight(), 0, `round ${round}: nothing is held once the connections are closed`);
    clock.advance(5_000);
    breaker.sampleNow();
    breaker.sampleNow();
    assert.equal(breaker.state, 'closed', 'one cool-down later the breaker is closed');
    const ready = await exchange(running.url, get('/readyz', { connection: 'close' }));
    assert.equal(ready.responses[0]?.status, 200, '/readyz is 200 again');
  }
});

test('any abort pattern leaves nothing in flight: pipelined, partly read, then reset, destroyed or half-closed', async (t) => {
  const { running, clock } = await start(t);
  const breaker = running.handler.breaker;
  const pattern = fc.record({
    requests: fc.integer({ min: 1, max: 80 }),
    path: fc.constantFrom('/api/v1/openapi.json', '/healthz', '/api/v1/nope'),
    partialRequest: fc.boolean(),
    readBytes: fc.oneof(fc.constant(0), fc.nat(400_000)),
    ending: fc.constantFrom('destroy', 'reset', 'half-close'),
  });
  await fc.assert(fc.asyncProperty(pattern, async ({ requests, path, partialRequest, readBytes, ending }) => {
    const serverSide = new Promise<Socket>((resolve) => running.server.once('connection', resolve));
    const seen = requestsSeen(running, 1);
    const socket = await rawConnect(running.url);
    socket.on('error', () => {});
    socket.pause();
    socket.write(get(path).repeat(requests) + (partialRequest ? 'GET /healthz HTTP/1.1\r\nHo' : ''));
    await seen;
    const closed = serverSide.then((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.once('close', () => resolve()))));
    // Read some of the answers (at most all of them), then go.
    let read = 0;
    const reader = new ResponseReader();
    if (readBytes > 0) {
      await new Promise<void>((resolve) => {
        const onData = (chunk: Buffer): void => {
          read += chunk.length;
          reader.push(chunk.toString('latin1'));
          if (read >= readBytes || reader.responses.length === requests) {
            socket.pause();
            socket.off('data', onData);
            resolve();
          }
        };
        socket.on('data', onData);
        socket.once('close', () => resolve());
        socket.resume();
      });
    }
    if (ending === 'destroy') socket.destroy();
    else if (ending === 'reset') socket.resetAndDestroy();
    else {
      socket.end();
      socket.resume();
    }
    await closed;
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(running.handler.inFlight(), 0, 'nothing held once the connection is closed');
  }), { numRuns: 120 });
  clock.advance(5_000);
  breaker.sampleNow();
  breaker.sampleNow();
  assert.equal(breaker.state, 'closed');
  assert.equal((await exchange(running.url, get('/readyz', { connection: 'close' }))).responses[0]?.status, 200);
});
