/**
 * `tsx scripts/gen-snapshot.ts --companies 10000 --filings 1000000 [--out DIR] [--seed N] ...`
 *
 * Writes a synthetic snapshot at EDGAR scale in the real format (through `writeSnapshot`, so it
 * is verified exactly as the server verifies it and has its index files, docs/api.md §17), plus
 * a keys file of Founders keys for the benchmark. Rows are streamed day by day from generators;
 * only one day of filings is held at a time. Filings per company follow a Zipf law (a few tickers
 * with very many filings, most with few); every row carries its written field. The same options
 * and seed give the same bytes.
 *
 * Output under DIR:
 *   snapshots/CURRENT, snapshots/<version>/…   the snapshot (`serve --snapshots DIR/snapshots`)
 *   keys.json                                   keys file (hashes only; `serve --keys`)
 *   keys.txt                                    the plaintext keys, one a line, for wrk's Lua script
 *   tickers.txt                                 "TICKER FILINGS" per company, most filings first
 *   gen.json                                    the options and counts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { sortRows, writeSnapshot } from '../src/data/snapshot-writer.js';
import { writeKeysFile } from '../src/keys/keys-command.js';
import { hashKey, type KeyRecord } from '../src/keys/keys-file.js';
import { BASE62, KEY_PREFIX, keyChecksum } from '../src/keys/mint.js';
import type { EarningsRow, FilingRow, HolderRow, InsiderTransactionRow } from '../src/rows/types.js';
import { makeFinancials } from './bench/synthetic-financials.js';
import { makeManyHolders } from './bench/synthetic-holders.js';
import {
  businessDays, makeCompanies, makeEarnings, makeFiling, makeHolders, makeInsider, makeInsiderTransactions, makeReport, makeWhale, perDay, randomInt,
  seededRandom, zipfSampler, type Company, type CompanyActivity,
} from './bench/synthetic-rows.js';

/** Options of {@link generateSnapshot}. */
export interface GenerateOptions {
  /** Output folder. */
  out: string;
  /** Companies with a ticker. */
  companies: number;
  /** Filing rows. */
  filings: number;
  /** Seed of every random choice. @default 1 */
  seed?: number;
  /** Founders keys written to keys.json / keys.txt; 0 writes none. @default 10000 */
  keys?: number;
  /** Zipf exponent of filings per company. @default 1.0 */
  zipf?: number;
  /** 13F filers (whale rows). @default 5000 (about the number of 13F-HR filers per quarter) */
  whales?: number;
  /** Earnings rows. @default filings / 25 */
  earnings?: number;
  /** Insider-transaction rows, about (forms have 1 to 4 lines each). @default filings / 2 */
  transactions?: number;
  /** Financials rows: each company's fiscal quarters and years, latest first. @default companies × 25 (about six years) */
  financials?: number;
  /**
   * Holder rows: positions of the 13F filers (the whale rows' filers) over the companies' CUSIPs,
   * popular stocks held by many (scripts/bench/synthetic-holders.ts). @default one row per
   * distinct CUSIP of each whale row's top holdings (about 10 a filer)
   */
  holders?: number;
  /** Last business day the data covers. @default 2025-06-30 */
  through?: string;
  /**
   * Revision: the same companies (drawn from `seed`) with other filings, earnings and figures,
   * like the next day's build; the reload benchmark swaps revision 0 for revision 1. @default 0
   */
  revision?: number;
  /** Version label. @default syn-f<filings>-s<seed>, plus -r<revision> when not 0 */
  version?: string;
  /** Point CURRENT at the new version. @default true */
  publish?: boolean;
}

/** What {@link generateSnapshot} wrote. */
export interface GenerateResult {
  snapshotsDir: string;
  version: string;
  rows: Record<string, number>;
  /** Filings of the busiest ticker, and the median over tickers. */
  filingsPerTicker: { max: number; median: number; min: number };
  keysFile: string | null;
  keysText: string | null;
  seconds: number;
}

/** Filers without a ticker, per company with one; they file 5% of all filings. */
const NO_TICKER_SHARE = 0.1;
const NO_TICKER_FILINGS = 0.05;

/**
 * Writes the synthetic snapshot and keys.
 *
 * @throws Error when the version already exists under `out/snapshots`, or a count is not a
 *   whole number of at least 1.
 */
export async function generateSnapshot(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const through = options.through ?? '2025-06-30';
  const nFilings = options.filings;
  const nEarnings = options.earnings ?? Math.round(nFilings / 25);
  const nTransactions = options.transactions ?? Math.round(nFilings / 2);
  const nWhales = options.whales ?? 5000;
  const nFinancials = options.financials ?? options.companies * 25;
  const nKeys = options.keys ?? 10_000;
  for (const [name, value] of Object.entries({ companies: options.companies, filings: nFilings, whales: nWhales, holders: options.holders ?? 1 })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a whole number, 1 or more`);
  }
  const revision = options.revision ?? 0;
  const version = options.version ?? `syn-f${nFilings}-s${seed}${revision === 0 ? '' : `-r${revision}`}`;
  // Seed of everything but the companies themselves.
  const rowSeed = seed + revision * 7919;
  const companies = makeCompanies(seededRandom(seed), options.companies, Math.max(1, Math.round(options.companies * NO_TICKER_SHARE)));
  const listed = companies.filter((c): c is Company & { ticker: string } => c.ticker !== null);
  const unlisted = companies.filter((c) => c.ticker === null);
  const days = businessDays(through, Math.min(2520, Math.max(20, Math.ceil(nFilings / 400))));
  const zipf = zipfSampler(listed.length, options.zipf ?? 1.0);

  // Which company files on which day comes from its own generator, so a first pass can count
  // filings per company (for report rows, written first) and the second pass repeats it.
  const plan = function* (): Generator<[number, number]> {
    const random = seededRandom(rowSeed + 101);
    for (let d = 0; d < days.length; d++) {
      for (let i = perDay(nFilings, days.length, d); i > 0; i--) {
        yield [d, random() < NO_TICKER_FILINGS ? listed.length + randomInt(random, unlisted.length) : zipf(random)];
      }
    }
  };
  const ordered = [...listed, ...unlisted];
  const activity: CompanyActivity[] = ordered.map(() => ({ filings: 0, latest: null }));
  for (const [d, c] of plan()) {
    const a = activity[c]!;
    a.filings++;
    a.latest ??= days[d]!;
  }

  const filings = function* (): Generator<FilingRow> {
    const random = seededRandom(rowSeed + 202);
    let day = -1;
    let batch: FilingRow[] = [];
    let sequence = 0;
    for (const [d, c] of plan()) {
      if (d !== day) {
        yield* sortRows('filings', batch);
        batch = [];
        day = d;
      }
      batch.push(makeFiling(random, ordered[c]!, days[d]!, sequence++));
    }
    yield* sortRows('filings', batch);
  };
  const earnings = function* (): Generator<EarningsRow> {
    const random = seededRandom(rowSeed + 303);
    let sequence = 500_000;
    for (let d = 0; d < days.length; d++) {
      const batch: EarningsRow[] = [];
      for (let i = perDay(nEarnings, days.length, d); i > 0; i--) {
        batch.push(makeEarnings(random, listed[randomInt(random, listed.length)]!, days[d]!, sequence++));
      }
      yield* sortRows('earnings', batch);
    }
  };
  let transactionRows = 0;
  // Forms of 2.5 lines on average, each day's sorted (the lines of a form stay in their order: the sort is stable).
  const transactions = function* (): Generator<InsiderTransactionRow> {
    const random = seededRandom(rowSeed + 909);
    let sequence = 2_000_000;
    for (let d = 0; d < days.length; d++) {
      const batch: InsiderTransactionRow[] = [];
      for (let i = perDay(Math.round(nTransactions / 2.5), days.length, d); i > 0; i--) {
        batch.push(...makeInsiderTransactions(random, ordered[zipf(random)]!, days[d]!, sequence++));
      }
      transactionRows += batch.length;
      yield* sortRows('insider-transactions', batch);
    }
  };
  const reportRandom = seededRandom(rowSeed + 404);
  const insiderRandom = seededRandom(rowSeed + 505);
  const whaleRandom = seededRandom(rowSeed + 606);
  const whaleFilers = makeCompanies(seededRandom(rowSeed + 707), nWhales, 0).map((c, i) => ({ ...c, cik: String(9_000_000 + i * 7).padStart(10, '0') }));
  const whales = sortRows('whales', whaleFilers.map((f, i) => makeWhale(whaleRandom, f, listed, through, 900_000 + i)));
  let holderRows = 0;
  const holders = function* (): Generator<HolderRow> {
    const rows = options.holders === undefined ? sortRows('holders', whales.flatMap(makeHolders))
      : makeManyHolders(seededRandom(rowSeed + 1010), whales, listed, zipf, options.holders);
    for (const row of rows) {
      holderRows++;
      yield row;
    }
  };
  const snapshotsDir = join(options.out, 'snapshots');
  await writeSnapshot({
    root: snapshotsDir, version, dataThrough: through, publish: options.publish ?? true,
    build: { synthetic: true, generator: 'scripts/gen-snapshot.ts', seed, revision, companies: options.companies, filings: nFilings, zipf: options.zipf ?? 1.0 },
    rows: {
      reports: sortRows('reports', listed.map((c, i) => makeReport(reportRandom, c, activity[i]!))),
      // About 70% of listed companies had open-market insider trades in the window.
      insiders: sortRows('insiders', listed.filter(() => insiderRandom() < 0.7).map((c, i) => makeInsider(insiderRandom, c, through, i))),
      whales,
      earnings: earnings(),
      filings: filings(),
      'insider-transactions': transactions(),
      financials: makeFinancials(seededRandom(rowSeed + 909), companies, through, nFinancials),
      // The whales' top holdings, one row each (about 10 a filer), or --holders positions.
      holders: holders(),
    },
  });

  let keysFile: string | null = null;
  let keysText: string | null = null;
  if (nKeys > 0) [keysFile, keysText] = await writeKeys(options.out, nKeys, seed);
  const counts = listed.map((_, i) => activity[i]!.filings).sort((a, b) => b - a);
  const byFilings = listed.map((c, i) => [c.ticker, activity[i]!.filings] as const).sort((a, b) => b[1] - a[1]);
  await writeFile(join(options.out, 'tickers.txt'), byFilings.map(([t, n]) => `${t} ${n}\n`).join(''));
  const result: GenerateResult = {
    snapshotsDir, version,
    rows: {
      reports: listed.length, filings: nFilings, earnings: nEarnings, whales: nWhales, 'insider-transactions': transactionRows, financials: nFinancials,
      holders: holderRows,
    },
    filingsPerTicker: { max: counts[0] ?? 0, median: counts[counts.length >> 1] ?? 0, min: counts[counts.length - 1] ?? 0 },
    keysFile, keysText, seconds: (performance.now() - started) / 1000,
  };
  await writeFile(join(options.out, 'gen.json'), `${JSON.stringify({ options, result }, null, 2)}\n`);
  return result;
}

/** Founders keys in the minted format (`eqf_` + base62 + checksum), drawn from the seed. */
async function writeKeys(out: string, count: number, seed: number): Promise<[string, string]> {
  const random = seededRandom(seed + 808);
  const keys: string[] = [];
  const records: KeyRecord[] = [];
  for (let i = 0; i < count; i++) {
    let body = KEY_PREFIX;
    for (let j = 0; j < 32; j++) body += BASE62[randomInt(random, 62)];
    const key = body + keyChecksum(body);
    keys.push(key);
    records.push({
      id: `k_bench_${i}`, sha256: hashKey(key), account: `bench-${i}`, plan: 'founders', status: 'active',
      created_at: '2025-06-30T00:00:00Z',
    });
  }
  await mkdir(out, { recursive: true });
  const keysFile = join(out, 'keys.json');
  const keysText = join(out, 'keys.txt');
  await writeKeysFile(keysFile, records);
  await writeFile(keysText, keys.map((key) => `${key}\n`).join(''), { mode: 0o600 });
  return [keysFile, keysText];
}

const USAGE = `usage: tsx scripts/gen-snapshot.ts --companies N --filings N [--out DIR] [--seed N] [--keys N]
       [--zipf S] [--whales N] [--earnings N] [--transactions N] [--financials N] [--holders N] [--through YYYY-MM-DD] [--revision N] [--version V] [--no-publish]`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true, options: {
      companies: { type: 'string' }, filings: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' },
      keys: { type: 'string' }, zipf: { type: 'string' }, whales: { type: 'string' }, earnings: { type: 'string' }, transactions: { type: 'string' },
      financials: { type: 'string' }, holders: { type: 'string' },
      through: { type: 'string' }, revision: { type: 'string' }, version: { type: 'string' }, 'no-publish': { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const number = (name: keyof typeof values): number | undefined => {
    const raw = values[name];
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (typeof raw !== 'string' || !Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${String(raw)}`);
    return value;
  };
  const companies = number('companies') ?? 10_000;
  const filings = number('filings') ?? 1_000_000;
  const out = values.out ?? `bench-out/snap-c${companies}-f${filings}-s${number('seed') ?? 1}-r${number('revision') ?? 0}`;
  const result = await generateSnapshot({
    out, companies, filings, seed: number('seed'), keys: number('keys'), zipf: number('zipf'), whales: number('whales'),
    earnings: number('earnings'), transactions: number('transactions'), financials: number('financials'), holders: number('holders'), through: values.through, revision: number('revision'),
    version: values.version, publish: !values['no-publish'],
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`gen-snapshot: ${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 1;
  });
}
