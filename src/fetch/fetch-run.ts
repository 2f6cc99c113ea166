/**
 * A fetch run (docs/api.md §14): the ticker files first, then either the chosen companies and their
 * filings (company-files.ts) or SEC's bulk products (bulk-files.ts), all through one polite client
 * at one shared rate, into a folder that mirrors EDGAR's paths. It ends with a summary in the log
 * and in `.equity-facts-fetch.json`.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TickerMap, isTickerFile, parseTickerFile } from '../edgar/company/ticker-files.js';
import { fetchBulk } from './bulk-files.js';
import { fetchCompanies } from './company-files.js';
import { EdgarClient, StorageError, UserAgentRefusedError } from './edgar-client.js';
import { COMPANY_TICKERS, COMPANY_TICKERS_EXCHANGE } from './edgar-paths.js';
import { resolveFetchOptions, type FetchOptions, type ResolvedFetchOptions } from './fetch-options.js';
import { FetchTally, SUMMARY_FILE, summaryLines, writeSummaryFile, type RunEnd } from './fetch-summary.js';
import { Mirror } from './mirror.js';
import { ProgressLine } from './progress-line.js';
import { RateGate } from './rate-gate.js';

/** How a run went. */
export interface FetchResult {
  readonly tally: FetchTally;
  readonly end: RunEnd;
  /** 0: holds everything it could get (404s aside); 1: gave up on errors or was stopped; 130: interrupted. */
  readonly exitCode: 0 | 1 | 130;
  readonly summaryFile: string;
}

/** A selection EDGAR cannot satisfy (an unknown ticker): the operator's mistake, exit code 2. */
export class FetchSelectionError extends Error {}

/**
 * Runs a fetch.
 *
 * @throws FetchOptionError naming a bad option; {@link FetchSelectionError} for tickers EDGAR does
 *   not list; {@link StorageError} when the output folder cannot be created.
 */
export async function runFetch(options: FetchOptions): Promise<FetchResult> {
  const o = resolveFetchOptions(options);
  const tally = new FetchTally();
  const progress = new ProgressLine(o.progress, o.now, tally);
  const client = new EdgarClient({
    userAgent: o.userAgent, baseUrl: o.baseUrl, retries: o.retries, backoffBaseMs: o.backoffBaseMs, backoffCapMs: o.backoffCapMs,
    idleTimeoutMs: o.idleTimeoutMs, now: o.now, sleep: o.sleep, random: o.random, signal: o.signal,
    gate: new RateGate({ requestsPerSecond: o.requestsPerSecond, now: o.now, sleep: o.sleep }),
    observe: (event) => {
      o.observe(event);
      if (event.type === 'request') {
        tally.requests++;
        progress.request();
      } else if (event.type === 'retry') {
        tally.retries++;
        progress.clear();
        o.log(`fetch: ${event.url}: ${event.reason}; ${event.pausesAll ? 'all requests wait' : 'retrying in'} ${(event.waitMs / 1000).toFixed(1)} s (retry ${event.attempt} of ${o.retries})`);
      }
    },
  });
  const mirror = new Mirror(o.out, client, tally, o.now, o.refreshAfterMs);
  const startedAt = o.now();
  let end: RunEnd = 'complete';
  try {
    await mkdir(o.out, { recursive: true });
  } catch (error) {
    throw new StorageError(`cannot create the output folder ${o.out}: ${(error as Error).message}`);
  }
  try {
    progress.phase('ticker files:', 2);
    const tickerFiles = [await mirror.ensure(COMPANY_TICKERS, 'updated', validateTickers), await mirror.ensure(COMPANY_TICKERS_EXCHANGE, 'updated', validateTickers)];
    if (o.bulk) {
      await fetchBulk({ client, mirror, tally, progress, since: o.since, concurrency: o.concurrency });
    } else {
      const ciks = await chooseCiks(o, tickerFiles, tally);
      if (ciks) await fetchCompanies(ciks, { mirror, tally, progress, since: o.since, concurrency: o.concurrency });
      else end = 'stopped';
    }
  } catch (error) {
    if (o.signal?.aborted && error === o.signal.reason) {
      end = 'interrupted';
    } else if (error instanceof UserAgentRefusedError || error instanceof StorageError) {
      end = 'stopped';
      tally.failed.push({ url: error instanceof StorageError ? '(output folder)' : '(every request)', reason: error.message });
    } else {
      progress.clear();
      throw error;
    }
  }
  progress.clear();
  const finishedAt = o.now();
  let summaryFile = join(o.out, SUMMARY_FILE);
  try {
    summaryFile = await writeSummaryFile(o.out, tally, end, startedAt, finishedAt);
  } catch (error) {
    o.log(`fetch: cannot write ${summaryFile}: ${(error as Error).message}`);
  }
  for (const line of summaryLines(tally, end, finishedAt - startedAt, summaryFile)) o.log(line);
  const exitCode = end === 'interrupted' ? 130 : end === 'stopped' || tally.failed.length > 0 ? 1 : 0;
  return { tally, end, exitCode, summaryFile };
}

/**
 * The CIKs to fetch: as given, from the tickers (company_tickers.json), or every company.
 *
 * @returns the CIKs, or undefined when company_tickers.json is needed and could not be had.
 * @throws FetchSelectionError naming tickers EDGAR does not list.
 */
async function chooseCiks(o: ResolvedFetchOptions, tickerFiles: (string | undefined)[], tally: FetchTally): Promise<string[] | undefined> {
  if (o.selection.kind === 'ciks') return [...o.selection.ciks];
  const map = new TickerMap();
  for (const file of tickerFiles) if (file) map.add(parseTickerFile(JSON.parse(await readFile(file, 'utf8'))));
  if (!tickerFiles[0]) {
    tally.failed.push({ url: '(selection)', reason: 'company_tickers.json could not be fetched, so tickers cannot be resolved to CIKs' });
    return undefined;
  }
  if (o.selection.kind === 'all') return [...map.entries()].map(([cik]) => cik).sort();
  const unknown = o.selection.tickers.filter((t) => map.cikOf(t) === undefined);
  if (unknown.length > 0) throw new FetchSelectionError(`not in company_tickers.json: ${unknown.join(', ')} (renamed or delisted tickers are not listed; give --ciks instead)`);
  return [...new Set(o.selection.tickers.map((t) => map.cikOf(t)!))];
}

/** Refuses a ticker file that is not one (an HTML error page, a truncated body). */
async function validateTickers(file: string): Promise<void> {
  if (!isTickerFile(JSON.parse(await readFile(file, 'utf8')))) throw new Error('not a company_tickers file');
}
