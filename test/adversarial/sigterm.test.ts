/**
 * SIGTERM on a real `equity-facts serve` process under keep-alive load (docs/api.md §12): 32
 * connections, some sending one request at a time and some pipelining batches, keep the server
 * busy; the signal comes in the middle. Every request sent must be answered whole, each
 * connection must be closed cleanly after an answer saying `Connection: close`, and the process
 * must exit 0. With `--shutdown-delay-ms`, /readyz fails at the signal while everything else is
 * still answered, on new connections too, until the delay ends or a second signal comes.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import { once } from 'node:events';
import { Client as HttpClient } from 'undici';
import { KEYS, KEY_RECORDS, writeFixtureSnapshot } from '../helpers/harness.js';
import { get, jsonBody, rawConnect, ResponseReader } from '../helpers/raw-http.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { readServeConfig } from '../../src/cli/serve-config.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** What the clients ask for: the cheap and the large, found and not, with a key and without. */
const REQUESTS = [
  get('/healthz'), get('/api/v1/finance/insiders?ticker=TSLA', { 'x-api-key': KEYS.founders }), get('/api/v1/openapi.json'),
  get('/readyz'), get('/api/v1/nope'), get('/api/v1/meta', { authorization: `Bearer ${KEYS.insider}` }),
];

/** One client connection: sends `batch` requests in one write, waits for all their answers, and again, until told to close. */
interface Client {
  socket: Socket;
  reader: ResponseReader;
  sent: number;
  error: string | undefined;
  closed: Promise<void>;
}

test('SIGTERM under 32-connection keep-alive load: every request sent is answered whole, then exit 0', { timeout: 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-sigterm-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json')],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(async () => {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });

  let answered = 0;
  let answeredAfterSignal = 0;
  let signalled = false;
  const signalAfter = 2_000;
  const clients: Client[] = await Promise.all(Array.from({ length: 32 }, async (_, i) => {
    const socket = await rawConnect(url);
    // A third of the connections pipeline two to four requests at a time; the rest send one.
    const batch = i % 3 === 0 ? 2 + ((i / 3) % 3) : 1;
    const client: Client = { socket, reader: new ResponseReader(), sent: 0, error: undefined, closed: Promise.resolve() };
    const send = (): void => {
      let bytes = '';
      for (let k = 0; k < batch; k++) bytes += REQUESTS[(client.sent + k + i) % REQUESTS.length]!;
      client.sent += batch;
      socket.write(bytes);
    };
    client.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', (error: NodeJS.ErrnoException) => { client.error = error.code ?? error.message; });
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      const before = client.reader.responses.length;
      client.reader.push(chunk);
      const now = client.reader.responses.length;
      answered += now - before;
      if (signalled) answeredAfterSignal += now - before;
      if (!signalled && answered >= signalAfter) {
        signalled = true;
        child.kill('SIGTERM');
      }
      // The whole batch answered: the next one, unless the server said this connection closes.
      if (now === client.sent && now > before && client.reader.responses[now - 1]!.headers.connection !== 'close') send();
    });
    send();
    return client;
  }));

  await Promise.all(clients.map((client) => client.closed));
  const code = await exited;
  assert.ok(signalled, 'the signal came under load');
  assert.ok(answeredAfterSignal > 0, 'requests were still being answered after the signal');
  for (const [i, client] of clients.entries()) {
    const { responses, rest } = client.reader;
    assert.equal(responses.length, client.sent, `connection ${i}: every request sent is answered (0 lost)`);
    assert.equal(rest, '', `connection ${i}: no partial answer`);
    assert.equal(client.error, undefined, `connection ${i}: closed cleanly, not reset`);
    assert.equal(responses.at(-1)!.headers.connection, 'close', `connection ${i}: the last answer said Connection: close`);
    for (const response of responses) {
      // /readyz fails from the signal on (the process is leaving rotation); nothing else does.
      const stopping = response.status === 503 && /stopping/.test(jsonBody(response)?.detail ?? '');
      assert.ok(response.status < 500 || stopping, `connection ${i}: ${response.status}`);
      assert.ok(jsonBody(response) !== undefined, `connection ${i}: every body is JSON`);
    }
  }
  assert.equal(code, 0, stderr);
  assert.match(stderr, /SIGTERM: stopping; answering the requests received on 32 connections/);
  assert.match(stderr, /stopped: every request received was answered/);
});

/** `equity-facts serve ARGS` with the fixture; resolves once it serves, with its stderr so far and its exit. */
async function serveProcess(t: TestContext, args: string[], env: NodeJS.ProcessEnv = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-sigterm-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--access-log', 'off',
    '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json'), ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  t.after(async () => {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  const log = { text: '' };
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    log.text += chunk;
    for (const waiter of waiters.splice(0)) {
      if (waiter.pattern.test(log.text)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  /** Resolves once stderr matches `pattern`; rejects when the process exits first. */
  const printed = (pattern: RegExp): Promise<void> => Promise.race([
    new Promise<void>((resolve) => (pattern.test(log.text) ? resolve() : waiters.push({ pattern, resolve }))),
    exited.then((code) => { throw new Error(`exited ${code} before printing ${pattern}: ${log.text}`); }),
  ]);
  await printed(/serving on http:\/\/\S+ \(pid/);
  const url = /serving on (http:\/\/\S+)/.exec(log.text)![1]!;
  return { child, url, log, exited, printed };
}

/** GET on a new connection (so that the server is shown to accept), closed after the answer. */
async function freshGet(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const client = new HttpClient(url);
  try {
    const response = await client.request({ method: 'GET', path, headers });
    return { status: response.statusCode, json: JSON.parse(await response.body.text()) };
  } finally {
    await client.close();
  }
}

test('--shutdown-delay-ms: after SIGTERM /readyz is 503 at once while data requests are still 200 on new connections; a second SIGTERM stops, exit 0', { timeout: 60_000 }, async (t) => {
  const serve = await serveProcess(t, ['--shutdown-delay-ms', '600000']);
  assert.equal((await freshGet(serve.url, '/readyz')).status, 200);
  serve.child.kill('SIGTERM');
  await serve.printed(/SIGTERM: \/readyz answers 503/);
  const ready = await freshGet(serve.url, '/readyz');
  assert.equal(ready.status, 503);
  assert.equal(ready.json.error, 'service_busy');
  assert.match(ready.json.detail, /stopping/);
  const data = await freshGet(serve.url, '/api/v1/finance/insiders?ticker=TSLA', { 'x-api-key': KEYS.founders });
  assert.equal(data.status, 200, 'still answering during the delay');
  assert.equal((await freshGet(serve.url, '/healthz')).status, 200, 'live, though not ready');
  serve.child.kill('SIGTERM');
  assert.equal(await serve.exited, 0, serve.log.text);
  assert.match(serve.log.text, /SIGTERM again: ending the shutdown delay/);
  assert.match(serve.log.text, /stopped: every request received was answered/);
});

test('EQF_SHUTDOWN_DELAY_MS: when the delay ends the graceful stop runs by itself, exit 0', { timeout: 60_000 }, async (t) => {
  const serve = await serveProcess(t, [], { EQF_SHUTDOWN_DELAY_MS: '50' });
  serve.child.kill('SIGINT');
  assert.equal(await serve.exited, 0, serve.log.text);
  assert.match(serve.log.text, /SIGINT: \/readyz answers 503; still serving for 50 ms/);
  assert.match(serve.log.text, /shutdown delay over: stopping/);
});

test('--shutdown-delay-ms with --workers: the primary relays the signals, every worker fails /readyz and still serves, then exit 0', { timeout: 90_000 }, async (t) => {
  const serve = await serveProcess(t, ['--workers', '2', '--shutdown-delay-ms', '600000']);
  serve.child.kill('SIGTERM');
  await serve.printed(/"msg":"SIGTERM: \/readyz answers 503[^\n]*"worker":\d+[^]*"msg":"SIGTERM: \/readyz answers 503[^\n]*"worker":\d+/);
  for (let i = 0; i < 4; i++) {
    assert.equal((await freshGet(serve.url, '/readyz')).status, 503);
    assert.equal((await freshGet(serve.url, '/api/v1/meta', { 'x-api-key': KEYS.signal })).status, 200);
  }
  serve.child.kill('SIGTERM');
  assert.equal(await serve.exited, 0, serve.log.text);
});

test('--shutdown-delay-ms refuses what is not a whole number of ms from 0, naming the flag or variable', () => {
  assert.deepEqual(readServeConfig(['--shutdown-delay-ms', '0'], {}), { shutdownDelayMs: 0 });
  assert.deepEqual(readServeConfig([], { EQF_SHUTDOWN_DELAY_MS: '15000' }), { shutdownDelayMs: 15000 });
  for (const bad of ['-1', '1.5', '10s', '2147483648']) {
    assert.throws(() => readServeConfig([`--shutdown-delay-ms=${bad}`], {}), new RegExp(`--shutdown-delay-ms must be a whole number from 0 to 2147483647, got "${bad}"`));
  }
  assert.throws(() => readServeConfig([], { EQF_SHUTDOWN_DELAY_MS: 'soon' }), /EQF_SHUTDOWN_DELAY_MS must be a whole number from 0/);
});
