/**
 * A filing's index page (`<accession>-index.htm` in its Archives folder): the "Document Format
 * Files" and "Data Files" tables, one row per document with its sequence, description, name,
 * type and size. It is where EDGAR says which document of an 8-K is the `EX-99.1` press release
 * and which XML of a 13F-HR is the `INFORMATION TABLE` (EDGAR Filer Manual Vol. II §5.2 and
 * Form 13F XML Technical Specification; the submissions JSON names only the primary document).
 *
 * XML documents appear twice: once as their XSL rendering (a link into an `xsl…/` folder, shown
 * as `….html`) and once raw; only the raw one is a document of the folder.
 */
import { DOCUMENT_NAME } from './edgar-paths.js';

/** One document row of a filing index. */
export interface IndexedDocument {
  /** The document's file name in the filing folder. */
  readonly name: string;
  /** EDGAR's document type: `8-K`, `EX-99.1`, `13F-HR`, `INFORMATION TABLE`, `GRAPHIC`, … (upper case). */
  readonly type: string;
  readonly description: string;
}

/**
 * Reads the document tables of an index page.
 *
 * @param html - the page.
 * @returns the raw documents in page order, each once; [] when the page has no document table.
 */
export function parseFilingIndex(html: string): IndexedDocument[] {
  const documents: IndexedDocument[] = [];
  const seen = new Set<string>();
  for (const table of html.matchAll(/<table[^>]*class="tableFile"[^>]*>([\s\S]*?)<\/table>/gi)) {
    for (const row of table[1]!.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)) {
      const cells = [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gi)].map((c) => c[1]!);
      if (cells.length < 4) continue;
      const href = /href="([^"]*)"/i.exec(cells[2]!)?.[1];
      if (!href) continue;
      // `/ix?doc=/Archives/…` opens inline XBRL in EDGAR's viewer; the document is the same.
      const path = decodeURIComponent(href.replace(/^\/ix\?doc=/, '').split(/[?#]/)[0]!);
      const segments = path.split('/');
      if (/^xsl/i.test(segments.at(-2) ?? '')) continue;
      const name = segments.at(-1) ?? '';
      if (!DOCUMENT_NAME.test(name) || seen.has(name)) continue;
      seen.add(name);
      documents.push({ name, type: cellText(cells[3]!).toUpperCase(), description: cellText(cells[1]!) });
    }
  }
  return documents;
}

/**
 * The 8-K's press release exhibit (`EX-99.1`; some filers number it `EX-99.01` or `EX-99`).
 *
 * @returns its document name, or undefined when the index lists none.
 */
export function pressReleaseExhibit(documents: readonly IndexedDocument[]): string | undefined {
  return (documents.find((d) => d.type === 'EX-99.1') ?? documents.find((d) => /^EX-99(\.0?1)?$/.test(d.type)))?.name;
}

/**
 * The 13F information table: the XML document of type `INFORMATION TABLE`.
 *
 * @returns its document name, or undefined when the index lists none (a 13F-HR notice or
 *   combination report without holdings of its own, or a paper-era text filing).
 */
export function informationTable(documents: readonly IndexedDocument[]): string | undefined {
  return documents.find((d) => d.type === 'INFORMATION TABLE' && /\.xml$/i.test(d.name))?.name;
}

function cellText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}
