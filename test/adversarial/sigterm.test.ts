/**
 * SIGTERM on a real `equity-facts serve` process under keep-alive load (decisions §12): 32
 * connections, some sending one request at a time and some pipelining batches, keep the server
 * busy; the signal comes in the middle. Every request sent must be answered whole, each
 * connection must be closed cleanly after an answer saying `Connection: close`, and the process
 * must exit 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import { KEYS, KEY_RECORDS, writeFixtureSnapshot } from '../helpers/harness.js';
import { get, jsonBody, rawConnect, ResponseReader } from '../helpers/raw-http.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';

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
      assert.ok(response.status < 500, `connection ${i}: ${response.status}`);
      assert.ok(jsonBody(response) !== undefined, `connection ${i}: every body is JSON`);
    }
  }
  assert.equal(code, 0, stderr);
  assert.match(stderr, /SIGTERM: stopping; answering the requests received on 32 connections/);
  assert.match(stderr, /stopped: every request received was answered/);
});
