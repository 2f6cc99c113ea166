/**
 * What one input file contributes, recognised by its content (never by its folder): ticker
 * files, submissions JSON, companyfacts JSON, datamule header JSON, complete submissions
 * (`.txt`/`.nc`), EDGAR's index and header pages, bare ownershipDocument XML, 13F cover pages
 * and information tables. Each file is read and parsed once; only the extracted records are
 * kept, never the text. An extract is plain data (arrays of records), so that it can cross a
 * worker thread and be stored in the build cache as it is.
 */
import { basename, dirname } from 'node:path';
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import { isCompanyFactsFile, parseCompanyFacts } from '../edgar/company/company-facts-json.js';
import { isHeaderJson, isOwnershipXml, parseHeaderJson, readOwnershipDocument, type HeaderJson } from '../edgar/ownership/ownership-xml.js';
import type { Company, FilingRecord, HeaderProfile, InfoTableEntry, OwnershipFiling } from '../edgar/records.js';
import { accessionFromName } from '../edgar/conventions.js';
import { filingFromIndexPage, headerProfiles } from '../edgar/filing/filing-record.js';
import { parseHeaderPage } from '../edgar/filing/header-page.js';
import { readHtmlDocument } from '../edgar/filing/html-document.js';
import { isIndexPage, parseIndexPage } from '../edgar/filing/index-page.js';
import { looksLikeCompleteSubmission, parseCompleteSubmission, type CompleteSubmission } from '../edgar/filing/sgml.js';
import { readSubmissionContents } from '../edgar/filing/submission-contents.js';
import { isSubmissionsFile, parseSubmissions } from '../edgar/company/submissions-json.js';
import { isCoverPageXml, isInfoTableXml, readCoverPage, readInfoTable, type CoverPage } from '../edgar/thirteenf/thirteenf-xml.js';
import { isTickerFile, parseTickerFile, type TickerEntry } from '../edgar/company/ticker-files.js';
import { looksLikeTsv } from '../edgar/datasets/tsv.js';
import { parseXml } from '../edgar/xml.js';
import { FINANCIAL_CONCEPT_NAMES } from '../facts/financials-concepts.js';
import { FIGURE_CONCEPT_NAMES } from '../facts/fiscal-periods.js';
import { COUNTED_CODES } from '../facts/insiders.js';

/** A file passed over, and why. */
export interface Skipped {
  path: string;
  reason: string;
}

/** A 13F cover page or information table found on its own, paired later by folder. */
export interface LooseThirteenF {
  dir: string;
  path: string;
  cover?: CoverPage;
  entries?: InfoTableEntry[];
}

/** A 13F filing whose parts came together (a complete submission, or a data set). */
export interface ThirteenFParts {
  accessionNo: string;
  filedAt: string;
  cover: CoverPage;
  entries: InfoTableEntry[];
}

/**
 * An HTML filing document (an 8-K's primary document, an exhibit) not yet placed in a filing:
 * kept aside until every input is read, then placed in the filing that lists it or counted as
 * skipped with the reason (loose-documents.ts).
 */
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

/** A bare ownershipDocument, read, waiting for its accession number (resolve.ts). */
export interface LooseOwnership {
  path: string;
  /** The document, with an empty accession number and no filing date yet. */
  doc: OwnershipFiling;
}

/** What one file gave. Every list is in the file's own order. */
export interface FileExtract {
  tickers: TickerEntry[];
  companies: Company[];
  filings: FilingRecord[];
  ownership: OwnershipFiling[];
  thirteenF: ThirteenFParts[];
  looseThirteenF: LooseThirteenF[];
  looseHtml: LooseHtml[];
  looseOwnership: LooseOwnership[];
  /** `.header.json` files with their path less `.header.json` (the stem a bare XML beside them shares). */
  headerJson: { stem: string; header: HeaderJson }[];
  companyFacts: CompanyFacts[];
  /** Per submissions file, its filings' `acceptanceDateTime` as written (its clock is settled in resolve.ts). */
  submissionsAcceptance: { path: string; entries: { record: FilingRecord; written: string }[] }[];
  /** Accession numbers of Forms 3/4/5 filed in plain text: listed as filings, transactions not read. */
  plainTextOwnership: string[];
  /** Company profiles given by filing headers (SGML, `.header.json`, `-index.htm`). */
  headerProfiles: HeaderProfile[];
  /** 8-K `ITEM INFORMATION` titles that map to no item number, once per time seen. */
  unmappedItemTitles: string[];
  skipped: Skipped[];
  /** Forms 3/4/5 from an Insider Transactions Data Set: used where no XML of the same filing is read. */
  dataSetOwnership: OwnershipFiling[];
  /** 13F filings from a Form 13F Data Set: used where no XML of the same filing is read. */
  dataSetThirteenF: ThirteenFParts[];
  /** What each data set gave, for the manifest. */
  dataSets: DataSetNote[];
  /**
   * Set when the file is a bulk product, to be streamed by the main thread (bulk-inputs.ts)
   * rather than read whole: a zip archive, or a data-set table.
   */
  deferred?: 'archive' | 'table';
}

/** What one data set (a folder of tables, or a zip) gave. */
export interface DataSetNote {
  /** The folder or archive, as read. */
  source: string;
  kind: 'insider' | 'thirteenf';
  /** The tables read, by SEC's names. */
  tables: string[];
  filings: number;
  /** Transaction lines read (Tables I and II, every code, before `slim`) or information-table entries. */
  rows: number;
  /** Rows left out, by reason. */
  rowsLeftOut: Record<string, number>;
  /** What the data set could not give, where tables were missing. */
  missing: string | null;
}

/** An extract with nothing in it. */
export function emptyExtract(): FileExtract {
  return {
    tickers: [], companies: [], filings: [], ownership: [], thirteenF: [], looseThirteenF: [], looseHtml: [], looseOwnership: [],
    headerJson: [], companyFacts: [], submissionsAcceptance: [], plainTextOwnership: [], headerProfiles: [], unmappedItemTitles: [], skipped: [],
    dataSetOwnership: [], dataSetThirteenF: [], dataSets: [],
  };
}

/** The company-facts concepts that rows are made from: the earnings figures' and the financials rows'. */
const KEPT_CONCEPTS: ReadonlySet<string> = new Set([...FIGURE_CONCEPT_NAMES, ...FINANCIAL_CONCEPT_NAMES]);

/**
 * Recognises one file's text and reads it.
 *
 * @param path - the file, for names and the reasons of skips.
 * @param text - its content, decoded as UTF-8.
 * @returns what it gave; a file that is not used, or is malformed, gives one `skipped` entry.
 */
export function extractText(path: string, text: string): FileExtract {
  const extract = emptyExtract();
  try {
    const reason = recognise(path, text, extract);
    if (reason !== null) extract.skipped.push({ path, reason });
  } catch (error) {
    const partial = emptyExtract();
    partial.skipped.push({ path, reason: `malformed: ${(error as Error).message}` });
    return partial;
  }
  return detach(slim(extract));
}

/**
 * V8 keeps a substring of 13 characters or more as a view into the string it was cut from, so a
 * name read out of a document would keep the whole document's text alive (the test set's Form 4
 * XMLs weigh 16 KB each). Every string of an extract is copied out of its document here, once.
 */
function detach<T>(value: T): T {
  if (typeof value === 'string') return (value.length < 13 ? value : (' ' + value).slice(1)) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detach(value[i]);
    return value;
  }
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [detach(k), detach(v)])) as T;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = detach(record[key]);
  }
  return value;
}

/** Returns null when the file was used, else the reason it was not. */
function recognise(path: string, text: string, out: FileExtract): string | null {
  if (text.startsWith('PK\u0003\u0004')) {
    out.deferred = 'archive';
    return null;
  }
  if (looksLikeTsv(text.slice(0, 4096))) {
    out.deferred = 'table';
    return null;
  }
  const head = text.slice(0, 4096).trimStart().replace(/^\uFEFF/, '');
  if (head.startsWith('{') || head.startsWith('[')) return recogniseJson(path, JSON.parse(text), out);
  if (/^<(!DOCTYPE html|html)/i.test(head)) return addHtml(path, text, out);
  if (looksLikeCompleteSubmission(head)) return addSubmission(parseCompleteSubmission(text), out);
  if (head.startsWith('<')) {
    // The head tells the kind (as before any parse); one parse then reads the document.
    if (isOwnershipXml(head)) {
      // Its accession number is settled once every `.header.json` has been read (resolve.ts).
      out.looseOwnership.push({ path, doc: readOwnershipDocument(parseXml(text), '', null) });
      return null;
    }
    if (isCoverPageXml(head)) {
      out.looseThirteenF.push({ dir: dirname(path), path, cover: readCoverPage(parseXml(text)) });
      return null;
    }
    if (isInfoTableXml(head)) {
      out.looseThirteenF.push({ dir: dirname(path), path, entries: readInfoTable(parseXml(text)) });
      return null;
    }
    if (/<html|<!DOCTYPE html/i.test(head)) return addHtml(path, text, out);
    return 'XML that is neither an ownershipDocument nor a 13F cover page or information table';
  }
  return 'not an EDGAR file this builder reads';
}

/**
 * An HTML input: EDGAR's filing index page (`-index.htm`) or header page (`-index-headers.html`),
 * each giving a filing record, else a filing document kept aside.
 *
 * @throws Error when an index or header page lacks its required fields.
 */
function addHtml(path: string, text: string, out: FileExtract): string | null {
  if (isIndexPage(text)) {
    const page = parseIndexPage(text);
    const filing = filingFromIndexPage(page);
    if (!filing) return 'filing index page without a company CIK';
    out.filings.push(filing);
    out.headerProfiles.push(...headerProfiles(page.companies, page.filedAt));
    return null;
  }
  const headerPage = parseHeaderPage(text);
  if (headerPage) return addSubmission(headerPage, out);
  const fileName = basename(path);
  out.looseHtml.push({ path, fileName, ...readHtmlDocument(text), accessionFromName: accessionFromName(fileName) ?? null });
  return null;
}

/** A complete submission or header page: its filing record and embedded XML documents. */
function addSubmission(submission: CompleteSubmission, out: FileExtract): string | null {
  const { header } = submission;
  const contents = readSubmissionContents(submission);
  if (contents.plainTextOwnership) out.plainTextOwnership.push(header.accessionNo);
  if (!contents.filing) return 'SEC header without a company CIK';
  out.headerProfiles.push(...contents.profiles);
  out.unmappedItemTitles.push(...contents.unmappedItemTitles);
  out.filings.push(contents.filing);
  if (contents.ownership) out.ownership.push(contents.ownership);
  if (contents.thirteenF) out.thirteenF.push({ accessionNo: header.accessionNo, filedAt: header.filedAt, ...contents.thirteenF });
  return null;
}

function recogniseJson(path: string, value: unknown, out: FileExtract): string | null {
  if (isTickerFile(value)) {
    out.tickers.push(...parseTickerFile(value));
    return null;
  }
  if (isSubmissionsFile(value)) {
    const parsed = parseSubmissions(value, basename(path));
    if (parsed.company) out.companies.push(parsed.company);
    out.filings.push(...parsed.filings);
    out.submissionsAcceptance.push({ path, entries: parsed.acceptance });
    return null;
  }
  if (isCompanyFactsFile(value)) {
    out.companyFacts.push(parseCompanyFacts(value, KEPT_CONCEPTS));
    return null;
  }
  if (isHeaderJson(value)) {
    const header = parseHeaderJson(value);
    if (header.issuerCik) {
      out.headerProfiles.push({
        cik: header.issuerCik, name: header.issuerName ?? '', sic: header.issuerSic, sicDescription: null,
        stateOfIncorporation: header.issuerStateOfIncorporation, fiscalYearEnd: header.issuerFiscalYearEnd, filedAt: header.filedAt,
      });
    }
    out.headerJson.push({ stem: path.replace(/\.header\.json$/i, ''), header });
    return null;
  }
  return 'JSON that is not a ticker, submissions, companyfacts or header file';
}

/**
 * Keeps of each ownership document only the transaction lines that rows use: every line of Tables
 * I and II of a Form 4 or 4/A (each is an insider-transaction row, facts/insider-transactions.ts);
 * of any other form (3, 5 and their amendments, which no row lists), the Table I lines of codes P
 * and S (facts/insiders.ts), so that such a form weighs what its trades weigh.
 */
export function slim(extract: FileExtract): FileExtract {
  const keep = (doc: OwnershipFiling): void => {
    if (doc.documentType === '4' || doc.documentType === '4/A') return;
    doc.derivativeTransactions = [];
    if (!doc.transactions.some((t) => !COUNTED_CODES.has(t.code))) return;
    // Whether a 4/A reported any Table I transaction decides whether it replaces the original (facts/insiders.ts).
    doc.transactionsFiled = doc.transactions.length;
    doc.transactions = doc.transactions.filter((t) => COUNTED_CODES.has(t.code));
  };
  extract.ownership.forEach(keep);
  extract.dataSetOwnership.forEach(keep);
  for (const loose of extract.looseOwnership) keep(loose.doc);
  return extract;
}
