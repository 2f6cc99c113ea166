/**
 * `serve --workers 2` in threads (one copy of the version) against processes (one copy each), or
 * against one process without workers (`--modes threads,single`: at 10M filings two processes'
 * copies do not fit this machine), on a generated snapshot (issue 25): the resident memory of all
 * the server's processes together after the load and their peak (VmHWM), against the NDJSON's
 * size; the time from start to the first `/readyz` 200; and filings and insiders req/s and the
 * filings p99 (wrk -t1 -c50, rotate.lua), the modes alternating round by round. With
 * `--reload DIR2`, also a reload under load in threads: DIR2's version linked in beside the first
 * (hard links: no second copy on disk), CURRENT switched to it and SIGHUP sent while wrk runs
 * (`--reload-seconds`, the SIGHUP 5 s in), counting wrk's errors and sampling the process's RSS
 * for the peak.
 *
 * Usage: npx tsx scripts/bench/workers-share.ts SNAPSHOT_DIR (gen-snapshot's output folder)
 *   [--rounds 3] [--seconds 10] [--access-log off|stdout] [--modes threads,processes]
 *   [--reload SNAPSHOT_DIR2] [--reload-seconds 40] [--settle-load L]
 * `--settle-load L` waits before each start until the 1-minute load average is at most L (the
 * load hashes the rows on a second thread only when it leaves a core idle, piece-hasher.ts); the
 * load average at each start is printed either way.
 * (`npm run build` first: it runs dist/cli/main.js.)
 */
import { readFile, readdir, stat, writeFile, link, mkdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, runWrk, startServer, type Served } from './processes.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '10' }, 'access-log': { type: 'string', default: 'off' }, reload: { type: 'string' },
    modes: { type: 'string', default: 'threads,processes' }, 'settle-load': { type: 'string' }, 'reload-seconds': { type: 'string', default: '40' } },
});
const dir = positionals[0]!;
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const modes = values.modes!.split(',');
if (modes.some((m) => !['threads', 'processes', 'single'].includes(m))) throw new Error(`--modes: threads, processes or single, got ${values.modes}`);
const MAIN = join(BENCH_DIR, '../../dist/cli/main.js');
const snapshots = join(dir, 'snapshots');
const keysText = join(dir, 'keys.txt');
const say = (line: string): void => { process.stderr.write(`[workers] ${line}\n`); };

/** VmRSS (or, with `field` VmHWM, the peak) of a process and its children (node:cluster workers, the listening helper), bytes. */
async function treeRss(pid: number, field = 'VmRSS'): Promise<number> {
  let total = 0;
  const pids = [pid, ...(await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean).map(Number)];
  for (const p of pids) {
    const status = await readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
    total += Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  }
  return total;
}

async function ndjsonBytes(): Promise<number> {
  const version = (await readFile(join(snapshots, 'CURRENT'), 'utf8')).trim();
  let total = 0;
  for (const name of await readdir(join(snapshots, version))) if (name.endsWith('.ndjson')) total += (await stat(join(snapshots, version, name))).size;
  return total;
}

/** A TCP port free on loopback now (for --metrics-port). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Hard-links every file of folder `from` into `to` (same file system), folders made anew. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(join(from, entry.name), join(to, entry.name));
    else await link(join(from, entry.name), join(to, entry.name));
  }
}

/** Starts the server (`single`: without --workers) and waits for its first /readyz 200; returns it with the time that took. */
async function start(mode: string, extra: string[] = []): Promise<{ server: Served; readyS: number; load: number }> {
  if (values['settle-load'] !== undefined) while (loadavg()[0]! > Number(values['settle-load'])) await new Promise((r) => setTimeout(r, 1000));
  const load = loadavg()[0]!;
  const began = performance.now();
  const workers = mode === 'single' ? [] : ['--workers', '2', '--worker-mode', mode];
  const server = await startServer([MAIN, 'serve', '--port', '0', ...workers, '--snapshots', snapshots, '--keys', join(dir, 'keys.json'), '--access-log', values['access-log']!, ...extra], 600_000);
  while ((await fetch(`${server.url}/readyz`).catch(() => undefined))?.status !== 200) await new Promise((r) => setTimeout(r, 20));
  return { server, readyS: (performance.now() - began) / 1000, load };
}

const rows = await ndjsonBytes();
const tickers = join(dir, 'rotation.txt');
await writeFile(tickers, (await readFile(join(dir, 'tickers.txt'), 'utf8')).trim().split('\n').map((l) => l.split(' ')).filter(([, n]) => Number(n) >= 20).map(([t]) => `${t}\n`).join(''));
const paths = { filings: '/api/v1/finance/filings?ticker={T}&limit=20', insiders: '/api/v1/finance/insiders?limit=100' };
const results: Record<string, { readyS: number[]; rssRatio: number[]; peakRatio: number[]; filings: number[]; insiders: number[]; p99Ms: number[] }> = {};
for (let round = 1; round <= rounds; round++) {
  for (const mode of round % 2 === 1 ? modes : [...modes].reverse()) {
    const r = (results[mode] ??= { readyS: [], rssRatio: [], peakRatio: [], filings: [], insiders: [], p99Ms: [] });
    const { server, readyS, load } = await start(mode);
    try {
      r.readyS.push(readyS);
      for (const [name, path] of Object.entries(paths) as [keyof typeof paths, string][]) {
        await runWrk({ url: server.url, path, keysText, tickersFile: tickers }, 50, 2);
        const wrk = await runWrk({ url: server.url, path, keysText, tickersFile: tickers }, 50, seconds);
        r[name].push(wrk.rps);
        if (name === 'filings') r.p99Ms.push(wrk.p99_us / 1000);
      }
      r.rssRatio.push(await treeRss(server.child.pid!) / rows);
      r.peakRatio.push(await treeRss(server.child.pid!, 'VmHWM') / rows);
      say(`round ${round} ${mode}: ready ${readyS.toFixed(2)} s (load average ${load.toFixed(2)} at start), RSS ${(r.rssRatio.at(-1)! * rows / 2 ** 20).toFixed(0)} MiB = ${r.rssRatio.at(-1)!.toFixed(2)} × NDJSON (peak ${(r.peakRatio.at(-1)! * rows / 2 ** 20).toFixed(0)} MiB = ${r.peakRatio.at(-1)!.toFixed(2)} ×), filings ${r.filings.at(-1)!.toFixed(0)}/s p99 ${r.p99Ms.at(-1)!.toFixed(2)} ms, insiders ${r.insiders.at(-1)!.toFixed(0)}/s`);
    } finally {
      await server.stop();
    }
  }
}
const range = (xs: number[], digits: number): string => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
console.log(`NDJSON ${(rows / 2 ** 20).toFixed(0)} MiB; --access-log ${values['access-log']}; ${rounds} rounds alternating`);
for (const [mode, r] of Object.entries(results)) {
  console.log(`${mode}: ready ${range(r.readyS, 2)} s; RSS ${range(r.rssRatio, 2)} × NDJSON, peak ${range(r.peakRatio, 2)} ×; filings ${range(r.filings, 0)} req/s, p99 ${range(r.p99Ms, 2)} ms; insiders ${range(r.insiders, 0)} req/s`);
}
const [a, b] = modes;
for (const name of rounds > 0 && b !== undefined ? ['filings', 'insiders', 'rssRatio'] as const : []) {
  const ratios = results[a!]![name].map((t, i) => t / results[b!]![name][i]!);
  console.log(`${a} / ${b}, ${name}: ${range(ratios, 3)}`);
}

if (values.reload !== undefined) {
  // Reload under load: the second version copied in beside the first, CURRENT switched, SIGHUP.
  const next = (await readFile(join(values.reload, 'snapshots', 'CURRENT'), 'utf8')).trim();
  const first = (await readFile(join(snapshots, 'CURRENT'), 'utf8')).trim();
  await linkTree(join(values.reload, 'snapshots', next), join(snapshots, next));
  const metricsPort = await freePort();
  const { server } = await start('threads', ['--metrics-port', String(metricsPort)]);
  try {
    const before = await treeRss(server.child.pid!);
    let peak = before;
    const sampler = setInterval(() => void treeRss(server.child.pid!).then((rss) => { peak = Math.max(peak, rss); }), 50);
    const load = runWrk({ url: server.url, path: paths.filings, keysText, tickersFile: tickers }, 50, Number(values['reload-seconds']));
    await new Promise((r) => setTimeout(r, 5000));
    await writeFile(join(snapshots, 'CURRENT'), `${next}\n`);
    const sighupAt = performance.now();
    server.child.kill('SIGHUP');
    const wrk = await load;
    clearInterval(sampler);
    // The old version goes back once each thread's collection after the swap has run (release.ts).
    await new Promise((r) => setTimeout(r, 12_000));
    const after = await treeRss(server.child.pid!);
    // wrk counts responses ≥ 400 without their status: the server's own counts name them.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    for (const line of metrics.split('\n')) if (/^eqf_http_requests_total\{.*status="[45]/.test(line) || /^eqf_breaker_transitions_total.* [1-9]/.test(line)) console.log(`  ${line}`);
    const lines = server.log.filter((l) => l.line.startsWith(`snapshot: reloaded version ${next}`));
    const reloaded = lines.length;
    const tookS = lines.length === 0 ? NaN : (Math.max(...lines.map((l) => l.at)) - sighupAt) / 1000;
    console.log(`reload under load (threads): ${reloaded} reload lines (main + 2 threads), wrk ${wrk.requests} requests, ${wrk.status} status errors, ${wrk.connect + wrk.read + wrk.write + wrk.timeout} socket errors; RSS before ${(before / 2 ** 20).toFixed(0)} MiB, peak ${(peak / 2 ** 20).toFixed(0)} MiB (${(peak / before).toFixed(2)} × before), SIGHUP to the last reload line ${tookS.toFixed(1)} s, after ${(after / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await server.stop();
    await writeFile(join(snapshots, 'CURRENT'), `${first}\n`);
    await rm(join(snapshots, next), { recursive: true, force: true });
  }
}
