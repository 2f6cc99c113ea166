/**
 * SEC's bulk products, fetched by `fetch --all --bulk` instead of one request per company and
 * filing:
 *
 * - `submissions.zip`, every company's submissions JSON, rebuilt nightly:
 *   https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip
 * - `companyfacts.zip`, every company's XBRL company facts, rebuilt nightly:
 *   https://www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip
 *   (both listed under "Bulk data" in SEC, "EDGAR Application Programming Interfaces",
 *   https://www.sec.gov/search-filings/edgar-application-programming-interfaces);
 * - the Insider Transactions Data Sets, one zip of Form 3/4/5 TSV tables per quarter, listed at
 *   https://www.sec.gov/data-research/sec-markets-data/insider-transactions-data-sets
 *   (e.g. `/files/structureddata/data/insider-transactions-data-sets/2024q3_form345.zip`; newer
 *   quarters under `/files/datastandardsinnovation/data/…`);
 * - the Form 13F Data Sets, one zip of TSV tables per quarter (`2023q4_form13f.zip`) or, since
 *   2024, per three-month range (`01mar2024-31may2024_form13f.zip`), listed at
 *   https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets.
 *
 * The data-set file names and folders have changed over the years, so they are read from the
 * catalog pages rather than built.
 */
import type { EdgarLocation } from './edgar-paths.js';

/** `submissions.zip`. */
export const SUBMISSIONS_ZIP: EdgarLocation = Object.freeze({ host: 'www', path: '/Archives/edgar/daily-index/bulkdata/submissions.zip' });

/** `companyfacts.zip`. */
export const COMPANY_FACTS_ZIP: EdgarLocation = Object.freeze({ host: 'www', path: '/Archives/edgar/daily-index/xbrl/companyfacts.zip' });

/** A data-set family: its catalog page and how its zips are named. */
export interface DataSetFamily {
  readonly name: string;
  readonly catalog: EdgarLocation;
  /** The folder name in the zips' paths. */
  readonly folder: string;
}

/** The Insider Transactions Data Sets (Forms 3, 4 and 5). */
export const INSIDER_TRANSACTIONS: DataSetFamily = Object.freeze({
  name: 'Insider Transactions Data Sets',
  catalog: { host: 'www' as const, path: '/data-research/sec-markets-data/insider-transactions-data-sets' },
  folder: 'insider-transactions-data-sets',
});

/** The Form 13F Data Sets. */
export const FORM_13F: DataSetFamily = Object.freeze({
  name: 'Form 13F Data Sets',
  catalog: { host: 'www' as const, path: '/data-research/sec-markets-data/form-13f-data-sets' },
  folder: 'form-13f-data-sets',
});

/** One zip named on a catalog page. */
export interface DataSetZip {
  readonly location: EdgarLocation;
  readonly name: string;
  /** The period the zip covers, `YYYY-MM-DD`; null when its name does not say. */
  readonly from: string | null;
  readonly to: string | null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads the zips a catalog page links to.
 *
 * @param html - the catalog page.
 * @param family - which family's links to take.
 * @returns each zip once, in page order.
 */
export function parseCatalog(html: string, family: DataSetFamily): DataSetZip[] {
  const zips: DataSetZip[] = [];
  const seen = new Set<string>();
  const link = new RegExp(`href="(?:https?://[^/"]*)?(/files/[A-Za-z0-9/_-]*/${family.folder}/([A-Za-z0-9_-]+\\.zip))"`, 'gi');
  for (const match of html.matchAll(link)) {
    const path = match[1]!;
    if (seen.has(path)) continue;
    seen.add(path);
    const name = match[2]!;
    const { from, to } = periodOf(name);
    zips.push({ location: { host: 'www', path }, name, from, to });
  }
  return zips;
}

/**
 * The period named by a data-set zip: `2024q3_…` (a calendar quarter) or `01mar2024-31may2024_…`.
 *
 * @returns the first and last day, or nulls when the name is neither form.
 */
export function periodOf(name: string): { from: string | null; to: string | null } {
  const quarter = /^(\d{4})q([1-4])_/i.exec(name);
  if (quarter) {
    const year = Number(quarter[1]);
    const q = Number(quarter[2]);
    const last = new Date(Date.UTC(year, q * 3, 0)).toISOString().slice(0, 10);
    return { from: `${year}-${String(q * 3 - 2).padStart(2, '0')}-01`, to: last };
  }
  const range = /^(\d{2})([a-z]{3})(\d{4})-(\d{2})([a-z]{3})(\d{4})_/i.exec(name);
  if (range) {
    const day = (d: string, m: string, y: string): string | null => {
      const month = MONTHS.indexOf(m.toLowerCase());
      return month === -1 ? null : `${y}-${String(month + 1).padStart(2, '0')}-${d}`;
    };
    return { from: day(range[1]!, range[2]!, range[3]!), to: day(range[4]!, range[5]!, range[6]!) };
  }
  return { from: null, to: null };
}
