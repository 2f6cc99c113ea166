/**
 * The access log through the real server: one JSON line per response with the listed fields,
 * and never a key, a header value other than the user agent, or an unrecognised query
 * parameter, whatever a client puts where.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessLogLine, accessLogObserver, MAX_WAITING_LINES, unroutedPath } from '../../src/ops/access-log-line.js';
import { newNote } from '../../src/ops/observer.js';
import { setImmediate as turnEnd } from 'node:timers/promises';
import { openAccessLog } from '../../src/ops/access-log.js';
import { KEYS, startHarness, withKey } from '../helpers/harness.js';
import { fixtureDir, startServe } from '../helpers/serve-process.js';
import { request } from 'undici';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { exchange, get } from '../helpers/raw-http.js';

const FIELDS = ['time', 'request_id', 'method', 'path', 'params', 'status', 'error', 'bytes', 'duration_ms', 'key_id', 'plan', 'remote', 'user_agent'];

test('one JSON line per response, with its fields and nothing of keys, header values but the user agent, or unknown parameters', async (t) => {
  const lines: string[] = [];
  const h = await startHarness(t, { accessLog: (line) => lines.push(line) });
  const secretHeader = 'a-header-value-that-must-not-be-logged';
  const requests: [string, Record<string, string>, string?][] = [
    ['/api/v1/finance/filings?ticker=aapl&limit=5', { ...withKey(KEYS.signal), 'x-forwarded-for': secretHeader, 'user-agent': 'curl/8.5.0', referer: secretHeader }],
    ['/api/v1/finance/whales?cik=0001045810', withKey(KEYS.free)],
    [`/api/v1/finance/filings?api_key=${KEYS.insider}`, {}],
    [`/api/v1/finance/filings?ticker=${KEYS.founders}`, withKey(KEYS.signal)],
    [`/api/v1/finance/filings?secret=${KEYS.founders}&limit=1`, withKey(KEYS.signal)],
    [`/api/v1/${KEYS.insider}`, withKey(KEYS.signal)],
    ['/api/v1/meta', { authorization: `Bearer ${KEYS.suspended}` }],
    ['/api/v1/meta', withKey('not-a-known-key')],
    ['/api/v1/finance/filings', withKey(KEYS.signal), 'HEAD'],
    ['/healthz', {}],
    ['/api/v1/finance/filings?form=sc+13g,4&tickers=msft,aapl&since=2025-01-01', withKey(KEYS.signal)],
  ];
  for (const [path, headers, method] of requests) await h.get(path, headers, method);
  assert.equal(lines.length, requests.length);
  const text = lines.join('\n');
  for (const secret of [...Object.values(KEYS), 'not-a-known-key', secretHeader, 'secret=']) assert.ok(!text.includes(secret), `the log holds ${secret}`);
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const entry of entries) assert.deepEqual(Object.keys(entry), FIELDS);

  const [good, whales, keyInQuery, badTicker, unknownParam, keyInPath, suspended, unknown, head, health, filtered] = entries;
  assert.equal(good!.path, '/api/v1/finance/filings');
  assert.deepEqual(good!.params, { limit: 5, ticker: 'AAPL' });
  assert.equal(good!.status, 200);
  assert.equal(good!.error, null);
  assert.equal(good!.key_id, 'k_signal');
  assert.equal(good!.plan, 'signal');
  assert.equal(good!.method, 'GET');
  assert.ok(typeof good!.bytes === 'number' && good!.bytes > 0);
  assert.ok(typeof good!.duration_ms === 'number' && good!.duration_ms >= 0);
  assert.match(String(good!.remote), /127\.0\.0\.1/);
  assert.equal(good!.user_agent, 'curl/8.5.0');
  assert.ok(!Number.isNaN(Date.parse(String(good!.time))));
  assert.deepEqual(whales!.params, { limit: 20, cik: '0001045810' });
  assert.deepEqual([keyInQuery!.status, keyInQuery!.error, keyInQuery!.key_id, keyInQuery!.params], [401, 'invalid_api_key', null, null]);
  assert.deepEqual([badTicker!.status, badTicker!.error, badTicker!.params], [400, 'invalid_parameter', null]);
  assert.deepEqual([unknownParam!.status, unknownParam!.params], [400, null]);
  assert.deepEqual([keyInPath!.status, keyInPath!.path], [404, '/api/v1/…']);
  assert.deepEqual([suspended!.status, suspended!.key_id, suspended!.plan], [402, 'k_susp', 'signal']);
  assert.deepEqual([unknown!.status, unknown!.key_id], [401, null]);
  assert.deepEqual([head!.method, head!.bytes, head!.status], ['HEAD', 0, 200]);
  assert.deepEqual([health!.path, health!.key_id], ['/healthz', null]);
  assert.deepEqual(filtered!.params, { limit: 20, filters: 'form=4,SC 13G&ticker=AAPL,MSFT&filed_at=2025-01-01..' }, 'filters in their canonical form');
});

test('an unrouted path is cut to short segments, without its query', () => {
  assert.equal(unroutedPath('/api/v1/eqf_O4fTdfnqXNNdQMMAlCyNfYImM75IxpsU3jZ1Yj/x?key=1'), '/api/v1/…/x');
  assert.equal(unroutedPath('/robots.txt'), '/robots.txt');
  assert.equal(unroutedPath('/api/v1/finance/insider-transactions/x'), '/api/v1/finance/insider-transactions/x', 'a route\'s own segments are shown');
  assert.equal(unroutedPath('/api/v1/my-own-key-123456'), '/api/v1/…', 'a segment longer than a ticker may be a key');
  assert.ok(unroutedPath(`/${'a/'.repeat(200)}`).length <= 100);
  const line = accessLogLine({ method: 'GET', url: '/x', socket: { remoteAddress: undefined } } as never,
    { requestId: 'r', time: 0, startedAt: 0, route: undefined, keyId: undefined, plan: undefined, query: undefined }, 404, 10, 'not_found', 0.0004);
  assert.deepEqual(JSON.parse(line), {
    time: '1970-01-01T00:00:00.000Z', request_id: 'r', method: 'GET', path: '/x', params: null, status: 404, error: 'not_found', bytes: 10, duration_ms: 0, key_id: null, plan: null, remote: null, user_agent: null,
  });
});

test('bursts of pipelined requests answered in one turn get every line, in the order of their responses', async (t) => {
  const lines: string[] = [];
  const h = await startHarness(t, { accessLog: (line) => lines.push(line) });
  // Four connections that each send their requests at once: turns answer several requests, of
  // several connections, whose lines wait together (a full batch within a turn is the next test's).
  const perConnection = 40;
  const bursts = [0, 1, 2, 3].map((c) => Array.from({ length: perConnection }, (_, i) => 1 + ((c + i) % 3)));
  const exchanges = await Promise.all(bursts.map((limits) => exchange(h.base, limits.map((limit, i) => get(`/api/v1/finance/filings?ticker=AAPL&limit=${limit}`,
    { ...withKey(KEYS.founders), ...(i === limits.length - 1 ? { connection: 'close' } : {}) })).join(''))));
  const logged = lines.map((line) => JSON.parse(line) as { request_id: string; params: { limit: number } });
  assert.equal(logged.length, 4 * perConnection);
  const counter = (id: string): number => Number.parseInt(id.split('-')[1]!, 36);
  assert.deepEqual(logged.map((line) => counter(line.request_id)), Array.from({ length: logged.length }, (_, i) => i), 'in the order answered');
  const byId = new Map(logged.map((line) => [line.request_id, line.params.limit]));
  exchanges.forEach(({ responses }, c) => {
    assert.equal(responses.length, perConnection);
    assert.deepEqual(responses.map((response) => byId.get(response.headers['x-request-id']!)), bursts[c], 'each response has its own line');
  });
});

test('a sink that throws loses its lines and says so in the operational log; the requests are answered and the process goes on', async (t) => {
  let calls = 0;
  const h = await startHarness(t, { accessLog: () => { calls++; throw new Error('the disk is gone'); } });
  for (let i = 0; i < 3; i++) {
    const response = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=1', withKey(KEYS.founders));
    assert.equal(response.status, 200);
  }
  assert.ok(calls >= 3, `the sink was handed every line (${calls})`);
  assert.ok(h.logs.some((line) => line.includes('access log: the sink threw (the disk is gone); those lines are lost')), JSON.stringify(h.logs));
});

test('the access log observer writes its lines after the turn, at once past its batch, and on flush', async () => {
  const lines: string[] = [];
  const observer = accessLogObserver((line) => lines.push(line));
  const req = { method: 'GET', url: '/x', socket: { remoteAddress: '192.0.2.1' }, headers: { 'user-agent': 'ua' } } as never;
  const respond = (n: number): void => observer.responded(req, newNote(`r${n}`, 0), 404, n, 'not_found', 0);
  respond(0);
  respond(1);
  assert.equal(lines.length, 0, 'waiting for the end of the turn');
  await turnEnd();
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as { request_id: string }).request_id), ['r0', 'r1']);
  lines.length = 0;
  for (let n = 0; n < MAX_WAITING_LINES; n++) respond(n);
  assert.equal(lines.length, MAX_WAITING_LINES, 'a full batch is written at once');
  respond(-1);
  observer.flush!();
  assert.equal(lines.length, MAX_WAITING_LINES + 1);
  assert.equal((JSON.parse(lines.at(-1)!) as { remote: string; bytes: number }).bytes, -1);
  await turnEnd();
  assert.equal(lines.length, MAX_WAITING_LINES + 1, 'nothing is written twice');
});

test('openAccessLog writes queued lines to a file in batches that end at a line end, and close flushes', async (t) => {
  const { dir } = await fixtureDir(t);
  const file = join(dir, 'access.log');
  const log = openAccessLog(file);
  const long = 'x'.repeat(3000);
  for (let i = 0; i < 5; i++) log.write(JSON.stringify({ i, long }));
  // Multi-byte UTF-8, and a line longer than the whole queue (64 KiB) between batches.
  const more = Array.from({ length: 60 }, (_, i) => JSON.stringify({ i: 5 + i, owner: 'Société Générale € 😀', note: i === 30 ? 'ü'.repeat(50_000) : 'x'.repeat(i * 50) }));
  for (const line of more) log.write(line);
  await log.close();
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  assert.equal(lines.pop(), '');
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as { i: number }).i), Array.from({ length: 65 }, (_, i) => i));
  assert.deepEqual(lines.slice(5), more);
});

const stdoutIsPipe = ((stat) => stat.isFIFO() || stat.isSocket())(fstatSync(1));

test('openAccessLog to stdout, a pipe, writes whole UTF-8 lines in chunks of at most PIPE_BUF bytes, a longer line alone, and loses none', {
  skip: stdoutIsPipe ? false : 'this process\'s stdout is not a pipe (the test runner gives each file one; run it under node --test)',
}, () => {
  const chunks: Buffer[] = [];
  const write = process.stdout.write;
  // Every write of the log is synchronous within close(): the test runner's own output is not caught.
  process.stdout.write = ((chunk: Uint8Array | string) => {
    chunks.push(Buffer.from(chunk));
    return true;
  }) as typeof process.stdout.write;
  const lines: string[] = [];
  try {
    const log = openAccessLog('stdout');
    for (let i = 0; i < 400; i++) {
      // Multi-byte characters (2, 3 and 4 bytes of UTF-8), and now and then a line longer than the queue.
      lines.push(JSON.stringify({ i, owner: 'Société Générale €', note: i % 150 === 7 ? 'ü'.repeat(50_000) : '😀'.repeat(i % 40) }));
      log.write(lines[i]!);
    }
    void log.close();
  } finally {
    process.stdout.write = write;
  }
  assert.equal(Buffer.concat(chunks).toString('utf8'), lines.map((line) => `${line}\n`).join(''));
  for (const chunk of chunks) {
    assert.equal(chunk.at(-1), 0x0a, 'a chunk ends at a line end');
    const inside = chunk.subarray(0, -1).includes(0x0a);
    assert.ok(chunk.length <= 4096 || !inside, `a chunk over 4096 bytes (${chunk.length}) holds one line only`);
  }
  assert.ok(chunks.filter((chunk) => chunk.length > 4096).length === 3, 'the three long lines were written alone');
});

test('openAccessLog to stdout redirected to a file writes each batch in one write, every line whole', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-stdout-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'out.log');
  // A child whose stdout is the file counts its writes on stderr: 200 lines of about 110 bytes,
  // one batch (under 32 KiB), where a pipe would get 6 chunks.
  const script = `
    import { openAccessLog } from ${JSON.stringify(new URL('../../src/ops/access-log.ts', import.meta.url).href)};
    let writes = 0;
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk, ...rest) => { writes++; return write(chunk, ...rest); };
    const log = openAccessLog('stdout');
    for (let i = 0; i < 200; i++) log.write(JSON.stringify({ i, owner: 'Société Générale €', pad: 'x'.repeat(60) }));
    await log.close();
    process.stderr.write(String(writes));`;
  const out = openSync(file, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '1', 'one write for the batch');
  const lines = (await readFile(file, 'utf8')).split('\n');
  assert.equal(lines.pop(), '', 'the last line ends with its newline');
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as { i: number }).i), Array.from({ length: 200 }, (_, i) => i));
});

test('serve --access-log FILE: each process appends its lines; --access-log off writes none; stdout is the default', async (t) => {
  const fixture = await fixtureDir(t);
  const file = join(fixture.dir, 'access.log');
  const toFile = await startServe(t, fixture, ['--access-log', file]);
  const toStdout = await startServe(t, fixture, []);
  const off = await startServe(t, fixture, ['--access-log', 'off']);
  for (const server of [toFile, toStdout, off]) {
    const response = await request(`${server.url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.free) });
    await response.body.dump();
  }
  for (const server of [toFile, toStdout, off]) assert.equal(await server.stop(), 0);
  const fromFile = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { status: number; key_id: string });
  assert.deepEqual(fromFile.map((e) => [e.status, e.key_id]), [[200, 'k_free']]);
  assert.deepEqual(toStdout.stdout.text.trim().split('\n').map((line) => (JSON.parse(line) as { status: number }).status), [200]);
  assert.equal(off.stdout.text, '');
});

test('serve --access-log with a path that cannot be opened stops the start naming it; a stdout whose reader left (EPIPE) only stops the log', async (t) => {
  const fixture = await fixtureDir(t);
  const main = new URL('../../src/cli/main.ts', import.meta.url).pathname;
  const bad = spawn(process.execPath, ['--import', 'tsx', main, 'serve', '--port', '0', '--snapshots', fixture.snapshots, '--keys', fixture.keys, '--access-log', join(fixture.dir, 'no-such-dir', 'a.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  bad.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  assert.equal((await once(bad, 'exit'))[0], 1);
  assert.match(stderr, /cannot open the access log: ENOENT/);

  const server = await startServe(t, fixture, []);
  server.child.stdout!.destroy(); // the reader goes away: the next batch meets EPIPE
  for (let round = 0; round < 2; round++) {
    // Enough lines for a batch to be written at once (32 KiB), then one more request.
    await Promise.all(Array.from({ length: 150 }, async () => (await request(`${server.url}/healthz`)).body.dump()));
  }
  const response = await request(`${server.url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.free) });
  assert.equal(response.statusCode, 200);
  await response.body.dump();
  assert.match(server.stderr.text, /access log: stdout failed \(write EPIPE\); no more access log lines/);
  assert.equal(await server.stop(), 0);
});

test('user_agent is cut to 200 characters, and quotes, backslashes, tabs and bytes above ASCII in it leave the line valid JSON', async (t) => {
  const lines: string[] = [];
  const h = await startHarness(t, { accessLog: (line) => lines.push(line) });
  const hostile = `"},"status":200,"x":"\\\t\u00e9${'A'.repeat(10_000)}`;
  const { responses } = await exchange(h.base, Buffer.from(get('/healthz', { 'User-Agent': hostile, Connection: 'close' }), 'latin1'));
  assert.equal(responses[0]!.status, 200);
  const entry = JSON.parse(lines.at(-1)!) as { user_agent: string; status: number };
  assert.equal(entry.status, 200);
  assert.equal(entry.user_agent, hostile.slice(0, 200));
  assert.equal(entry.user_agent.length, 200);
});

test('remote is the peer, whatever X-Forwarded-For says, unless the peer is a trusted proxy; then the right-most address that is not one', async (t) => {
  const untrusting: string[] = [];
  const plain = await startHarness(t, { accessLog: (line) => untrusting.push(line) });
  await plain.get('/healthz', { 'x-forwarded-for': '203.0.113.9' });
  assert.equal((JSON.parse(untrusting[0]!) as { remote: string }).remote, '127.0.0.1');

  const lines: string[] = [];
  // The harness's client connects over IPv4 loopback; 10.0.0.0/8 are the balancer's other hops.
  const h = await startHarness(t, { accessLog: (line) => lines.push(line), trustProxy: '127.0.0.1, 10.0.0.0/8' });
  const cases: [string | undefined, string][] = [
    [undefined, '127.0.0.1'],
    ['203.0.113.9', '203.0.113.9'],
    ['198.51.100.1, 203.0.113.9', '203.0.113.9'], // the client's own claim (left) proves nothing
    ['203.0.113.9, 10.1.2.3', '203.0.113.9'], // a trusted hop is walked through
    ['10.9.9.9, 10.1.2.3', '10.9.9.9'], // all trusted: the left-most
    ['2001:db8::7', '2001:db8::7'],
    ['not-an-address, 10.1.2.3', '10.1.2.3'], // a malformed entry: the last hop vouched for
    ['203.0.113.9:4711', '127.0.0.1'],
    [`${'1.1.1.1,'.repeat(500)}203.0.113.9`, '203.0.113.9'],
    [`203.0.113.9${',10.0.0.1'.repeat(100)}`, '10.0.0.1'], // at most 32 trusted hops are walked
  ];
  for (const [forwardedFor] of cases) await h.get('/healthz', forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as { remote: string }).remote), cases.map(([, remote]) => remote));
});
