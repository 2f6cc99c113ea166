/**
 * The filing record and the company profiles that a filing's header gives: an SGML header (a
 * complete submission, or EDGAR's header page) or an index page. Both name the filing's
 * companies with a role each; the record is filed under the company the filing is about.
 */
import { withoutRendering } from '../conventions.js';
import type { FilingRecord, HeaderProfile } from '../records.js';
import { pressRelease } from './document-types.js';
import { itemsFromTitles } from './form-8k-items.js';
import type { IndexPage } from './index-page.js';
import type { CompleteSubmission, HeaderCompany } from './sgml.js';

/**
 * The roles that name the company a filing is about, best first, each in the spellings EDGAR
 * uses: SGML `.txt` headers (`SUBJECT COMPANY:`, `FILED BY:`), dissemination-feed `.nc` tags
 * (`<SUBJECT-COMPANY>`, `<FILED-BY>`) and index pages (`(Subject)`, `(Filed by)`). A Form 3/4/5
 * names its issuer, a Schedule 13D or 13G its subject company, other forms their filer; a
 * reporting owner is never the company.
 */
export const ISSUER_ROLES: readonly (readonly string[])[] = [
  ['ISSUER', 'SUBJECT COMPANY', 'SUBJECT-COMPANY', 'SUBJECT'],
  ['FILER'],
  ['FILED BY', 'FILED-BY'],
];

/**
 * The company a filing is about: the first company with a role of the best rank of
 * {@link ISSUER_ROLES}, else the first company named.
 *
 * @param companies - the companies of a header, in its order, roles upper case.
 * @returns that company, or undefined when the header names none.
 */
export function issuerOf(companies: readonly HeaderCompany[]): HeaderCompany | undefined {
  for (const roles of ISSUER_ROLES) {
    const found = companies.find((c) => roles.includes(c.role));
    if (found) return found;
  }
  return companies[0];
}

/** Every company of a header as the profile the header gives it on `filedAt`. */
export function headerProfiles(companies: readonly HeaderCompany[], filedAt: string): HeaderProfile[] {
  return companies.map((c) => ({
    cik: c.cik, name: c.name, sic: c.sic, sicDescription: c.sicDescription, stateOfIncorporation: c.stateOfIncorporation,
    fiscalYearEnd: c.fiscalYearEnd, filedAt,
  }));
}

/**
 * The filing record of an index page: its documents by their link targets, the first being the
 * primary document, and the press release found by {@link pressRelease}.
 *
 * @returns the record, or undefined when the page names no company.
 */
export function filingFromIndexPage(page: IndexPage): FilingRecord | undefined {
  const company = issuerOf(page.companies);
  if (!company) return undefined;
  return {
    cik: company.cik, company: company.name, form: page.form, accessionNo: page.accessionNo, filedAt: page.filedAt, acceptedAt: page.acceptedAt,
    periodOfReport: page.periodOfReport, items: page.items, primaryDocument: page.documents[0]?.path ?? null,
    exhibit991: pressRelease(page.documents)?.path ?? null,
    // The documents by file name: an XSL rendering is its raw document's.
    documents: [...new Set(page.documents.map((d) => withoutRendering(d.path)))], source: 'index',
  };
}

/**
 * The filing record of a complete submission or header page: its `<DOCUMENT>` blocks in order,
 * the first being the primary document, and the press release found by {@link pressRelease}.
 * Item numbers are the header's own where it has them (`.nc`), else mapped from its titles.
 *
 * @returns the record, or undefined when the header names no company.
 */
export function filingFromSubmission({ header, documents }: CompleteSubmission): FilingRecord | undefined {
  const company = issuerOf(header.companies);
  if (!company) return undefined;
  return {
    cik: company.cik,
    company: company.name,
    form: header.form,
    accessionNo: header.accessionNo,
    filedAt: header.filedAt,
    acceptedAt: header.acceptedAt,
    periodOfReport: header.periodOfReport,
    items: header.items.length > 0 ? header.items : itemsFromTitles(header.itemTitles),
    primaryDocument: documents[0]?.filename ?? null,
    exhibit991: pressRelease(documents)?.filename ?? null,
    documents: documents.flatMap((d) => (d.filename ? [d.filename] : [])),
    source: 'sgml',
  };
}
