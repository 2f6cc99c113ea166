/**
 * EDGAR's filing header pages (`…/<accession>-index-headers.html`): the filing's SGML header,
 * raw in an HTML comment and again escaped in the page body, and after it in the body the
 * filing's `<DOCUMENT>` blocks, escaped too, each with its type, sequence, file name and
 * description and a link to the document in place of its text.
 */
import { parseCompleteSubmission, readDocuments, type CompleteSubmission } from './sgml.js';


/**
 * Reads a header page.
 *
 * @returns the header and the documents the page lists (none carries an `<XML>` payload: the page
 *   links each document instead), or undefined where the page holds no header.
 * @throws Error when the header lacks the accession number, the form or the filing date.
 */
export function parseHeaderPage(html: string): CompleteSubmission | undefined {
  const header = /<!--\s*(<SEC-HEADER>[\s\S]*?<\/SEC-HEADER>)/.exec(html)?.[1];
  if (header === undefined) return undefined;
  const end = html.indexOf('&lt;/SEC-HEADER&gt;');
  const listing = end === -1 ? '' : html.slice(end).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return { header: parseCompleteSubmission(header).header, documents: readDocuments(listing) };
}
