/**
 * Every filing known from any input, per company, up to the as-of date: the filing records of
 * submissions JSON, SGML headers, `.header.json` files and `-index.htm` pages, the Forms 3/4/5
 * read (credited to their issuer), the 13F reports read (credited to their filer) and the
 * filings that XBRL company facts name. Reports take a company's latest filing and its latest
 * 10-K, 10-Q and 8-K from here (docs/api.md §6: `latest_filing_at` is the latest filing known from
 * any input, and a company with no known filing gets no report).
 */
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import { documentUrl, indexUrl } from '../edgar/conventions.js';
import type { FilingRecord, OwnershipFiling, ThirteenFFiling } from '../edgar/records.js';

/** One known filing of a company. */
export interface KnownFiling {
  accessionNo: string;
  form: string;
  filedAt: string;
  /**
   * The primary document where a filing record names it, else null; see {@link knownFilingUrl}.
   * A file name, not the URL: reports show a URL for a few filings per company only.
   */
  primaryDocument: string | null;
  /**
   * `company-facts` where only XBRL company facts name the filing. They name every 10-K and
   * 10-Q, but an 8-K only when it carried financial data, so they cannot tell a company's
   * latest 8-K.
   */
  source: 'filing' | 'company-facts';
}

/** What the known filings are gathered from; each list already cut at the as-of date. */
export interface KnownFilingSources {
  records: readonly FilingRecord[];
  ownership: readonly OwnershipFiling[];
  thirteenF: readonly ThirteenFFiling[];
  companyFacts: ReadonlyMap<string, CompanyFacts>;
}

/**
 * Gathers the known filings.
 *
 * @returns per CIK, its filings in the order first named, one per accession number; see
 *   {@link latestFiling} for the latest.
 */
export function knownFilings(sources: KnownFilingSources): Map<string, KnownFiling[]> {
  const byCik = new Map<string, Map<string, KnownFiling>>();
  const filingsOf = (cik: string): Map<string, KnownFiling> => {
    let own = byCik.get(cik);
    if (!own) byCik.set(cik, (own = new Map()));
    return own;
  };
  // The first source to name a filing wins: records (which know the primary document) come
  // first. Each later source makes its entry only where none is known yet.
  for (const r of sources.records) {
    const own = filingsOf(r.cik);
    if (!own.has(r.accessionNo)) own.set(r.accessionNo, { accessionNo: r.accessionNo, form: r.form, filedAt: r.filedAt, primaryDocument: r.primaryDocument, source: 'filing' });
  }
  for (const f of sources.ownership) {
    if (f.filedAt === null) continue;
    const own = filingsOf(f.issuerCik);
    if (!own.has(f.accessionNo)) own.set(f.accessionNo, { accessionNo: f.accessionNo, form: f.documentType, filedAt: f.filedAt, primaryDocument: null, source: 'filing' });
  }
  for (const f of sources.thirteenF) {
    const own = filingsOf(f.filerCik);
    if (!own.has(f.accessionNo)) own.set(f.accessionNo, { accessionNo: f.accessionNo, form: f.form, filedAt: f.filedAt, primaryDocument: null, source: 'filing' });
  }
  for (const facts of sources.companyFacts.values()) {
    for (const f of facts.filings.values()) {
      const own = filingsOf(facts.cik);
      if (!own.has(f.accessionNo)) own.set(f.accessionNo, { accessionNo: f.accessionNo, form: f.form, filedAt: f.filedAt, primaryDocument: null, source: 'company-facts' });
    }
  }
  const out = new Map<string, KnownFiling[]>();
  for (const [cik, own] of byCik) out.set(cik, [...own.values()]);
  return out;
}

/**
 * The latest of a company's known filings that `accept` takes, by filing date, then accession
 * number: a total order, a company's accession numbers being unique. One pass where sorting
 * every company's filings latest first served reports that take four of them.
 *
 * @param filings - one company's filings, from {@link knownFilings}.
 * @returns the filing, or undefined when `accept` takes none.
 */
export function latestFiling(filings: readonly KnownFiling[], accept: (filing: KnownFiling) => boolean = () => true): KnownFiling | undefined {
  let latest: KnownFiling | undefined;
  for (const f of filings) {
    if (accept(f) && (latest === undefined || f.filedAt > latest.filedAt || (f.filedAt === latest.filedAt && f.accessionNo > latest.accessionNo))) latest = f;
  }
  return latest;
}

/**
 * The URL of a known filing of `cik`: its primary document where a filing record names it, else
 * the filing's index page (EDGAR Archives paths, see conventions.ts).
 *
 * @param cik - the CIK the filing is known under (the key of {@link knownFilings}' map).
 */
export function knownFilingUrl(cik: string, filing: KnownFiling): string {
  return filing.primaryDocument ? documentUrl(cik, filing.accessionNo, filing.primaryDocument) : indexUrl(cik, filing.accessionNo);
}
