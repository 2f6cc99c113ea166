/**
 * data.sec.gov submissions JSON: `CIK##########.json` (company facts plus `filings.recent`, a
 * set of parallel arrays) and its older pages `CIK##########-submissions-NNN.json` (the same
 * arrays at the top level; the CIK comes from the file name).
 */
import { isoDate, normaliseAccession, normaliseTicker, padCik, withoutRendering } from '../conventions.js';
import type { Company, FilingRecord } from '../records.js';

/** What one submissions file holds. */
export interface SubmissionsFile {
  company: Company | null;
  /** The filings, with `acceptedAt` still null: which clock the file writes is settled later (submissions-clock.ts). */
  filings: FilingRecord[];
  /** `acceptanceDateTime` as written, for each filing that has one. */
  acceptance: { record: FilingRecord; written: string }[];
}

type Columns = Record<string, unknown[]>;

/** Whether parsed JSON is a submissions file (main or page). */
export function isSubmissionsFile(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.accessionNumber) && Array.isArray(record.form)) return true;
  const filings = record.filings as Record<string, unknown> | undefined;
  return typeof record.cik === 'string' && typeof filings === 'object' && filings !== null && 'recent' in filings;
}

/**
 * Reads a submissions file.
 *
 * @param value - the parsed JSON.
 * @param fileName - its file name, which gives the CIK of a page (`CIK0001318605-submissions-001.json`).
 * @throws Error when a page's CIK cannot be told from its name.
 */
export function parseSubmissions(value: unknown, fileName: string): SubmissionsFile {
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.accessionNumber)) {
    const cik = padCik(/^CIK(\d{10})/.exec(fileName)?.[1]);
    if (!cik) throw new Error('submissions page whose file name does not start with CIK##########');
    return readColumns(record as Columns, cik, null, null);
  }
  const cik = padCik(String(record.cik));
  if (!cik) throw new Error('submissions JSON with an invalid cik');
  const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const tickers = (Array.isArray(record.tickers) ? record.tickers : [])
    .map((t) => normaliseTicker(typeof t === 'string' ? t : undefined))
    .filter((t): t is string => t !== undefined);
  const exchanges = Array.isArray(record.exchanges) ? record.exchanges : [];
  const company: Company = {
    cik,
    name: str(record.name) ?? '',
    tickers,
    exchange: str(exchanges[0]),
    sic: str(record.sic),
    sicDescription: str(record.sicDescription),
    stateOfIncorporation: str(record.stateOfIncorporation),
    fiscalYearEnd: /^\d{4}$/.test(String(record.fiscalYearEnd)) ? String(record.fiscalYearEnd) : null,
  };
  const recent = (record.filings as Record<string, unknown>).recent as Columns;
  return readColumns(recent, cik, company.name || null, company);
}

function readColumns(columns: Columns, cik: string, name: string | null, company: Company | null): SubmissionsFile {
  const accessions = columns.accessionNumber ?? [];
  const records: FilingRecord[] = [];
  const acceptance: SubmissionsFile['acceptance'] = [];
  const at = (name: string, i: number): string => {
    const v = columns[name]?.[i];
    return typeof v === 'string' ? v.trim() : '';
  };
  for (let i = 0; i < accessions.length; i++) {
    const accessionNo = normaliseAccession(at('accessionNumber', i));
    const filedAt = isoDate(at('filingDate', i));
    const form = at('form', i);
    if (!accessionNo || !filedAt || !form) continue;
    const record: FilingRecord = {
      cik, company: name, form, accessionNo, filedAt, acceptedAt: null,
      periodOfReport: isoDate(at('reportDate', i)) ?? null,
      items: at('items', i).split(',').map((s) => s.trim()).filter((s) => s !== ''),
      primaryDocument: at('primaryDocument', i) || null,
      exhibit991: null,
      documents: at('primaryDocument', i) ? [withoutRendering(at('primaryDocument', i))] : [],
      source: 'submissions',
    };
    records.push(record);
    const written = at('acceptanceDateTime', i);
    if (written !== '') acceptance.push({ record, written });
  }
  return { company, filings: records, acceptance };
}
