/**
 * One filing record from the several records that the inputs give of one accession number
 * (submissions JSON of the issuer and of each reporting owner, an SGML header, an `-index.htm`
 * page, a `.header.json`, a data-set table). The merge is field by field: a record that wins the
 * filing's company may know less of its documents than another, and no field a source knows is
 * lost because another record was preferred for a different field.
 */
import type { FilingRecord } from '../edgar/records.js';

/**
 * How much each source knows, best first: submissions JSON names the primary document as EDGAR
 * links it and the 8-K items by number; SGML headers and `-index.htm` pages list every document;
 * a `.header.json` names its documents by file name; a data-set table names none.
 */
const SOURCE_RANK: Record<FilingRecord['source'], number> = { submissions: 0, sgml: 1, index: 2, 'header-json': 3, 'data-set': 4, document: 5 };

/**
 * Merges the records of one accession number.
 *
 * - The filing's CIK, company name, form and filing date come from one record: the first of those
 *   whose CIK has a ticker (the issuer of a Form 4 rather than a reporting owner), else of all;
 *   among those, the best source, then the first read. The company name, where that record has
 *   none, comes from another record of the same CIK.
 * - Every other field comes from the best source that gives it: `acceptedAt`, `periodOfReport`,
 *   `items` (a non-empty list), `primaryDocument`, `exhibit991`.
 * - `documents` is every document any record lists, best source first.
 *
 * @param records - the records of one accession number, in the order read; at least one.
 * @param hasTicker - whether a CIK is a company with a ticker.
 * @returns `records[0]` itself when it is the only one, else a new record.
 */
export function mergeFilingRecords(records: readonly FilingRecord[], hasTicker: (cik: string) => boolean): FilingRecord {
  if (records.length === 1) return records[0]!;
  // Array.prototype.sort is stable: ties keep the order read.
  const bySource = [...records].sort((a, b) => SOURCE_RANK[a.source] - SOURCE_RANK[b.source]);
  const identity = [...bySource].sort((a, b) => Number(hasTicker(b.cik)) - Number(hasTicker(a.cik)))[0]!;
  const best = <T>(pick: (r: FilingRecord) => T | null): T | null => {
    for (const r of bySource) {
      const value = pick(r);
      if (value !== null) return value;
    }
    return null;
  };
  return {
    ...identity,
    company: identity.company ?? bySource.find((r) => r.cik === identity.cik && r.company !== null)?.company ?? null,
    acceptedAt: best((r) => r.acceptedAt),
    periodOfReport: best((r) => r.periodOfReport),
    items: best((r) => (r.items.length > 0 ? r.items : null)) ?? [],
    primaryDocument: best((r) => r.primaryDocument),
    exhibit991: best((r) => r.exhibit991),
    documents: [...new Set(bySource.flatMap((r) => r.documents))],
  };
}
