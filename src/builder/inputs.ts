/**
 * Everything read from `--from`: the extracts of every file (file-extract.ts), merged in the
 * order of the walk, so that a build from the same files is the same whatever order the reads
 * finished in.
 */
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import type { HeaderJson } from '../edgar/ownership/ownership-xml.js';
import type { Company, FilingRecord, HeaderProfile, OwnershipFiling } from '../edgar/records.js';
import { TickerMap } from '../edgar/company/ticker-files.js';
import type { DataSetNote, FileExtract, LooseHtml, LooseOwnership, LooseThirteenF, Skipped, ThirteenFParts } from './file-extract.js';

export type { LooseThirteenF, Skipped } from './file-extract.js';

/** Everything read from `--from`. */
export interface Inputs {
  tickers: TickerMap;
  companies: Map<string, Company>;
  filings: FilingRecord[];
  ownership: OwnershipFiling[];
  /** 13F parts from complete submissions and data sets, already paired. */
  thirteenF: ThirteenFParts[];
  looseThirteenF: LooseThirteenF[];
  /** HTML filing documents, waiting to be placed in the filing that lists them. */
  looseHtml: LooseHtml[];
  /** Bare ownershipDocument XML, read, waiting for its accession number. */
  looseOwnership: LooseOwnership[];
  /** `.header.json` files by accession number, and by path without `.header.json`. */
  headerJson: Map<string, HeaderJson>;
  headerJsonByStem: Map<string, HeaderJson>;
  companyFacts: Map<string, CompanyFacts>;
  /** Per submissions file, its filings' `acceptanceDateTime` as written (its clock is settled in resolve.ts). */
  submissionsAcceptance: FileExtract['submissionsAcceptance'];
  /** Accession numbers of Forms 3/4/5 filed in plain text: listed as filings, transactions not read. */
  plainTextOwnership: string[];
  /** Company profiles given by filing headers (SGML, `.header.json`, `-index.htm`). */
  headerProfiles: HeaderProfile[];
  /** 8-K `ITEM INFORMATION` titles that map to no item number, with how often each was seen. */
  unmappedItemTitles: Map<string, number>;
  filesRead: number;
  skipped: Skipped[];
  /** Forms 3/4/5 from Insider Transactions Data Sets: used where no XML of the same filing is read. */
  dataSetOwnership: OwnershipFiling[];
  /** 13F filings from Form 13F Data Sets: used where no XML of the same filing is read. */
  dataSetThirteenF: ThirteenFParts[];
  /** What each data set gave. */
  dataSets: DataSetNote[];
  /** One copy of each repeated value (dates, CIKs, names, forms): see {@link internExtract}. */
  strings: Map<string, string>;
}

/** Creates an empty set of inputs. */
export function emptyInputs(): Inputs {
  return {
    tickers: new TickerMap(), companies: new Map(), filings: [], ownership: [], thirteenF: [], looseThirteenF: [],
    looseOwnership: [], looseHtml: [], headerJson: new Map(), headerJsonByStem: new Map(), companyFacts: new Map(), submissionsAcceptance: [], plainTextOwnership: [], headerProfiles: [], unmappedItemTitles: new Map(), filesRead: 0, skipped: [],
    dataSetOwnership: [], dataSetThirteenF: [], dataSets: [], strings: new Map(),
  };
}

const NONE: readonly never[] = [];

const append = <T>(target: T[], items: readonly T[] | undefined): void => {
  if (items === undefined) return;
  // push(...items) overflows the stack for lists of hundreds of thousands (a data set).
  for (const item of items) target.push(item);
};

/**
 * Adds one file's extract to `inputs`; call it in walk order.
 *
 * @param inputs - collected so far; changed in place.
 * @param extract - what the file gave; a list it lacks is empty (the cache stores extracts so).
 * @param files - how many files the extract stands for (a data set's tables are one extract).
 * @param intern - whether to share its repeated values with the records added before
 *   ({@link internExtract}); the cache's extracts already share theirs, block by block.
 */
export function addExtract(inputs: Inputs, extract: Partial<FileExtract>, files = 1, intern = true): void {
  inputs.filesRead += files;
  if (intern) internExtract(inputs.strings, extract);
  if (extract.tickers?.length) inputs.tickers.add(extract.tickers);
  for (const company of extract.companies ?? NONE) inputs.companies.set(company.cik, company);
  append(inputs.filings, extract.filings);
  append(inputs.ownership, extract.ownership);
  append(inputs.thirteenF, extract.thirteenF);
  append(inputs.looseThirteenF, extract.looseThirteenF);
  append(inputs.looseHtml, extract.looseHtml);
  append(inputs.looseOwnership, extract.looseOwnership);
  for (const { stem, header } of extract.headerJson ?? NONE) {
    inputs.headerJson.set(header.accessionNo, header);
    inputs.headerJsonByStem.set(stem, header);
  }
  for (const facts of extract.companyFacts ?? NONE) inputs.companyFacts.set(facts.cik, facts);
  append(inputs.submissionsAcceptance, extract.submissionsAcceptance);
  append(inputs.plainTextOwnership, extract.plainTextOwnership);
  append(inputs.headerProfiles, extract.headerProfiles);
  for (const title of extract.unmappedItemTitles ?? NONE) inputs.unmappedItemTitles.set(title, (inputs.unmappedItemTitles.get(title) ?? 0) + 1);
  append(inputs.skipped, extract.skipped);
  append(inputs.dataSetOwnership, extract.dataSetOwnership);
  append(inputs.dataSetThirteenF, extract.dataSetThirteenF);
  append(inputs.dataSets, extract.dataSets);
}

/** The fields of each record whose values repeat from filing to filing. */
const REPEATED: Readonly<Record<string, readonly string[]>> = {
  filing: ['cik', 'company', 'form', 'filedAt', 'periodOfReport', 'primaryDocument'],
  ownership: ['filedAt', 'documentType', 'periodOfReport', 'issuerCik', 'issuerName', 'issuerTradingSymbol'],
  owner: ['cik', 'name', 'officerTitle'],
  transaction: ['code', 'date'],
  header: ['form', 'filedAt', 'periodOfReport', 'issuerCik', 'issuerName', 'issuerSic', 'issuerStateOfIncorporation', 'issuerFiscalYearEnd', 'primaryDocument'],
  profile: ['cik', 'name', 'sic', 'sicDescription', 'stateOfIncorporation', 'fiscalYearEnd', 'filedAt'],
};

/**
 * Replaces the repeated values of an extract's records by one shared copy: a year of Forms 4
 * names the same issuers, reporting owners, dates and forms hundreds of thousands of times, and
 * each copy read from a file (or a worker's message) is a string of its own.
 */
function internExtract(strings: Map<string, string>, extract: Partial<FileExtract>): void {
  const intern = (record: object, kind: keyof typeof REPEATED): void => {
    const r = record as Record<string, unknown>;
    for (const field of REPEATED[kind]!) {
      const value = r[field];
      if (typeof value !== 'string') continue;
      const known = strings.get(value);
      if (known === undefined) strings.set(value, value);
      else r[field] = known;
    }
  };
  const ownership = (doc: OwnershipFiling): void => {
    intern(doc, 'ownership');
    for (const owner of doc.owners) intern(owner, 'owner');
    for (const t of doc.transactions) intern(t, 'transaction');
  };
  for (const record of extract.filings ?? NONE) intern(record, 'filing');
  for (const doc of extract.ownership ?? NONE) ownership(doc);
  for (const { doc } of extract.looseOwnership ?? NONE) ownership(doc);
  for (const doc of extract.dataSetOwnership ?? NONE) ownership(doc);
  for (const { header } of extract.headerJson ?? NONE) intern(header, 'header');
  for (const profile of extract.headerProfiles ?? NONE) intern(profile, 'profile');
}
