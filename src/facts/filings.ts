/**
 * Filing rows (docs/api.md §6): every filing with a filing date in the `--filings-days` days that
 * end at as-of, with the URLs EDGAR gives it (primary document and index page), and where its
 * filing date came from (`filed_at_source`: EDGAR's own record, or the document's signature date).
 */
import type { FilingRow } from '../rows/types.js';
import { addDays, documentUrl, indexUrl } from '../edgar/conventions.js';
import type { FilingRecord } from '../edgar/records.js';

/**
 * Computes the filing rows.
 *
 * @param filings - one record per accession number.
 * @param asOf - last day, `YYYY-MM-DD`.
 * @param days - window length in days, counting `asOf`.
 * @param company - tickers (primary first, [] for none) and name of a CIK.
 * @param reportingOwners - the reporting owners a Form 3/4/5's own XML names, by accession
 *   number; undefined where the form's XML is not among the inputs (or the form is another).
 */
export function computeFilingRows(
  filings: readonly FilingRecord[],
  asOf: string,
  days: number,
  company: (cik: string) => { tickers: string[]; name: string | null },
  reportingOwners: (accessionNo: string) => readonly { cik: string; name: string }[] | undefined = () => undefined,
): FilingRow[] {
  const start = addDays(asOf, -(days - 1));
  const rows: FilingRow[] = [];
  for (const f of filings) {
    if (f.filedAt < start || f.filedAt > asOf) continue;
    const who = company(f.cik);
    rows.push({
      type: 'filing', ticker: who.tickers[0] ?? null, tickers: who.tickers, cik: f.cik, company: who.name ?? f.company ?? `CIK ${f.cik}`, form: f.form,
      reporting_owners: (reportingOwners(f.accessionNo) ?? []).map(({ cik, name }) => ({ cik, name })),
      accession_no: f.accessionNo, filed_at: f.filedAt, filed_at_source: f.source === 'document' ? 'signature_date' : 'edgar', accepted_at: f.acceptedAt, period_of_report: f.periodOfReport,
      items: f.items, primary_doc_url: f.primaryDocument ? documentUrl(f.cik, f.accessionNo, f.primaryDocument) : null,
      index_url: indexUrl(f.cik, f.accessionNo),
    });
  }
  return rows;
}
