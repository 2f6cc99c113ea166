/**
 * The tables of SEC's bulk data sets, told apart by their header rows (never by file name):
 * the Insider Transactions Data Sets (Forms 3, 4 and 5; `FORM_345_metadata.json` and
 * `FORM_345_readme.htm` of each quarter) and the Form 13F Data Sets (`FORM13F_metadata.json`).
 * Each entry names the columns that only its table has together.
 */
import type { TsvColumns } from './tsv.js';

/** Which data set a table belongs to. */
export type DataSetKind = 'insider' | 'thirteenf';

/** A recognised table. */
export interface DataSetTable {
  kind: DataSetKind;
  /** The table's name as SEC's readme gives it, e.g. `NONDERIV_TRANS`, `INFOTABLE`. */
  name: string;
}

const TABLES: readonly (DataSetTable & { columns: readonly string[] })[] = [
  { kind: 'insider', name: 'SUBMISSION', columns: ['ACCESSION_NUMBER', 'FILING_DATE', 'PERIOD_OF_REPORT', 'DOCUMENT_TYPE', 'ISSUERCIK'] },
  { kind: 'insider', name: 'REPORTINGOWNER', columns: ['ACCESSION_NUMBER', 'RPTOWNERCIK', 'RPTOWNERNAME', 'RPTOWNER_RELATIONSHIP'] },
  { kind: 'insider', name: 'NONDERIV_TRANS', columns: ['ACCESSION_NUMBER', 'NONDERIV_TRANS_SK', 'TRANS_DATE', 'TRANS_CODE'] },
  { kind: 'insider', name: 'NONDERIV_HOLDING', columns: ['ACCESSION_NUMBER', 'NONDERIV_HOLDING_SK'] },
  { kind: 'insider', name: 'DERIV_TRANS', columns: ['ACCESSION_NUMBER', 'DERIV_TRANS_SK'] },
  { kind: 'insider', name: 'DERIV_HOLDING', columns: ['ACCESSION_NUMBER', 'DERIV_HOLDING_SK'] },
  { kind: 'insider', name: 'FOOTNOTES', columns: ['ACCESSION_NUMBER', 'FOOTNOTE_ID', 'FOOTNOTE_TXT'] },
  { kind: 'insider', name: 'OWNER_SIGNATURE', columns: ['ACCESSION_NUMBER', 'OWNERSIGNATURENAME'] },
  { kind: 'thirteenf', name: 'SUBMISSION', columns: ['ACCESSION_NUMBER', 'FILING_DATE', 'SUBMISSIONTYPE', 'CIK', 'PERIODOFREPORT'] },
  { kind: 'thirteenf', name: 'COVERPAGE', columns: ['ACCESSION_NUMBER', 'REPORTCALENDARORQUARTER', 'FILINGMANAGER_NAME'] },
  { kind: 'thirteenf', name: 'SUMMARYPAGE', columns: ['ACCESSION_NUMBER', 'TABLEENTRYTOTAL', 'TABLEVALUETOTAL'] },
  { kind: 'thirteenf', name: 'INFOTABLE', columns: ['ACCESSION_NUMBER', 'INFOTABLE_SK', 'CUSIP', 'VALUE', 'SSHPRNAMT'] },
  { kind: 'thirteenf', name: 'SIGNATURE', columns: ['ACCESSION_NUMBER', 'SIGNATUREDATE'] },
  { kind: 'thirteenf', name: 'OTHERMANAGER', columns: ['ACCESSION_NUMBER', 'OTHERMANAGER_SK'] },
  { kind: 'thirteenf', name: 'OTHERMANAGER2', columns: ['ACCESSION_NUMBER', 'SEQUENCENUMBER', 'CIK'] },
];

/** The table a header row belongs to, or null when it is none of SEC's. */
export function recogniseTable(columns: TsvColumns): DataSetTable | null {
  const found = TABLES.find((table) => columns.has(...table.columns));
  return found ? { kind: found.kind, name: found.name } : null;
}
