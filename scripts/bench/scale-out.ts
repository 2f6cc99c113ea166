/**
 * The scale-out benchmark of issue 12, part of `npm run bench` (and runnable alone:
 * `npx tsx scripts/bench/scale-out.ts [--quick] [--rounds N] [--seconds S] [--only redis|log|workers|admission]`):
 *
 * 1. Redis store against the in-process store on the filings endpoint (req/s ratio and p99;
 *    target ≥ 0.6 × local). Redis runs on the same machine (`redis-server`, its own process).
 * 2. Access log on (to a file) against off (target: at most 10 % fewer req/s).
 * 3. `--workers 2` against one process. wrk, the server's processes (and Redis) share the
 *    machine's cores, so on 2 cores this shows what a second process costs or gains when the
 *    load generator already holds a core, not what a second core gives on a real host.
 * 4. Over-admission: 1,000 concurrent requests for one free key (10/min) spread over three
 *    processes with no shared store (the classic failure), over three processes sharing one
 *    Redis, and over `--workers 2` (the primary's buckets): how many answered 200.
 *
 * Each pair alternates A then B per round after a warm-up; ratios are medians over the rounds.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { generateSnapshot } from '../gen-snapshot.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { hashKey, readKeysFile } from '../../src/keys/keys-file.js';
import { BENCH_DIR, hasWrk, runWrk, startServer, type Served, type WrkResult, type WrkTarget } from './processes.js';

/** One A-against-B comparison over rounds. */
export interface Pair {
  name: string;
  a: string;
  b: string;
  rounds: { a: WrkResult; b: WrkResult }[];
}

/** Admitted answers of one burst arrangement. */
export interface Admission {
  arrangement: string;
  processes: number;
  requests: number;
  limit: number;
  admitted: number;
  refused: number;
  other: number;
  seconds: number;
}

/** What this benchmark measured. */
export interface ScaleOutResults {
  pairs: Pair[];
  admission: Admission[];
  redisVersion: string;
}

/** The free-plan key of the over-admission bursts (not secret: it exists only in bench-out). */
const FREE_KEY = 'bench-free-key-of-the-scale-out-benchmark';

/**
 * Runs the four measurements.
 *
 * @param snapshotDir - a gen-snapshot output (snapshots/, keys.json, keys.txt).
 * @param out - scratch folder (keys file with the free key, access log file).
 * @param dist - the compiled server (`dist/`).
 * @param options - rounds, seconds per wrk run, connections, path of the filings target.
 * @param say - progress lines.
 */
export async function measureScaleOut(
  snapshotDir: string, out: string, dist: string,
  options: { rounds: number; seconds: number; warmSeconds: number; connections: number; path: string; tickersFile?: string; only?: string },
  say: (line: string) => void,
): Promise<ScaleOutResults> {
  await mkdir(out, { recursive: true });
  const keysFile = join(out, 'scale-out-keys.json');
  const table = await readKeysFile(join(snapshotDir, 'keys.json'));
  await writeKeysFile(keysFile, [...table.records, { id: 'k_bench_free', sha256: hashKey(FREE_KEY), account: 'bench', plan: 'free', status: 'active', created_at: '2026-11-01T00:00:00Z' }]);
  const accessLog = join(out, 'scale-out-access.log');
  const redis = await startRedis();
  const main = join(dist, 'cli/main.js');
  const serve = (...flags: string[]): Promise<Served> => startServer([main, 'serve', '--port', '0', '--snapshots', join(snapshotDir, 'snapshots'), '--keys', keysFile, ...flags], 300_000);
  const target = (served: Served): WrkTarget => ({ url: served.url, path: options.path, keysText: join(snapshotDir, 'keys.txt'), ...(options.tickersFile ? { tickersFile: options.tickersFile } : {}) });

  const pair = async (name: string, a: string, b: string, flagsA: string[], flagsB: string[]): Promise<Pair> => {
    const [servedA, servedB] = [await serve(...flagsA), await serve(...flagsB)];
    try {
      say(`${name}: warm-up`);
      await runWrk(target(servedA), options.connections, options.warmSeconds);
      await runWrk(target(servedB), options.connections, options.warmSeconds);
      const rounds: Pair['rounds'] = [];
      for (let r = 1; r <= options.rounds; r++) {
        say(`${name}: round ${r}/${options.rounds}`);
        rounds.push({ a: await runWrk(target(servedA), options.connections, options.seconds), b: await runWrk(target(servedB), options.connections, options.seconds) });
      }
      return { name, a, b, rounds };
    } finally {
      await servedA.stop();
      await servedB.stop();
    }
  };

  try {
    // `only` (standalone runs) measures one part: redis, log, workers or admission.
    const wanted = (part: string): boolean => options.only === undefined || options.only === part;
    const pairs: Pair[] = [];
    if (wanted('redis')) pairs.push(await pair('Redis store vs in-process store', 'redis', 'local', ['--redis-url', redis.url, '--access-log', 'off'], ['--access-log', 'off']));
    if (wanted('log')) pairs.push(await pair('access log on vs off', 'log to a file', 'off', ['--access-log', accessLog], ['--access-log', 'off']));
    if (wanted('workers')) pairs.push(await pair('--workers 2 vs 1', '2 workers', '1 process', ['--workers', '2', '--access-log', 'off'], ['--access-log', 'off']));
    const admission: Admission[] = [];
    if (!wanted('admission')) return { pairs, admission, redisVersion: spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim() };
    const arrangement = async (name: string, servers: Served[]): Promise<void> => {
      try {
        say(`over-admission: ${name}`);
        admission.push({ arrangement: name, processes: servers.length, ...await freeKeyBurst(servers.map((s) => s.url), 1000) });
      } finally {
        for (const server of servers) await server.stop();
      }
    };
    await arrangement('three processes, each with its own buckets (no shared store)', await Promise.all([0, 1, 2].map(() => serve('--access-log', 'off'))));
    await arrangement('three processes sharing one Redis', await Promise.all([0, 1, 2].map(() => serve('--redis-url', redis.url, '--access-log', 'off'))));
    await arrangement('--workers 2, buckets in the primary', [await serve('--workers', '2', '--access-log', 'off')]);
    return { pairs, admission, redisVersion: spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.trim() };
  } finally {
    await redis.stop();
    await rm(accessLog, { force: true });
  }
}

/** 1,000 concurrent requests for the free key, request i to server i mod n, on connections opened first. */
async function freeKeyBurst(urls: string[], count: number): Promise<Omit<Admission, 'arrangement' | 'processes'>> {
  const agent = new Agent({ connections: 64 });
  try {
    await Promise.all(urls.flatMap((url) => Array.from({ length: 16 }, () => request(`${url}/healthz`, { dispatcher: agent }).then((r) => r.body.dump()))));
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: count }, async (_, i) => {
      const response = await request(`${urls[i % urls.length]}/api/v1/finance/filings?limit=1`, { headers: { 'x-api-key': FREE_KEY }, dispatcher: agent });
      await response.body.dump();
      return response.statusCode;
    }));
    return {
      requests: count, limit: 10, admitted: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length,
      other: statuses.filter((s) => s !== 200 && s !== 429).length, seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await agent.close();
  }
}

/** A redis-server of the benchmark's own, on a free loopback port, without persistence. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  probe.close();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The Markdown section of these results. */
export function renderScaleOut(results: ScaleOutResults, seconds: number, connections: number): string[] {
  const out: string[] = ['## Scale-out: Redis store, access log, workers, over-admission', ''];
  out.push(`Each pair: two compiled servers started side by side, wrk (${connections} connections, ${seconds} s) on A then B per round, rotating over the Founders keys; ratios are medians over the rounds. Redis (${results.redisVersion.split(' ').slice(0, 3).join(' ')}) runs on the same machine, without persistence.`, '');
  out.push('| pair | A req/s | B req/s | A/B req/s | A p99 ms | B p99 ms | A/B p99 | target |', '|---|---|---|---|---|---|---|---|');
  for (const p of results.pairs) {
    const ratio = median(p.rounds.map((r) => r.a.rps / r.b.rps));
    const p99 = median(p.rounds.map((r) => r.a.p99_us / r.b.p99_us));
    const target = p.a === 'redis' ? `≥ 0.6 × local: ${ratio >= 0.6 ? 'met' : '**missed**'}` : p.a.startsWith('log') ? `≥ 0.9 × off: ${ratio >= 0.9 ? 'met' : '**missed**'}` : 'reported (see below)';
    out.push(`| ${p.name} (A: ${p.a}, B: ${p.b}) | ${median(p.rounds.map((r) => r.a.rps)).toFixed(0)} | ${median(p.rounds.map((r) => r.b.rps)).toFixed(0)} | ${ratio.toFixed(3)} (rounds ${Math.min(...p.rounds.map((r) => r.a.rps / r.b.rps)).toFixed(2)}-${Math.max(...p.rounds.map((r) => r.a.rps / r.b.rps)).toFixed(2)}) | ${(median(p.rounds.map((r) => r.a.p99_us)) / 1000).toFixed(2)} | ${(median(p.rounds.map((r) => r.b.p99_us)) / 1000).toFixed(2)} | ${p99.toFixed(2)} | ${target} |`);
  }
  out.push('', '`--workers 2` on a 2-core machine: wrk holds about one core, so two workers compete with it and with each other for the other; the figure shows the cost of the IPC round trip to the primary and of the extra processes, not the gain of a second core (on a host with cores to spare, each worker adds one).', '');
  out.push('Over-admission: 1,000 concurrent requests for one free key (10 per minute), request i to process i mod N, on connections opened beforehand.', '');
  out.push('| arrangement | processes | requests | limit | answered 200 | 429 | other | burst s |', '|---|---|---|---|---|---|---|---|');
  for (const a of results.admission) out.push(`| ${a.arrangement} | ${a.processes} | ${a.requests} | ${a.limit} | ${a.admitted} | ${a.refused} | ${a.other} | ${a.seconds.toFixed(2)} |`);
  out.push('');
  return out;
}

/** Standalone: `npx tsx scripts/bench/scale-out.ts [--quick]`, on a small generated snapshot. */
async function standalone(): Promise<number> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean' }, rounds: { type: 'string' }, seconds: { type: 'string' }, only: { type: 'string' } }, strict: true });
  if (!hasWrk()) {
    process.stderr.write('needs wrk: apt-get update && apt-get install -y wrk\n');
    return 1;
  }
  const root = resolve(BENCH_DIR, '../..');
  const out = join(root, 'bench-out');
  const snapshot = join(out, values.quick ? 'scale-out-snap-quick' : 'snap-c10000-f1000000-s1-r0');
  if (!existsSync(join(snapshot, 'keys.txt'))) {
    if (!values.quick) throw new Error(`${snapshot} is missing: run npm run bench once, or use --quick`);
    await generateSnapshot({ out: snapshot, companies: 1000, filings: 20_000, keys: 1000 });
  }
  const seconds = Number(values.seconds ?? (values.quick ? 2 : 10));
  const results = await measureScaleOut(snapshot, out, join(root, 'dist'), {
    rounds: Number(values.rounds ?? (values.quick ? 2 : 5)), seconds, warmSeconds: values.quick ? 1 : 5, connections: 50, path: '/api/v1/finance/filings?limit=20',
    ...(values.only ? { only: values.only } : {}),
  }, (line) => process.stderr.write(`[scale-out] ${line}\n`));
  process.stdout.write(`${renderScaleOut(results, seconds, 50).join('\n')}\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await standalone();
