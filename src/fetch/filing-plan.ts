/**
 * Which filings of a company `fetch` downloads, from its submissions JSON: in the window
 * (`filingDate` on or after `--since`),
 *
 * - Forms 3, 4 and 5 (and amendments): the raw ownershipDocument XML, the submissions'
 *   `primaryDocument` without its `xsl…/` rendering folder (docs/api.md §14);
 * - 13F-HR (and amendments): the cover page (`primary_doc.xml`, likewise) and the information
 *   table, found in the filing's index;
 * - 8-K (and amendments) reporting item 2.02, "Results of Operations and Financial Condition"
 *   (SEC Form 8-K General Instructions, Item 2.02): the primary document and the press release
 *   exhibit 99.1, found in the filing's index by the rule the builder uses (edgar/filing/document-types.ts).
 *
 * Ownership and 13F filings from before EDGAR's XML forms (text filings) have no XML to fetch and
 * are passed over with that reason.
 */
import { EARNINGS_ITEM } from '../edgar/filing/form-8k-items.js';
import type { FilingRecord } from '../edgar/records.js';
import { rawDocumentName, submissionsPageLocation, type EdgarLocation } from './edgar-paths.js';

/** What a filing contributes to a build. */
export type FilingKind = 'ownership' | 'thirteenF' | 'earnings';

/** One filing to download. */
export interface PlannedFiling {
  /** The CIK whose Archives folder is used (the company whose submissions listed it). */
  readonly cik: string;
  readonly accessionNo: string;
  readonly form: string;
  readonly filedAt: string;
  readonly kind: FilingKind;
  /** The primary document's raw name in the filing folder. */
  readonly primaryDocument: string;
}

/** A filing of a fetched kind that has nothing `fetch` can download, and why. */
export interface PassedOver {
  readonly accessionNo: string;
  readonly form: string;
  readonly reason: string;
}

const OWNERSHIP_FORMS = new Set(['3', '3/A', '4', '4/A', '5', '5/A']);
const THIRTEEN_F_FORMS = new Set(['13F-HR', '13F-HR/A']);
const EARNINGS_FORMS = new Set(['8-K', '8-K/A']);

/**
 * The kind of a filing, or undefined when `fetch` does not download it.
 *
 * @param form - the form type as EDGAR lists it.
 * @param items - 8-K item numbers.
 */
export function filingKind(form: string, items: readonly string[]): FilingKind | undefined {
  if (OWNERSHIP_FORMS.has(form)) return 'ownership';
  if (THIRTEEN_F_FORMS.has(form)) return 'thirteenF';
  if (EARNINGS_FORMS.has(form) && items.includes(EARNINGS_ITEM)) return 'earnings';
  return undefined;
}

/**
 * Plans the filings of one submissions file (main or page).
 *
 * @param records - its filings, as the builder's submissions reader returns them.
 * @param since - first filing date of the window, `YYYY-MM-DD`.
 */
export function planFilings(records: readonly FilingRecord[], since: string): { planned: PlannedFiling[]; passedOver: PassedOver[] } {
  const planned: PlannedFiling[] = [];
  const passedOver: PassedOver[] = [];
  for (const record of records) {
    if (record.filedAt < since) continue;
    const kind = filingKind(record.form, record.items);
    if (!kind) continue;
    const name = record.primaryDocument ? rawDocumentName(record.primaryDocument) : undefined;
    const skip = (reason: string): void => { passedOver.push({ accessionNo: record.accessionNo, form: record.form, reason }); };
    if (!name) {
      skip(record.primaryDocument ? `primary document name ${JSON.stringify(record.primaryDocument)} is not a plain file name` : 'no primary document listed');
    } else if (kind !== 'earnings' && !/\.xml$/i.test(name)) {
      skip(`a text filing from before EDGAR's XML form (${name}), nothing to read`);
    } else {
      planned.push({ cik: record.cik, accessionNo: record.accessionNo, form: record.form, filedAt: record.filedAt, kind, primaryDocument: name });
    }
  }
  return { planned, passedOver };
}

/**
 * The older pages of a submissions JSON that hold filings in the window: each
 * `filings.files[]` entry whose `filingTo` is on or after `since` (data.sec.gov lists at least
 * the latest 1,000 filings in `filings.recent` and the rest in these pages).
 *
 * @param submissions - the parsed main submissions JSON.
 * @param since - first filing date of the window, `YYYY-MM-DD`.
 * @returns the pages' locations; entries with an unexpected name are left out.
 */
export function pagesInWindow(submissions: unknown, since: string): EdgarLocation[] {
  const files = ((submissions as { filings?: { files?: unknown } }).filings?.files);
  if (!Array.isArray(files)) return [];
  const pages: EdgarLocation[] = [];
  for (const file of files as { name?: unknown; filingTo?: unknown }[]) {
    if (typeof file?.name !== 'string') continue;
    if (typeof file.filingTo === 'string' && file.filingTo < since) continue;
    const location = submissionsPageLocation(file.name);
    if (location) pages.push(location);
  }
  return pages;
}
