/**
 * EDGAR filing index pages (`…/<accession>-index.htm`, "Filing Detail"): the filing's form,
 * accession number, filing date, acceptance time (Eastern), period of report, 8-K items, the
 * documents it holds, and each company named with its profile. The page is EDGAR's own
 * template, so its fields are found by the template's class names and labels.
 */
import { edgarEasternToIso } from '../eastern-time.js';
import { accessionFolder, isoDate, normaliseAccession, padCik } from '../conventions.js';
import type { HeaderCompany } from './sgml.js';

/** What an index page says about a filing. */
export interface IndexPage {
  accessionNo: string;
  /** The form as the page names it, e.g. `8-K`, `4`, `10-Q`. */
  form: string;
  filedAt: string;
  /** The "Accepted" time converted from Eastern time to UTC; null where it is EDGAR's midnight placeholder. */
  acceptedAt: string | null;
  periodOfReport: string | null;
  /** Item numbers of an 8-K, in order. */
  items: string[];
  /** The documents of the filing, as {@link readIndexDocuments} reads them. */
  documents: IndexedDocument[];
  companies: HeaderCompany[];
}

/**
 * One document row of an index page ("Document Format Files" and "Data Files" tables): EDGAR's
 * document type and the row's link target inside the filing folder. The target, not the name
 * shown: an ownership or 13F XML document is listed twice, first as its XSL rendering, shown as
 * `name.html` but linked as `xslF345X03/name.xml`, then raw as `name.xml`.
 */
export interface IndexedDocument {
  /** EDGAR's document type as the page writes it: `8-K`, `EX-99.1`, `13F-HR`, `INFORMATION TABLE`, `GRAPHIC`, … */
  type: string;
  /** The path inside the filing folder: a file name, or `<rendering folder>/<file name>`. */
  path: string;
  /** The row's description, `''` where it has none. */
  description: string;
}

/** Whether `html` is an EDGAR filing index page. */
export const isIndexPage = (html: string): boolean => html.includes('id="secNum"') && html.includes('class="infoHead"');

const decode = (text: string): string => text.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
  .replace(/\s+/g, ' ').trim();

/**
 * Reads an index page.
 *
 * @throws Error when it lacks the accession number, the form or the filing date.
 */
export function parseIndexPage(html: string): IndexPage {
  const accessionNo = normaliseAccession(/Accession <acronym[^>]*>No\.<\/acronym><\/strong>\s*([\d-]+)/.exec(html)?.[1]);
  const form = decode(/<div id="formName">\s*<strong>Form ([^<]+)<\/strong>/.exec(html)?.[1] ?? '');
  const info = (label: string): string | undefined => {
    const m = new RegExp(`<div class="infoHead">${label}</div>\\s*<div class="info">([\\s\\S]*?)</div>`).exec(html);
    return m ? m[1] : undefined;
  };
  const filedAt = isoDate(info('Filing Date'));
  if (!accessionNo || !form || !filedAt) throw new Error('index page without accession number, form or filing date');
  return {
    accessionNo, form, filedAt,
    acceptedAt: edgarEasternToIso(info('Accepted')) ?? null,
    periodOfReport: isoDate(info('Period of Report')) ?? null,
    items: [...(info('Items') ?? '').matchAll(/Item (\d{1,2}\.\d\d)/g)].map((m) => m[1]!),
    documents: readIndexDocuments(html, accessionNo),
    companies: [...html.matchAll(/<span class="companyName">([\s\S]*?)<\/span>\s*<p class="identInfo">([\s\S]*?)<\/p>/g)].map(readCompany)
      .filter((c): c is HeaderCompany => c !== undefined),
  };
}

/**
 * Reads the document rows of an index page, for callers that know the accession number already
 * (`fetch` reads the page only for its documents).
 *
 * @param html - the page.
 * @param accessionNo - the filing's dashed accession number: a row counts only where its link
 *   opens a document of that filing's folder.
 * @returns the documents in page order, the complete submission `.txt` (a row without a type)
 *   left out; [] when the page has no document table (EDGAR's "Not Found" page).
 */
export function readIndexDocuments(html: string, accessionNo: string): IndexedDocument[] {
  const documents: IndexedDocument[] = [];
  for (const [, row] of html.matchAll(/<tr[^>]*>\s*((?:<td[^>]*>[\s\S]*?<\/td>\s*){5})<\/tr>/g)) {
    const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
    const path = linkTarget(cells[2] ?? '', accessionNo);
    const type = decode(cells[3] ?? '');
    if (path && type && path !== `${accessionNo}.txt`) documents.push({ type, path, description: decode(cells[1] ?? '') });
  }
  return documents;
}

/**
 * The document a row's link opens, as a path inside the filing folder
 * (`/Archives/edgar/data/<cik>/<accession without dashes>/<path>`); `/ix?doc=…` (EDGAR's inline
 * XBRL viewer) opens the document it names. Undefined where the row links no document of the
 * folder: pages of paper-era filings link the folder itself.
 */
function linkTarget(cell: string, accessionNo: string): string | undefined {
  const href = /href="([^"]*)"/i.exec(cell)?.[1];
  if (href === undefined) return undefined;
  const url = href.replace(/&amp;/g, '&').replace(/^\/ix\?doc=/, '').split(/[?#]/)[0]!;
  const folder = `/${accessionFolder(accessionNo)}/`;
  const at = url.indexOf(folder);
  if (at === -1) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.slice(at + folder.length));
  } catch {
    return undefined;
  }
  return /^[^/\s]+(\/[^/\s]+)?$/.test(path) ? path : undefined;
}

function readCompany([, name, ident]: RegExpMatchArray): HeaderCompany | undefined {
  const cik = padCik(/CIK=(\d+)/.exec(name!)?.[1]);
  if (!cik) return undefined;
  const title = decode(name!.split('<acronym')[0]!);
  const role = /\(([^)]+)\)\s*$/.exec(title)?.[1]?.trim() ?? '';
  const text = decode(ident!);
  // The SIC title ends at its line break; the next line names the SEC review office
  // (`(CF Office: 06 Technology)`), which is not part of the industry.
  const sic = ident!.split(/<br\s*\/?>/i).map(decode).map((line) => /SIC\s*:\s*(\d{4})\s*([^|]*)/.exec(line)).find((m) => m !== null);
  const state = /State of Incorp\.: ([A-Z0-9]{2})\b/.exec(text)?.[1] ?? null;
  const fye = /Fiscal Year End: (\d{4})\b/.exec(text)?.[1] ?? null;
  return {
    role: role.toUpperCase(), cik, name: title.replace(/\s*\([^)]*\)\s*$/, ''),
    sic: sic?.[1] ?? null, sicDescription: sic?.[2]?.trim() || null, stateOfIncorporation: state, fiscalYearEnd: fye,
  };
}
