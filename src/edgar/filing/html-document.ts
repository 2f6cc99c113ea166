/**
 * An HTML filing document (an 8-K's primary document, an exhibit) read for what it says of
 * itself: the form, from inline XBRL `dei:DocumentType` or the cover of an 8-K, and the filer's
 * CIK from `dei:EntityCentralIndexKey` (SEC, "Inline XBRL Filing of Cover Page Data").
 */
import { padCik } from '../conventions.js';

/** What an HTML filing document says of itself. */
export interface HtmlDocumentFacts {
  /** The form the document says it is, else null. */
  form: string | null;
  /** The filer's CIK where the document states it, else null. */
  cik: string | null;
}

/** Reads the form and filer CIK an HTML filing document states. */
export function readHtmlDocument(text: string): HtmlDocumentFacts {
  const dei = (name: string): string | undefined => new RegExp(`name="dei:${name}"[^>]*>\\s*([^<]+?)\\s*<`).exec(text)?.[1];
  const cover = text.slice(0, 50_000).replace(/<[^>]*>/g, ' ').replace(/&nbsp;|&#160;/g, ' ').replace(/\s+/g, ' ');
  const form = dei('DocumentType') ?? (/\bFORM 8-K\b/i.test(cover) && /\bCURRENT REPORT\b/i.test(cover) ? '8-K' : null);
  return { form, cik: padCik(dei('EntityCentralIndexKey')) ?? null };
}
