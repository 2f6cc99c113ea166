/**
 * Every filing known from any input, per company, up to the as-of date: the filing records of
 * submissions JSON, SGML headers, `.header.json` files and `-index.htm` pages, the Forms 3/4/5
 * read (credited to their issuer), the 13F reports read (credited to their filer) and the
 * filings that XBRL company facts name. Reports take a company's latest filing and its latest
 * 10-K, 10-Q and 8-K from here (decisions §6: `latest_filing_at` is the latest filing known from
 * any input, and a company with no known filing gets no report).
 */
import type { CompanyFacts } from '../edgar/company-facts-json.js';
import { documentUrl, indexUrl } from '../edgar/conventions.js';
import type { FilingRecord, OwnershipFiling, ThirteenFFiling } from '../edgar/records.js';

/** One known filing of a company. */
export interface KnownFiling {
  accessionNo: string;
  form: string;
  filedAt: string;
  /** The primary document where an input names it, else the filing's index page. */
  url: string;
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
 * @returns per CIK, its filings latest first (by filing date, then accession number), one per accession number.
 */
export function knownFilings(sources: KnownFilingSources): Map<string, KnownFiling[]> {
  const byCik = new Map<string, Map<string, KnownFiling>>();
  const add = (cik: string, filing: KnownFiling): void => {
    let own = byCik.get(cik);
    if (!own) byCik.set(cik, (own = new Map()));
    // The first source to name a filing wins: records (which know the primary document) come first.
    if (!own.has(filing.accessionNo)) own.set(filing.accessionNo, filing);
  };
  for (const r of sources.records) {
    add(r.cik, { accessionNo: r.accessionNo, form: r.form, filedAt: r.filedAt, url: r.primaryDocument ? documentUrl(r.cik, r.accessionNo, r.primaryDocument) : indexUrl(r.cik, r.accessionNo), source: 'filing' });
  }
  for (const f of sources.ownership) {
    if (f.filedAt !== null) add(f.issuerCik, { accessionNo: f.accessionNo, form: f.documentType, filedAt: f.filedAt, url: indexUrl(f.issuerCik, f.accessionNo), source: 'filing' });
  }
  for (const f of sources.thirteenF) add(f.filerCik, { accessionNo: f.accessionNo, form: f.form, filedAt: f.filedAt, url: indexUrl(f.filerCik, f.accessionNo), source: 'filing' });
  for (const facts of sources.companyFacts.values()) {
    for (const f of facts.filings.values()) add(facts.cik, { ...f, url: indexUrl(facts.cik, f.accessionNo), source: 'company-facts' });
  }
  const out = new Map<string, KnownFiling[]>();
  for (const [cik, own] of byCik) {
    out.set(cik, [...own.values()].sort((a, b) => (a.filedAt !== b.filedAt ? (a.filedAt < b.filedAt ? 1 : -1) : a.accessionNo < b.accessionNo ? 1 : -1)));
  }
  return out;
}
