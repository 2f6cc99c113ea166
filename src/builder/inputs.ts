/**
 * Reads every file under `--from` and recognises it by its content (never by its folder):
 * ticker files, submissions JSON, companyfacts JSON, datamule header JSON, complete
 * submissions (`.txt`/`.nc`), bare ownershipDocument XML, 13F cover pages and information
 * tables. Anything else is skipped with a reason.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isCompanyFactsFile, parseCompanyFacts, type CompanyFacts } from '../edgar/company-facts-json.js';
import { FIGURE_CONCEPTS } from '../facts/fiscal-periods.js';
import { readHtmlInput, type LooseHtml } from './html-inputs.js';
import type { Company, FilingRecord, HeaderProfile, OwnershipFiling } from '../edgar/records.js';
import { isHeaderJson, isOwnershipXml, parseHeaderJson, parseOwnershipXml, type HeaderJson } from '../edgar/ownership-xml.js';
import { looksLikeCompleteSubmission, parseCompleteSubmission } from '../edgar/sgml.js';
import { readSubmissionDocuments } from './submission-documents.js';
import { isSubmissionsFile, parseSubmissions } from '../edgar/submissions-json.js';
import { isCoverPageXml, isInfoTableXml, parseCoverPage, parseInfoTable, type CoverPage } from '../edgar/thirteenf-xml.js';
import { TickerMap, isTickerFile, parseTickerFile } from '../edgar/ticker-files.js';
import type { InfoTableEntry } from '../edgar/records.js';

/** The us-gaap concepts that the earnings figures are made from. */
const FIGURE_CONCEPT_NAMES: ReadonlySet<string> = new Set(Object.values(FIGURE_CONCEPTS).flat());

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

/** Everything read from `--from`. */
export interface Inputs {
  tickers: TickerMap;
  companies: Map<string, Company>;
  filings: FilingRecord[];
  ownership: OwnershipFiling[];
  /** 13F parts from complete submissions, already paired. */
  thirteenF: { accessionNo: string; filedAt: string; cover: CoverPage; entries: InfoTableEntry[] }[];
  looseThirteenF: LooseThirteenF[];
  /** HTML filing documents, waiting to be placed in the filing that lists them. */
  looseHtml: LooseHtml[];
  /** Bare ownershipDocument XML, waiting for its accession number. */
  looseOwnership: { path: string; text: string }[];
  /** `.header.json` files by accession number, and by path without `.header.json`. */
  headerJson: Map<string, HeaderJson>;
  headerJsonByStem: Map<string, HeaderJson>;
  companyFacts: Map<string, CompanyFacts>;
  /** Per submissions file, its filings' `acceptanceDateTime` as written (its clock is settled in resolve.ts). */
  submissionsAcceptance: { path: string; entries: { record: FilingRecord; written: string }[] }[];
  /** Accession numbers of Forms 3/4/5 filed in plain text: listed as filings, transactions not read. */
  plainTextOwnership: string[];
  /** Company profiles given by filing headers (SGML, `.header.json`, `-index.htm`). */
  headerProfiles: HeaderProfile[];
  /** 8-K `ITEM INFORMATION` titles that map to no item number, with how often each was seen. */
  unmappedItemTitles: Map<string, number>;
  filesRead: number;
  skipped: Skipped[];
}

/** Creates an empty set of inputs. */
export function emptyInputs(): Inputs {
  return {
    tickers: new TickerMap(), companies: new Map(), filings: [], ownership: [], thirteenF: [], looseThirteenF: [],
    looseOwnership: [], looseHtml: [], headerJson: new Map(), headerJsonByStem: new Map(), companyFacts: new Map(), submissionsAcceptance: [], plainTextOwnership: [], headerProfiles: [], unmappedItemTitles: new Map(), filesRead: 0, skipped: [],
  };
}

/**
 * Reads one file into `inputs`, or records it as skipped.
 *
 * @param path - the file.
 * @param inputs - collected so far; changed in place.
 */
export async function readInputFile(path: string, inputs: Inputs): Promise<void> {
  inputs.filesRead++;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    inputs.skipped.push({ path, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
    return;
  }
  try {
    const reason = recognise(path, text, inputs);
    if (reason !== null) inputs.skipped.push({ path, reason });
  } catch (error) {
    inputs.skipped.push({ path, reason: `malformed: ${(error as Error).message}` });
  }
}

/** Returns null when the file was used, else the reason it was not. */
function recognise(path: string, text: string, inputs: Inputs): string | null {
  const head = text.slice(0, 4096).trimStart().replace(/^\uFEFF/, '');
  if (head.startsWith('{') || head.startsWith('[')) return recogniseJson(path, JSON.parse(text), inputs);
  if (/^<(!DOCTYPE html|html)/i.test(head)) return readHtmlInput(path, text, inputs);
  if (looksLikeCompleteSubmission(head)) return readSubmissionDocuments(parseCompleteSubmission(text), inputs);
  if (head.startsWith('<?xml') || head.startsWith('<')) {
    if (isOwnershipXml(head)) {
      // Parsed now so that a malformed file is reported; its accession number is settled
      // once every `.header.json` has been read (see resolve.ts).
      parseOwnershipXml(text, '0000000000-00-000000', null);
      inputs.looseOwnership.push({ path, text });
      return null;
    }
    if (isCoverPageXml(head)) {
      inputs.looseThirteenF.push({ dir: dirname(path), path, cover: parseCoverPage(text) });
      return null;
    }
    if (isInfoTableXml(head)) {
      inputs.looseThirteenF.push({ dir: dirname(path), path, entries: parseInfoTable(text) });
      return null;
    }
    if (/<html|<!DOCTYPE html/i.test(head)) return readHtmlInput(path, text, inputs);
    return 'XML that is neither an ownershipDocument nor a 13F cover page or information table';
  }
  if (head.includes('\t') && head.split('\n', 1)[0]!.split('\t').length > 3) return 'tab-separated data set (not read)';
  return 'not an EDGAR file this builder reads';
}

function recogniseJson(path: string, value: unknown, inputs: Inputs): string | null {
  if (isTickerFile(value)) {
    inputs.tickers.add(parseTickerFile(value));
    return null;
  }
  if (isSubmissionsFile(value)) {
    const parsed = parseSubmissions(value, basename(path));
    if (parsed.company) inputs.companies.set(parsed.company.cik, parsed.company);
    inputs.filings.push(...parsed.filings);
    inputs.submissionsAcceptance.push({ path, entries: parsed.acceptance });
    return null;
  }
  if (isCompanyFactsFile(value)) {
    const facts = parseCompanyFacts(value, FIGURE_CONCEPT_NAMES);
    inputs.companyFacts.set(facts.cik, facts);
    return null;
  }
  if (isHeaderJson(value)) {
    const header = parseHeaderJson(value);
    inputs.headerJson.set(header.accessionNo, header);
    if (header.issuerCik) {
      inputs.headerProfiles.push({
        cik: header.issuerCik, name: header.issuerName ?? '', sic: header.issuerSic, sicDescription: null,
        stateOfIncorporation: header.issuerStateOfIncorporation, fiscalYearEnd: header.issuerFiscalYearEnd, filedAt: header.filedAt,
      });
    }
    inputs.headerJsonByStem.set(path.replace(/\.header\.json$/i, ''), header);
    return null;
  }
  return 'JSON that is not a ticker, submissions, companyfacts or header file';
}
