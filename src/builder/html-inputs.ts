/**
 * HTML files among the inputs: EDGAR's filing index pages (`-index.htm`), its header pages
 * (`-index-headers.html`, the SGML header in an HTML comment), and filing documents (an 8-K's
 * primary document, exhibits). Index and header pages give filing records; a document is kept
 * aside until every input is read, then placed in the filing that lists it or counted as
 * skipped with the reason (loose-documents.ts).
 */
import { basename } from 'node:path';
import { accessionFromName, padCik } from '../edgar/conventions.js';
import { parseHeaderPage } from '../edgar/filing/header-page.js';
import { isIndexPage, parseIndexPage } from '../edgar/filing/index-page.js';
import type { FileExtract } from './file-extract.js';
import { readSubmissionDocuments } from './submission-documents.js';

/** An HTML filing document not yet placed in a filing. */
export interface LooseHtml {
  path: string;
  fileName: string;
  /** The form the document says it is (inline XBRL `dei:DocumentType`, or the cover of an 8-K), else null. */
  form: string | null;
  /** The filer's CIK where the document states it (inline XBRL `dei:EntityCentralIndexKey`), else null. */
  cik: string | null;
  /** The accession number in the file name, as EDGAR's archive names some documents, else null. */
  accessionFromName: string | null;
}

const ISSUER_ROLES = ['ISSUER', 'SUBJECT COMPANY', 'FILER', 'FILED BY'];

/**
 * Reads one HTML input into `out`.
 *
 * @returns null when used or kept aside, else the reason it was skipped.
 * @throws Error when an index or header page lacks its required fields.
 */
export function readHtmlInput(path: string, text: string, out: FileExtract): string | null {
  if (isIndexPage(text)) {
    const page = parseIndexPage(text);
    const company = ISSUER_ROLES.map((role) => page.companies.find((c) => c.role === role)).find((c) => c !== undefined) ?? page.companies[0];
    if (!company) return 'filing index page without a company CIK';
    out.filings.push({
      cik: company.cik, company: company.name, form: page.form, accessionNo: page.accessionNo, filedAt: page.filedAt, acceptedAt: page.acceptedAt,
      periodOfReport: page.periodOfReport, items: page.items, primaryDocument: page.documents[0]?.path ?? null,
      exhibit991: page.documents.find((d) => d.type.toUpperCase() === 'EX-99.1')?.path ?? null,
      // The documents by file name: an XSL rendering is its raw document's.
      documents: [...new Set(page.documents.map((d) => d.path.replace(/^xsl[^/]*\//, '')))], source: 'index',
    });
    for (const c of page.companies) {
      out.headerProfiles.push({
        cik: c.cik, name: c.name, sic: c.sic, sicDescription: c.sicDescription, stateOfIncorporation: c.stateOfIncorporation,
        fiscalYearEnd: c.fiscalYearEnd, filedAt: page.filedAt,
      });
    }
    return null;
  }
  const headerPage = parseHeaderPage(text);
  if (headerPage) return readSubmissionDocuments(headerPage, out);
  out.looseHtml.push(describeDocument(path, text));
  return null;
}

function describeDocument(path: string, text: string): LooseHtml {
  const fileName = basename(path);
  const dei = (name: string): string | undefined => new RegExp(`name="dei:${name}"[^>]*>\\s*([^<]+?)\\s*<`).exec(text)?.[1];
  const cover = text.slice(0, 50_000).replace(/<[^>]*>/g, ' ').replace(/&nbsp;|&#160;/g, ' ').replace(/\s+/g, ' ');
  const form = dei('DocumentType') ?? (/\bFORM 8-K\b/i.test(cover) && /\bCURRENT REPORT\b/i.test(cover) ? '8-K' : null);
  return { path, fileName, form, cik: padCik(dei('EntityCentralIndexKey')) ?? null, accessionFromName: accessionFromName(fileName) ?? null };
}
