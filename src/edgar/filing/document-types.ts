/**
 * Which document of a filing is what, by the document type EDGAR lists it under (the `<TYPE>` of
 * a complete submission's `<DOCUMENT>`, the Type column of an index page). One rule for every
 * reader, so that `fetch` downloads the exhibit the builder links and no other.
 */

/**
 * The spellings of exhibit 99.1 among document types, best first. Form 8-K Item 2.02 has the
 * earnings release furnished as an exhibit, numbered as Regulation S-K Item 601(b)(99) "additional
 * exhibits" are, and EDGAR types it `EX-99.1` (EDGAR Filer Manual Vol. II, chapter 5, document
 * types). Some filers write the sub-number with two digits (`EX-99.01`), and a filer with a single
 * exhibit 99 may leave it out (`EX-99`); each is then the release.
 */
const PRESS_RELEASE_TYPES: readonly string[] = ['EX-99.1', 'EX-99.01', 'EX-99'];

/**
 * The 8-K's press release exhibit: the first document typed `EX-99.1`, else `EX-99.01`, else
 * `EX-99` (upper or lower case).
 *
 * @param documents - the filing's documents in their order, each with its EDGAR document type.
 * @returns that document, or undefined when none has one of these types.
 */
export function pressRelease<T extends { readonly type: string }>(documents: readonly T[]): T | undefined {
  for (const type of PRESS_RELEASE_TYPES) {
    const found = documents.find((d) => d.type.trim().toUpperCase() === type);
    if (found) return found;
  }
  return undefined;
}

/**
 * The 13F information table: the raw XML document (not its XSL rendering, which an index page
 * links in a `xsl…/` folder) of type `INFORMATION TABLE` (Form 13F XML Technical Specification).
 *
 * @param documents - the filing's documents, each with its type and its path inside the filing folder.
 * @returns that document, or undefined when none is listed (a 13F-HR notice or combination report
 *   without holdings of its own, or a paper-era text filing).
 */
export function informationTable<T extends { readonly type: string; readonly path: string }>(documents: readonly T[]): T | undefined {
  return documents.find((d) => d.type.trim().toUpperCase() === 'INFORMATION TABLE' && !d.path.includes('/') && /\.xml$/i.test(d.path));
}
