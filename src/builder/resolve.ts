/**
 * Settles what the files say together: accession numbers and filing dates of bare XML
 * documents (from a `.header.json` beside them, their file or folder name, and the submissions
 * JSON; else the document's signature date, see loose-documents.ts), pairs of 13F cover page and
 * information table found in one folder, one record per accession number, and each company's
 * facts merged from submissions JSON and ticker files.
 */
import { basename, dirname } from 'node:path';
import { companyDirectory } from './companies.js';
import { accessionFromName } from '../edgar/conventions.js';
import type { Inputs, Skipped } from './inputs.js';
import type { Company, FilingRecord, OwnershipFiling, ThirteenFFiling } from '../edgar/records.js';
import { findInSubmissions, placeLooseHtml, recordSignatureDated } from './loose-documents.js';
import { mergeFilingRecords } from './merge-records.js';
import { decideSubmissionsClock, readWritten, type SubmissionsClock } from '../edgar/company/submissions-clock.js';
import { pushTo } from '../facts/group.js';

/** The inputs, joined and without duplicates. */
export interface Resolved {
  /** One record per accession number. */
  filings: FilingRecord[];
  filingByAccession: Map<string, FilingRecord>;
  /** One ownership document per accession number. */
  ownership: OwnershipFiling[];
  /** One 13F filing per accession number. */
  thirteenF: ThirteenFFiling[];
  /** Companies by CIK, for every CIK named in submissions or ticker files, with every header's profile (see companies.ts). */
  company: (cik: string) => Company | undefined;
  /**
   * Accession numbers of the Forms 3/4/5 and 13F filings dated by their signature date (no input
   * gives EDGAR's record of their filing date), Forms 3/4/5 first.
   */
  filedAtFromSignature: string[];
  /** The clock each submissions file writes `acceptanceDateTime` in, by path. */
  submissionsClocks: ({ path: string } & SubmissionsClock)[];
}

/**
 * Joins the inputs.
 *
 * @param inputs - everything read; skipped files found here are added to `inputs.skipped`.
 */
export function resolveInputs(inputs: Inputs): Resolved {
  const company = companyDirectory(inputs, null);
  const submissionsClocks = settleSubmissionsClocks(inputs);
  for (const header of inputs.headerJson.values()) {
    if (!header.issuerCik) continue;
    inputs.filings.push({
      cik: header.issuerCik, company: header.issuerName, form: header.form, accessionNo: header.accessionNo,
      filedAt: header.filedAt, acceptedAt: null, periodOfReport: header.periodOfReport, items: [],
      primaryDocument: header.primaryDocument, exhibit991: null, documents: header.primaryDocument ? [header.primaryDocument] : [], source: 'header-json',
    });
  }
  // One record per accession number; those given by several inputs merged field by field (merge-records.ts).
  const filingByAccession = new Map<string, FilingRecord>();
  const several = new Map<string, FilingRecord[]>();
  for (const record of inputs.filings) {
    const first = filingByAccession.get(record.accessionNo);
    if (first === undefined) filingByAccession.set(record.accessionNo, record);
    else if (several.has(record.accessionNo)) several.get(record.accessionNo)!.push(record);
    else several.set(record.accessionNo, [first, record]);
  }
  const hasTicker = (cik: string): boolean => (company(cik)?.tickers.length ?? 0) > 0;
  for (const [accessionNo, records] of several) filingByAccession.set(accessionNo, mergeFilingRecords(records, hasTicker));
  placeLooseHtml(inputs, filingByAccession);
  const ownership = resolveOwnership(inputs, filingByAccession);
  const thirteenF = resolveThirteenF(inputs, filingByAccession);
  const filedAtFromSignature = recordSignatureDated(ownership, thirteenF, filingByAccession);
  return { filings: [...filingByAccession.values()], filingByAccession, ownership, thirteenF, company, filedAtFromSignature, submissionsClocks };
}

/** Decides each submissions file's clock and sets its filings' `acceptedAt` (see edgar/company/submissions-clock.ts). */
function settleSubmissionsClocks(inputs: Inputs): Resolved['submissionsClocks'] {
  const known = new Map<string, string>();
  for (const record of inputs.filings) if (record.source !== 'submissions' && record.acceptedAt) known.set(record.accessionNo, record.acceptedAt);
  return inputs.submissionsAcceptance.map(({ path, entries }) => {
    const clock = decideSubmissionsClock(entries.map((e) => ({ accessionNo: e.record.accessionNo, written: e.written })), known);
    for (const { record, written } of entries) record.acceptedAt = readWritten(written, clock.clock) ?? null;
    return { path, ...clock };
  });
}

function resolveOwnership(inputs: Inputs, filings: Map<string, FilingRecord>): OwnershipFiling[] {
  const byAccession = new Map<string, OwnershipFiling>();
  for (const filing of inputs.ownership) byAccession.set(filing.accessionNo, filing);
  // The loose documents placed, in the order placed: one whose filing date is unknown is skipped below.
  const placed: { filing: OwnershipFiling; path: string }[] = [];
  for (const { path, doc } of inputs.looseOwnership) {
    const header = inputs.headerJsonByStem.get(path.replace(/\.xml$/i, ''));
    let accessionNo = header?.accessionNo ?? accessionFromName(basename(path)) ?? accessionFromName(basename(dirname(path)));
    if (!accessionNo) {
      // The submissions JSON of its issuer or of a reporting owner may list it (same form and period).
      const found = findInSubmissions(inputs.filings, [doc.issuerCik, ...doc.owners.map((o) => o.cik)], doc.documentType, doc.periodOfReport);
      if (typeof found === 'number') {
        inputs.skipped.push({
          path, reason: found === 0
            ? 'ownershipDocument without an accession number: no .header.json beside it, none in its file or folder name, and no submissions JSON of its issuer or reporting owners lists its form and period'
            : 'ownershipDocument without an accession number: the submissions JSON lists several filings of its form and period',
        });
        continue;
      }
      accessionNo = found.accessionNo;
    }
    if (byAccession.has(accessionNo)) continue;
    const filing = { ...doc, accessionNo };
    byAccession.set(accessionNo, filing);
    placed.push({ filing, path });
  }
  // A data set's record of a filing counts where no XML of it was read: the XML says more (aff10b5One).
  for (const filing of inputs.dataSetOwnership) if (!byAccession.has(filing.accessionNo)) byAccession.set(filing.accessionNo, filing);
  for (const filing of byAccession.values()) {
    filing.filedAt ??= inputs.headerJson.get(filing.accessionNo)?.filedAt ?? filings.get(filing.accessionNo)?.filedAt ?? null;
  }
  // A loose document that no input dates is dated by its signature date; only one without any
  // date is left out (in the order placed, as the skipped list had it).
  for (const { filing, path } of placed) {
    if (filing.filedAt !== null) continue;
    if (filing.signatureDate) {
      filing.filedAt = filing.signatureDate;
      filing.filedAtSource = 'signature_date';
      continue;
    }
    inputs.skipped.push({ path, reason: 'ownershipDocument whose filing date no .header.json, SGML header, -index page or submissions JSON gives, without a signature date' });
    byAccession.delete(filing.accessionNo);
  }
  return [...byAccession.values()];
}

function resolveThirteenF(inputs: Inputs, filings: Map<string, FilingRecord>): ThirteenFFiling[] {
  const byAccession = new Map<string, ThirteenFFiling>();
  for (const part of inputs.thirteenF) {
    byAccession.set(part.accessionNo, { ...toFiling(part.cover, part.entries, part.accessionNo, part.filedAt), filedAtSource: 'edgar' });
  }
  const byDir = new Map<string, typeof inputs.looseThirteenF>();
  for (const part of inputs.looseThirteenF) pushTo(byDir, part.dir, part);
  for (const [dir, parts] of byDir) {
    const covers = parts.filter((p) => p.cover);
    const tables = parts.filter((p) => p.entries);
    const skip = (reason: string): void => parts.forEach((p) => inputs.skipped.push({ path: p.path, reason } satisfies Skipped));
    if (covers.length !== 1 || tables.length > 1) {
      skip(`folder holds ${covers.length} 13F cover pages and ${tables.length} information tables; expected one of each`);
      continue;
    }
    const cover = covers[0]!.cover!;
    let accessionNo = accessionFromName(basename(dir)) ?? accessionFromName(basename(covers[0]!.path));
    if (!accessionNo) {
      // The filer's submissions JSON may list it (same form and period).
      const found = findInSubmissions(inputs.filings, [cover.filerCik], cover.form, cover.periodOfReport);
      if (typeof found === 'number') {
        skip(found === 0
          ? '13F cover page without an accession number: none in its folder or file name, and no submissions JSON of its filer lists its form and period'
          : '13F cover page without an accession number: the submissions JSON lists several filings of its form and period');
        continue;
      }
      accessionNo = found.accessionNo;
    }
    if (byAccession.has(accessionNo)) continue;
    const listed = filings.get(accessionNo)?.filedAt;
    const filedAt = listed ?? cover.signatureDate;
    if (!filedAt) {
      skip('13F filing date unknown: not in any submissions JSON and no signature date on the cover page');
      continue;
    }
    byAccession.set(accessionNo, { ...toFiling(cover, tables[0]?.entries ?? [], accessionNo, filedAt), filedAtSource: listed ? 'edgar' : 'signature_date' });
  }
  for (const part of inputs.dataSetThirteenF) {
    if (!byAccession.has(part.accessionNo)) byAccession.set(part.accessionNo, { ...toFiling(part.cover, part.entries, part.accessionNo, part.filedAt), filedAtSource: 'edgar' });
  }
  return [...byAccession.values()];
}

function toFiling(cover: import('../edgar/thirteenf/thirteenf-xml.js').CoverPage, entries: ThirteenFFiling['entries'], accessionNo: string, filedAt: string): Omit<ThirteenFFiling, 'filedAtSource'> {
  return {
    accessionNo, filerCik: cover.filerCik, filer: cover.filer, periodOfReport: cover.periodOfReport, filedAt,
    form: cover.form, amendmentType: cover.amendmentType, entries,
  };
}
