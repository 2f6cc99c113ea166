/**
 * Forms 3, 4 and 5 as `ownershipDocument` XML (EDGAR Ownership XML Technical Specification,
 * schemas X0203–X0609): issuer, reporting owners and their relationship, the transaction lines of
 * Table I (non-derivative) and Table II (derivative) with the footnotes that state their price, the Rule 10b5-1(c)
 * checkbox `aff10b5One` (added April 2023) and the signature date of each `ownerSignature`.
 * The XML carries neither accession number nor filing date; the caller supplies them (the
 * signature date stands in where no input gives the filing date).
 */
import { isoDate, normaliseTicker, padCik } from '../conventions.js';
import { statesTransactionPrice } from './footnote-price.js';
import type { OwnershipFiling, OwnershipTransaction, ReportingOwner } from '../records.js';
import { child, children, parseXml, text, xmlBoolean, xmlNumber, type XmlNode, type XmlValue } from '../xml.js';

/** Whether `xml` is an ownershipDocument (cheap test on the text). */
export const isOwnershipXml = (xml: string): boolean => xml.includes('<ownershipDocument');

/**
 * Parses an ownershipDocument.
 *
 * @param xml - the document.
 * @param accessionNo - the filing's accession number.
 * @param filedAt - the filing date where known, else null.
 * @throws Error when the XML is not an ownershipDocument or lacks issuer or period of report.
 */
export function parseOwnershipXml(xml: string, accessionNo: string, filedAt: string | null): OwnershipFiling {
  return readOwnershipDocument(parseXml(xml), accessionNo, filedAt);
}

/**
 * Reads an ownershipDocument already parsed by {@link parseXml}, so that a file is parsed once
 * to be recognised and read.
 *
 * @param root - the parsed document (`{ ownershipDocument: {…} }`).
 * @throws Error as {@link parseOwnershipXml}.
 */
export function readOwnershipDocument(root: XmlNode, accessionNo: string, filedAt: string | null): OwnershipFiling {
  const doc = child(root, 'ownershipDocument');
  if (!doc) throw new Error('no ownershipDocument element');
  const issuer = child(doc, 'issuer');
  const issuerCik = padCik(text(issuer, 'issuerCik'));
  const periodOfReport = isoDate(text(doc, 'periodOfReport'));
  const documentType = text(doc, 'documentType');
  if (!issuerCik) throw new Error('ownershipDocument without issuerCik');
  if (!periodOfReport) throw new Error('ownershipDocument without periodOfReport');
  if (!documentType) throw new Error('ownershipDocument without documentType');
  // Read only for a line whose price cell is empty (rare): most documents never look at their footnotes.
  let footnotes: Map<string, string> | undefined;
  const priced = new Map<string, boolean>();
  const statesPrice = (id: string): boolean => {
    let known = priced.get(id);
    if (known === undefined) {
      footnotes ??= new Map(children(child(doc, 'footnotes'), 'footnote')
        .filter((f) => typeof f['@id'] === 'string')
        .map((f) => [f['@id'] as string, text(f) ?? '']));
      priced.set(id, known = footnotes.has(id) && statesTransactionPrice(footnotes.get(id)!));
    }
    return known;
  };
  const lines = (table: string, line: string): OwnershipTransaction[] => children(child(doc, table), line)
    .map((node) => readTransaction(node, statesPrice))
    .filter((t): t is OwnershipTransaction => t !== undefined);
  const checkbox = xmlBoolean(text(doc, 'aff10b5One'));
  const signatureDate = latestSignatureDate(doc);
  return {
    accessionNo,
    filedAt,
    documentType,
    periodOfReport,
    issuerCik,
    issuerName: text(issuer, 'issuerName') ?? '',
    issuerTradingSymbol: normaliseTicker(text(issuer, 'issuerTradingSymbol')) ?? null,
    owners: children(doc, 'reportingOwner').map(readOwner),
    plan10b51: checkbox ?? null,
    transactions: lines('nonDerivativeTable', 'nonDerivativeTransaction'),
    derivativeTransactions: lines('derivativeTable', 'derivativeTransaction'),
    ...(signatureDate ? { signatureDate } : {}),
  };
}

/** A calendar date's shape: month 01-12, day 01-31. */
const CALENDAR_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The latest `ownerSignature/signatureDate` that is a date (one per signer of a joint filing), or undefined. */
function latestSignatureDate(doc: XmlNode): string | undefined {
  let latest: string | undefined;
  for (const signature of children(doc, 'ownerSignature')) {
    const date = isoDate(text(signature, 'signatureDate'));
    if (date && CALENDAR_DATE.test(date) && (!latest || date > latest)) latest = date;
  }
  return latest;
}

function readOwner(node: XmlNode): ReportingOwner {
  const relation = child(node, 'reportingOwnerRelationship');
  const flag = (name: string): boolean => xmlBoolean(text(relation, name)) ?? false;
  return {
    cik: padCik(text(node, 'reportingOwnerId', 'rptOwnerCik')) ?? '',
    name: text(node, 'reportingOwnerId', 'rptOwnerName') ?? '',
    isDirector: flag('isDirector'),
    isOfficer: flag('isOfficer'),
    isTenPercentOwner: flag('isTenPercentOwner'),
    isOther: flag('isOther'),
    officerTitle: text(relation, 'officerTitle') ?? null,
  };
}

/** The ids of every footnote attached (`<footnoteId id="F1"/>`) anywhere under `node`. */
function footnoteIds(node: XmlValue, out: string[] = []): string[] {
  if (typeof node === 'string') return out;
  if (Array.isArray(node)) {
    for (const item of node) footnoteIds(item, out);
    return out;
  }
  for (const [name, value] of Object.entries(node)) {
    if (name === 'footnoteId') for (const mark of Array.isArray(value) ? value : [value]) {
      if (typeof mark === 'object' && !Array.isArray(mark) && typeof mark['@id'] === 'string') out.push(mark['@id']);
    } else if (name !== '@id' && name !== '#text') footnoteIds(value, out);
  }
  return out;
}

/** One of the letters a field allows, upper-cased; null where absent or other. */
function letter<T extends string>(value: string | undefined, allowed: readonly T[]): T | null {
  const upper = value?.toUpperCase();
  return allowed.includes(upper as T) ? (upper as T) : null;
}

/**
 * One transaction line of Table I or Table II (their columns are the same where both have them);
 * undefined where it lacks a transaction code or date.
 *
 * @param statesPrice - whether the document's footnote of that id states a price per share or unit.
 */
function readTransaction(node: XmlNode, statesPrice: (id: string) => boolean): OwnershipTransaction | undefined {
  const code = text(node, 'transactionCoding', 'transactionCode');
  const date = isoDate(text(node, 'transactionDate', 'value'));
  if (!code || !date) return undefined;
  const amounts = child(node, 'transactionAmounts');
  const shares = xmlNumber(text(amounts, 'transactionShares', 'value'));
  const price = xmlNumber(text(amounts, 'transactionPricePerShare', 'value'));
  return {
    code: code.toUpperCase(),
    date,
    shares: shares ?? null,
    price: price ?? null,
    sharesText: shares === undefined ? null : text(amounts, 'transactionShares', 'value')!.replace(/,/g, ''),
    priceText: price === undefined ? null : text(amounts, 'transactionPricePerShare', 'value')!.replace(/,/g, ''),
    priceInFootnote: price === undefined && footnoteIds(node).some(statesPrice),
    securityTitle: text(node, 'securityTitle', 'value') ?? '',
    acquiredDisposed: letter(text(amounts, 'transactionAcquiredDisposedCode', 'value'), ['A', 'D']),
    sharesOwnedAfter: xmlNumber(text(node, 'postTransactionAmounts', 'sharesOwnedFollowingTransaction', 'value')) ?? null,
    directIndirect: letter(text(node, 'ownershipNature', 'directOrIndirectOwnership', 'value'), ['D', 'I']),
  };
}

/** Filing facts read from datamule's `.header.json` rendering of an SGML header. */
export interface HeaderJson {
  accessionNo: string;
  form: string;
  filedAt: string;
  periodOfReport: string | null;
  issuerCik: string | null;
  issuerName: string | null;
  /** The issuer's SIC code, state of incorporation and fiscal year end (MMDD) as the header gives them. */
  issuerSic: string | null;
  issuerStateOfIncorporation: string | null;
  issuerFiscalYearEnd: string | null;
  primaryDocument: string | null;
}

/** Whether parsed JSON is a `.header.json` (`{"submission":{"ACCESSION-NUMBER",…}}`). */
export function isHeaderJson(value: unknown): boolean {
  const submission = (value as { submission?: Record<string, unknown> } | null)?.submission;
  return typeof submission === 'object' && submission !== null && 'ACCESSION-NUMBER' in submission;
}

/**
 * Reads a `.header.json`.
 *
 * @throws Error when it lacks accession number, type or filing date.
 */
export function parseHeaderJson(value: unknown): HeaderJson {
  const root = value as { submission: Record<string, unknown>; documents?: Record<string, unknown>[] };
  const s = root.submission;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const accessionNo = str(s['ACCESSION-NUMBER']);
  const filedAt = isoDate(str(s['FILING-DATE']));
  const form = str(s.TYPE);
  if (!accessionNo || !filedAt || !form) throw new Error('header JSON without ACCESSION-NUMBER, TYPE or FILING-DATE');
  const issuers = Array.isArray(s.ISSUER) ? (s.ISSUER as Record<string, Record<string, unknown>>[]) : [];
  const issuer = issuers[0]?.['COMPANY-DATA'];
  return {
    accessionNo, form, filedAt,
    periodOfReport: isoDate(str(s.PERIOD)) ?? null,
    issuerCik: padCik(str(issuer?.CIK)) ?? null,
    issuerName: str(issuer?.['CONFORMED-NAME']) ?? null,
    issuerSic: /^\d{4}$/.test(str(issuer?.['ASSIGNED-SIC']) ?? '') ? str(issuer?.['ASSIGNED-SIC'])! : null,
    issuerStateOfIncorporation: str(issuer?.['STATE-OF-INCORPORATION']) ?? null,
    issuerFiscalYearEnd: /^\d{4}$/.test(str(issuer?.['FISCAL-YEAR-END']) ?? '') ? str(issuer?.['FISCAL-YEAR-END'])! : null,
    primaryDocument: str(root.documents?.[0]?.FILENAME) ?? null,
  };
}
