/**
 * What a fetch run did, counted as it goes: files fetched, already held, not on EDGAR (404),
 * failed, and filings passed over; requests and retries. The summary names every 404 and every
 * failure (the first few in the log, all of them in `.equity-facts-fetch.json` in the output
 * folder, which `build` passes over as a hidden file).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transfer } from './edgar-client.js';

/** The summary file's name in the output folder. */
export const SUMMARY_FILE = '.equity-facts-fetch.json';

/** How many 404s and failures the log names before pointing at the summary file. */
const NAMED_IN_LOG = 20;

/** Counts of one run. */
export class FetchTally {
  fetched = 0;
  bytes = 0;
  held = 0;
  requests = 0;
  retries = 0;
  readonly missing: string[] = [];
  readonly failed: { url: string; reason: string }[] = [];
  readonly passedOver: { what: string; reason: string }[] = [];

  /** Counts one document's outcome. */
  count(outcome: Transfer | { status: 'held' }): void {
    if (outcome.status === 'fetched') {
      this.fetched++;
      this.bytes += outcome.bytes;
    } else if (outcome.status === 'held') {
      this.held++;
    } else if (outcome.status === 'missing') {
      this.missing.push(outcome.url);
    } else {
      this.failed.push({ url: outcome.url, reason: outcome.reason });
    }
  }

  /** Documents settled so far. */
  get done(): number {
    return this.fetched + this.held + this.missing.length + this.failed.length;
  }
}

/** How a run ended. */
export type RunEnd = 'complete' | 'interrupted' | 'stopped';

/**
 * The summary lines of a run.
 *
 * @param tally - the counts.
 * @param end - whether the run went to the end.
 * @param elapsedMs - its duration.
 * @param summaryFile - where the full lists are.
 */
export function summaryLines(tally: FetchTally, end: RunEnd, elapsedMs: number, summaryFile: string): string[] {
  const n = (value: number): string => value.toLocaleString('en-US');
  const lines = [
    `fetch ${end === 'complete' ? 'done' : end}: ${n(tally.done)} files: ${n(tally.fetched)} fetched (${megabytes(tally.bytes)}), `
    + `${n(tally.held)} already held, ${n(tally.missing.length)} not on EDGAR (404), ${n(tally.failed.length)} failed; `
    + `${n(tally.requests)} requests, ${n(tally.retries)} retries, ${seconds(elapsedMs)}`,
  ];
  const named = (title: string, items: string[]): void => {
    if (items.length === 0) return;
    const more = items.length > NAMED_IN_LOG ? ` … and ${n(items.length - NAMED_IN_LOG)} more` : '';
    lines.push(`${title}: ${items.slice(0, NAMED_IN_LOG).join(', ')}${more}`);
  };
  named('not on EDGAR (404)', tally.missing);
  named('failed', tally.failed.map((f) => `${f.url} (${f.reason})`));
  if (tally.passedOver.length > 0) lines.push(`passed over: ${n(tally.passedOver.length)} filings with nothing to fetch (reasons in ${summaryFile})`);
  if (tally.missing.length + tally.failed.length + tally.passedOver.length > 0) lines.push(`full lists: ${summaryFile}`);
  return lines;
}

/**
 * Writes the summary file.
 *
 * @param out - the output folder.
 * @returns its path.
 */
export async function writeSummaryFile(out: string, tally: FetchTally, end: RunEnd, startedAt: number, finishedAt: number): Promise<string> {
  const file = join(out, SUMMARY_FILE);
  const body = {
    format: 'equity-facts-fetch/1',
    end,
    started_at: new Date(startedAt).toISOString(),
    finished_at: new Date(finishedAt).toISOString(),
    fetched: tally.fetched,
    bytes: tally.bytes,
    held: tally.held,
    requests: tally.requests,
    retries: tally.retries,
    missing: tally.missing,
    failed: tally.failed,
    passed_over: tally.passedOver,
  };
  await writeFile(file, `${JSON.stringify(body, null, 1)}\n`);
  return file;
}

function megabytes(bytes: number): string {
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s < 120 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
