/**
 * Forms 3/4/5 of the EDGAR test set read straight from the raw files by the tests' own reader (on
 * saxes events, not the builder's tree or parser): every transaction line of Table I and Table II
 * with each of its cells by path, the footnotes, the reporting owners; and each document's
 * accession number and filing date from EDGAR's own records beside it (`.header.json`, the SGML
 * header of a complete submission, the submissions JSON), else its name; else its signature date.
 */
import { SaxesParser } from 'saxes';
import { rawFiles, rawJson, rawText } from './real-build.js';

/** A transaction line: its cells by path below the line element (`transactionAmounts/transactionShares/value`), and the footnote ids it carries. */
export interface RawLine {
  table: 'non_derivative' | 'derivative';
  cells: Map<string, string>;
  footnoteIds: string[];
}

/** A reporting owner's cells by element name (`rptOwnerCik`, `isDirector`, `officerTitle`, …). */
export type RawOwner = Map<string, string>;

/** One ownershipDocument. */
export interface RawDocument {
  path: string;
  /** Cells outside the tables, owners and footnotes, by element name (`documentType`, `issuerCik`, `aff10b5One`, …). */
  top: Map<string, string>;
  owners: RawOwner[];
  /** Table I lines, then Table II lines, each table in the document's order. */
  lines: RawLine[];
  footnotes: Map<string, string>;
  signatureDates: string[];
}

const LINES = { nonDerivativeTransaction: 'non_derivative', derivativeTransaction: 'derivative' } as const;

/** Reads an ownershipDocument with saxes events: one pass, a stack of element names. */
export function readRawDocument(path: string, xml: string): RawDocument {
  const doc: RawDocument = { path, top: new Map(), owners: [], lines: [], footnotes: new Map(), signatureDates: [] };
  const stack: { name: string; text: string; id?: string }[] = [];
  let line: RawLine | undefined;
  let lineDepth = 0;
  let owner: RawOwner | undefined;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^.*:/, '');
    const id = tag.attributes.id as string | undefined;
    stack.push({ name, text: '', ...(id === undefined ? {} : { id }) });
    if (name in LINES) {
      line = { table: LINES[name as keyof typeof LINES], cells: new Map(), footnoteIds: [] };
      lineDepth = stack.length;
    } else if (name === 'footnoteId' && line && id) line.footnoteIds.push(id);
    else if (name === 'reportingOwner') owner = new Map();
  });
  parser.on('text', (text) => { if (stack.length > 0) stack.at(-1)!.text += text; });
  parser.on('closetag', () => {
    const element = stack.pop()!;
    const text = element.text.trim();
    if (line && element.name in LINES && stack.length === lineDepth - 1) {
      // Tables come in the document's order: Table I before Table II.
      doc.lines.push(line);
      line = undefined;
    } else if (line) {
      const cellPath = [...stack.slice(lineDepth).map((e) => e.name), element.name].join('/');
      if (text !== '' && !line.cells.has(cellPath)) line.cells.set(cellPath, text);
    } else if (element.name === 'reportingOwner') {
      doc.owners.push(owner!);
      owner = undefined;
    } else if (owner) {
      if (text !== '') owner.set(element.name, text);
    } else if (element.name === 'footnote' && element.id) doc.footnotes.set(element.id, text);
    else if (element.name === 'signatureDate') doc.signatureDates.push(text);
    else if (text !== '' && !doc.top.has(element.name)) doc.top.set(element.name, text);
  });
  parser.write(xml).close();
  return doc;
}

/** A filing date written `YYYYMMDD` as `YYYY-MM-DD`. */
const dashed = (digits: string): string => `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;

/** An ownershipDocument of the test set with its accession number and filing date. */
export interface RawFiling extends RawDocument {
  accession: string;
  filedAt: string;
  /** Whether the filing date is the signature date (no EDGAR record of the filing among the files). */
  signatureDated: boolean;
}

/** Filing dates and forms of the submissions JSON, by accession number; and per CIK, its filings. */
function submissionsRecords(): { filedAt: Map<string, string>; byCik: Map<string, { accession: string; form: string; period: string }[]> } {
  const filedAt = new Map<string, string>();
  const byCik = new Map<string, { accession: string; form: string; period: string }[]>();
  for (const path of rawFiles('submissions')) {
    const json = rawJson(path);
    const columns = json.filings?.recent ?? json;
    const cik = /CIK(\d{10})/.exec(path)?.[1];
    if (!Array.isArray(columns.accessionNumber) || !cik) continue;
    columns.accessionNumber.forEach((accession: string, i: number) => {
      filedAt.set(accession, columns.filingDate[i]);
      const list = byCik.get(cik) ?? [];
      list.push({ accession, form: columns.form[i], period: columns.reportDate[i] });
      byCik.set(cik, list);
    });
  }
  return { filedAt, byCik };
}

/**
 * Every ownershipDocument of `ownership/` whose accession number some file gives, once per
 * accession number (the first found, files in sorted order, complete submissions first).
 */
export function rawOwnershipFilings(): RawFiling[] {
  const submissions = submissionsRecords();
  const headers = new Map<string, { accession: string; filed: string }>();
  for (const path of rawFiles('ownership').filter((p) => p.endsWith('.header.json'))) {
    const submission = rawJson(path).submission;
    headers.set(path.replace(/\.header\.json$/, ''), { accession: submission['ACCESSION-NUMBER'], filed: dashed(submission['FILING-DATE']) });
  }
  const byAccession = new Map<string, RawFiling>();
  const add = (doc: RawDocument, accession: string | undefined, filed: string | undefined): void => {
    const owners = doc.owners.map((o) => o.get('rptOwnerCik')?.padStart(10, '0'));
    const issuer = doc.top.get('issuerCik')?.padStart(10, '0');
    if (!accession) {
      // The submissions JSON of the issuer or an owner may list exactly one filing of its form and period.
      const found = new Set([issuer, ...owners].flatMap((cik) => submissions.byCik.get(cik ?? '') ?? [])
        .filter((f) => f.form === doc.top.get('documentType') && f.period === doc.top.get('periodOfReport')).map((f) => f.accession));
      if (found.size !== 1) return;
      accession = [...found][0]!;
    }
    if (byAccession.has(accession)) return;
    const listed = filed ?? submissions.filedAt.get(accession);
    const signed = doc.signatureDates.filter((d) => /^\d{4}-\d\d-\d\d$/.test(d)).sort().at(-1);
    if (!listed && !signed) return;
    byAccession.set(accession, { ...doc, accession, filedAt: listed ?? signed!, signatureDated: !listed });
  };
  const files = rawFiles('ownership');
  for (const path of files.filter((p) => /\.(txt|nc)$/.test(p))) {
    const text = rawText(path);
    const xml = [...text.matchAll(/<XML>\s*([\s\S]*?)<\/XML>/g)].map((m) => m[1]!).find((x) => x.includes('<ownershipDocument'));
    if (!xml) continue;
    const accession = /(?:ACCESSION NUMBER:|<ACCESSION-NUMBER>)\s*(\d{10}-\d\d-\d{6})/.exec(text)?.[1];
    const filed = /(?:FILED AS OF DATE:|<FILING-DATE>)\s*(\d{8})/.exec(text)?.[1];
    add(readRawDocument(path, xml), accession, filed ? dashed(filed) : undefined);
  }
  for (const path of files.filter((p) => p.endsWith('.xml'))) {
    const xml = rawText(path);
    if (!xml.includes('<ownershipDocument')) continue;
    const header = headers.get(path.replace(/\.xml$/, ''));
    const [folder = '', name = ''] = path.split('/').slice(-2);
    const named = /(\d{10}-\d\d-\d{6})/.exec(name)?.[1] ?? /(\d{10}-\d\d-\d{6})/.exec(folder)?.[1];
    add(readRawDocument(path, xml), header?.accession ?? named, header?.filed);
  }
  return [...byAccession.values()];
}
