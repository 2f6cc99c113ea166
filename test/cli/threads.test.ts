/**
 * `serve --workers 2` in threads (the default `--worker-mode`), through the built command
 * (`dist/cli/main.js`; `npm run build` first): both threads answer on the one port, a SIGHUP
 * reload serves the new version from every thread, a thread that dies after it served is
 * replaced, one that cannot start stops the whole, SIGTERM drains and exits 0; threads reading
 * the rows from their files and threads holding them in memory serve the same pages. (Exact limits
 * across threads: test/http/shared-limits.test.ts; metrics: test/ops/metrics.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { KEYS, withKey, writeFixtureSnapshot } from '../helpers/harness.js';
import { fixtureDir, logged, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { TEST_CRASH_VARIABLE } from '../../src/cli/thread-messages.js';

/** The snapshot versions of `count` answers, each on a fresh connection (so that both threads answer some). */
async function versions(url: string, count: number): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const response = await request(`${url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.founders), reset: true });
    await response.body.dump();
    assert.equal(response.statusCode, 200);
    seen.add(String(response.headers['x-snapshot-version']));
  }
  return seen;
}

/** The workers named by the first `count` access log lines, once written (they are flushed within ms). */
async function accessLogWorkers(server: ServeProcess, count: number): Promise<Set<number>> {
  const signal = AbortSignal.timeout(30_000);
  while (server.stdout.text.split('\n').length <= count) await once(server.child.stdout!, 'data', { signal });
  return new Set(server.stdout.text.split('\n').slice(0, count).map((line) => (JSON.parse(line) as { worker: number }).worker));
}

/**
 * The workers that answered: the access log's first `asked` lines, asking 12 more on fresh
 * connections while only one thread is named, up to `atMost`. The kernel picks the thread that
 * accepts a connection, and on a busy machine 12 in a row can all go to one.
 */
async function answeringWorkers(server: ServeProcess, asked: number, atMost = 240): Promise<Set<number>> {
  let workers = await accessLogWorkers(server, asked);
  while (workers.size < 2 && asked < atMost) {
    await versions(server.url, 12);
    asked += 12;
    workers = await accessLogWorkers(server, asked);
  }
  return workers;
}

test('threads: both answer on one port; SIGUSR2 reaches both; SIGHUP reloads the new version in every thread; SIGTERM drains, exit 0', { timeout: 90_000 }, async (t) => {
  const fixture = await fixtureDir(t);
  const server = await startServe(t, fixture, ['--workers', '2'], { fromDist: true });
  assert.match(server.stderr.text, /with 2 workers, limits held by the main thread \(threads sharing one copy of the snapshot\)/);
  assert.deepEqual(await versions(server.url, 12), new Set(['v1']));
  assert.deepEqual([...await answeringWorkers(server, 12)].sort(), [1, 2], 'both threads answered');

  process.kill(server.child.pid!, 'SIGUSR2');
  await logged(server, /breaker: forced open by SIGUSR2/, 2);
  process.kill(server.child.pid!, 'SIGUSR2');
  await logged(server, /forced-open state cleared by SIGUSR2/, 2);

  // A new version, published without CURRENT's watch seeing it first is not assumed: SIGHUP.
  await writeFixtureSnapshot(fixture.snapshots, 'v2');
  process.kill(server.child.pid!, 'SIGHUP');
  // The main thread loads it once; each thread swaps its one reference.
  await logged(server, /"msg":"snapshot: reloaded version v2[^"]*"}/);
  await logged(server, /"msg":"snapshot: reloaded version v2[^"]*","worker":\d+/, 2);
  assert.deepEqual(await versions(server.url, 12), new Set(['v2']));

  assert.equal(await server.stop(), 0);
  assert.match(server.stderr.text, /SIGTERM: draining 2 workers/);
  assert.equal((server.stderr.text.match(/stopped: every request received was answered/g) ?? []).length, 2);
});

/** The data of pages of every kind and both variants, each asked twice on fresh connections so that both threads answer. */
async function pages(server: ServeProcess): Promise<string[]> {
  const paths = [
    '/api/v1/finance/filings?limit=3', '/api/v1/finance/filings?ticker=AAPL&limit=2', '/api/v1/finance/insiders', '/api/v1/finance/reports?ticker=TSLA',
    '/api/v1/finance/earnings', '/api/v1/finance/whales', '/api/v1/finance/insider-transactions?limit=4', '/api/v1/finance/financials?ticker=AAPL',
    '/api/v1/finance/holders?limit=2', '/api/v1/finance/filings?ticker=BRK-B&limit=1',
  ];
  const bodies: string[] = [];
  // The free plan (10 a minute) asks 4 of them twice: the variant without written fields.
  for (const plan of ['founders', 'free'] as const) {
    for (const path of plan === 'free' ? paths.slice(0, 4) : paths) {
      for (let i = 0; i < 2; i++) {
        const response = await request(`${server.url}${path}`, { headers: withKey(KEYS[plan]), reset: true });
        const body = await response.body.json() as { ok: boolean; data: unknown };
        assert.equal(response.statusCode, 200, path);
        bodies.push(`${plan} ${path}: ${JSON.stringify(body.data)}`);
      }
    }
  }
  return bodies;
}

test('threads: rows read from their files (the default) and rows in memory (--rows-in memory) serve the same pages from every thread', { timeout: 90_000 }, async (t) => {
  const fixture = await fixtureDir(t);
  const fromFiles = await startServe(t, fixture, ['--workers', '2', '--access-log', 'off'], { fromDist: true });
  const inMemory = await startServe(t, fixture, ['--workers', '2', '--access-log', 'off', '--rows-in', 'memory'], { fromDist: true });
  const expected = await pages(inMemory);
  assert.deepEqual(expected.filter((body) => body.endsWith(': []')), [], 'every page has rows');
  assert.deepEqual(await pages(fromFiles), expected);
  assert.equal(await fromFiles.stop(), 0);
  assert.equal(await inMemory.stop(), 0);
});

test('threads: a thread that dies after it served is replaced, and the other keeps serving throughout', { timeout: 90_000 }, async (t) => {
  const fixture = await fixtureDir(t);
  // Test-only hook: worker 1 ends itself with an uncaught error at the next SIGHUP.
  const server = await startServe(t, fixture, ['--workers', '2', '--access-log', 'off'], { fromDist: true, env: { [TEST_CRASH_VARIABLE]: '1' } });
  process.kill(server.child.pid!, 'SIGHUP');
  await logged(server, /worker 1 exited with code 1; starting another/);
  // The other thread's descriptor was not closed with the dead one's.
  assert.deepEqual(await versions(server.url, 6), new Set(['v1']));
  await logged(server, /worker 3 \(thread \d+\) serving/);
  assert.deepEqual(await versions(server.url, 6), new Set(['v1']));
  assert.equal(await server.stop(), 0);
  assert.match(server.stderr.text, /SIGTERM: draining 2 workers/);
});

test('threads: a thread that cannot start (a broken keys file) stops the whole with exit code 1', { timeout: 60_000 }, async (t) => {
  const fixture = await fixtureDir(t);
  await writeFile(join(fixture.dir, 'broken.json'), '{"format":"nope"}');
  await assert.rejects(startServe(t, { snapshots: fixture.snapshots, keys: join(fixture.dir, 'broken.json') }, ['--workers', '2'], { fromDist: true }),
    /serve exited with 1:[^]*exited with code 1 before it served; stopping/);
});
