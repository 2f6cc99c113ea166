/**
 * Documents that came without their filing: HTML filing documents, ownershipDocument XML and
 * 13F cover pages whose file or folder does not name the accession number. Each is placed in
 * its filing where another input names it (an SGML header or `-index.htm` page that lists the
 * document, or a submissions JSON that lists the filing), and otherwise counted as skipped with
 * the reason, so that the manifest says what was read but could not be used. A Form 3/4/5 or 13F
 * document with an accession number whose filing date no input gives is dated by its signature
 * date instead, and becomes a filing of its own ({@link recordSignatureDated}).
 */
import type { LooseHtml } from './file-extract.js';
import type { Inputs } from './inputs.js';
import type { FilingRecord, OwnershipFiling, ThirteenFFiling } from '../edgar/records.js';
import { pushTo } from '../facts/group.js';

/**
 * The one filing of a submissions JSON that matches a document: same form, same period of
 * report, and listed in the submissions JSON of one of `ciks` (the issuer and reporting owners
 * of a Form 3/4/5, the filer of a 13F).
 *
 * @returns the filing; or the number of matches (0, or 2 and more) when there is not exactly one.
 */
export function findInSubmissions(records: readonly FilingRecord[], ciks: readonly string[], form: string, periodOfReport: string): FilingRecord | number {
  const found = new Map<string, FilingRecord>();
  for (const r of records) {
    if (r.source === 'submissions' && r.form === form && r.periodOfReport === periodOfReport && ciks.includes(r.cik)) found.set(r.accessionNo, r);
  }
  return found.size === 1 ? [...found.values()][0]! : found.size;
}

/**
 * Makes a filing record (`source: 'document'`) of each Form 3/4/5 and 13F filing dated by its
 * signature date, so that it has a filing row as any filing has; where an input gives EDGAR's
 * record of the filing, the filing is dated by it and is not among these. A Form 3/4/5 is
 * recorded under its issuer, as its header lists it first; a 13F under its filer. The record
 * names no primary document: the file's own name need not be EDGAR's.
 *
 * @param filings - one record per accession number; the new records are added to it.
 * @returns the accession numbers of the filings dated by signature date, Forms 3/4/5 first.
 */
export function recordSignatureDated(ownership: readonly OwnershipFiling[], thirteenF: readonly ThirteenFFiling[], filings: Map<string, FilingRecord>): string[] {
  const dated: string[] = [];
  const record = (cik: string, company: string, form: string, accessionNo: string, filedAt: string, periodOfReport: string): void => {
    dated.push(accessionNo);
    if (filings.has(accessionNo)) return;
    filings.set(accessionNo, {
      cik, company: company || null, form, accessionNo, filedAt, acceptedAt: null, periodOfReport, items: [],
      primaryDocument: null, exhibit991: null, documents: [], source: 'document',
    });
  };
  for (const f of ownership) {
    if (f.filedAtSource === 'signature_date' && f.filedAt !== null) record(f.issuerCik, f.issuerName, f.documentType, f.accessionNo, f.filedAt, f.periodOfReport);
  }
  for (const f of thirteenF) {
    if (f.filedAtSource === 'signature_date') record(f.filerCik, f.filer, f.form, f.accessionNo, f.filedAt, f.periodOfReport);
  }
  return dated;
}

/**
 * Places each HTML document in the filing that lists it, and records the others as skipped.
 *
 * @param inputs - everything read; skipped documents are added to `inputs.skipped`.
 * @param filings - one record per accession number, each with the documents its sources list.
 */
export function placeLooseHtml(inputs: Inputs, filings: ReadonlyMap<string, FilingRecord>): void {
  const listing = new Map<string, FilingRecord[]>();
  for (const record of filings.values()) {
    for (const document of record.documents) pushTo(listing, document, record);
  }
  for (const doc of inputs.looseHtml) {
    const listedBy = (listing.get(doc.fileName) ?? []).filter((r) => doc.cik === null || r.cik === doc.cik);
    if (listedBy.length > 0 || (doc.accessionFromName && filings.has(doc.accessionFromName))) continue;
    inputs.skipped.push({ path: doc.path, reason: skipReason(doc) });
  }
}

/** The reason, worded without the document's own numbers so that the manifest can count reasons. */
function skipReason(doc: LooseHtml): string {
  const what = doc.form ? `Form ${doc.form} document` : 'HTML document';
  if (doc.accessionFromName) {
    return `${what} whose accession number (from its file name) no SGML header, -index page or submissions JSON lists: its ${doc.cik ? 'filing date is' : 'CIK and filing date are'} unknown`;
  }
  if (doc.form) return `${what} without an accession number: no SGML header, -index page or submissions JSON lists it`;
  return 'HTML page that no filing among the inputs lists';
}
