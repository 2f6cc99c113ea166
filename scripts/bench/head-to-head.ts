/**
 * Two servers measured at the same time, for comparing builds (or a build against the bare
 * server) more steadily than `npm run bench` can. On this 2-core VM, sequential A-then-B runs
 * swing ±20-30 % from run to run. Here both servers are pinned to CPU 0 and two wrk (one per
 * server) to CPU 1, and they run at once, so both servers see the same noise: a build against
 * itself scores 0.99-1.02. Each round starts a fresh pair, since one server *instance* can be
 * up to 20 % off another of the same code (heap layout). The ratio is then about the ratio of
 * CPU cost per request. It is not the bench's figure (there the server has a core of its own
 * and wrk's wake-ups count too), but it resolves changes of a few per cent.
 *
 * Needs `npm run bench` (or `--quick`) to have run once: it reuses its snapshot, keys,
 * rotation and captured bare responses from bench-out/. Needs wrk and taskset (util-linux).
 *
 * Usage:
 *   npx tsx scripts/bench/head-to-head.ts --a dist --b /path/to/other/dist [--endpoint filings]
 *       [--rounds 5] [--seconds 4] [--quick]
 *   --b bare   compares with the bare node:http server instead of a second build.
 *   --b floor  compares with the floor server (scripts/bench/floor-server.mjs): the least work a
 *              correct answer needs; `--a floor --b bare` shows what that work costs alone.
 *   --b floor-log  the floor served through this checkout's dist/ connection layer and writing its
 *              access log line per response (`--as-api dist`): the floor of an API that logs;
 *              `--a floor-log --b floor` shows what the log and the connection layer cost alone.
 * A build folder is a compiled `dist` (npm run build); copy it aside before rebuilding.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, ENDPOINTS, floorPath, hasWrk, tickerEndpoints, runWrk, startServer, type Served } from './processes.js';

const ROOT = resolve(BENCH_DIR, '../..');
const OUT = join(ROOT, 'bench-out');

const { values: flags } = parseArgs({
  options: {
    a: { type: 'string' }, b: { type: 'string' }, endpoint: { type: 'string' },
    rounds: { type: 'string' }, seconds: { type: 'string' }, quick: { type: 'boolean' },
  },
  strict: true,
});

// Builds since issue 12 log every response to stdout by default; the comparison is of the
// request path, so both servers run without it (through the environment, which older builds
// ignore, where a flag would stop them). Set EQF_ACCESS_LOG to measure with a log.
process.env.EQF_ACCESS_LOG ??= 'off';

/** Connections per wrk: two wrk share CPU 1, so 25 each make the bench's 50. */
const CONNECTIONS = 25;

async function main(): Promise<number> {
  const endpoint = ENDPOINTS.find((e) => e.name === (flags.endpoint ?? 'filings'));
  const rounds = Number(flags.rounds ?? 5);
  const seconds = Number(flags.seconds ?? 4);
  if (!flags.a || !flags.b || !endpoint || !(rounds >= 1) || !(seconds >= 1)) {
    process.stderr.write('usage: head-to-head.ts --a BUILD|floor|floor-log --b BUILD|bare|floor|floor-log [--endpoint filings|insiders|meta] [--rounds N] [--seconds S] [--quick]\n');
    return 2;
  }
  if (!hasWrk()) {
    process.stderr.write('head-to-head needs wrk: sudo apt-get update && sudo apt-get install -y wrk\n');
    return 1;
  }
  const serve = join(OUT, `snap-c10000-f${flags.quick ? 100_000 : 1_000_000}-s1-r0`);
  // Each mode's own rotation and captured answers (run.ts writes both per mode).
  const suffix = flags.quick ? '-quick' : '';
  const rotation = join(OUT, `rotation-tickers${suffix}.txt`);
  const responses = join(OUT, `bare-responses${suffix}.json`);
  for (const needed of [serve, rotation, ...([flags.a, flags.b].some((x) => x === 'bare' || x!.startsWith('floor')) ? [responses] : [])]) {
    if (!existsSync(needed)) {
      process.stderr.write(`${needed} is missing: run npm run bench${flags.quick ? ' -- --quick' : ''} once first\n`);
      return 1;
    }
  }
  const start = (build: string): Promise<Served> => {
    if (build === 'bare') return startServer([join(BENCH_DIR, 'bare-server.mjs'), responses], 120_000, '0');
    if (build === 'floor' || build === 'floor-log') {
      const asApi = build === 'floor-log' ? ['--as-api', join(ROOT, 'dist')] : [];
      return startServer([join(BENCH_DIR, 'floor-server.mjs'), responses, join(serve, 'keys.json'), rotation, tickerEndpoints(), ...asApi], 120_000, '0');
    }
    return startServer([join(resolve(build), 'cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1',
      '--snapshots', join(serve, 'snapshots'), '--keys', join(serve, 'keys.json')], 300_000, '0');
  };
  const keysText = join(serve, 'keys.txt');
  const path = (build: string): string => (build === 'bare' ? `/bare/${endpoint.name}` : build.startsWith('floor') ? floorPath(endpoint) : endpoint.path);

  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const [a, b] = await Promise.all([start(flags.a), start(flags.b)]);
    try {
      const both = () => Promise.all([
        runWrk({ url: a.url, path: path(flags.a!), keysText, tickersFile: rotation }, CONNECTIONS, seconds, '1'),
        runWrk({ url: b.url, path: path(flags.b!), keysText, tickersFile: rotation }, CONNECTIONS, seconds, '1'),
      ]);
      await both(); // warm-up
      const [ra, rb] = await both();
      const ratio = ra.rps / rb.rps;
      ratios.push(ratio);
      const errors = ra.status + rb.status;
      process.stdout.write(`round ${round}: A ${ra.rps.toFixed(0)} req/s, B ${rb.rps.toFixed(0)} req/s, A/B ${ratio.toFixed(3)}${errors ? `, ${errors} non-2xx` : ''}\n`);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  process.stdout.write(`${endpoint.name}: A/B median ${median.toFixed(3)} over ${rounds} rounds (range ${sorted[0]!.toFixed(3)}-${sorted.at(-1)!.toFixed(3)})\n`);
  return 0;
}

process.exitCode = await main();
