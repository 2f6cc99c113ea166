/**
 * EDGAR complete submission files: the `.txt` form (a `<SEC-HEADER>` of tab-aligned
 * `KEY:\tvalue` lines) and the dissemination-feed `.nc` form (`<SUBMISSION>` with
 * `<ACCESSION-NUMBER>value` tags), each followed by `<DOCUMENT>` blocks (EDGAR Public
 * Dissemination Service specification, SGML submissions). The header is read line by line;
 * an embedded `<XML>` payload is handed on as text for the XML parser.
 */
import { edgarEasternToIso } from '../eastern-time.js';
import { isoDate, normaliseAccession, padCik } from '../conventions.js';
import type { HeaderProfile } from '../records.js';

/** The header facts of a complete submission. */
export interface SubmissionHeader {
  accessionNo: string;
  /** CONFORMED SUBMISSION TYPE, e.g. `8-K`, `4`, `13F-HR`. */
  form: string;
  /** FILED AS OF DATE, `YYYY-MM-DD`. */
  filedAt: string;
  /** ACCEPTANCE-DATETIME (Eastern time) converted to RFC 3339 UTC, or null. */
  acceptedAt: string | null;
  /** CONFORMED PERIOD OF REPORT, `YYYY-MM-DD`, or null. */
  periodOfReport: string | null;
  /** ITEM INFORMATION titles (8-K), in order. */
  itemTitles: string[];
  /** Item numbers where the header gives them (`.nc` `<ITEMS>`). */
  items: string[];
  /** Companies named in the header (filer, issuer, subject company), in order. */
  companies: HeaderCompany[];
}

/** A company named in a header, with the profile EDGAR gives it there (`.txt` SIC titles: `AIRCRAFT & PARTS [3720]`). */
export type HeaderCompany = Omit<HeaderProfile, 'filedAt'> & {
  /** The header section: `FILER`, `ISSUER`, `SUBJECT COMPANY`, `REPORTING-OWNER`, … */
  role: string;
};

/** One `<DOCUMENT>` block. */
export interface SubmissionDocument {
  type: string;
  filename: string | null;
  description: string | null;
  /** The `<XML>` payload, when the document is XML. */
  xml: string | null;
}

/** A parsed complete submission. */
export interface CompleteSubmission {
  header: SubmissionHeader;
  documents: SubmissionDocument[];
}

/** Whether `text` (the first few KB of a file) starts like a complete submission (`.txt` or `.nc`). */
export function looksLikeCompleteSubmission(text: string): boolean {
  // Older files come wrapped in a PEM envelope (`-----BEGIN PRIVACY-ENHANCED MESSAGE-----`).
  const head = text.slice(0, 4096).trimStart();
  return head.startsWith('<SUBMISSION>') || head.startsWith('<ACCEPTANCE-DATETIME>')
    || ((head.startsWith('<SEC-') || head.startsWith('-----BEGIN PRIVACY-ENHANCED')) && (head.includes('<SEC-HEADER>') || head.includes('<SEC-DOCUMENT>')));
}

/**
 * Parses a complete submission.
 *
 * @param text - the whole `.txt` or `.nc` file.
 * @throws Error when the header has no accession number, form type or filing date.
 */
export function parseCompleteSubmission(text: string): CompleteSubmission {
  const firstDocument = text.indexOf('<DOCUMENT>');
  const headerText = firstDocument === -1 ? text : text.slice(0, firstDocument);
  // `.nc` files and the header pages EDGAR serves (`-index-headers.html`) use tags.
  const tagged = headerText.includes('<SUBMISSION>') || headerText.includes('<ACCESSION-NUMBER>');
  const header = tagged ? readTaggedHeader(headerText) : readTextHeader(headerText);
  return { header, documents: firstDocument === -1 ? [] : readDocuments(text.slice(firstDocument)) };
}

type Fields = { key: string; value: string; section: string }[];

function readTextHeader(headerText: string): SubmissionHeader {
  const fields: Fields = [];
  let section = '';
  for (const rawLine of headerText.split(/\r?\n/)) {
    const acceptance = /^<ACCEPTANCE-DATETIME>(\d{14})/.exec(rawLine);
    if (acceptance) fields.push({ key: 'ACCEPTANCE-DATETIME', value: acceptance[1]!, section });
    const colon = rawLine.indexOf(':');
    if (colon === -1 || rawLine.startsWith('<')) continue;
    const key = rawLine.slice(0, colon).trim();
    const value = rawLine.slice(colon + 1).trim();
    if (!rawLine.startsWith('\t') && value === '') section = key;
    fields.push({ key, value, section });
  }
  const get = (key: string): string | undefined => fields.find((f) => f.key === key)?.value || undefined;
  return assemble(fields, {
    accession: get('ACCESSION NUMBER'), form: get('CONFORMED SUBMISSION TYPE'), filed: get('FILED AS OF DATE'),
    accepted: get('ACCEPTANCE-DATETIME'), period: get('CONFORMED PERIOD OF REPORT'),
    itemTitles: fields.filter((f) => f.key === 'ITEM INFORMATION').map((f) => f.value), items: [],
  }, { cik: 'CENTRAL INDEX KEY', name: 'COMPANY CONFORMED NAME', sic: 'STANDARD INDUSTRIAL CLASSIFICATION', state: 'STATE OF INCORPORATION', fye: 'FISCAL YEAR END' });
}

function readTaggedHeader(headerText: string): SubmissionHeader {
  const fields: Fields = [];
  const sections = new Set(['FILER', 'ISSUER', 'REPORTING-OWNER', 'SUBJECT-COMPANY', 'FILED-BY']);
  let section = '';
  // `.nc` headers are `<TAG>value` pairs, sometimes all on one line.
  for (const token of headerText.split('<').slice(1)) {
    const close = token.indexOf('>');
    if (close === -1) continue;
    const key = token.slice(0, close);
    const value = token.slice(close + 1).trim();
    if (sections.has(key)) section = key;
    fields.push({ key, value, section });
  }
  const get = (key: string): string | undefined => fields.find((f) => f.key === key)?.value || undefined;
  return assemble(fields, {
    accession: get('ACCESSION-NUMBER'), form: get('TYPE'), filed: get('FILING-DATE'), accepted: get('ACCEPTANCE-DATETIME'),
    period: get('PERIOD'), itemTitles: [], items: fields.filter((f) => f.key === 'ITEMS').map((f) => f.value),
  }, { cik: 'CIK', name: 'CONFORMED-NAME', sic: 'ASSIGNED-SIC', state: 'STATE-OF-INCORPORATION', fye: 'FISCAL-YEAR-END' });
}

function assemble(
  fields: Fields,
  found: { accession?: string; form?: string; filed?: string; accepted?: string; period?: string; itemTitles: string[]; items: string[] },
  keys: { cik: string; name: string; sic: string; state: string; fye: string },
): SubmissionHeader {
  const accessionNo = normaliseAccession(found.accession);
  const filedAt = isoDate(found.filed);
  if (!accessionNo) throw new Error('SGML header has no ACCESSION NUMBER');
  if (!found.form) throw new Error('SGML header has no submission type');
  if (!filedAt) throw new Error('SGML header has no FILED AS OF DATE');
  const companies: SubmissionHeader['companies'] = [];
  fields.forEach((field, i) => {
    if (field.key !== keys.name) return;
    const after = fields.slice(i + 1, i + 12);
    const cik = padCik(after.find((f) => f.key === keys.cik)?.value);
    if (!cik) return;
    const sic = after.find((f) => f.key === keys.sic)?.value;
    // `.txt`: `AIRCRAFT & PARTS [3720]`; `.nc`: `3720`; `[]` or blank when EDGAR has none.
    const titled = sic ? /^(.*?)\s*\[(\d{4})\]$/.exec(sic) : null;
    const fye = after.find((f) => f.key === keys.fye)?.value;
    companies.push({
      role: field.section, cik, name: field.value,
      sic: titled?.[2] ?? (sic && /^\d{4}$/.test(sic) ? sic : null),
      sicDescription: titled?.[1] || null,
      stateOfIncorporation: after.find((f) => f.key === keys.state)?.value || null,
      fiscalYearEnd: fye && /^\d{4}$/.test(fye) ? fye : null,
    });
  });
  return {
    accessionNo, form: found.form, filedAt, acceptedAt: edgarEasternToIso(found.accepted) ?? null,
    periodOfReport: isoDate(found.period) ?? null, itemTitles: found.itemTitles, items: found.items, companies,
  };
}

/**
 * Reads the `<DOCUMENT>` blocks of a complete submission: type, file name, description and the
 * `<XML>` payload of each.
 *
 * @param text - the submission from its first `<DOCUMENT>` on (text before it is passed over).
 * @returns the documents in order; [] where there is none.
 */
export function readDocuments(text: string): SubmissionDocument[] {
  const documents: SubmissionDocument[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf('<DOCUMENT>', at);
    if (start === -1) break;
    const end = text.indexOf('</DOCUMENT>', start);
    const block = text.slice(start + '<DOCUMENT>'.length, end === -1 ? text.length : end);
    at = end === -1 ? text.length : end + 1;
    const textStart = block.indexOf('<TEXT>');
    const head = textStart === -1 ? block : block.slice(0, textStart);
    const tag = (name: string): string | null => {
      const i = head.indexOf(`<${name}>`);
      if (i === -1) return null;
      const rest = head.slice(i + name.length + 2);
      const stop = rest.search(/[\r\n<]/);
      return (stop === -1 ? rest : rest.slice(0, stop)).trim() || null;
    };
    const xmlStart = block.indexOf('<XML>');
    const xmlEnd = block.lastIndexOf('</XML>');
    documents.push({
      type: tag('TYPE') ?? '',
      filename: tag('FILENAME'),
      description: tag('DESCRIPTION'),
      xml: xmlStart !== -1 && xmlEnd > xmlStart ? block.slice(xmlStart + 5, xmlEnd).trim() : null,
    });
  }
  return documents;
}
