/**
 * Which clock a submissions JSON file writes `acceptanceDateTime` in. The field always ends in
 * `Z`, but data.sec.gov writes some files in true UTC and others in New York wall-clock time
 * with the `Z` appended; the convention belongs to the file (the filer), not to the filing.
 * In the test set, NVIDIA's file gives `2024-02-14T21:12:45.000Z` for a 13F whose SGML header
 * says `20240214161245` (16:12:45 EST: true UTC), while Apple's file gives
 * `2022-05-06T18:30:57.000Z` for a Form 4 whose header says `20220506183057` (Eastern with a
 * `Z`), and Katherine Adams's file lists that same Form 4 as `22:30:57.000Z` (true UTC).
 *
 * The clock of each file is decided from evidence, strongest first:
 * 1. acceptance times of the same filings given by an SGML header or an `-index.htm` page,
 *    which EDGAR always writes in Eastern time;
 * 2. times that are impossible on one clock: EDGAR accepts filings from 06:00 to 22:00
 *    Eastern (EDGAR Filer Manual, Vol. I, "EDGAR hours of operation"), so a written hour from
 *    00 to 05, or 23, can only be UTC, and a written hour from 06 to 09 can only be Eastern.
 *    Filings that EDGAR makes itself (accession numbers `9999999995-…` for effectiveness
 *    notices, stamped 00:15 at night), paper filings (`9999999997-…`) and midnight, EDGAR's
 *    placeholder for an unknown time in old filings, are left out;
 * 3. without evidence, the file is read as it is written (UTC), and the manifest says so.
 */
import { edgarEasternToIso } from '../eastern-time.js';

/** The clock of one file and what decided it. */
export interface SubmissionsClock {
  clock: 'utc' | 'eastern';
  decidedBy: 'acceptance times in SGML headers or -index pages' | 'hours when EDGAR is closed' | 'no evidence: read as written (UTC)';
  /** Filings whose evidence pointed to each clock. */
  votes: { utc: number; eastern: number };
}

/** One filing of the file: its accession number and `acceptanceDateTime` as written. */
export interface WrittenAcceptance {
  accessionNo: string;
  written: string;
}

const WRITTEN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z$/;
/** Accession prefixes of filings that EDGAR generates itself or that were filed on paper. */
const NOT_FILER_MADE = /^99999999/;

/** EDGAR's placeholder for a time it does not know (old filings): midnight, when EDGAR is closed. */
const UNKNOWN_TIME = /T00:00:00(\.0+)?Z$/;

/** The instant a written value stands for on each clock, or undefined when it is not a time or is EDGAR's midnight placeholder. */
export function readWritten(written: string, clock: SubmissionsClock['clock']): string | undefined {
  if (!WRITTEN.test(written) || UNKNOWN_TIME.test(written)) return undefined;
  return clock === 'eastern' ? edgarEasternToIso(written) : new Date(written).toISOString();
}

/**
 * Decides the clock of one submissions file.
 *
 * @param entries - the file's filings with a written acceptance time.
 * @param known - acceptance instants (UTC) from SGML headers and `-index.htm` pages, by accession number.
 */
export function decideSubmissionsClock(entries: readonly WrittenAcceptance[], known: ReadonlyMap<string, string>): SubmissionsClock {
  const matched = { utc: 0, eastern: 0 };
  const hours = { utc: 0, eastern: 0 };
  for (const { accessionNo, written } of entries) {
    const m = WRITTEN.exec(written);
    if (!m || UNKNOWN_TIME.test(written)) continue;
    const truth = known.get(accessionNo);
    if (truth !== undefined) {
      if (readWritten(written, 'utc') === truth) matched.utc++;
      else if (readWritten(written, 'eastern') === truth) matched.eastern++;
      continue;
    }
    if (NOT_FILER_MADE.test(accessionNo)) continue;
    const hour = Number(m[4]);
    if (hour <= 5 || hour === 23) hours.utc++;
    else if (hour <= 9) hours.eastern++;
  }
  if (matched.utc + matched.eastern > 0) {
    return { clock: matched.eastern > matched.utc ? 'eastern' : 'utc', decidedBy: 'acceptance times in SGML headers or -index pages', votes: matched };
  }
  if (hours.utc + hours.eastern > 0) {
    return { clock: hours.eastern > hours.utc ? 'eastern' : 'utc', decidedBy: 'hours when EDGAR is closed', votes: hours };
  }
  return { clock: 'utc', decidedBy: 'no evidence: read as written (UTC)', votes: hours };
}
