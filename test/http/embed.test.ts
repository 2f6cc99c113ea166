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
import { createHandler, listen, type HandlerOptions } from '../../src/index.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { KEYS, KEY_RECORDS, startHarness, writeFixtureSnapshot } from '../helpers/harness.js';

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
  assert.throws(() => createHandler({ baseUrl: 'not a url' }), /baseUrl must be an absolute http or https URL/);
  assert.throws(() => createHandler({ breaker: { maxInFlight: 0 } }), /maxInFlight/);
});

test('an unknown option is a TypeError naming it and the close match, never ignored', async () => {
  const typo = (options: object): HandlerOptions => options as HandlerOptions;
  assert.throws(() => createHandler(typo({ snapshotDir: '/srv/snapshots' })), { name: 'TypeError', message: 'unknown createHandler option "snapshotDir" (did you mean snapshotsDir?)' });
  assert.throws(() => createHandler(typo({ keyFile: 'k.json' })), /unknown createHandler option "keyFile" \(did you mean keysFile\?\)/);
  assert.throws(() => createHandler(typo({ frobnicate: true })), { name: 'TypeError', message: 'unknown createHandler option "frobnicate"' });
  assert.throws(() => createHandler(typo({ breaker: { maxInflight: 5 } })), /unknown breaker option "maxInflight" \(did you mean maxInFlight\?\)/);
  assert.throws(() => createHandler(null as unknown as HandlerOptions), /options must be an object/);
  await assert.rejects(listen(typo({ port: 0, maxConnection: 5 })), /unknown listen option "maxConnection" \(did you mean maxConnections\?\)/);
  await assert.rejects(listen(typo({ port: 0, shutdownTimeout: 5 })), /did you mean shutdownTimeoutMs\?/);
  await assert.rejects(listen({ port: 0, maxConnections: 0 }), /maxConnections must be a whole number from 1/);
  await assert.rejects(listen({ port: 0, headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 }), /headersTimeoutMs \(2000\) must not be above requestTimeoutMs \(1000\)/);
});

test('with no base URL set, the OpenAPI servers and the attribution name the address served (port 0 included), with a warning', async (t) => {
  for (const baseUrl of [undefined, 'https://api.example.com/']) {
    const logs: string[] = [];
    const h = await startHarness(t, { log: (line) => logs.push(line), ...(baseUrl === undefined ? {} : { baseUrl }) });
    const expected = baseUrl === undefined ? h.base : 'https://api.example.com';
    assert.notEqual(new URL(h.base).port, '8080');
    const doc = (await h.get('/api/v1/openapi.json')).json;
    assert.equal(doc.servers[0].url, expected);
    const rows = await h.get('/api/v1/finance/insiders', { 'x-api-key': KEYS.signal });
    assert.equal(rows.json.attribution, `Written analysis by equity-facts, ${expected}`);
    const warnings = logs.filter((line) => line.includes('no public base URL is set'));
    assert.equal(warnings.length, baseUrl === undefined ? 1 : 0, logs.join('\n'));
    if (baseUrl === undefined) assert.ok(warnings[0]!.includes(h.base), 'the warning names the address used');
  }
});
