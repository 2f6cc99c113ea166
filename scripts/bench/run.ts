/**
 * `npm run bench [-- --quick]`: the benchmark of issue 4, in one run, written to BENCHMARKS.md.
 *
 * 1. Throughput and latency of the compiled server (`node dist/cli/main.js serve`) against a
 *    bare node:http server answering the same bytes (B), and the floor server (F,
 *    scripts/bench/floor-server.mjs: the least work a correct answer needs, a reference for how
 *    close to B any correct implementation can come here), alternating A B F over rounds after
 *    a warm-up, with wrk rotating over the Founders keys (and tickers).
 * 2. Load-and-index time and peak RSS over snapshot sizes.
 * 3. Reload under load: SIGHUP to a new snapshot while wrk runs.
 * 4. Limiter memory per key.
 * 5. Scale-out (issue 12, scripts/bench/scale-out.ts): Redis store vs in-process, access log on
 *    vs off, `--workers 2` vs 1, and over-admission of a burst over several processes.
 * 6. Pagination and conditional requests (issue 13, scripts/bench/paging.ts, run as a child on
 *    the served snapshot): first page vs deep page vs 304, per ticker and on the overview.
 *
 * The server under test runs as shipped, its access log on (to stdout, which the bench
 * discards): the data endpoints' target against the floor server is with the log on. The log's
 * own cost is measured in part 5. Results of runs before this record `accessLog: 'off'`.
 */
import { existsSync, statSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { generateSnapshot } from '../gen-snapshot.js';
import { publishVersion } from '../../src/data/snapshot-writer.js';
import { BENCH_DIR, ENDPOINTS, floorPath, hasWrk, tickerEndpoints, runJsonChild, runWrk, startServer, type WrkResult, type WrkTarget } from './processes.js';
import { renderMarkdown, type BenchResults, type LoadResult, type ReloadResult, type Round } from './report.js';
import { measureScaleOut } from './scale-out.js';

const ROOT = resolve(BENCH_DIR, '../..');
const OUT = join(ROOT, 'bench-out');
const DIST = join(ROOT, 'dist');

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean' }, rounds: { type: 'string' }, seconds: { type: 'string' }, output: { type: 'string' },
    // Rewrites BENCHMARKS.md from the last run's bench-out/results*.json, measuring nothing.
    'render-only': { type: 'boolean' },
  },
  strict: true,
});
const quick = flags.quick === true;
const config = Object.freeze({
  companies: 10_000,
  /** Filings of the snapshot served in the HTTP rounds and reloaded under load. */
  serveFilings: quick ? 100_000 : 1_000_000,
  scaleFilings: quick ? [10_000, 30_000, 100_000] : [100_000, 300_000, 1_000_000],
  rounds: Number(flags.rounds ?? (quick ? 2 : 5)),
  /** Seconds per wrk run in a round. */
  seconds: Number(flags.seconds ?? (quick ? 3 : 10)),
  warmSeconds: quick ? 2 : 5,
  connections: 50,
  keys: 10_000,
  limiterKeys: 1_000_000,
  /** Length of each wrk slice during the reload, s. */
  sliceSeconds: 2,
  /** The access log of the server under test: on, as shipped (its lines discarded). */
  accessLog: 'stdout',
});
const output = resolve(flags.output ?? join(ROOT, 'BENCHMARKS.md'));


const say = (line: string): void => { process.stderr.write(`[bench] ${line}\n`); };

async function main(): Promise<number> {
  if (flags['render-only']) {
    const results = JSON.parse(await readFile(join(OUT, `results${quick ? '-quick' : ''}.json`), 'utf8')) as BenchResults;
    await writeFile(output, await keepMarkedSections(renderMarkdown(results)));
    say(`wrote ${output} from the results of ${results.date}`);
    return 0;
  }
  if (!hasWrk()) {
    process.stderr.write('npm run bench needs wrk, which is not installed.\nInstall it with: sudo apt-get update && sudo apt-get install -y wrk\n');
    return 1;
  }
  ensureDist();
  const started = new Date();
  const serve = await ensureSnapshot(config.serveFilings, 0, config.keys);
  const next = await ensureSnapshot(config.serveFilings, 1, 0);
  // Start from the generated version whatever CURRENT says: an interrupted run or a manual
  // test may have left it pointing at the reload target, which would make the load curve
  // measure that version and the reload a no-op.
  const snapshotsDir = join(serve, 'snapshots');
  const firstVersion = (JSON.parse(await readFile(join(serve, 'gen.json'), 'utf8')) as { result: { version: string } }).result.version;
  await publishVersion(snapshotsDir, firstVersion);

  const scale: LoadResult[] = [];
  for (const filings of config.scaleFilings) {
    const dir = filings === config.serveFilings ? serve : await ensureSnapshot(filings, 0, 0);
    say(`loading ${filings} filings in a child process`);
    const measured = await runJsonChild<Omit<LoadResult, 'filings' | 'ndjsonBytes'>>([join(BENCH_DIR, 'load-child.mjs'), DIST, join(dir, 'snapshots')]);
    scale.push({ filings, ndjsonBytes: await ndjsonBytes(join(dir, 'snapshots')), ...measured });
  }

  // The rotation: tickers with at least 20 filings, so every answer holds 20 rows. A quick run
  // writes its own files (its snapshot has a tenth of the tickers): head-to-head.ts and
  // scale-pages.ts read the full run's, and a quick run's 511 tickers once stood in for its 5,102
  // unnoticed (their pages fit in what a version kept; the full rotation's did not).
  const suffix = quick ? '-quick' : '';
  const rotation = join(OUT, `rotation-tickers${suffix}.txt`);
  const tickers = (await readFile(join(serve, 'tickers.txt'), 'utf8')).trim().split('\n').map((l) => l.split(' '))
    .filter(([, n]) => Number(n) >= 20).map(([t]) => t!);
  await writeFile(rotation, tickers.map((t) => `${t}\n`).join(''));
  const keysText = join(serve, 'keys.txt');

  say('starting the server under test');
  const api = await startServer([join(DIST, 'cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--snapshots', snapshotsDir, '--keys', join(serve, 'keys.json'), '--access-log', config.accessLog]);
  let bare: Awaited<ReturnType<typeof startServer>> | undefined;
  let floor: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const firstKey = (await readFile(keysText, 'utf8')).split('\n')[0]!;
    const captured: Record<string, { headers: Record<string, string>; body: string }> = {};
    const bodyBytes: Record<string, number> = {};
    for (const endpoint of ENDPOINTS) {
      // identity: wrk sends no Accept-Encoding, so this is the response it gets (fetch would ask
      // for gzip and decompress it, leaving a Content-Encoding header that does not fit the body).
      const response = await fetch(`${api.url}${endpoint.path.replace('{T}', tickers[0]!)}`, {
        headers: { 'X-API-Key': firstKey, 'Accept-Encoding': 'identity' },
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`probe of ${endpoint.path} answered ${response.status}: ${body.slice(0, 200)}`);
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers) if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
      captured[`/bare/${endpoint.name}`] = { headers, body };
      bodyBytes[endpoint.name] = Buffer.byteLength(body);
    }
    const responsesFile = join(OUT, `bare-responses${suffix}.json`);
    await writeFile(responsesFile, JSON.stringify(captured));
    bare = await startServer([join(BENCH_DIR, 'bare-server.mjs'), responsesFile]);
    floor = await startServer([join(BENCH_DIR, 'floor-server.mjs'), responsesFile, join(serve, 'keys.json'), rotation, tickerEndpoints()]);

    const targets = (endpoint: (typeof ENDPOINTS)[number]): [WrkTarget, WrkTarget, WrkTarget] => [
      { url: api.url, path: endpoint.path, keysText, tickersFile: rotation },
      { url: bare!.url, path: `/bare/${endpoint.name}`, keysText, tickersFile: rotation },
      { url: floor!.url, path: floorPath(endpoint), keysText, tickersFile: rotation },
    ];
    say(`warm-up, ${config.warmSeconds} s per target`);
    for (const endpoint of ENDPOINTS) for (const target of targets(endpoint)) await runWrk(target, config.connections, config.warmSeconds);

    const rounds: Round[] = [];
    for (let r = 1; r <= config.rounds; r++) {
      for (const endpoint of ENDPOINTS) {
        const [a, b, f] = targets(endpoint);
        say(`round ${r}/${config.rounds}: ${endpoint.name} A (equity-facts), B (bare), F (floor), ${config.seconds} s each`);
        const api_ = await runWrk(a, config.connections, config.seconds);
        const bare_ = await runWrk(b, config.connections, config.seconds);
        const floor_ = await runWrk(f, config.connections, config.seconds);
        rounds.push({ round: r, endpoint: endpoint.name, data: endpoint.data, api: api_, bare: bare_, floor: floor_ });
      }
    }

    say('reload under load');
    const reload = await reloadUnderLoad(api, snapshotsDir, next, firstVersion, { url: api.url, path: ENDPOINTS[0].path, keysText, tickersFile: rotation });

    say(`limiter memory, ${config.limiterKeys} keys`);
    const limiter = await runJsonChild<BenchResults['limiter']>(['--expose-gc', join(BENCH_DIR, 'limiter-child.mjs'), DIST, String(config.limiterKeys)]);

    say('scale-out: Redis store, access log, workers, over-admission');
    const scaleOut = await measureScaleOut(serve, OUT, DIST, {
      rounds: config.rounds, seconds: config.seconds, warmSeconds: config.warmSeconds, connections: config.connections,
      path: ENDPOINTS[0].path, tickersFile: rotation,
    }, say);

    say('pagination and conditional requests: first page, deep page, 304');
    const paging = spawnSync(process.execPath, ['--import', 'tsx', join(BENCH_DIR, 'paging.ts'), '--snapshot', serve,
      '--rounds', String(config.rounds), '--seconds', String(config.seconds)], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (paging.status !== 0) throw new Error(`paging.ts exited ${paging.status}`);

    const results: BenchResults = {
      date: started.toISOString(), quick, config, bodyBytes, rounds, scale, reload, limiter, scaleOut, paging: paging.stdout.trim(),
      machine: {
        cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryBytes: totalmem(), node: process.version,
        wrk: spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim(),
      },
      command: `npm run bench${quick ? ' -- --quick' : ''}`,
    };
    await writeFile(join(OUT, `results${quick ? '-quick' : ''}.json`), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(output, await keepMarkedSections(renderMarkdown(results)));
    say(`wrote ${output}`);
    process.stdout.write(renderMarkdown(results));
    return 0;
  } finally {
    await api.stop();
    await bare?.stop();
    await floor?.stop();
    // Leave the served root pointing at its first version, so the next run starts the same way.
    await publishVersion(snapshotsDir, firstVersion);
  }
}

/**
 * Points CURRENT at the next version and sends SIGHUP while wrk runs in back-to-back slices;
 * the window runs from the signal to the `snapshot: reloaded` line. The server also watches
 * CURRENT and sees the change too, but a reload whose CURRENT names the version already served
 * reads nothing, so one load is expected. One more slice follows it, to show the server after
 * the swap.
 *
 * @throws Error when CURRENT already names the next version, or no load is logged within 5 minutes.
 */
async function reloadUnderLoad(
  api: Awaited<ReturnType<typeof startServer>>, snapshotsDir: string, nextDir: string, firstVersion: string, target: WrkTarget,
): Promise<ReloadResult> {
  const nextVersion = (await readFile(join(nextDir, 'snapshots', 'CURRENT'), 'utf8')).trim();
  if (nextVersion === firstVersion) throw new Error(`reload under load: the next snapshot has the served version ${firstVersion}`);
  const link = join(snapshotsDir, nextVersion);
  if (!existsSync(link)) await symlink(join(nextDir, 'snapshots', nextVersion), link, 'dir');
  const reloadedLines = () => api.log.filter((l) => l.line.startsWith('snapshot: reloaded') || l.line.startsWith('snapshot: reload refused'));
  const before = reloadedLines().length;
  const slices: (WrkResult & { startS: number })[] = [];
  const t0 = performance.now();
  const baseline = await runWrk(target, config.connections, config.sliceSeconds);
  slices.push({ ...baseline, startS: 0 });
  const signalAt = performance.now();
  await publishVersion(snapshotsDir, nextVersion);
  process.kill(api.child.pid!, 'SIGHUP');
  const slice = async (): Promise<void> => {
    const startS = (performance.now() - t0) / 1000;
    slices.push({ ...await runWrk(target, config.connections, config.sliceSeconds), startS });
  };
  const deadline = signalAt + 300_000;
  while (performance.now() < deadline && reloadedLines().length === before) await slice();
  const lines = reloadedLines().slice(before);
  if (lines.length === 0) throw new Error(`reload under load: no reload was logged within 5 minutes of SIGHUP (${firstVersion} -> ${nextVersion})`);
  await slice();
  const endAt = lines[lines.length - 1]!.at;
  const window = slices.filter((s) => s.startS * 1000 + t0 <= endAt && (s.startS + config.sliceSeconds) * 1000 + t0 >= signalAt);
  const sum = (pick: (s: WrkResult) => number) => window.reduce((n, s) => n + pick(s), 0);
  return {
    from: firstVersion, to: nextVersion, loads: lines.map((l) => l.line), windowSeconds: (endAt - signalAt) / 1000,
    requests: sum((s) => s.requests), non2xx: sum((s) => s.status), socketErrors: sum((s) => s.connect + s.read + s.write + s.timeout),
    worstSliceP99Us: Math.max(...window.map((s) => s.p99_us)), baselineP99Us: baseline.p99_us,
    slices: slices.map((s) => ({ startS: s.startS, rps: s.rps, p50Us: s.p50_us, p99Us: s.p99_us, non2xx: s.status })),
  };
}

/** Reuses `bench-out/snap-c…-f…-s1-r…` when its gen.json matches, else writes it. */
async function ensureSnapshot(filings: number, revision: number, keys: number): Promise<string> {
  const dir = join(OUT, `snap-c${config.companies}-f${filings}-s1-r${revision}`);
  const genFile = join(dir, 'gen.json');
  if (existsSync(genFile) && existsSync(join(dir, 'snapshots', 'CURRENT'))) {
    const { options } = JSON.parse(await readFile(genFile, 'utf8'));
    if (options.filings === filings && (options.revision ?? 0) === revision && (options.keys ?? 10_000) >= keys) return dir;
  }
  say(`generating ${filings} filings (revision ${revision}) into ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await generateSnapshot({ out: dir, companies: config.companies, filings, revision, keys });
  return dir;
}

async function ndjsonBytes(snapshotsDir: string): Promise<number> {
  const version = (await readFile(join(snapshotsDir, 'CURRENT'), 'utf8')).trim();
  let total = 0;
  for (const name of readdirSync(join(snapshotsDir, version))) if (name.endsWith('.ndjson')) total += (await stat(join(snapshotsDir, version, name))).size;
  return total;
}

/** Builds dist/ when it is missing or older than any file under src/. */
function ensureDist(): void {
  const main = join(DIST, 'cli/main.js');
  const built = existsSync(main) ? statSync(main).mtimeMs : 0;
  const newest = (dir: string): number => readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const path = join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
  if (built > newest(join(ROOT, 'src'))) return;
  say('dist/ is missing or stale: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

main().then((code) => { process.exitCode = code; }, (error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});

/**
 * The server report, with the sections other commands wrote into the old file between their
 * markers kept: Build (`npm run bench:build`) and Filters (`npm run bench:filters` and the
 * scripts its section names).
 */
async function keepMarkedSections(markdown: string): Promise<string> {
  const old = existsSync(output) ? await readFile(output, 'utf8') : '';
  const sections = ['build', 'filters', 'load25'].map((name) => new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`).exec(old)?.[0]).filter((s) => s !== undefined);
  return sections.length > 0 ? `${markdown.trimEnd()}\n\n${sections.join('\n\n')}\n` : markdown;
}
