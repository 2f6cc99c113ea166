/**
 * Earnings rows (docs/api.md §6): filings of form 8-K or 8-K/A with item 2.02, "Results of
 * Operations and Financial Condition". The release URL is the press release exhibit 99.1
 * where a complete submission or index page names it (edgar/filing/document-types.ts), else the
 * primary document; the fiscal period and figures come
 * from XBRL company facts (see fiscal-periods.ts).
 */
import type { EarningsRow } from '../rows/types.js';
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import { matchReleasePeriod } from './fiscal-periods.js';
import { documentUrl } from '../edgar/conventions.js';
import { EARNINGS_ITEM } from '../edgar/filing/form-8k-items.js';
import type { FilingRecord } from '../edgar/records.js';

/** Whether a filing is an earnings release. */
export const isEarningsFiling = (f: FilingRecord): boolean => (f.form === '8-K' || f.form === '8-K/A') && f.items.includes(EARNINGS_ITEM);

/**
 * The URL of the release.
 *
 * @returns the exhibit 99.1 URL, else the primary document's, else null.
 */
export function releaseUrl(filing: FilingRecord): string | null {
  const document = filing.exhibit991 ?? filing.primaryDocument;
  return document ? documentUrl(filing.cik, filing.accessionNo, document) : null;
}

/**
 * Computes the earnings rows.
 *
 * @param filings - one record per accession number.
 * @param issuer - tickers (primary first) and name of a CIK, undefined without a ticker.
 * @param facts - company facts by CIK, cut at the as-of date.
 */
export function computeEarningsRows(
  filings: readonly FilingRecord[],
  issuer: (cik: string) => { ticker: string; tickers: string[]; name: string } | undefined,
  facts: ReadonlyMap<string, CompanyFacts>,
): { rows: EarningsRow[]; withoutTicker: number; withoutDocument: number } {
  const rows: EarningsRow[] = [];
  let withoutTicker = 0;
  let withoutDocument = 0;
  for (const filing of filings) {
    if (!isEarningsFiling(filing)) continue;
    const company = issuer(filing.cik);
    if (!company) {
      withoutTicker++;
      continue;
    }
    const url = releaseUrl(filing);
    if (!url) {
      withoutDocument++;
      continue;
    }
    const companyFacts = facts.get(filing.cik);
    const match = companyFacts ? matchReleasePeriod(companyFacts, filing.filedAt) : null;
    rows.push({
      type: 'earnings', ticker: company.ticker, tickers: company.tickers, cik: filing.cik, company: company.name, form: filing.form as '8-K' | '8-K/A',
      accession_no: filing.accessionNo, filed_at: filing.filedAt, release_url: url,
      fiscal_year: match?.fiscalYear ?? null, fiscal_period: match?.fiscalPeriod ?? null,
      figures: match?.figures ?? { revenue_usd: null, net_income_usd: null, eps_basic: null, eps_diluted: null },
    });
  }
  return { rows, withoutTicker, withoutDocument };
}
