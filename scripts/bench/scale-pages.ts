/**
 * `tsx scripts/bench/scale-pages.ts --snapshot A --against B [--rounds 3] [--seconds 5] [--endpoint filings] [--workers N]`
 *
 * The same page on two snapshot sizes (issue 25: a 10M-filing version's filings page p99 against
 * the 1M one's): both compiled servers (`npm run build` first) run at once, each on a folder
 * written by `scripts/gen-snapshot.ts --out DIR` with its own keys, and wrk (`-t1 -c50`, the
 * bench's rotate.lua over the tickers of `bench-out/rotation-tickers.txt`) loads one and then
 * the other, alternating which goes first from round to round. Access log as shipped (stdout,
 * here to /dev/null). Prints one JSON line per run and the medians with their ranges and the
 * ratio B/A of each round's p99; asserts nothing. `--workers N` serves both with N threads
 * (issue 25's 10M page with `--workers 2`).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, ENDPOINTS, runWrk, startServer, type Served, type WrkResult } from './processes.js';
import { medianRange } from './start-to-ready.js';

const ROOT = resolve(BENCH_DIR, '../..');
const { values } = parseArgs({
  options: {
    snapshot: { type: 'string' }, against: { type: 'string' }, rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' },
    endpoint: { type: 'string', default: 'filings' }, workers: { type: 'string' },
  },
  strict: true,
});
const endpoint = ENDPOINTS.find((e) => e.name === values.endpoint);
const rotation = join(ROOT, 'bench-out', 'rotation-tickers.txt');
if (values.snapshot === undefined || values.against === undefined || endpoint === undefined || !existsSync(rotation)) {
  throw new Error('usage: tsx scripts/bench/scale-pages.ts --snapshot A --against B [--rounds 3] [--seconds 5] [--endpoint filings|insiders|meta] (needs bench-out/rotation-tickers.txt: npm run bench once)');
}
const dirs = [values.snapshot, values.against];
const seconds = Number(values.seconds);

const servers: Served[] = [];
try {
  for (const dir of dirs) {
    servers.push(await startServer([join(ROOT, 'dist/cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--snapshots', join(dir, 'snapshots'),
      '--keys', join(dir, 'keys.json'), '--access-log', 'stdout', ...(values.workers === undefined ? [] : ['--workers', values.workers])], 600_000));
  }
  const target = (i: number) => ({ url: servers[i]!.url, path: endpoint.path, keysText: join(dirs[i]!, 'keys.txt'), tickersFile: rotation });
  for (const i of [0, 1]) await runWrk(target(i), 50, seconds); // warm-up
  const runs: WrkResult[][] = [[], []];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const result = await runWrk(target(i), 50, seconds);
      runs[i]!.push(result);
      console.log(JSON.stringify({ round, snapshot: dirs[i], rps: Math.round(result.rps), p50Ms: result.p50_us / 1000, p99Ms: result.p99_us / 1000, non2xx: result.status }));
    }
  }
  const summary: Record<string, string> = {};
  dirs.forEach((dir, i) => {
    summary[`${dir}: req/s`] = medianRange(runs[i]!.map((r) => r.rps), 0);
    summary[`${dir}: p99 ms`] = medianRange(runs[i]!.map((r) => r.p99_us / 1000), 2);
  });
  summary['p99 B/A per round'] = medianRange(runs[1]!.map((r, round) => r.p99_us / runs[0]![round]!.p99_us), 2);
  console.log(JSON.stringify(summary, null, 2));
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
