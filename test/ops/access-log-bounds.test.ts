/**
 * The access log under pressure, through the real `serve` process: a stdout reader that stops
 * reading, and a file on a full disk. The log holds a bounded number of bytes, writes each line
 * whole or not at all, counts what it drops (`eqf_access_log_dropped_total`) and says so once.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { KEYS, withKey } from '../helpers/harness.js';
import { fixtureDir, startServe, type ServeProcess } from '../helpers/serve-process.js';

/** The value of an unlabelled sample in an exposition, or undefined when absent. */
function sample(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}

async function scrape(metricsUrl: string): Promise<string> {
  const response = await request(`${metricsUrl}/metrics`);
  assert.equal(response.statusCode, 200);
  return response.body.text();
}

/** Resolves once the process's stderr matches `pattern`; fails after 20 s. */
async function stderrShows(server: ServeProcess, pattern: RegExp): Promise<void> {
  const signal = AbortSignal.timeout(20_000);
  while (!pattern.test(server.stderr.text)) {
    await once(server.child.stderr!, 'data', { signal }).catch(() => {
      assert.fail(`stderr never matched ${pattern}:\n${server.stderr.text}`);
    });
  }
}

/** `count` concurrent GETs of /healthz with a long User-Agent (long access-log lines). */
async function requests(url: string, agent: Agent, count: number): Promise<void> {
  const headers = { 'user-agent': `load-test ${'x'.repeat(300)}` };
  await Promise.all(Array.from({ length: count }, async () => (await request(`${url}/healthz`, { dispatcher: agent, headers })).body.dump()));
}

const DROP_NOTICE = /access log: stdout is not being read fast enough/g;

test('a stdout reader that stops reading: lines past the bound are dropped and counted, the log says so once, and the server keeps answering', async (t) => {
  const fixture = await fixtureDir(t);
  const server = await startServe(t, fixture, ['--metrics-port', '0'], { readStdout: false });
  await stderrShows(server, /metrics on http:\/\/\S+\/metrics/);
  const metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stderr.text)![1]!;
  const agent = new Agent({ connections: 8, pipelining: 4 });
  t.after(() => agent.close());
  assert.equal(sample(await scrape(metricsUrl), 'eqf_access_log_dropped_total'), 0, 'the counter is there from the start');

  // The pipe (64 KiB) and the bound fill; then lines are dropped. No round count is assumed.
  let dropped = 0;
  for (let round = 0; dropped === 0; round++) {
    assert.ok(round < 60, `nothing dropped after ${round} rounds of 500 requests`);
    await requests(server.url, agent, 500);
    dropped = sample(await scrape(metricsUrl), 'eqf_access_log_dropped_total')!;
  }
  await requests(server.url, agent, 500);
  const later = sample(await scrape(metricsUrl), 'eqf_access_log_dropped_total')!;
  assert.ok(later > dropped, `the counter grows while the reader stays stalled (${dropped}, then ${later})`);

  const response = await request(`${server.url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.free), dispatcher: agent });
  assert.equal(response.statusCode, 200);
  await response.body.dump();
  await stderrShows(server, DROP_NOTICE);
  assert.equal(server.stderr.text.match(DROP_NOTICE)!.length, 1, server.stderr.text);

  server.child.stdout!.resume(); // what the process holds drains, so that it can exit
  assert.equal(await server.stop(), 0);
});

/**
 * A folder on a disk of `kib` KiB: a tmpfs of that size when mounting is permitted (as root),
 * in a temporary folder of its own, unmounted (lazily: the server may still hold its file) and
 * removed after the test. Undefined when mounting is not permitted.
 */
async function smallDisk(t: TestContext, kib: number): Promise<string | undefined> {
  const mountPoint = await mkdtemp(join(tmpdir(), 'eqf-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', mountPoint], { stdio: 'ignore' });
  if (mounted.status !== 0) {
    await rmdir(mountPoint);
    return undefined;
  }
  t.after(async () => {
    execFileSync('umount', ['-l', mountPoint]);
    await rmdir(mountPoint);
  });
  return mountPoint;
}

test('a full disk: every access-log line in the file is whole, the rest are dropped and counted, and the log says so once', async (t) => {
  const fixture = await fixtureDir(t);
  const disk = await smallDisk(t, 8);
  // Without a mount (not root), a file-size limit gives the same short write, then EFBIG.
  const file = join(disk ?? fixture.dir, 'access.log');
  const server = await startServe(t, fixture, ['--access-log', file, '--metrics-port', '0'], disk === undefined ? { fileSizeLimitKib: 8 } : {});
  await stderrShows(server, /metrics on http:\/\/\S+\/metrics/);
  const metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stderr.text)![1]!;
  const agent = new Agent({ connections: 4 });
  t.after(() => agent.close());
  // About 600 bytes a line: 100 lines are 60 KB, over the 8 KiB disk and over a 32 KiB batch.
  for (let i = 0; i < 10; i++) await requests(server.url, agent, 10);
  const dropped = sample(await scrape(metricsUrl), 'eqf_access_log_dropped_total')!;
  assert.ok(dropped > 0, `lines were dropped (${dropped})`);
  assert.equal(await server.stop(), 0);

  const text = await readFile(file, 'utf8');
  assert.ok(text.length > 0 && text.length <= 8192, `the disk took some lines (${text.length} bytes)`);
  assert.ok(text.endsWith('\n'), `the file ends with a whole line: …${JSON.stringify(text.slice(-80))}`);
  for (const line of text.slice(0, -1).split('\n')) assert.equal((JSON.parse(line) as { path: string }).path, '/healthz');
  assert.equal(server.stderr.text.match(/access log: cannot write/g)?.length, 1, server.stderr.text);
});
