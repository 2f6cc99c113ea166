/**
 * Rows of the Insider Transactions Data Sets (SEC, "Insider Transactions Data Sets" readme,
 * section 5: Table Definitions): SUBMISSION (one row per Form 3, 4 or 5 filing), REPORTINGOWNER
 * (one row per reporting owner), NONDERIV_TRANS (one row per Table I transaction) and DERIV_TRANS
 * (one row per Table II transaction), read into
 * the same records as the filing's ownership XML gives (ownership-xml.ts). Values are text as
 * filed; dates `DD-MON-YYYY`.
 */
import { normaliseAccession, normaliseTicker, padCik } from '../conventions.js';
import type { OwnershipTransaction, ReportingOwner } from '../records.js';
import { dataSetDate, type TsvColumns } from '../datasets/tsv.js';
import { xmlBoolean, xmlNumber } from '../xml.js';

/** A SUBMISSION row: the filing and its issuer. */
export interface InsiderSubmission {
  accessionNo: string;
  filedAt: string;
  periodOfReport: string;
  /** `3`, `4`, `4/A`, `5`, … */
  documentType: string;
  issuerCik: string;
  issuerName: string;
  issuerTradingSymbol: string | null;
  /**
   * The Rule 10b5-1(c) checkbox (`AFF10B5ONE`, `aff10b5One` of the XML) where the table has the
   * column; null where it has not (the 2024Q3 table in sec-data has no such column), as for a
   * form that predates the checkbox.
   */
  plan10b51: boolean | null;
}

/**
 * Reads a SUBMISSION row.
 *
 * @returns the submission, or the reason the row cannot be used.
 */
export function readInsiderSubmission(c: TsvColumns, row: readonly string[]): InsiderSubmission | string {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  const filedAt = dataSetDate(c.get(row, 'FILING_DATE'));
  const periodOfReport = dataSetDate(c.get(row, 'PERIOD_OF_REPORT'));
  const issuerCik = padCik(c.get(row, 'ISSUERCIK'));
  const documentType = c.get(row, 'DOCUMENT_TYPE');
  if (!accessionNo) return 'SUBMISSION row without a valid ACCESSION_NUMBER';
  if (!filedAt || !periodOfReport) return 'SUBMISSION row without FILING_DATE or PERIOD_OF_REPORT';
  if (!issuerCik || !documentType) return 'SUBMISSION row without ISSUERCIK or DOCUMENT_TYPE';
  return {
    accessionNo, filedAt, periodOfReport, documentType, issuerCik,
    issuerName: c.get(row, 'ISSUERNAME'),
    issuerTradingSymbol: normaliseTicker(c.get(row, 'ISSUERTRADINGSYMBOL') || undefined) ?? null,
    plan10b51: c.has('AFF10B5ONE') ? xmlBoolean(c.get(row, 'AFF10B5ONE') || undefined) ?? null : null,
  };
}

/**
 * Reads a REPORTINGOWNER row. `RPTOWNER_RELATIONSHIP` lists the relationships the form's boxes
 * check (`Director`, `Officer`, `TenPercentOwner`, `Other`, comma-separated); `RPTOWNER_TITLE`
 * is the officer title.
 *
 * @returns the owner, or undefined when the row has no accession number.
 */
export function readReportingOwner(c: TsvColumns, row: readonly string[]): { accessionNo: string; owner: ReportingOwner } | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  if (!accessionNo) return undefined;
  const relations = new Set(c.get(row, 'RPTOWNER_RELATIONSHIP').split(',').map((r) => r.replace(/[^A-Za-z%0-9]/g, '').toUpperCase()));
  return {
    accessionNo,
    owner: {
      cik: padCik(c.get(row, 'RPTOWNERCIK')) ?? '',
      name: c.get(row, 'RPTOWNERNAME'),
      isDirector: relations.has('DIRECTOR'),
      isOfficer: relations.has('OFFICER'),
      isTenPercentOwner: relations.has('TENPERCENTOWNER') || relations.has('10%OWNER'),
      isOther: relations.has('OTHER'),
      officerTitle: c.get(row, 'RPTOWNER_TITLE') || null,
    },
  };
}

/** The transaction tables, each with its surrogate key column (the order of the form's lines). */
export const TRANSACTION_TABLES = Object.freeze({ NONDERIV_TRANS: 'NONDERIV_TRANS_SK', DERIV_TRANS: 'DERIV_TRANS_SK' } as const);

/** A table of transaction lines: Table I (`NONDERIV_TRANS`) or Table II (`DERIV_TRANS`). */
export type TransactionTable = keyof typeof TRANSACTION_TABLES;

/**
 * Reads a NONDERIV_TRANS or DERIV_TRANS row as the XML's `nonDerivativeTransaction` or
 * `derivativeTransaction` is read: code, date, shares and price per share (the amounts kept as
 * their exact text), security title, acquired or disposed, shares owned after it, direct or
 * indirect ownership.
 *
 * @param table - which table the row is from (its surrogate key column differs).
 * @returns the transaction with its surrogate key (the order of the form's rows), or undefined
 *   when the row lacks accession number, code or date.
 */
export function readTransactionRow(c: TsvColumns, row: readonly string[], table: TransactionTable): { accessionNo: string; key: number; transaction: OwnershipTransaction } | undefined {
  const accessionNo = normaliseAccession(c.get(row, 'ACCESSION_NUMBER'));
  const code = c.get(row, 'TRANS_CODE');
  const date = dataSetDate(c.get(row, 'TRANS_DATE'));
  if (!accessionNo || !code || !date) return undefined;
  const sharesText = c.get(row, 'TRANS_SHARES').replace(/,/g, '');
  const priceText = c.get(row, 'TRANS_PRICEPERSHARE').replace(/,/g, '');
  const shares = xmlNumber(sharesText || undefined);
  const price = xmlNumber(priceText || undefined);
  const acquiredDisposed = c.get(row, 'TRANS_ACQUIRED_DISP_CD').toUpperCase();
  const directIndirect = c.get(row, 'DIRECT_INDIRECT_OWNERSHIP').toUpperCase();
  return {
    accessionNo,
    key: Number(c.get(row, TRANSACTION_TABLES[table])) || 0,
    transaction: {
      code: code.toUpperCase(), date, shares: shares ?? null, price: price ?? null,
      sharesText: shares === undefined ? null : sharesText, priceText: price === undefined ? null : priceText,
      priceInFootnote: false,
      securityTitle: c.get(row, 'SECURITY_TITLE'),
      acquiredDisposed: acquiredDisposed === 'A' || acquiredDisposed === 'D' ? acquiredDisposed : null,
      sharesOwnedAfter: xmlNumber(c.get(row, 'SHRS_OWND_FOLWNG_TRANS') || undefined) ?? null,
      directIndirect: directIndirect === 'D' || directIndirect === 'I' ? directIndirect : null,
    },
  };
}
