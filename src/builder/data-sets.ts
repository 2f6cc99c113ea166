/**
 * One bulk data set (a folder of tables, or a zip archive), assembled from its tables as they
 * stream past, in any order: the Insider Transactions Data Sets give each Form 3/4/5 filing
 * (SUBMISSION) with its reporting owners (REPORTINGOWNER), its Table I transactions
 * (NONDERIV_TRANS) and its Table II transactions (DERIV_TRANS); the Form 13F Data Sets give each
 * 13F filing (SUBMISSION, COVERPAGE, SUMMARYPAGE, SIGNATURE) with its information table
 * (INFOTABLE). Only what rows use is kept: of the transactions, those of Forms 4 and 4/A (every
 * line is an insider-transaction row) and the codes P and S of other forms (file-extract.ts
 * `slim`); of the information table, the entries, their repeated names and titles stored once.
 * The records are those the filings' XML gives, so the same filings make the same rows, except
 * that the transaction tables store shares and prices with 2 decimals
 * (the data set's readme: NUMBER(16,2)): each Form 3/4/5 record is marked as read from a data set,
 * and where the filing's XML is read too, the XML is used (resolve.ts).
 */
import type { Readable } from 'node:stream';
import type { DataSetKind, DataSetTable } from '../edgar/datasets/data-set-tables.js';
import { readInsiderSubmission, readReportingOwner, readTransactionRow, type InsiderSubmission, type TransactionTable } from '../edgar/ownership/insider-data-set.js';
import type { InfoTableEntry, OwnershipTransaction, ReportingOwner } from '../edgar/records.js';
import {
  readInfoTableRow, readThirteenFCover, readThirteenFSignature, readThirteenFSubmission, readThirteenFSummary,
  type ThirteenFCover, type ThirteenFSubmission,
} from '../edgar/thirteenf/thirteenf-data-set.js';
import { readTsv, type TsvColumns } from '../edgar/datasets/tsv.js';
import { pushTo } from '../facts/group.js';
import { emptyExtract, slim, type DataSetNote, type FileExtract } from './file-extract.js';

/** Rows in file order with the surrogate keys that give the form's order. */
interface Keyed<T> {
  keys: number[];
  items: T[];
}

const inKeyOrder = <T>({ keys, items }: Keyed<T>): T[] => {
  if (keys.every((k, i) => i === 0 || keys[i - 1]! <= k)) return items;
  return items.map((item, i) => ({ item, key: keys[i]! })).sort((a, b) => a.key - b.key).map((x) => x.item);
};

/** The tables of one data set, read so far. */
export class DataSetAssembly {
  readonly #source: string;
  readonly #kind: DataSetKind;
  readonly #tables = new Set<string>();
  readonly #leftOut = new Map<string, number>();
  readonly #insiderSubmissions = new Map<string, InsiderSubmission>();
  readonly #owners = new Map<string, ReportingOwner[]>();
  /** Transaction lines by table, then by accession number. */
  readonly #transactions: Record<TransactionTable, Map<string, Keyed<OwnershipTransaction>>> = { NONDERIV_TRANS: new Map(), DERIV_TRANS: new Map() };
  readonly #thirteenFSubmissions = new Map<string, ThirteenFSubmission>();
  readonly #covers = new Map<string, ThirteenFCover>();
  readonly #summaries = new Map<string, { tableEntryTotal: number | null; tableValueTotal: number | null }>();
  readonly #signatures = new Map<string, string>();
  readonly #entries = new Map<string, Keyed<InfoTableEntry>>();
  /** One copy of each issuer name and title of class: an information table repeats them millions of times. */
  readonly #strings = new Map<string, string>();
  #rows = 0;

  /**
   * @param source - the folder or archive, for the manifest.
   * @param kind - which data set.
   */
  constructor(source: string, kind: DataSetKind) {
    this.#source = source;
    this.#kind = kind;
  }

  /**
   * Reads one table of this data set.
   *
   * @param table - the table, as `recogniseTable` told it.
   * @param input - its bytes, from the header row on.
   * @throws Error when the table is not well-formed TSV.
   */
  async addTable(table: DataSetTable, input: Readable): Promise<void> {
    this.#tables.add(table.name);
    let read: ((row: string[]) => void) | null = null;
    await readTsv(input, (columns) => (read = this.#rowReader(table.name, columns)) !== null, (row) => read!(row));
  }

  #leave(reason: string): void {
    this.#leftOut.set(reason, (this.#leftOut.get(reason) ?? 0) + 1);
  }

  #intern(value: string): string {
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    this.#strings.set(value, value);
    return value;
  }

  /** What to do with each row of a table; null for a table whose rows nothing uses. */
  #rowReader(name: string, c: TsvColumns): ((row: string[]) => void) | null {
    if (this.#kind === 'insider') {
      if (name === 'SUBMISSION') {
        return (row) => {
          const submission = readInsiderSubmission(c, row);
          if (typeof submission === 'string') this.#leave(submission);
          else this.#insiderSubmissions.set(submission.accessionNo, submission);
        };
      }
      if (name === 'REPORTINGOWNER') {
        return (row) => {
          const read = readReportingOwner(c, row);
          if (read) pushTo(this.#owners, read.accessionNo, read.owner);
          else this.#leave('REPORTINGOWNER row without a valid ACCESSION_NUMBER');
        };
      }
      if (name === 'NONDERIV_TRANS' || name === 'DERIV_TRANS') {
        return (row) => {
          const read = readTransactionRow(c, row, name);
          if (read) this.#keep(this.#transactions[name], read.accessionNo, read.key, read.transaction);
          else this.#leave(`${name} row without ACCESSION_NUMBER, TRANS_CODE or TRANS_DATE`);
        };
      }
      return null;
    }
    if (name === 'SUBMISSION') {
      return (row) => {
        const read = readThirteenFSubmission(c, row);
        if (read) this.#thirteenFSubmissions.set(read.accessionNo, read);
        else this.#leave('SUBMISSION row without ACCESSION_NUMBER, FILING_DATE, SUBMISSIONTYPE, CIK or PERIODOFREPORT');
      };
    }
    if (name === 'COVERPAGE') {
      return (row) => {
        const read = readThirteenFCover(c, row);
        if (read) this.#covers.set(read.accessionNo, read);
      };
    }
    if (name === 'SUMMARYPAGE') {
      return (row) => {
        const read = readThirteenFSummary(c, row);
        if (read) this.#summaries.set(read.accessionNo, read);
      };
    }
    if (name === 'SIGNATURE') {
      return (row) => {
        const read = readThirteenFSignature(c, row);
        if (read) this.#signatures.set(read.accessionNo, read.signatureDate);
      };
    }
    if (name === 'INFOTABLE') {
      return (row) => {
        const read = readInfoTableRow(c, row);
        if (!read) {
          this.#leave('INFOTABLE row without ACCESSION_NUMBER, a 9-character CUSIP, VALUE or SSHPRNAMT');
          return;
        }
        const entry = read.entry;
        entry.issuer = this.#intern(entry.issuer);
        entry.titleOfClass = this.#intern(entry.titleOfClass);
        entry.sharesType = this.#intern(entry.sharesType);
        this.#keep(this.#entries, read.accessionNo, read.key, entry);
      };
    }
    return null;
  }

  #keep<T>(map: Map<string, Keyed<T>>, accessionNo: string, key: number, item: T): void {
    let list = map.get(accessionNo);
    if (!list) map.set(accessionNo, (list = { keys: [], items: [] }));
    list.keys.push(key);
    list.items.push(item);
    this.#rows++;
  }

  /**
   * The data set's records.
   *
   * @returns an extract with a filing record per submission, an ownership document or 13F
   *   filing per submission where the tables that complete it were read, and a note.
   */
  finish(): FileExtract {
    const extract = emptyExtract();
    let missing: string | null = null;
    if (this.#kind === 'insider') {
      const complete = this.#tables.has('REPORTINGOWNER') && this.#tables.has('NONDERIV_TRANS');
      if (!complete) missing = 'REPORTINGOWNER or NONDERIV_TRANS not among the tables: filings listed, transactions not read';
      else if (!this.#tables.has('DERIV_TRANS')) missing = 'DERIV_TRANS not among the tables: Table II (derivative) transactions not read';
      for (const s of this.#insiderSubmissions.values()) {
        extract.filings.push({
          cik: s.issuerCik, company: s.issuerName || null, form: s.documentType, accessionNo: s.accessionNo, filedAt: s.filedAt, acceptedAt: null,
          periodOfReport: s.periodOfReport, items: [], primaryDocument: null, exhibit991: null, documents: [], source: 'data-set',
        });
        if (!complete) continue;
        const lines = (table: TransactionTable): OwnershipTransaction[] => {
          const keyed = this.#transactions[table].get(s.accessionNo);
          return keyed ? inKeyOrder(keyed) : [];
        };
        extract.dataSetOwnership.push({
          accessionNo: s.accessionNo, filedAt: s.filedAt, documentType: s.documentType, periodOfReport: s.periodOfReport,
          issuerCik: s.issuerCik, issuerName: s.issuerName, issuerTradingSymbol: s.issuerTradingSymbol,
          owners: this.#owners.get(s.accessionNo) ?? [], plan10b51: s.plan10b51,
          transactions: lines('NONDERIV_TRANS'), derivativeTransactions: lines('DERIV_TRANS'), fromDataSet: true,
        });
      }
    } else {
      const complete = this.#tables.has('COVERPAGE') && this.#tables.has('INFOTABLE');
      if (!complete) missing = 'COVERPAGE or INFOTABLE not among the tables: filings listed, holdings not read';
      for (const s of this.#thirteenFSubmissions.values()) {
        extract.filings.push({
          cik: s.filerCik, company: this.#covers.get(s.accessionNo)?.filer || null, form: s.form, accessionNo: s.accessionNo, filedAt: s.filedAt,
          acceptedAt: null, periodOfReport: s.periodOfReport, items: [], primaryDocument: null, exhibit991: null, documents: [], source: 'data-set',
        });
        const cover = this.#covers.get(s.accessionNo);
        if (!complete || !cover) continue;
        const entries = this.#entries.get(s.accessionNo);
        const summary = this.#summaries.get(s.accessionNo);
        extract.dataSetThirteenF.push({
          accessionNo: s.accessionNo, filedAt: s.filedAt,
          cover: {
            filerCik: s.filerCik, filer: cover.filer, form: s.form, periodOfReport: cover.reportCalendarOrQuarter ?? s.periodOfReport,
            amendmentType: cover.amendmentType, reportType: cover.reportType, signatureDate: this.#signatures.get(s.accessionNo) ?? null,
            tableEntryTotal: summary?.tableEntryTotal ?? null, tableValueTotal: summary?.tableValueTotal ?? null,
          },
          entries: entries ? inKeyOrder(entries) : [],
        });
      }
    }
    const note: DataSetNote = {
      source: this.#source, kind: this.#kind, tables: [...this.#tables].sort(), filings: extract.filings.length, rows: this.#rows,
      rowsLeftOut: Object.fromEntries(this.#leftOut), missing,
    };
    extract.dataSets.push(note);
    return slim(extract);
  }
}
