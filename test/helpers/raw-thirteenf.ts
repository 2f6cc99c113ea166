/**
 * The 13F reports of the EDGAR test set read with the tests' own regular expressions, apart from
 * the builder's readers, so that tests can recompute 13F figures from the raw files: cover page,
 * SGML header and information-table rows of each report whose accession number its file or
 * folder name gives (those the builder can place).
 */
import type { InfoTableEntry } from '../../src/edgar/records.js';
import { rawFiles, rawJson, rawText } from './real-build.js';

/**
 * One information-table row as filed: the fields the builder's reader gives, `value` as filed (USD,
 * or thousands of USD in the reports that {@link RAW_13F_IN_THOUSANDS} names), `putCall` unchecked.
 */
export type RawInfoTableRow = Omit<InfoTableEntry, 'putCall'> & { putCall: string | null };

/** One 13F report, its parts gathered from every file that names its accession number. */
export interface Raw13fFiling {
  accession: string;
  /** Filer CIK, 10 digits. */
  filer: string;
  /** `<filingManager><name>`. */
  filerName: string;
  /** `YYYY-MM-DD`. */
  period: string;
  /** `RESTATEMENT`, `NEW HOLDINGS`, or null for an original report. */
  amendmentType: string | null;
  /** Cover page's signature date, `YYYY-MM-DD`. */
  signedAt: string;
  /** The SGML header's filing date, else the filer's submissions JSON's; null where neither gives one. */
  filedAt: string | null;
  rows: RawInfoTableRow[];
}

/**
 * The reports whose values are in thousands of USD (SOURCES.md, "13F value units": ACTIAM 2020 and
 * Bull Street 2022, filed after the 2023 switch); the others are in USD.
 */
export const RAW_13F_IN_THOUSANDS: ReadonlySet<string> = new Set(['0001619124-21-000002', '0001790837-23-000002']);

const isoDate = (month: string, day: string, year: string): string => `${year}-${month}-${day}`;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** XML text with its predefined and numeric character references replaced (XML 1.0 §4.6, §4.1). */
const xmlText = (text: string): string => text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) =>
  name.startsWith('#x') || name.startsWith('#X') ? String.fromCodePoint(parseInt(name.slice(2), 16))
    : name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name] ?? whole);

/** Information table rows of a raw file. */
export function rawInfoTable(text: string): RawInfoTableRow[] {
  return [...text.matchAll(/<(?:\w+:)?infoTable>([\s\S]*?)<\/(?:\w+:)?infoTable>/g)].map(([, b]) => {
    const raw = (name: string): string | null => new RegExp(`<(?:\\w+:)?${name}>\\s*([^<]*?)\\s*</`).exec(b!)?.[1] ?? null;
    const tag = (name: string): string | null => { const text = raw(name); return text === null ? null : xmlText(text); };
    return {
      issuer: tag('nameOfIssuer')!, titleOfClass: tag('titleOfClass')!, cusip: tag('cusip')!.toUpperCase(), value: Number(tag('value')),
      shares: Number(tag('sshPrnamt')), sharesType: tag('sshPrnamtType') ?? 'SH', putCall: tag('putCall'),
    };
  });
}

/** Filing dates the submissions JSON files list, by accession number. */
function submissionsFilingDates(): Map<string, string> {
  const dates = new Map<string, string>();
  for (const path of rawFiles('submissions').filter((p) => /CIK\d{10}\.json$/.test(p))) {
    const recent = rawJson(path).filings?.recent;
    recent?.accessionNumber?.forEach((accession: string, i: number) => dates.set(accession, recent.filingDate[i]));
  }
  return dates;
}

/** Every 13F report of the test set that the builder can place (an accession number in its file or folder name). */
export function raw13fFilings(): Raw13fFiling[] {
  const out = new Map<string, Raw13fFiling>();
  const submissions = submissionsFilingDates();
  for (const path of rawFiles('13f')) {
    const accession = /(\d{10}-\d{2}-\d{6})/.exec(path)?.[1];
    if (!accession || !/\.(xml|txt|nc)$/.test(path)) continue;
    const text = rawText(path);
    const entry = out.get(accession) ?? {
      accession, filer: '', filerName: '', period: '', amendmentType: null, signedAt: '', filedAt: submissions.get(accession) ?? null, rows: [],
    };
    const filer = /<filer>\s*<credentials>\s*<cik>(\d+)/.exec(text)?.[1];
    if (filer) entry.filer = filer.padStart(10, '0');
    const name = /<filingManager>\s*<name>([^<]+)</.exec(text)?.[1];
    if (name) entry.filerName = xmlText(name.trim());
    const period = /<reportCalendarOrQuarter>(\d\d)-(\d\d)-(\d{4})/.exec(text);
    if (period) entry.period = isoDate(period[1]!, period[2]!, period[3]!);
    const signed = /<signatureDate>(\d\d)-(\d\d)-(\d{4})/.exec(text);
    if (signed) entry.signedAt = isoDate(signed[1]!, signed[2]!, signed[3]!);
    entry.amendmentType ??= /<amendmentType>([^<]+)</.exec(text)?.[1]?.trim() ?? null;
    const sgml = /(?:FILED AS OF DATE:|<FILING-DATE>)\s*(\d{4})(\d\d)(\d\d)/.exec(text);
    if (sgml) entry.filedAt = `${sgml[1]}-${sgml[2]}-${sgml[3]}`;
    if (entry.rows.length === 0) entry.rows = rawInfoTable(text);
    out.set(accession, entry);
  }
  return [...out.values()];
}
