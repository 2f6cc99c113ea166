/**
 * What a complete submission contributes: a filing record from its header (a header without
 * documents, as EDGAR's header pages serve it, is one too), plus the ownershipDocument or the
 * 13F cover page and information table carried in its `<XML>` documents. A Form 3/4/5 filed in
 * plain text before ownership XML existed gives its filing record and no transactions.
 */
import type { FileExtract } from './file-extract.js';
import { itemFromTitle, itemsFromTitles } from '../edgar/filing/form-8k-items.js';
import { isOwnershipXml, parseOwnershipXml } from '../edgar/ownership/ownership-xml.js';
import type { CompleteSubmission } from '../edgar/filing/sgml.js';
import { isCoverPageXml, isInfoTableXml, parseCoverPage, parseInfoTable } from '../edgar/thirteenf/thirteenf-xml.js';

const OWNERSHIP_FORMS = /^[345](\/A)?$/;

/**
 * Adds what a complete submission gives to `out`.
 *
 * @returns null when used, else the reason it was skipped.
 * @throws Error when an embedded XML document is malformed.
 */
export function readSubmissionDocuments(submission: CompleteSubmission, out: FileExtract): string | null {
  const { header, documents } = submission;
  const ownershipXml = documents.find((d) => d.xml !== null && isOwnershipXml(d.xml));
  if (OWNERSHIP_FORMS.test(header.form) && documents.length > 0 && !ownershipXml) out.plainTextOwnership.push(header.accessionNo);
  const company = header.companies.find((c) => c.role === 'ISSUER' || c.role === 'SUBJECT-COMPANY' || c.role === 'SUBJECT COMPANY')
    ?? header.companies.find((c) => c.role === 'FILER') ?? header.companies[0];
  if (!company) return 'SEC header without a company CIK';
  for (const c of header.companies) {
    out.headerProfiles.push({
      cik: c.cik, name: c.name, sic: c.sic, sicDescription: c.sicDescription, stateOfIncorporation: c.stateOfIncorporation,
      fiscalYearEnd: c.fiscalYearEnd, filedAt: header.filedAt,
    });
  }
  for (const title of header.itemTitles) {
    if (!itemFromTitle(title)) out.unmappedItemTitles.push(title);
  }
  out.filings.push({
    cik: company.cik,
    company: company.name,
    form: header.form,
    accessionNo: header.accessionNo,
    filedAt: header.filedAt,
    acceptedAt: header.acceptedAt,
    periodOfReport: header.periodOfReport,
    items: header.items.length > 0 ? header.items : itemsFromTitles(header.itemTitles),
    primaryDocument: documents[0]?.filename ?? null,
    exhibit991: documents.find((d) => d.type.toUpperCase() === 'EX-99.1')?.filename ?? null,
    documents: documents.flatMap((d) => (d.filename ? [d.filename] : [])),
    source: 'sgml',
  });
  if (ownershipXml?.xml) out.ownership.push(parseOwnershipXml(ownershipXml.xml, header.accessionNo, header.filedAt));
  const coverXml = documents.find((d) => d.xml !== null && isCoverPageXml(d.xml))?.xml;
  const tableXml = documents.find((d) => d.xml !== null && isInfoTableXml(d.xml))?.xml;
  if (coverXml) {
    const cover = parseCoverPage(coverXml);
    out.thirteenF.push({ accessionNo: header.accessionNo, filedAt: header.filedAt, cover, entries: tableXml ? parseInfoTable(tableXml) : [] });
  }
  return null;
}
