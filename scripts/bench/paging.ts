/**
 * `npm run bench:paging -- --snapshot DIR [--rounds 3] [--seconds 5] [--tickers 50] [--cases a,b]`:
 * the pagination and conditional-request targets of issue 13, measured in one run:
 *
 * - first: the first page (`limit=20`) of the busiest tickers' filings lists;
 * - deep: a page of the same size near the end of each of those lists (reached with a cursor);
 * - 304: the first pages again with `If-None-Match` of their ETags;
 * - overview: the first page and a deep page of the filings overview (every filing);
 * - overview walks: 50 consecutive pages of the overview, each request the next of them, as
 *   clients walking the list send them, from its start (the first page and 49 pages by cursor)
 *   and from that deep page on. A list keeps only its last cursor and page, so every request
 *   decodes its cursor, searches for its position, gathers its rows from memory that other
 *   pages have since used, and builds its ETag, next cursor and `Link`. No target: the deep
 *   walk against the start walk shows what depth costs when no page is repeated, and either
 *   against the first page what a page asked for once costs against one asked for again.
 *
 * `--cases` runs only the named cases, comma-separated, of `first`, `deep`, `304`,
 * `overview first`, `overview deep`, `overview walk start` and `overview walk deep` (all by default), for quicker runs while working on one
 * of them; the table then shows those rows, and a ratio only when both its cases ran.
 *
 * Rounds alternate the cases against one server, so each ratio compares figures of the same
 * run. Targets: deep/first ≥ 0.9, 304/first ≥ 1.0. Beside req/s it reports the server's CPU time
 * per request (user + system, from /proc), which a machine shared with other work disturbs less
 * than req/s. DIR is a gen-snapshot output folder
 * (`npm run gen-snapshot -- --out DIR ...`, or bench-out/snap-… of `npm run bench`): its
 * snapshots/, keys.json, keys.txt and tickers.txt are used. Needs wrk; load only goes to
 * 127.0.0.1. Prints a Markdown table.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { alternateRounds, BENCH_DIR, hasWrk, median, startServer } from './processes.js';

const ROOT = resolve(BENCH_DIR, '../..');
const { values: flags } = parseArgs({
  options: { snapshot: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' }, tickers: { type: 'string' }, cases: { type: 'string' } },
  strict: true,
});

const PAGE = 20;
const CONNECTIONS = 50;

/** One request of a case: its path and, for 304s, the ETag to send. */
interface Request { path: string; etag?: string }

/** The cases, in the order each round runs them. */
const CASES = ['first', 'deep', '304', 'overview first', 'overview deep', 'overview walk start', 'overview walk deep'] as const;
/** Pages of an overview walk. */
const WALK_PAGES = 50;
type CaseName = (typeof CASES)[number];

async function main(): Promise<number> {
  if (!flags.snapshot) {
    process.stderr.write('usage: paging.ts --snapshot DIR [--rounds N] [--seconds S] [--tickers N] [--cases a,b]\n');
    return 2;
  }
  const chosen = flags.cases === undefined ? [...CASES] : flags.cases.split(',').map((name) => name.trim());
  const unknown = chosen.filter((name) => !(CASES as readonly string[]).includes(name));
  if (unknown.length > 0 || chosen.length === 0) {
    process.stderr.write(`--cases: unknown case ${JSON.stringify(unknown.join(','))}; cases are ${CASES.join(', ')}\n`);
    return 2;
  }
  const runs = (name: CaseName): boolean => chosen.includes(name);
  if (!hasWrk()) {
    process.stderr.write('bench:paging needs wrk: sudo apt-get update && sudo apt-get install -y wrk\n');
    return 1;
  }
  const dir = resolve(flags.snapshot);
  const rounds = Number(flags.rounds ?? 3);
  const seconds = Number(flags.seconds ?? 5);
  const keys = (await readFile(join(dir, 'keys.txt'), 'utf8')).trim().split('\n');
  const tickers = (await readFile(join(dir, 'tickers.txt'), 'utf8')).trim().split('\n').map((line) => line.split(' '))
    .filter(([, n]) => Number(n) >= 2 * PAGE).slice(0, Number(flags.tickers ?? 50)).map(([ticker]) => ticker!);
  const api = await startServer([join(ROOT, 'dist/cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1',
    '--snapshots', join(dir, 'snapshots'), '--keys', join(dir, 'keys.json'), '--access-log', 'off'], 300_000);
  const work = await mkdtemp(join(tmpdir(), 'eqf-paging-'));
  try {
    let k = 0;
    const get = async (path: string): Promise<Response> => {
      const response = await fetch(`${api.url}${path}`, { headers: { 'X-API-Key': keys[k++ % keys.length]!, 'Accept-Encoding': 'identity' } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      return response;
    };
    /** The path of a page of `PAGE` rows near the end of a list, found by walking it in pages of 200. */
    const deepPath = async (base: string): Promise<string> => {
      let cursor: string | undefined;
      let previous: string | undefined;
      for (;;) {
        const link = (await get(`${base}&limit=200${cursor ? `&cursor=${cursor}` : ''}`)).headers.get('link');
        if (link === null) break;
        previous = cursor;
        cursor = /cursor=([A-Za-z0-9_-]+)>/.exec(link)![1]!;
      }
      const at = previous ?? cursor;
      if (at === undefined) throw new Error(`${base}: a list of one page`);
      return `${base}&limit=${PAGE}&cursor=${at}`;
    };
    // Keys are set in CASES order (Object.keys puts '304' first otherwise).
    const cases = new Map<CaseName, Request[]>(CASES.filter(runs).map((name) => [name, []]));
    for (const ticker of runs('first') || runs('deep') || runs('304') ? tickers : []) {
      const first = `/api/v1/finance/filings?ticker=${ticker}&limit=${PAGE}`;
      const etag = (await get(first)).headers.get('etag')!;
      cases.get('first')?.push({ path: first });
      cases.get('304')?.push({ path: first, etag });
      if (runs('deep')) cases.get('deep')!.push({ path: await deepPath(`/api/v1/finance/filings?ticker=${ticker}`) });
    }
    cases.get('overview first')?.push({ path: `/api/v1/finance/filings?limit=${PAGE}` });
    /** `WALK_PAGES` consecutive pages of the overview from `from` on. */
    const walk = async (from: string): Promise<Request[]> => {
      const pages: Request[] = [];
      let page = from;
      for (let i = 0; i < WALK_PAGES; i++) {
        pages.push({ path: page });
        const link = (await get(page)).headers.get('link');
        if (link === null) break;
        page = `/api/v1/finance/filings?limit=${PAGE}&cursor=${/cursor=([A-Za-z0-9_-]+)>/.exec(link)![1]!}`;
      }
      return pages;
    };
    if (runs('overview walk start')) cases.get('overview walk start')!.push(...await walk(`/api/v1/finance/filings?limit=${PAGE}`));
    if (runs('overview deep') || runs('overview walk deep')) {
      // The overview is long: 30 pages of 200 rows in, a page of 20 (every cursor page costs the same: docs/performance-notes.md).
      let overview = `/api/v1/finance/filings?limit=200`;
      for (let i = 0; i < 30; i++) {
        const link = (await get(overview)).headers.get('link');
        if (link === null) break;
        overview = `/api/v1/finance/filings?limit=200&cursor=${/cursor=([A-Za-z0-9_-]+)>/.exec(link)![1]!}`;
      }
      const deep = overview.replace('limit=200', `limit=${PAGE}`);
      cases.get('overview deep')?.push({ path: deep });
      if (runs('overview walk deep')) cases.get('overview walk deep')!.push(...await walk(deep));
    }

    const files = new Map<string, string>();
    for (const [name, requests] of cases) {
      files.set(name, join(work, `${name.replace(/\W/g, '-')}.txt`));
      await writeFile(files.get(name)!, requests.map((r) => `${r.path}${r.etag ? `\t${r.etag}` : ''}\n`).join(''));
    }
    const keysText = join(dir, 'keys.txt');
    const { results, cpuUs } = await alternateRounds(api, keysText, files, { rounds, seconds, connections: CONNECTIONS, label: 'paging' });
    const rps = (name: string): number => median(results[name]!.map((r) => r.rps));
    const p99 = (name: string): number => median(results[name]!.map((r) => r.p99_us)) / 1000;
    const cpu = (name: string): string => median(cpuUs[name]!).toFixed(1);
    /** A table row: the case's figures, and its ratio to `base` when that case ran too (`base` itself: 1; none: blank). */
    const row = (label: string, name: CaseName, base?: CaseName, target = ''): string => {
      const ratio = base === undefined ? '' : base === name ? '1' : runs(base) ? (rps(name) / rps(base)).toFixed(3) : '';
      return `| ${label} | ${rps(name).toFixed(0)} | ${p99(name).toFixed(2)} | ${cpu(name)} | ${ratio} | ${target} |`;
    };
    const rows: [string, CaseName, CaseName | undefined, string?][] = [
      ['first page (ticker)', 'first', 'first'],
      ['deep page (ticker)', 'deep', 'first', '≥ 0.9'],
      ['304 of first page', '304', 'first', '≥ 1.0'],
      ['first page (overview)', 'overview first', undefined],
      ['deep page (overview)', 'overview deep', 'overview first', '≥ 0.9'],
      [`walk of ${WALK_PAGES} pages from the start (overview)`, 'overview walk start', 'overview first'],
      [`walk of ${WALK_PAGES} pages, deep (overview)`, 'overview walk deep', 'overview walk start'],
    ];
    const lines = [
      `Paging bench: ${rounds} rounds × ${seconds} s per case, ${CONNECTIONS} connections, ${tickers.length} tickers, snapshot ${dir}`,
      '',
      '| case | req/s (median) | p99 ms | server CPU µs/request | req/s ratio | target |',
      '|---|---|---|---|---|---|',
      ...rows.filter(([, name]) => runs(name)).map(([label, name, base, target]) => row(label, name, base, target)),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await api.stop();
    await rm(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
