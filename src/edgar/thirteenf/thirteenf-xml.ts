/**
 * Form 13F: the cover page (`edgarSubmission`, namespace http://www.sec.gov/edgar/thirteenffiler,
 * dates `MM-DD-YYYY`) and the information table (`informationTable`, namespace
 * http://www.sec.gov/edgar/document/thirteenf/informationtable, default or prefixed), per the
 * SEC's Form 13F XML Technical Specification.
 */
import { isoDate, padCik } from '../conventions.js';
import type { InfoTableEntry } from '../records.js';
import { child, children, parseXml, text, xmlNumber, type XmlNode } from '../xml.js';

/** The facts of a 13F cover page. */
export interface CoverPage {
  filerCik: string;
  filer: string;
  /** `13F-HR`, `13F-HR/A`, `13F-NT`, … */
  form: string;
  periodOfReport: string;
  amendmentType: 'RESTATEMENT' | 'NEW HOLDINGS' | null;
  /** `13F HOLDINGS REPORT`, `13F NOTICE REPORT` or `13F COMBINATION REPORT`. */
  reportType: string | null;
  signatureDate: string | null;
  tableEntryTotal: number | null;
  tableValueTotal: number | null;
}

/** Whether `xml` is a 13F cover page. */
export const isCoverPageXml = (xml: string): boolean => xml.includes('edgarSubmission') && xml.includes('thirteenffiler');
/** Whether `xml` is a 13F information table. */
export const isInfoTableXml = (xml: string): boolean => xml.includes('informationTable') && xml.includes('infoTable');

/**
 * Parses a cover page.
 *
 * @throws Error when the filer CIK or the period of report is missing.
 */
export function parseCoverPage(xml: string): CoverPage {
  return readCoverPage(parseXml(xml));
}

/** Reads a cover page already parsed by {@link parseXml}; throws as {@link parseCoverPage}. */
export function readCoverPage(document: XmlNode): CoverPage {
  const root = child(document, 'edgarSubmission');
  const header = child(root, 'headerData');
  const cover = child(child(root, 'formData'), 'coverPage');
  const summary = child(child(root, 'formData'), 'summaryPage');
  const filerCik = padCik(text(header, 'filerInfo', 'filer', 'credentials', 'cik'));
  const periodOfReport = isoDate(text(cover, 'reportCalendarOrQuarter') ?? text(header, 'filerInfo', 'periodOfReport'));
  if (!filerCik) throw new Error('13F cover page without filer CIK');
  if (!periodOfReport) throw new Error('13F cover page without period of report');
  const amendment = text(cover, 'amendmentInfo', 'amendmentType')?.toUpperCase();
  return {
    filerCik,
    filer: text(cover, 'filingManager', 'name') ?? '',
    form: text(header, 'submissionType') ?? '13F-HR',
    periodOfReport,
    amendmentType: amendment === 'RESTATEMENT' || amendment === 'NEW HOLDINGS' ? amendment : null,
    reportType: text(cover, 'reportType') ?? null,
    signatureDate: isoDate(text(child(root, 'formData'), 'signatureBlock', 'signatureDate')) ?? null,
    tableEntryTotal: xmlNumber(text(summary, 'tableEntryTotal')) ?? null,
    tableValueTotal: xmlNumber(text(summary, 'tableValueTotal')) ?? null,
  };
}

/**
 * Parses an information table.
 *
 * @returns its rows in file order; rows without CUSIP, value or shares are left out.
 * @throws Error when there is no informationTable element.
 */
export function parseInfoTable(xml: string): InfoTableEntry[] {
  return readInfoTable(parseXml(xml));
}

/** Reads an information table already parsed by {@link parseXml}; throws as {@link parseInfoTable}. */
export function readInfoTable(document: XmlNode): InfoTableEntry[] {
  const table = child(document, 'informationTable');
  if (!table) throw new Error('no informationTable element');
  const entries: InfoTableEntry[] = [];
  for (const row of children(table, 'infoTable')) {
    const cusip = text(row, 'cusip')?.toUpperCase();
    const value = xmlNumber(text(row, 'value'));
    const shares = xmlNumber(text(row, 'shrsOrPrnAmt', 'sshPrnamt'));
    if (!cusip || !/^[0-9A-Z]{9}$/.test(cusip) || value === undefined || shares === undefined) continue;
    const putCall = text(row, 'putCall')?.toLowerCase();
    entries.push({
      issuer: text(row, 'nameOfIssuer') ?? '',
      titleOfClass: text(row, 'titleOfClass') ?? '',
      cusip,
      value,
      shares,
      sharesType: text(row, 'shrsOrPrnAmt', 'sshPrnamtType')?.toUpperCase() ?? 'SH',
      putCall: putCall === 'put' ? 'Put' : putCall === 'call' ? 'Call' : null,
    });
  }
  return entries;
}
