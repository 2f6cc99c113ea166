/**
 * Mounting the API in an existing node:http server with createHandler (the library's core use).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createHandler, listen } from '../../src/index.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { KEYS, KEY_RECORDS, writeFixtureSnapshot } from '../helpers/harness.js';

test('createHandler mounts under an existing server beside its own routes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-embed-'));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const api = createHandler({ snapshotsDir: join(dir, 'snapshots'), keysFile: join(dir, 'keys.json'), watchIntervalMs: 0, log: () => {} });
  await api.ready;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/api/v1/')) return api.handle(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('host app');
  });
  server.on('clientError', api.clientError);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(async () => {
    server.close();
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const own = await request(`${base}/`);
  assert.equal(await own.body.text(), 'host app');
  const insiders = await request(`${base}/api/v1/finance/insiders?ticker=TSLA`, { headers: { 'x-api-key': KEYS.signal } });
  assert.equal(insiders.statusCode, 200);
  const body = await insiders.body.json() as { data: { ticker: string }[] };
  assert.equal(body.data[0]!.ticker, 'TSLA');
});

test('before the snapshot is loaded API requests get 503 service_busy', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-embed-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const api = createHandler({ snapshotsDir: join(dir, 'missing'), keysFile: join(dir, 'missing.json'), watchIntervalMs: 0, log: () => {} });
  const server = createServer(api.handle).listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(async () => { server.close(); await api.close(); });
  // Both are missing: the error names both, whichever read finished first.
  await assert.rejects(api.ready, /CURRENT: cannot read.*; .*missing\.json: cannot read/);
  const reply = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/finance/insiders`, { headers: { 'x-api-key': KEYS.signal } });
  assert.equal(reply.statusCode, 503);
  assert.equal(((await reply.body.json()) as { error: string }).error, 'service_busy');
});

test('listen refuses to start on a broken snapshot and names the file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-embed-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  await assert.rejects(listen({ port: 0, snapshotsDir: join(dir, 'nothing'), keysFile: join(dir, 'keys.json'), log: () => {} }), /nothing\/CURRENT/);
});

test('options are checked and the message names the option', () => {
  assert.throws(() => createHandler({ watchIntervalMs: -1 }), /watchIntervalMs must be a whole number/);
  assert.throws(() => createHandler({ baseUrl: 'not a url' }), /baseUrl must be an absolute URL/);
  assert.throws(() => createHandler({ breaker: { maxInFlight: 0 } }), /maxInFlight/);
});
