/**
 * The service-wide breaker through the real server (docs/api.md §8): load-opened with an injected
 * sample and clock, opened by the real sampler's count of requests in flight, and forced open by
 * SIGUSR2 on a real child process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'undici';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import { startHarness, withKey, KEYS, KEY_RECORDS, ManualClock, writeFixtureSnapshot } from '../helpers/harness.js';
import { listen } from '../../src/server.js';
import { ResponseReader } from '../helpers/raw-http.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { fileURLToPath } from 'node:url';

const CALM = { eventLoopDelayMs: 1, inFlight: 0, heapUsedBytes: 1 };
const OVERLOADED = { eventLoopDelayMs: 5_000, inFlight: 0, heapUsedBytes: 1 };

test('overload opens the breaker: 503 service_busy with Retry-After everywhere under /api/v1, tokens untouched', async (t) => {
  const h = await startHarness(t, { breaker: { coolDownMs: 5_000, maxEventLoopDelayMs: 1_000 } });
  h.load = OVERLOADED;
  h.server.handler.breaker.sampleNow();
  for (const path of ['/api/v1/finance/insiders', '/api/v1/openapi.json', '/api/v1/nope', '/api/v1/meta']) {
    const reply = await h.get(path, withKey(KEYS.signal));
    assert.equal(reply.status, 503, path);
    assert.equal(reply.json.error, 'service_busy');
    assert.equal(reply.headers['retry-after'], '5');
  }
  assert.equal((await h.get('/healthz')).status, 200, 'healthz answers while the breaker is open');
  assert.equal((await h.get('/readyz')).status, 503);
  assert.equal((await h.get('/nope')).status, 404, 'outside /api/v1 the breaker does not apply');
  assert.equal(h.server.handler.limiter.size, 0, 'nothing counted against keys');
});

test('open → half-open after the cool-down admits one trial → closed when load is back', async (t) => {
  const h = await startHarness(t, { breaker: { coolDownMs: 5_000 } });
  const breaker = h.server.handler.breaker;
  h.load = OVERLOADED;
  breaker.sampleNow();
  assert.equal(breaker.state, 'open');
  h.clock.advance(4_999);
  breaker.sampleNow();
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 503, 'still cooling down');
  h.clock.advance(1);
  h.load = CALM;
  breaker.sampleNow();
  // Calm load after the cool-down: the breaker admits traffic again.
  assert.notEqual(breaker.state, 'open');
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 200);
  breaker.sampleNow();
  assert.equal(breaker.state, 'closed');
  assert.equal((await h.get('/readyz')).status, 200);
});

test('a trial admitted by the cool-down ending is finished, so the next trial gets in', async (t) => {
  const h = await startHarness(t, { breaker: { coolDownMs: 1_000 } });
  const breaker = h.server.handler.breaker;
  h.load = OVERLOADED;
  breaker.sampleNow();
  h.clock.advance(1_000);
  // No sample after the cool-down: admit() moves open → half_open for this request.
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 200);
  assert.equal(breaker.state, 'half_open');
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 200, 'the first trial ended, so a second may run');
});

test('half-open goes back to open when the load is still high', async (t) => {
  const h = await startHarness(t, { breaker: { coolDownMs: 1_000 } });
  const breaker = h.server.handler.breaker;
  h.load = OVERLOADED;
  breaker.sampleNow();
  h.clock.advance(1_000);
  breaker.sampleNow();
  assert.equal(breaker.state, 'open');
  assert.equal((await h.get('/api/v1/meta', withKey(KEYS.signal))).status, 503);
});

test('SIGUSR2 toggles a forced-open breaker on a real server process', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-sigusr2-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve', '--port', '0', '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json')],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(async () => {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const status = async (): Promise<number> => {
    const response = await request(`${url}/api/v1/openapi.json`);
    await response.body.dump();
    return response.statusCode;
  };
  const waitFor = async (text: string): Promise<void> => {
    while (!stderr.includes(text)) await once(child.stderr, 'data');
  };
  assert.equal(await status(), 200);
  child.kill('SIGUSR2');
  await waitFor('forced open by SIGUSR2');
  assert.equal(await status(), 503);
  child.kill('SIGUSR2');
  await waitFor('forced-open state cleared');
  assert.equal(await status(), 200);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  assert.equal(code, 0, 'SIGTERM stops gracefully with exit 0');
});

test('in flight: connections whose responses the process still holds count once each until those close, and the count returns to 0', async (t) => {
  // The real load sampler (no injected sample): the count comes from the handler.
  const dir = await mkdtemp(join(tmpdir(), 'eqf-inflight-'));
  const clock = new ManualClock();
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const running = await listen({
    port: 0, snapshotsDir: join(dir, 'snapshots'), keysFile: join(dir, 'keys.json'), now: clock.now, log: () => {}, watchIntervalMs: 0,
    breaker: { maxInFlight: 1, coolDownMs: 1_000, sampleIntervalMs: 3_600_000 },
  });
  t.after(async () => {
    await running.close();
    await rm(dir, { recursive: true, force: true });
  });
  const breaker = running.handler.breaker;
  // 40 answers of 200 KB each: more than the kernel's buffers take, so some stay queued on each.
  const perConnection = 40;
  const requests = 2 * perConnection;
  let answered = 0;
  let closed = 0;
  let settled: () => void;
  const sampled = new Promise<void>((resolve) => { settled = resolve; });
  const allClosed = new Promise<void>((resolve) => {
    // Registered after the handler, so it runs once the handler has answered.
    running.server.on('request', (_req, res: ServerResponse) => {
      if (breaker.state === 'closed') breaker.sampleNow();
      if (breaker.state !== 'closed' || ++answered === requests) settled();
      res.once('close', () => {
        if (++closed === requests) resolve();
      });
    });
  });

  // Two clients, each with 40 pipelined requests in one write, that read nothing for now: Node
  // queues every response after the first on each in the process until the one before it has
  // finished. Each connection counts once, so two are more than maxInFlight 1.
  const sockets = [0, 1].map(() => connect((running.server.address() as AddressInfo).port, '127.0.0.1'));
  for (const socket of sockets) {
    socket.pause();
    socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(perConnection));
  }
  await sampled;
  assert.equal(breaker.state, 'open', 'a sample with responses held on two connections saw them in flight (more than maxInFlight 1)');

  const readers = sockets.map(() => new ResponseReader());
  const allRead = Promise.all(sockets.map((socket, i) => new Promise<void>((resolve) => {
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      readers[i]!.push(chunk);
      if (readers[i]!.responses.length === perConnection) resolve();
    });
    socket.resume();
  })));
  await Promise.all([allRead, allClosed]);
  assert.deepEqual(readers.map((reader) => reader.responses.length), [perConnection, perConnection], 'every response arrived');
  clock.advance(1_000);
  breaker.sampleNow();
  breaker.sampleNow();
  assert.equal(breaker.state, 'closed', 'once every response closed, nothing is counted in flight');
  for (const socket of sockets) socket.destroy();
});
