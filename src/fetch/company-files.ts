/**
 * The per-company path of `fetch`: each company's submissions JSON (and the older pages that
 * reach into the window) and company facts, then the documents of every filing in the window
 * (see filing-plan.ts), each filing once even when several chosen companies list it.
 */
import { open, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { isSubmissionsFile, parseSubmissions } from '../edgar/company/submissions-json.js';
import { informationTable, pressRelease } from '../edgar/filing/document-types.js';
import { readIndexDocuments } from '../edgar/filing/index-page.js';
import { archiveLocation, companyFactsLocation, filingIndexLocation, submissionsLocation } from './edgar-paths.js';
import { pagesInWindow, planFilings, type PlannedFiling } from './filing-plan.js';
import type { FetchTally } from './fetch-summary.js';
import type { Mirror } from './mirror.js';
import type { ProgressLine } from './progress-line.js';
import { forEachLimit } from './work-pool.js';

/** What the per-company path works with. */
export interface CompanyRun {
  readonly mirror: Mirror;
  readonly tally: FetchTally;
  readonly progress: ProgressLine;
  /** First filing date of the window, `YYYY-MM-DD`. */
  readonly since: string;
  readonly concurrency: number;
}

/** Files a filing of each kind is expected to take (for the progress line). */
const FILES_PER_FILING = { ownership: 1, thirteenF: 3, earnings: 3 } as const;

/**
 * Fetches the chosen companies and their filings in the window.
 *
 * @param ciks - 10-digit CIKs, in the order their filings are preferred when two list the same one.
 * @throws the abort reason; {@link UserAgentRefusedError}.
 */
export async function fetchCompanies(ciks: readonly string[], run: CompanyRun): Promise<void> {
  run.progress.phase(`${ciks.length.toLocaleString('en-US')} ${ciks.length === 1 ? 'company' : 'companies'}:`, ciks.length * 2);
  const planned: PlannedFiling[][] = [];
  await forEachLimit(ciks.map((cik, i) => ({ cik, i })), run.concurrency, async ({ cik, i }) => {
    planned[i] = await fetchCompany(cik, run);
  });
  const byAccession = new Map<string, PlannedFiling>();
  for (const filing of planned.flat()) if (!byAccession.has(filing.accessionNo)) byAccession.set(filing.accessionNo, filing);
  const filings = [...byAccession.values()];
  run.progress.phase(`${filings.length.toLocaleString('en-US')} ${filings.length === 1 ? 'filing' : 'filings'} since ${run.since}:`, run.tally.done);
  run.progress.expect(filings.reduce((sum, f) => sum + FILES_PER_FILING[f.kind], 0));
  await forEachLimit(filings, run.concurrency, (filing) => fetchFilingDocuments(filing, run));
}

async function fetchCompany(cik: string, run: CompanyRun): Promise<PlannedFiling[]> {
  const { mirror, tally } = run;
  const location = submissionsLocation(cik);
  const main = await mirror.ensure(location, 'updated', validateJson);
  if (!main) return [];
  const value: unknown = JSON.parse(await readFile(main, 'utf8'));
  const planned: PlannedFiling[] = [];
  const plan = (file: string, json: unknown): void => {
    try {
      const { planned: found, passedOver } = planFilings(parseSubmissions(json, basename(file)).filings, run.since);
      planned.push(...found);
      for (const p of passedOver) tally.passedOver.push({ what: `${p.accessionNo} (Form ${p.form})`, reason: p.reason });
    } catch (error) {
      tally.passedOver.push({ what: file, reason: `unreadable submissions JSON: ${(error as Error).message}` });
    }
  };
  if (!isSubmissionsFile(value)) {
    tally.passedOver.push({ what: mirror.url(location), reason: 'not a submissions JSON' });
    return [];
  }
  plan(main, value);
  const pages = pagesInWindow(value, run.since);
  run.progress.expect(pages.length);
  for (const page of pages) {
    const file = await mirror.ensure(page, 'updated', validateJson);
    if (file) plan(file, JSON.parse(await readFile(file, 'utf8')));
  }
  // Company facts exist for XBRL filers; a reporting owner (a person, entityType "other",
  // no ticker) has none, and asking would only add a 404.
  const record = value as { entityType?: unknown; tickers?: unknown };
  if (record.entityType === 'operating' || (Array.isArray(record.tickers) && record.tickers.length > 0)) {
    await mirror.ensure(companyFactsLocation(cik), 'updated', validateJsonObject);
  }
  return planned;
}

async function fetchFilingDocuments(filing: PlannedFiling, run: CompanyRun): Promise<void> {
  const { mirror, tally } = run;
  const document = (name: string) => archiveLocation(filing.cik, filing.accessionNo, name)!;
  await mirror.ensure(document(filing.primaryDocument), 'fixed');
  if (filing.kind === 'ownership') return;
  const index = await mirror.ensure(filingIndexLocation(filing.cik, filing.accessionNo), 'fixed');
  if (!index) return;
  // Only documents of the folder itself, by a plain file name: an XSL rendering (`xsl…/name.xml`)
  // is not downloaded, and a name read from EDGAR never addresses a file outside the folder.
  const html = await readFile(index, 'utf8');
  const documents = readIndexDocuments(html, filing.accessionNo).filter((d) => archiveLocation(filing.cik, filing.accessionNo, d.path) !== undefined);
  const other = (filing.kind === 'thirteenF' ? informationTable(documents) : pressRelease(documents))?.path;
  if (other === undefined) {
    // An 8-K without an exhibit 99.1 has its release in the primary document; a 13F-HR without
    // an information table has no holdings to read.
    if (filing.kind === 'thirteenF') tally.passedOver.push({ what: `${filing.accessionNo} (Form ${filing.form})`, reason: 'its index lists no INFORMATION TABLE XML' });
    return;
  }
  if (other !== filing.primaryDocument) await mirror.ensure(document(other), 'fixed');
}

/** Refuses a download that is not JSON (EDGAR's error pages are HTML). */
async function validateJson(file: string): Promise<void> {
  JSON.parse(await readFile(file, 'utf8'));
}

/** Like {@link validateJson} for files too large to parse twice: the first byte must open an object. */
async function validateJsonObject(file: string): Promise<void> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    if (!buffer.subarray(0, bytesRead).toString('utf8').trimStart().startsWith('{')) throw new Error('not a JSON object');
  } finally {
    await handle.close();
  }
}
