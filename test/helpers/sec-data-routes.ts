/**
 * Maps the real EDGAR files of `../shared/sec-data` to the URL paths EDGAR serves them at, for
 * the replay server. Each file's path comes from, in this order of precedence:
 *
 * 1. the original URL that `manifest.json` records for it (submissions, company facts, Apple's
 *    Form 4 XMLs, complete submissions, 8-K documents and index pages);
 * 2. the ticker files' fixed paths under `/files/`;
 * 3. 13F folders named by accession number: the cover page and information table under the
 *    filer's CIK (the first `<cik>` of the cover page);
 * 4. datamule's `.header.json` beside each ownership XML: the document's file name and every
 *    party's CIK (issuer and reporting owners), as EDGAR files the folder under each;
 * 5. other ownership XMLs named by accession number: the raw `primaryDocument` of every
 *    submissions JSON that lists the accession;
 * 6. the documents inside complete submissions (`.txt`, `.nc`), under each CIK of their header.
 *
 * Every filing folder without a real index page gets one made from what is known of its
 * documents (name and type), in EDGAR's `tableFile` layout.
 */
import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';

/** One answer of the replay server. */
export interface ReplayDocument {
  /** The sec-data file it comes from (relative), or `synthesized:…`. */
  readonly source: string;
  readonly load: () => Promise<Buffer>;
}

interface FolderDocument { name: string; type: string; source: string }

const ACCESSION = /^(\d{10})-?(\d{2})-?(\d{6})$/;
const bare = (cik: string): string => String(Number(cik));
const noDashes = (accession: string): string => accession.replace(/-/g, '');
const dashed = (value: string): string | undefined => {
  const m = ACCESSION.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
};

/**
 * Builds the routes.
 *
 * @param root - the sec-data folder.
 * @returns URL path → document.
 */
export async function secDataRoutes(root: string): Promise<Map<string, ReplayDocument>> {
  const routes = new Map<string, ReplayDocument>();
  const folders = new Map<string, { cik: string; accession: string; documents: Map<string, FolderDocument> }>();
  const fromFile = (file: string): ReplayDocument => ({ source: relative(root, file), load: () => readFile(file) });
  const add = (path: string, document: ReplayDocument): void => {
    if (!routes.has(path)) routes.set(path, document);
  };
  const addToFolder = (cik: string, accession: string, name: string, type: string, document: ReplayDocument): void => {
    const key = `/Archives/edgar/data/${bare(cik)}/${noDashes(accession)}`;
    add(`${key}/${name}`, document);
    const folder = folders.get(key) ?? { cik, accession, documents: new Map() };
    folders.set(key, folder);
    const known = folder.documents.get(name);
    if (!known) folder.documents.set(name, { name, type, source: document.source });
    else if (known.type === '') known.type = type;
  };

  const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as { dest: string; how: string }[];
  for (const entry of manifest) {
    const url = /https:\/\/(?:www|data)\.sec\.gov(\/[^\s)?]+)(?=[\s)]|$)/.exec(entry.how)?.[1];
    if (!url || url.startsWith('/cgi-bin/')) continue;
    const document = fromFile(join(root, entry.dest));
    const folder = /^\/Archives\/edgar\/data\/(\d+)\/(\d{18})\/([^/]+)$/.exec(url);
    if (folder) addToFolder(folder[1]!, dashed(folder[2]!)!, folder[3]!, '', document);
    else add(url, document);
    // EDGAR serves a filing's index page beside its folder and inside it, as .htm and .html.
    const index = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10}-\d{2}-\d{6})-index\.html?$/.exec(url);
    if (index) for (const ext of ['htm', 'html']) add(`/Archives/edgar/data/${index[1]}/${noDashes(index[2]!)}/${index[2]}-index.${ext}`, document);
  }
  add('/files/company_tickers.json', fromFile(join(root, 'tickers/company_tickers.json')));
  add('/files/company_tickers_exchange.json', fromFile(join(root, 'tickers/company_tickers_exchange.json')));

  const files = await listFiles(root);
  const listed = await accessionsInSubmissions(root, files);
  for (const file of files.filter((f) => /primary_doc\.xml$/.test(f))) {
    const accession = dashed(basename(dirname(file)));
    const text = await readFile(file, 'utf8');
    const cik = /<cik>(\d+)<\/cik>/.exec(text)?.[1];
    if (!accession || !cik) continue;
    for (const sibling of await readdir(dirname(file))) {
      const type = sibling === 'primary_doc.xml' ? (/<submissionType>([^<]+)</.exec(text)?.[1] ?? '13F-HR') : 'INFORMATION TABLE';
      addToFolder(cik, accession, sibling, type, fromFile(join(dirname(file), sibling)));
    }
  }
  for (const file of files.filter((f) => f.endsWith('.header.json'))) {
    const header = JSON.parse(await readFile(file, 'utf8')) as DatamuleHeader;
    const accession = dashed(header.submission?.['ACCESSION-NUMBER'] ?? '');
    const document = header.documents?.find((d) => /\.xml$/i.test(d.FILENAME ?? ''));
    if (!accession || !document?.FILENAME) continue;
    const parties = [...asArray(header.submission?.ISSUER).map((i) => i['COMPANY-DATA']?.CIK), ...asArray(header.submission?.['REPORTING-OWNER']).map((o) => o['OWNER-DATA']?.CIK)];
    for (const cik of parties) if (cik) addToFolder(cik, accession, document.FILENAME, document.TYPE ?? '', fromFile(file.replace(/\.header\.json$/, '.xml')));
  }
  for (const file of files.filter((f) => /\/ownership\/.*\/\d{10}-\d{2}-\d{6}\.xml$/.test(f))) {
    const accession = basename(file, '.xml');
    for (const { cik, document, form } of listed.get(accession) ?? []) addToFolder(cik, accession, document, form, fromFile(file));
  }
  for (const file of files.filter((f) => /\.(txt|nc)$/.test(f))) {
    const text = await readFile(file, 'latin1');
    if (!/^\s*(<SEC-DOCUMENT>|<SUBMISSION>|<SEC-HEADER>)/.test(text)) continue;
    const submission = splitSubmission(text);
    if (!submission) continue;
    for (const cik of submission.ciks) {
      addToFolder(cik, submission.accession, `${submission.accession}.txt`, '', fromFile(file));
      for (const d of submission.documents) addToFolder(cik, submission.accession, d.name, d.type, { source: relative(root, file), load: async () => Buffer.from(d.body, 'latin1') });
    }
  }
  for (const [key, folder] of folders) {
    const page = `${key}/${folder.accession}-index.htm`;
    if (routes.has(page)) continue;
    const html = indexPage(folder.cik, folder.accession, [...folder.documents.values()]);
    add(page, { source: `synthesized:${page}`, load: async () => Buffer.from(html) });
  }
  return routes;
}

interface DatamuleHeader {
  submission?: { 'ACCESSION-NUMBER'?: string; ISSUER?: unknown; 'REPORTING-OWNER'?: unknown };
  documents?: { TYPE?: string; FILENAME?: string }[];
}

function asArray(value: unknown): Record<string, Record<string, string> | undefined>[] {
  return (Array.isArray(value) ? value : value ? [value] : []) as Record<string, Record<string, string> | undefined>[];
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await listFiles(path));
    else out.push(path);
  }
  return out.sort();
}

/** Accession number → every (CIK, raw primary document, form) a submissions file lists for it. */
async function accessionsInSubmissions(root: string, files: string[]): Promise<Map<string, { cik: string; document: string; form: string }[]>> {
  const listed = new Map<string, { cik: string; document: string; form: string }[]>();
  for (const file of files.filter((f) => /\/submissions\/CIK\d{10}.*\.json$/.test(f))) {
    const json = JSON.parse(await readFile(file, 'utf8')) as { filings?: { recent?: Columns } } & Columns;
    const columns = json.filings?.recent ?? json;
    const cik = basename(file).slice(3, 13);
    (columns.accessionNumber ?? []).forEach((accession, i) => {
      const document = (columns.primaryDocument?.[i] ?? '').replace(/^xsl[^/]*\//, '');
      if (document) listed.set(accession, [...(listed.get(accession) ?? []), { cik, document, form: columns.form?.[i] ?? '' }]);
    });
  }
  return listed;
}

type Columns = { accessionNumber?: string[]; primaryDocument?: string[]; form?: string[] };

/** The accession number, every CIK and the documents of a complete submission, as EDGAR serves them. */
function splitSubmission(text: string): { accession: string; ciks: string[]; documents: { name: string; type: string; body: string }[] } | undefined {
  const header = text.slice(0, Math.max(0, text.indexOf('<DOCUMENT>')));
  const accession = dashed(/ACCESSION[ -]NUMBER>?:?\s*(\d{10}-\d{2}-\d{6})/.exec(header)?.[1] ?? '');
  if (!accession) return undefined;
  const ciks = [...new Set([...header.matchAll(/(?:CENTRAL INDEX KEY:\s*|<CIK>)(\d{10})/g)].map((m) => m[1]!))];
  const documents = [];
  for (const block of text.split('<DOCUMENT>').slice(1)) {
    const name = /<FILENAME>([^\r\n<]+)/.exec(block)?.[1]?.trim();
    const type = /<TYPE>([^\r\n<]+)/.exec(block)?.[1]?.trim() ?? '';
    const body = /<TEXT>\r?\n?([\s\S]*?)<\/TEXT>/.exec(block)?.[1];
    if (!name || body === undefined) continue;
    const xml = /^\s*<XML>\r?\n?([\s\S]*?)<\/XML>\s*$/.exec(body);
    documents.push({ name, type, body: xml ? xml[1]! : body });
  }
  return { accession, ciks, documents };
}

/** A filing index page in EDGAR's layout: one `tableFile` row per document. */
function indexPage(cik: string, accession: string, documents: FolderDocument[]): string {
  const folder = `/Archives/edgar/data/${bare(cik)}/${noDashes(accession)}`;
  const rows = documents.map((d, i) => `<tr><td scope="row">${i + 1}</td><td scope="row">${d.type}</td>`
    + `<td scope="row"><a href="${folder}/${d.name}">${d.name}</a></td><td scope="row">${d.type}</td><td scope="row">&nbsp;</td></tr>`);
  return `<html><head><title>EDGAR Filing Documents for ${accession}</title></head><body>\n`
    + '<table class="tableFile" summary="Document Format Files">\n'
    + '<tr><th scope="col">Seq</th><th scope="col">Description</th><th scope="col">Document</th><th scope="col">Type</th><th scope="col">Size</th></tr>\n'
    + `${rows.join('\n')}\n</table></body></html>\n`;
}
