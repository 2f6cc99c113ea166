/**
 * `npm run bench:filters -- --snapshot DIR [--serve SNAPSHOTS] [--rounds 3] [--seconds 5]`: the
 * filter targets of issue 26 (docs/api.md §15), measured in one run, each filtered page against the
 * unfiltered first page of its own endpoint. Filings:
 *
 * - first: the filings overview's first page (`limit=20`), the base of the filings ratios;
 * - tickers: `tickers=` with 10 companies (the busiest, in five sets of ten);
 * - day: `since=D&until=D` on one day, five days from the middle of the list (a binary search
 *   on every filing);
 * - form: `form=8-K`;
 * - ticker+form: `ticker=T&form=8-K` for the five busiest tickers (an intersection);
 * - walks: 3,000 consecutive pages of the overview and of the first `tickers` list, each request
 *   the next page by its cursor (walked again with other page sizes where a list has fewer pages). Each of those cases repeats a few requests, which the
 *   server answers from the pages it keeps; a walk's pages are more than it keeps, so every one is
 *   found anew (cursor decoded, rows merged, tag and cursor encoded): the walks show the cost of
 *   a page asked for once, the tickers walk against the overview walk.
 *
 *
 * The endpoints of docs/api.md §16, each with its own first page (`limit=20`) as the base:
 *
 * - insider-transactions: `tickers=` with 10 companies (five sets), `code=S`, one day of
 *   `since`/`until` on transaction_date (five days from the middle of the list), `owner_cik` (five
 *   owners from the middle of the list);
 * - holders: `ticker` (the five busiest), `cusip` and `cik` (the filer; five each from the list);
 * - financials: `tickers=` with 10 companies (five sets), `fiscal_period=FY`, a `since`/`until`
 *   range on period_end (from January 1 to a period end from the middle of the list, five).
 *
 * Rounds alternate the cases against one server, so each ratio compares figures of the same run;
 * beside req/s and p99 it reports the server's CPU time per request (from /proc), which a machine
 * shared with other work disturbs less.
 * Targets: req/s ≥ 0.8 × and p99 ≤ 1.5 × the first page's. Reports, asserts nothing. DIR is a
 * gen-snapshot output folder (its keys.json and keys.txt are used, and its snapshots/ unless
 * `--serve` names another snapshots folder, such as the embedded `snapshots`). Needs wrk; load
 * only goes to 127.0.0.1. Prints a Markdown table.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { alternateRounds, BENCH_DIR, hasWrk, median, startServer, type WrkResult } from './processes.js';

const ROOT = resolve(BENCH_DIR, '../..');
const { values: flags } = parseArgs({
  options: { snapshot: { type: 'string' }, serve: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' } },
  strict: true,
});
const CONNECTIONS = 50;
const API = '/api/v1/finance';
const FILINGS = `${API}/filings`;
const TRANSACTIONS = `${API}/insider-transactions`;
const HOLDERS = `${API}/holders`;
const FINANCIALS = `${API}/financials`;
/** The fractions of a list's bytes whose rows give the values of a case's five requests. */
const MIDDLE = [0.4, 0.45, 0.5, 0.55, 0.6];

/** One measured case: its requests (round robin) and the case its ratios are taken against. */
interface Case {
  name: string;
  base: string;
  paths: string[];
}
/** Pages of a walk: more than the filtered pages kept per snapshot (filtered-page.ts), so that a walk's pages are found anew. */
const WALK_PAGES = 3000;

/** The row of an NDJSON file that starts first after `fraction` of its bytes (its first row at 0). */
function rowAt(file: string, fraction: number): Record<string, unknown> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 16);
    const read = readSync(fd, buffer, 0, buffer.length, Math.floor(statSync(file).size * fraction));
    const text = buffer.toString('utf8', 0, read);
    const start = fraction === 0 ? 0 : text.indexOf('\n') + 1;
    return JSON.parse(text.slice(start, text.indexOf('\n', start))) as Record<string, unknown>;
  } finally {
    closeSync(fd);
  }
}

/** Tickers by number of filings, busiest first: gen-snapshot's tickers.txt for its own snapshot, else counted from the rows. */
async function busiestTickers(dir: string | undefined, snapshotDir: string): Promise<string[]> {
  try {
    if (dir === undefined) throw new Error('another snapshot is served');
    return (await readFile(join(dir, 'tickers.txt'), 'utf8')).trim().split('\n').map((line) => line.split(' ')[0]!);
  } catch {
    const counts = new Map<string, number>();
    for (const line of readFileSync(join(snapshotDir, 'filings.ndjson'), 'utf8').split('\n')) {
      const ticker = /"ticker":"([^"]+)"/.exec(line)?.[1];
      if (ticker !== undefined) counts.set(ticker, (counts.get(ticker) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1]).map(([ticker]) => ticker);
  }
}

async function main(): Promise<number> {
  if (!flags.snapshot) {
    process.stderr.write('usage: filters.ts --snapshot DIR [--serve SNAPSHOTS] [--rounds N] [--seconds S]\n');
    return 2;
  }
  if (!hasWrk()) {
    process.stderr.write('bench:filters needs wrk: sudo apt-get update && sudo apt-get install -y wrk\n');
    return 1;
  }
  const dir = resolve(flags.snapshot);
  const snapshots = resolve(flags.serve ?? join(dir, 'snapshots'));
  const snapshotDir = join(snapshots, (await readFile(join(snapshots, 'CURRENT'), 'utf8')).trim());
  const rounds = Number(flags.rounds ?? 3);
  const seconds = Number(flags.seconds ?? 5);
  const tickers = await busiestTickers(flags.serve === undefined ? dir : undefined, snapshotDir);
  /** A field of the rows at {@link MIDDLE} of a kind's NDJSON file. */
  const middle = (kind: string, field: string): string[] => MIDDLE.map((fraction) => String(rowAt(join(snapshotDir, `${kind}.ndjson`), fraction)[field]));
  const sets = [0, 1, 2, 3, 4].map((set) => tickers.slice(set * 10, set * 10 + 10).join(','));
  const list = (endpoint: string, queries: string[]): string[] => queries.map((query) => `${endpoint}?${query}&limit=20`);
  const cases: Case[] = [
    { name: 'filings: first', base: 'filings: first', paths: [`${FILINGS}?limit=20`] },
    { name: 'filings: tickers (10)', base: 'filings: first', paths: list(FILINGS, sets.map((set) => `tickers=${set}`)) },
    { name: 'filings: one day', base: 'filings: first', paths: list(FILINGS, middle('filings', 'filed_at').map((day) => `since=${day}&until=${day}`)) },
    { name: 'filings: form', base: 'filings: first', paths: list(FILINGS, ['form=8-K']) },
    { name: 'filings: ticker+form', base: 'filings: first', paths: list(FILINGS, tickers.slice(0, 5).map((ticker) => `ticker=${ticker}&form=8-K`)) },
    { name: 'insider-transactions: first', base: 'insider-transactions: first', paths: [`${TRANSACTIONS}?limit=20`] },
    { name: 'insider-transactions: tickers (10)', base: 'insider-transactions: first', paths: list(TRANSACTIONS, sets.map((set) => `tickers=${set}`)) },
    { name: 'insider-transactions: code=S', base: 'insider-transactions: first', paths: list(TRANSACTIONS, ['code=S']) },
    {
      name: 'insider-transactions: one day', base: 'insider-transactions: first',
      paths: list(TRANSACTIONS, middle('insider-transactions', 'transaction_date').map((day) => `since=${day}&until=${day}`)),
    },
    { name: 'insider-transactions: owner_cik', base: 'insider-transactions: first', paths: list(TRANSACTIONS, middle('insider-transactions', 'owner_cik').map((cik) => `owner_cik=${cik}`)) },
    { name: 'holders: first', base: 'holders: first', paths: [`${HOLDERS}?limit=20`] },
    { name: 'holders: ticker', base: 'holders: first', paths: list(HOLDERS, tickers.slice(0, 5).map((ticker) => `ticker=${ticker}`)) },
    { name: 'holders: cusip', base: 'holders: first', paths: list(HOLDERS, middle('holders', 'cusip').map((cusip) => `cusip=${cusip}`)) },
    { name: 'holders: cik', base: 'holders: first', paths: list(HOLDERS, middle('holders', 'filer_cik').map((cik) => `cik=${cik}`)) },
    { name: 'financials: first', base: 'financials: first', paths: [`${FINANCIALS}?limit=20`] },
    { name: 'financials: tickers (10)', base: 'financials: first', paths: list(FINANCIALS, sets.map((set) => `tickers=${set}`)) },
    { name: 'financials: FY', base: 'financials: first', paths: list(FINANCIALS, ['fiscal_period=FY']) },
    {
      name: 'financials: since/until', base: 'financials: first',
      paths: list(FINANCIALS, middle('financials', 'period_end').map((end) => `since=${end.slice(0, 4)}-01-01&until=${end}`)),
    },
    { name: 'overview walk', base: 'overview walk', paths: [] },
    { name: 'tickers walk', base: 'overview walk', paths: [] },
  ];
  const byName = new Map(cases.map((one) => [one.name, one]));
  const api = await startServer([join(ROOT, 'dist/cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1',
    '--snapshots', snapshots, '--keys', join(dir, 'keys.json'), '--access-log', 'off'], 300_000);
  const work = await mkdtemp(join(tmpdir(), 'eqf-filters-'));
  try {
    const keysText = join(dir, 'keys.txt');
    const keys = (await readFile(keysText, 'utf8')).trim().split('\n');
    let k = 0;
    /** GETs a path with the next key (each key's buckets stay far from empty); the response's row count and next path. */
    const get = async (path: string): Promise<{ count: number; next: string | undefined }> => {
      const response = await fetch(`${api.url}${path}`, { headers: { 'X-API-Key': keys[k++ % keys.length]! } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      const body = await response.json() as { count: number };
      const cursor = /cursor=([A-Za-z0-9_-]+)>/.exec(response.headers.get('link') ?? '')?.[1];
      return { count: body.count, next: cursor === undefined ? undefined : `${path.replace(/&cursor=.*$/, '')}&cursor=${cursor}` };
    };
    /** Consecutive pages from `path` (limit=20), then with limits 19, 21, 18, 22, …, until {@link WALK_PAGES} (a list of a small snapshot has fewer). */
    const walk = async (path: string): Promise<string[]> => {
      const pages: string[] = [];
      for (const limit of [20, 19, 21, 18, 22, 17, 23, 16, 24]) {
        let page: string | undefined = path.replace('limit=20', `limit=${limit}`);
        for (; page !== undefined && pages.length < WALK_PAGES; page = (await get(page)).next) pages.push(page);
      }
      return pages;
    };
    byName.get('overview walk')!.paths = await walk(byName.get('filings: first')!.paths[0]!);
    byName.get('tickers walk')!.paths = await walk(byName.get('filings: tickers (10)')!.paths[0]!);
    const files = new Map<string, string>();
    for (const { name, paths } of cases) {
      for (const path of paths.slice(0, 5)) process.stderr.write(`[filters] ${name}: ${path.slice(0, 120)} → ${(await get(path)).count} rows\n`);
      if (paths.length > 5) process.stderr.write(`[filters] ${name}: ${paths.length} pages\n`);
      files.set(name, join(work, `${name.replace(/\W/g, '-')}.txt`));
      await writeFile(files.get(name)!, paths.map((path) => `${path}\n`).join(''));
    }
    const { results, cpuUs } = await alternateRounds(api, keysText, files, { rounds, seconds, connections: CONNECTIONS, label: 'filters' });
    const rps = (name: string): number => median(results[name]!.map((r) => r.rps));
    const p99 = (name: string): number => median(results[name]!.map((r) => r.p99_us)) / 1000;
    const baseOf = (name: string): string => byName.get(name)!.base;
    /** Per round, the case against its base in the same round: the median of the ratios and their range. */
    const range = (name: string, of: (r: WrkResult) => number): string => {
      const ratios = results[name]!.map((r, i) => of(r) / of(results[baseOf(name)]![i]!));
      return `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
    };
    const lines = [
      `Filters bench: ${rounds} rounds (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end) × ${seconds} s per case, ${CONNECTIONS} connections, snapshot ${snapshotDir}`,
      '',
      '| case | req/s (median) | p99 ms (median) | server CPU µs/request (median) | req/s ratio, median (rounds) | p99 ratio, median (rounds) | CPU ratio (base/case) |',
      '|---|---|---|---|---|---|---|',
      ...cases.map(({ name }) => `| ${name} | ${rps(name).toFixed(0)} | ${p99(name).toFixed(2)} | ${median(cpuUs[name]!).toFixed(1)} | ` +
        `${range(name, (r) => r.rps)} | ${range(name, (r) => r.p99_us)} | ${(median(cpuUs[baseOf(name)]!) / median(cpuUs[name]!)).toFixed(2)} |`),
      '',
      'Ratios per round against the unfiltered first page of the same endpoint, the tickers walk\'s against the overview walk. Targets: req/s ratio ≥ 0.8, p99 ratio ≤ 1.5. CPU ratio: the base\'s server CPU per request over the case\'s (≥ 0.8: the server\'s own work meets the req/s target).',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await api.stop();
    await rm(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
