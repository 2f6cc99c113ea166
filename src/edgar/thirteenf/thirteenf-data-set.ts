/**
 * Rows of the Form 13F Data Sets (SEC, `FORM13F_metadata.json`): SUBMISSION (the filing),
 * COVERPAGE (filing manager, period, amendment), SUMMARYPAGE (table totals), SIGNATURE (the
 * signature date) and INFOTABLE (one row per information-table entry), read into the same
 * records as the filing's cover page and information table XML give (thirteenf-xml.ts).
 */
import { normaliseAccession, padCik } from '../conventions.js';
import type { InfoTableEntry } from '../records.js';
import { dataSetDate, type TsvColumns } from '../datasets/tsv.js';
import { xmlNumber } from '../xml.js';

/** A SUBMISSION row. */
export interface ThirteenFSubmission {
  accessionNo: string;
  filedAt: string;
  /** `13F-HR`, `13F-HR/A`, `13F-NT`, … */
  form: string;
  filerCik: string;
  periodOfReport: string;
}

/** A COVERPAGE row. */
export interface ThirteenFCover {
  accessionNo: string;
  filer: string;
  /** REPORTCALENDARORQUARTER, `YYYY-MM-DD`, or null. */
  reportCalendarOrQuarter: string | null;
  amendmentType: 'RESTATEMENT' | 'NEW HOLDINGS' | null;
  reportType: string | null;
}

/** Reads a SUBMISSION row; undefined when a field the filing needs is missing. */
export function readThirteenFSubmission(c: TsvColumns, row: readonly string[]): ThirteenFSubmission | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  const filedAt = dataSetDate(c.get(row, 'FILING_DATE'));
  const periodOfReport = dataSetDate(c.get(row, 'PERIODOFREPORT'));
  const filerCik = padCik(c.get(row, 'CIK'));
  const form = c.get(row, 'SUBMISSIONTYPE');
  if (!accessionNo || !filedAt || !periodOfReport || !filerCik || !form) return undefined;
  return { accessionNo, filedAt, form, filerCik, periodOfReport };
}

/** Reads a COVERPAGE row; undefined without an accession number. */
export function readThirteenFCover(c: TsvColumns, row: readonly string[]): ThirteenFCover | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  if (!accessionNo) return undefined;
  const amendment = c.get(row, 'AMENDMENTTYPE').toUpperCase();
  return {
    accessionNo,
    filer: c.get(row, 'FILINGMANAGER_NAME'),
    reportCalendarOrQuarter: dataSetDate(c.get(row, 'REPORTCALENDARORQUARTER')) ?? null,
    amendmentType: amendment === 'RESTATEMENT' || amendment === 'NEW HOLDINGS' ? amendment : null,
    reportType: c.get(row, 'REPORTTYPE') || null,
  };
}

/** Reads a SUMMARYPAGE row: the table's entry and value totals. */
export function readThirteenFSummary(c: TsvColumns, row: readonly string[]): { accessionNo: string; tableEntryTotal: number | null; tableValueTotal: number | null } | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  if (!accessionNo) return undefined;
  return {
    accessionNo,
    tableEntryTotal: xmlNumber(c.get(row, 'TABLEENTRYTOTAL') || undefined) ?? null,
    tableValueTotal: xmlNumber(c.get(row, 'TABLEVALUETOTAL') || undefined) ?? null,
  };
}

/** Reads a SIGNATURE row: the signature date. */
export function readThirteenFSignature(c: TsvColumns, row: readonly string[]): { accessionNo: string; signatureDate: string } | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  const signatureDate = dataSetDate(c.get(row, 'SIGNATUREDATE'));
  return accessionNo && signatureDate ? { accessionNo, signatureDate } : undefined;
}

/**
 * Reads an INFOTABLE row as the XML's `infoTable` is read: CUSIP upper case and 9 characters,
 * value as filed (thousands of USD before 2023, USD since), shares or principal amount, put or
 * call.
 *
 * @returns the entry with its surrogate key, or undefined for a row without CUSIP, value or
 *   shares (left out of the XML's table too).
 */
export function readInfoTableRow(c: TsvColumns, row: readonly string[]): { accessionNo: string; key: number; entry: InfoTableEntry } | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  const cusip = c.get(row, 'CUSIP').toUpperCase();
  const value = xmlNumber(c.get(row, 'VALUE') || undefined);
  const shares = xmlNumber(c.get(row, 'SSHPRNAMT') || undefined);
  if (!accessionNo || !/^[0-9A-Z]{9}$/.test(cusip) || value === undefined || shares === undefined) return undefined;
  const putCall = c.get(row, 'PUTCALL').toLowerCase();
  return {
    accessionNo,
    key: Number(c.get(row, 'INFOTABLE_SK')) || 0,
    entry: {
      issuer: c.get(row, 'NAMEOFISSUER'),
      titleOfClass: c.get(row, 'TITLEOFCLASS'),
      cusip,
      value,
      shares,
      sharesType: c.get(row, 'SSHPRNAMTTYPE').toUpperCase() || 'SH',
      putCall: putCall === 'put' ? 'Put' : putCall === 'call' ? 'Call' : null,
    },
  };
}
