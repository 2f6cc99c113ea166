/**
 * What a complete submission holds: a filing record from its header (a header without
 * documents, as EDGAR's header pages serve it, is one too), plus the ownershipDocument or the
 * 13F cover page and information table carried in its `<XML>` documents. A Form 3/4/5 filed in
 * plain text before ownership XML existed gives its filing record and no transactions.
 */
import type { FilingRecord, HeaderProfile, InfoTableEntry, OwnershipFiling } from '../records.js';
import { isOwnershipXml, parseOwnershipXml } from '../ownership/ownership-xml.js';
import { isCoverPageXml, isInfoTableXml, parseCoverPage, parseInfoTable, type CoverPage } from '../thirteenf/thirteenf-xml.js';
import { filingFromSubmission, headerProfiles } from './filing-record.js';
import { itemFromTitle } from './form-8k-items.js';
import type { CompleteSubmission } from './sgml.js';

const OWNERSHIP_FORMS = /^[345](\/A)?$/;

/** What {@link readSubmissionContents} reads. */
export interface SubmissionContents {
  /** The filing, or null when the header names no company (then nothing below is read). */
  filing: FilingRecord | null;
  /** Each company of the header as its profile on the filing date. */
  profiles: HeaderProfile[];
  /** 8-K `ITEM INFORMATION` titles that map to no item number. */
  unmappedItemTitles: string[];
  /** Whether it is a Form 3/4/5 with documents but no ownershipDocument XML (filed in plain text). */
  plainTextOwnership: boolean;
  ownership: OwnershipFiling | null;
  /** The 13F cover page, with the information table's entries where the submission carries one. */
  thirteenF: { cover: CoverPage; entries: InfoTableEntry[] } | null;
}

/**
 * Reads a complete submission's filing record and embedded XML documents.
 *
 * @throws Error when an embedded XML document is malformed.
 */
export function readSubmissionContents(submission: CompleteSubmission): SubmissionContents {
  const { header, documents } = submission;
  const ownershipXml = documents.find((d) => d.xml !== null && isOwnershipXml(d.xml))?.xml;
  const plainTextOwnership = OWNERSHIP_FORMS.test(header.form) && documents.length > 0 && !ownershipXml;
  const filing = filingFromSubmission(submission) ?? null;
  if (!filing) return { filing, profiles: [], unmappedItemTitles: [], plainTextOwnership, ownership: null, thirteenF: null };
  const coverXml = documents.find((d) => d.xml !== null && isCoverPageXml(d.xml))?.xml;
  const tableXml = documents.find((d) => d.xml !== null && isInfoTableXml(d.xml))?.xml;
  return {
    filing,
    profiles: headerProfiles(header.companies, header.filedAt),
    unmappedItemTitles: header.itemTitles.filter((title) => !itemFromTitle(title)),
    plainTextOwnership,
    ownership: ownershipXml ? parseOwnershipXml(ownershipXml, header.accessionNo, header.filedAt) : null,
    thirteenF: coverXml ? { cover: parseCoverPage(coverXml), entries: tableXml ? parseInfoTable(tableXml) : [] } : null,
  };
}
