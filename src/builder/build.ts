/**
 * The snapshot builder: reads EDGAR's files under `from`, computes every row kind of
 * docs/api.md §6 and writes them with the snapshot writer, which verifies the version as the
 * server would before it publishes `CURRENT` (docs/api.md §7).
 */
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import type { StoredRow } from '../rows/types.js';
import { sortRows, writeSnapshot } from '../data/snapshot-writer.js';
import { cutAtAsOf, defaultAsOf } from './as-of.js';
import { buildSection } from './build-section.js';
import { companyDirectory } from './companies.js';
import { computeEarningsRows } from '../facts/earnings.js';
import { computeFilingRows } from '../facts/filings.js';
import { computeFinancialsRows } from '../facts/financials.js';
import { financialsSummary } from '../facts/financials-summary.js';
import { ExtractCache, type CacheStats } from './extract-cache.js';
import { builderFingerprint } from './fingerprint.js';
import { createExtractPool, defaultWorkers } from './extract-pool.js';
import type { Inputs } from './inputs.js';
import { readInputs } from './read-inputs.js';
import { addDays } from '../edgar/conventions.js';
import { computeInsiderRows, type InsiderOptions } from '../facts/insiders.js';
import { computeInsiderTransactionRows } from '../facts/insider-transactions.js';
import { issuerLookup } from '../facts/issuer-tickers.js';
import { knownFilings } from '../facts/known-filings.js';
import { computeReportRows } from '../facts/reports.js';
import { resolveInputs } from './resolve.js';
import { earningsRecap, filingSummary, holderSummary, insiderSummary, insiderTransactionSummary, reportSummary, whaleSummary } from '../facts/summaries.js';
import { computeHolderRows } from '../facts/holders.js';
import { peekFiles, walkAhead, walkFiles, type WalkedFile, type WalkStats } from './walk.js';
import { windowMiss, type WindowMiss } from './window-fit.js';
import { computeWhaleRows, foldPeriods, type Position } from '../facts/whales.js';

/** Options of a build; see command.ts for their command-line form. */
export interface BuildOptions {
  /** Folder of EDGAR files, walked recursively. */
  from: string;
  /** The snapshots folder. */
  out: string;
  /**
   * The snapshot's as-of date, `YYYY-MM-DD`: no row holds anything filed after it, and it is the
   * last day of the insider and filings windows. Default: the latest filing date read (never
   * after the build date), so that the snapshot holds everything read.
   */
  asOf?: string;
  /** Insider window in days, counting as-of. @default 90 */
  windowDays?: number;
  /** Filings window in days, counting as-of. @default 30 */
  filingsDays?: number;
  /** Version label; default `<as-of>_<build time>`. */
  version?: string;
  /** Whether to point CURRENT at the new version. @default true */
  publish?: boolean;
  /** Clock, for created_at and the default version. */
  now?: () => Date;
  /** Receives one line per skipped file and progress lines; default stderr. */
  log?: (line: string) => void;
  /** Whether to log progress. @default whether stderr is a TTY */
  progress?: boolean;
  /**
   * Folder of the incremental build cache: extracts of filing documents parsed by earlier builds,
   * keyed by accession number (extract-cache.ts). @default no cache
   */
  cache?: string;
  /**
   * Worker threads that parse the files, at most; 0 parses in the main thread. With `cache`, one
   * fewer start, and the last once the files to parse reach a fortieth of the cache's entries
   * (see {@link GROW_AT_ENTRIES_PER_FILE}); an empty cache starts them all.
   * @default one per core when there are {@link WORKERS_FROM_FILES} files or more, else 0
   */
  workers?: number;
}

/**
 * Files the walk may run ahead while a build reads its cache: about 200 bytes each, so at most
 * about 50 MB. Enough for a quarter's filings (their XML and header files), so that a daily
 * rebuild's walk reaches the new files, which come last or anywhere, while the cache is read.
 */
const WALK_AHEAD_FILES = 262_144;

/**
 * Cached entries per new file up to which a rebuild parses with one worker fewer than the
 * cores: the main thread decodes 100,000 entries in about 0.7 s, and one worker parses 2,500
 * files in about that time (0.28 ms a file, cold), on this project's 2-core machine. Past it,
 * parsing is the longer job and every core takes it.
 */
const GROW_AT_ENTRIES_PER_FILE = 40;

/** From how many input files a build starts worker threads by default: below it, starting them costs more than they save. */
export const WORKERS_FROM_FILES = 2_000;

/** Defaults of the build options. */
export const BUILD_DEFAULTS = Object.freeze({
  /** Insider window, days (docs/api.md §6 example). */
  windowDays: 90,
  /** Filings window, days. */
  filingsDays: 30,
});

/** What a build wrote. */
export interface BuildResult {
  version: string;
  dir: string;
  rows: Record<RowKind, number>;
  build: Record<string, unknown>;
  /** What the cache did, when `cache` was given. */
  cache?: CacheStats;
  /** Set where a window holds none of the inputs' data for its kind (window-fit.ts): the command refuses to publish such a version. */
  windowMiss?: WindowMiss;
}

/**
 * Builds, verifies and publishes a snapshot.
 *
 * @throws Error when a kind that had inputs ends up without rows, or when the written
 *   snapshot fails verification (nothing is published then).
 */
export async function buildSnapshot(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const progress = options.progress ?? process.stderr.isTTY === true;
  const windowDays = options.windowDays ?? BUILD_DEFAULTS.windowDays;
  const filingsDays = options.filingsDays ?? BUILD_DEFAULTS.filingsDays;
  const now = (options.now ?? (() => new Date()))();
  if (options.workers !== undefined && !(Number.isInteger(options.workers) && options.workers >= 0 && options.workers <= 64)) {
    throw new Error(`workers must be a whole number from 0 to 64, got ${String(options.workers)}`);
  }

  // Enough of the walk to decide on worker threads; the rest is walked as it is read.
  const stats: WalkStats = {};
  const walk = walkFiles(options.from, stats);
  const { head, done } = await peekFiles(walk, WORKERS_FROM_FILES);
  const workers = options.workers ?? (done ? 0 : defaultWorkers());
  // A rebuild's main thread decodes the cache while the workers parse the new files: one core
  // is left to it while they are few (readInputs' growAt).
  const pool = createExtractPool(workers, { initial: options.cache === undefined ? workers : workers - 1 });
  // The rest of the walk is stat'ed by the workers, when there are any.
  stats.stat = pool.stat;
  let inputs: Inputs;
  let cache: ExtractCache | undefined;
  try {
    let files: AsyncIterator<WalkedFile[]> = (async function* () {
      yield* head;
      if (!done) yield* walk;
    })();
    if (options.cache !== undefined) {
      // Reading the cache takes a while: the workers start meanwhile, for the files it lacks,
      // and the walk goes on (its stats in the workers).
      pool.warm();
      files = walkAhead(files, WALK_AHEAD_FILES);
      cache = await ExtractCache.open(options.cache, await builderFingerprint());
    }
    let logged = 0;
    inputs = await readInputs({ [Symbol.asyncIterator]: () => files }, {
      pool, cache,
      // While the new files are few against the cache, decoding the cache is the longer job.
      growAt: cache ? cache.stats.loaded / GROW_AT_ENTRIES_PER_FILE : 0,
      progress: (read) => {
        if (!progress || read - logged < 1000) return;
        logged = read;
        log(`build: read ${read} files`);
      },
    });
  } catch (error) {
    // What the cache had written of this build's new segment is abandoned with it.
    await cache?.discard();
    throw error;
  } finally {
    await pool.close();
  }
  if (cache) {
    await cache.save();
    const s = cache.stats;
    log(`build: cache ${options.cache}: ${s.hits} files from the cache, ${s.misses} parsed, ${s.written} entries written${s.corrupt + s.foreign > 0 ? `, ${s.corrupt} damaged entries and ${s.foreign} foreign segments ignored` : ''}`);
  }
  const { asOf, rows, counts, build, windowMiss: miss } = computeSnapshot(inputs, {
    from: options.from, asOf: options.asOf, today: now.toISOString().slice(0, 10), windowDays, filingsDays, log,
  });
  const version = options.version ?? `${asOf}_${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const dates = [asOf, ...rows.filings.map((r) => (r as { filed_at: string }).filed_at), ...rows.earnings.map((r) => (r as { filed_at: string }).filed_at), ...rows.whales.map((r) => (r as { filed_at: string }).filed_at)];
  const written = await writeSnapshot({
    root: options.out, version, createdAt: now.toISOString(), dataThrough: dates.reduce((a, b) => (a > b ? a : b)), build,
    rows: Object.fromEntries(ROW_KINDS.map((k) => [k, sortRows(k, rows[k])])) as Record<RowKind, StoredRow[]>,
    publish: options.publish,
  });
  if (progress) log(`build: wrote ${ROW_KINDS.map((k) => `${counts[k]} ${k}`).join(', ')} to ${written.dir}`);
  return { version, dir: written.dir, rows: counts, build, ...(cache ? { cache: cache.stats } : {}), ...(miss ? { windowMiss: miss } : {}) };
}

/** What {@link computeSnapshot} needs besides the inputs. */
export interface ComputeOptions {
  /** `--from`, for the manifest and the paths of skipped files. */
  from: string;
  /** As in {@link BuildOptions.asOf}; undefined for the default. */
  asOf: string | undefined;
  /** The build date, `YYYY-MM-DD`: the default as-of date is never after it. */
  today: string;
  /** Insider window in days, counting as-of. */
  windowDays: number;
  /** Filings window in days, counting as-of. */
  filingsDays: number;
  /** Receives one line per skipped file. */
  log: (line: string) => void;
}

/** The rows of a snapshot and its manifest's `build` section. */
export interface ComputedSnapshot {
  /** The as-of date, `YYYY-MM-DD`. */
  asOf: string;
  /** Rows of each kind, unsorted, with their summaries. */
  rows: Record<RowKind, StoredRow[]>;
  counts: Record<RowKind, number>;
  build: Record<string, unknown>;
  /** Set where the insider or filings window holds none of the inputs' data (window-fit.ts). */
  windowMiss?: WindowMiss;
}

/**
 * Everything after the read, in the main thread: joins the inputs, cuts them at the as-of
 * date, computes the rows of every kind and the manifest's `build` section. Releases the parts
 * of `inputs` that resolve has joined (see {@link releaseResolved}).
 *
 * @param inputs - everything read; skipped files found while joining are added to `inputs.skipped`.
 * @throws Error when a kind that had inputs ends up without rows.
 */
export function computeSnapshot(inputs: Inputs, options: ComputeOptions): ComputedSnapshot {
  const { windowDays, filingsDays, log } = options;
  const resolved = resolveInputs(inputs);
  for (const s of inputs.skipped) log(`build: skipped ${s.path}: ${s.reason}`);
  releaseResolved(inputs);

  const asOf = options.asOf ?? defaultAsOf(resolved, inputs.companyFacts, options.today);
  const known = cutAtAsOf(resolved, inputs.companyFacts, asOf);
  const company = companyDirectory(inputs, asOf);
  const issuer = (cik: string): { ticker: string; tickers: string[]; name: string } | undefined => {
    const c = company(cik);
    return c?.tickers[0] ? { ticker: c.tickers[0], tickers: c.tickers, name: c.name } : undefined;
  };
  // The insider and insider-transaction rows share their window and issuer lookup, so that they agree (docs/api.md §16).
  const insiderOptions: InsiderOptions = {
    asOf, windowDays,
    issuer: (cik, filing) => issuer(cik)
      ?? (filing.issuerTradingSymbol ? { ticker: filing.issuerTradingSymbol, tickers: [filing.issuerTradingSymbol], name: filing.issuerName } : undefined),
  };
  const insiders = computeInsiderRows(known.ownership, insiderOptions);
  const transactions = computeInsiderTransactionRows(known.ownership, insiderOptions);
  // Every position read up to the as-of date: the spellings of each CUSIP (issuer-tickers.ts).
  const issuerOf = issuerLookup(inputs.tickers, known.thirteenF.map((f) => f.entries));
  const periods = foldPeriods(known.thirteenF);
  const tickerOf = (p: Position): string | null => issuerOf(p)?.ticker ?? null;
  const whales = computeWhaleRows(periods, tickerOf);
  const holders = computeHolderRows(periods, {
    ticker: tickerOf,
    tickers: (p) => {
      const issuerCik = issuerOf(p)?.cik;
      return issuerCik === undefined ? [] : company(issuerCik)?.tickers ?? [];
    },
    summary: (row, p) => holderSummary(row, p.sharesType),
  });
  const earnings = computeEarningsRows(known.filings, issuer, known.companyFacts);
  const ownersByAccession = new Map(known.ownership.map((f) => [f.accessionNo, f.owners]));
  const filings = computeFilingRows(known.filings, asOf, filingsDays, (cik) => ({ tickers: company(cik)?.tickers ?? [], name: company(cik)?.name || null }),
    (accessionNo) => ownersByAccession.get(accessionNo));
  const financials = computeFinancialsRows(known.companyFacts, (cik) => {
    const c = company(cik);
    return c ? { tickers: c.tickers, name: c.name || known.companyFacts.get(cik)!.name, fiscalYearEnd: c.fiscalYearEnd } : undefined;
  });
  const reports = computeReportRows({
    company, known: knownFilings({ records: known.filings, ownership: known.ownership, thirteenF: known.thirteenF, companyFacts: known.companyFacts }), insiders: insiders.rows, earnings: earnings.rows, periods, issuerOf,
  });

  const rows: Record<RowKind, StoredRow[]> = {
    insiders: insiders.rows.map((r) => withText(r, 'summary', insiderSummary(r))),
    whales: whales.map((r) => withText(r, 'summary', whaleSummary(r))),
    earnings: earnings.rows.map((r) => withText(r, 'recap', earningsRecap(r))),
    filings: filings.map((r) => withText(r, 'summary', filingSummary(r))),
    reports: reports.rows.map((r) => withText(r, 'summary', reportSummary(r))),
    'insider-transactions': transactions.rows.map((r) => withText(r, 'summary', insiderTransactionSummary(r))),
    financials: financials.rows.map((r) => withText(r, 'summary', financialsSummary(r))),
    holders,
  };
  // A kind with inputs inside the as-of date and its window but no rows means a step dropped everything.
  const filingsStart = addDays(asOf, -(filingsDays - 1));
  const hadInputs: Record<RowKind, boolean> = {
    // What a 4/A replaced does not count: an amendment may take back the only trade.
    insiders: insiders.tradesInWindow > 0,
    whales: known.thirteenF.some((f) => f.entries.length > 0),
    earnings: earnings.rows.length + earnings.withoutTicker + earnings.withoutDocument > 0,
    filings: known.filings.some((f) => f.filedAt >= filingsStart),
    reports: known.filings.some((f) => (company(f.cik)?.tickers.length ?? 0) > 0),
    // Lines that lack a field EDGAR's schema requires are no rows (counted in the manifest), nor a sign of a dropped step.
    'insider-transactions': transactions.linesInWindow > Object.values(transactions.linesLeftOut).reduce((a, b) => a + b, 0),
    financials: financials.periodsPlaceable > 0,
    holders: known.thirteenF.some((f) => f.entries.length > 0),
  };
  const empty = ROW_KINDS.filter((kind) => hadInputs[kind] && rows[kind].length === 0);
  if (empty.length > 0) throw new Error(`no ${empty.join(', ')} rows although the input had some (check --as-of ${asOf}, --window-days ${windowDays}, --filings-days ${filingsDays})`);

  const counts = Object.fromEntries(ROW_KINDS.map((k) => [k, rows[k].length])) as Record<RowKind, number>;
  const build = buildSection({
    options: { from: options.from, as_of: asOf, as_of_source: options.asOf ? 'option' : 'latest filing date read', window_days: windowDays, filings_days: filingsDays },
    inputs, resolved, known, counts, insiders, transactions, earnings, reports, financials: financials.notes, periods, issuerOf,
  });
  const miss = windowMiss({ filings: known.filings, ownership: known.ownership, asOf, windowDays, filingsDays, rows: counts });
  return { asOf, rows, counts, build, ...(miss ? { windowMiss: miss } : {}) };
}

function withText<T extends object>(row: T, field: 'summary' | 'recap', value: string | undefined): T {
  return value === undefined ? row : { ...row, [field]: value };
}

/**
 * Drops what resolve has joined and nothing reads again (the documents' records, header JSON,
 * the raw filing list): in a large build they are most of the heap, and the rows are computed
 * from `resolved`. What stays: companies, tickers, header profiles, company facts, and the counts
 * and notes of the manifest.
 */
function releaseResolved(inputs: Inputs): void {
  inputs.filings = [];
  inputs.ownership = [];
  inputs.looseOwnership = [];
  inputs.dataSetOwnership = [];
  inputs.thirteenF = [];
  inputs.looseThirteenF = [];
  inputs.dataSetThirteenF = [];
  inputs.looseHtml = [];
  inputs.submissionsAcceptance = [];
  inputs.headerJson.clear();
  inputs.headerJsonByStem.clear();
  inputs.strings.clear();
}
