/**
 * `serve --workers 2 --worker-mode processes` through a real process tree: the primary relays
 * SIGUSR2 and SIGHUP to every worker, replaces a worker that dies, drains on SIGTERM and exits 0, and stops (exit 1) when a
 * worker cannot start.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { fixtureDir, logged, startServe } from '../helpers/serve-process.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** `/readyz` statuses of `count` requests on fresh connections (so that both workers answer some). */
async function readyStatuses(url: string, count: number): Promise<Set<number>> {
  const statuses = new Set<number>();
  for (let i = 0; i < count; i++) {
    const response = await request(`${url}/readyz`, { reset: true });
    await response.body.dump();
    statuses.add(response.statusCode);
  }
  return statuses;
}

test('processes: the primary relays SIGUSR2 and SIGHUP to every worker, replaces a worker that dies, and drains on SIGTERM', async (t) => {
  const fixture = await fixtureDir(t);
  const server = await startServe(t, fixture, ['--workers', '2', '--worker-mode', 'processes', '--access-log', 'off']);
  const pid = server.child.pid!;

  process.kill(pid, 'SIGUSR2');
  await logged(server, /breaker: forced open by SIGUSR2/, 2);
  assert.deepEqual(await readyStatuses(server.url, 6), new Set([503]));
  process.kill(pid, 'SIGUSR2');
  await logged(server, /forced-open state cleared by SIGUSR2/, 2);
  assert.deepEqual(await readyStatuses(server.url, 6), new Set([200]));

  process.kill(pid, 'SIGHUP');
  // A worker's log lines carry its id.
  await logged(server, /"msg":"snapshot: still version v1[^"]*","worker":\d+/, 2);

  const workerPid = Number(/worker 1 \(pid (\d+)\) serving/.exec(server.stderr.text)![1]);
  process.kill(workerPid, 'SIGKILL');
  await logged(server, /worker 1 \(pid \d+\) exited with signal SIGKILL; starting another/);
  await logged(server, /worker 3 \(pid \d+\) serving/);
  assert.deepEqual(await readyStatuses(server.url, 4), new Set([200]));

  assert.equal(await server.stop(), 0);
  assert.match(server.stderr.text, /SIGTERM: draining 2 workers/);
});

test('processes: a worker that cannot start stops the primary with exit code 1', async (t) => {
  const fixture = await fixtureDir(t);
  await writeFile(join(fixture.dir, 'broken.json'), '{"format":"nope"}');
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'serve', '--port', '0', '--workers', '2', '--worker-mode', 'processes', '--snapshots', fixture.snapshots, '--keys', join(fixture.dir, 'broken.json')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  const [code] = await once(child, 'exit');
  assert.equal(code, 1, stderr);
  assert.match(stderr, /exited with code 1 before it served; stopping/);
});
