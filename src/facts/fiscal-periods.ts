/**
 * The fiscal period and figures of an earnings release, from XBRL company facts: the periods
 * the company's 10-Qs and 10-Ks reported, what the facts said on an as-of date, and the period
 * a release filed on a given day reports (docs/api.md §6, earnings `figures`).
 */
import { daysBetween } from '../edgar/conventions.js';
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import type { EarningsFigures, FiscalPeriod } from '../rows/types.js';

/** The figures' concepts, in order of preference (us-gaap taxonomy), taxonomy-qualified as company facts are read. */
export const FIGURE_CONCEPTS: Readonly<Record<keyof EarningsFigures, readonly string[]>> = Object.freeze({
  revenue_usd: ['us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax', 'us-gaap:Revenues', 'us-gaap:SalesRevenueNet', 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax'],
  net_income_usd: ['us-gaap:NetIncomeLoss', 'us-gaap:ProfitLoss'],
  eps_basic: ['us-gaap:EarningsPerShareBasic', 'us-gaap:EarningsPerShareBasicAndDiluted'],
  eps_diluted: ['us-gaap:EarningsPerShareDiluted', 'us-gaap:EarningsPerShareBasicAndDiluted'],
});

/**
 * The figures' concepts as one set. A filing's own period is read from these only: company facts
 * also holds concepts for other rows (financials-concepts.ts), some dated after the period (the
 * cover page's shares outstanding).
 */
export const FIGURE_CONCEPT_NAMES: ReadonlySet<string> = new Set(Object.values(FIGURE_CONCEPTS).flat());

/** A fiscal period that a 10-Q or 10-K reported. */
export interface ReportedPeriod {
  end: string;
  fiscalYear: number | null;
  fiscalPeriod: FiscalPeriod;
  /** Accession number of the 10-Q or 10-K. */
  accn: string;
}

/**
 * What the company facts said on `asOf`: only facts and filings filed on or before it.
 *
 * @param asOf - `YYYY-MM-DD`.
 */
export function factsFiledBy(facts: CompanyFacts, asOf: string): CompanyFacts {
  const concepts = new Map([...facts.concepts].map(([name, list]) => [name, list.filter((f) => f.filed <= asOf)]));
  const filings = new Map([...facts.filings].filter(([, f]) => f.filedAt <= asOf));
  return { ...facts, concepts, filings };
}

/**
 * The periods that the company's 10-Qs and 10-Ks reported: for each such filing, the latest
 * `end` among its facts of the figures' concepts is its own period, labelled with the filing's
 * `fy` and `fp`.
 */
export function reportedPeriods(facts: CompanyFacts): ReportedPeriod[] {
  const byAccn = new Map<string, ReportedPeriod>();
  for (const [concept, list] of facts.concepts) {
    if (!FIGURE_CONCEPT_NAMES.has(concept)) continue;
    for (const fact of list) {
      if (!/^10-[QK]/.test(fact.form)) continue;
      const fp = fact.fp === 'FY' || /^Q[1-4]$/.test(fact.fp ?? '') ? (fact.fp as FiscalPeriod) : null;
      const known = byAccn.get(fact.accn);
      if (!known || fact.end > known.end) byAccn.set(fact.accn, { end: fact.end, fiscalYear: fact.fy, fiscalPeriod: fp, accn: fact.accn });
    }
  }
  return [...byAccn.values()].sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0));
}

/** An earnings release's period and figures. */
export interface MatchedPeriod {
  fiscalYear: number | null;
  fiscalPeriod: FiscalPeriod;
  figures: EarningsFigures;
}

/** How long after a period ends its release may come: 10-K deadlines are at most 90 days. */
export const RELEASE_WITHIN_DAYS = 100;

/**
 * The fiscal period that an earnings release filed on `filedAt` reports: the latest period
 * reported by a 10-Q or 10-K that ended before `filedAt` and at most
 * {@link RELEASE_WITHIN_DAYS} days before it. Figures are the values for that period end
 * with a quarter's duration (Q1–Q3) or a year's (FY); null where none was tagged.
 *
 * @returns the match, or null when no period fits.
 */
export function matchReleasePeriod(facts: CompanyFacts, filedAt: string): MatchedPeriod | null {
  const candidates = reportedPeriods(facts).filter((p) => p.end < filedAt && daysBetween(p.end, filedAt) <= RELEASE_WITHIN_DAYS);
  const period = candidates[candidates.length - 1];
  if (!period) return null;
  const annual = period.fiscalPeriod === 'FY';
  const pick = (field: keyof EarningsFigures): number | null => {
    for (const concept of FIGURE_CONCEPTS[field]) {
      const matches = (facts.concepts.get(concept) ?? []).filter((f) => {
        if (f.end !== period.end || f.start === null) return false;
        const days = daysBetween(f.start, f.end);
        return annual ? days >= 340 && days <= 380 : days >= 80 && days <= 100;
      });
      const own = matches.find((f) => f.accn === period.accn) ?? matches[0];
      if (own) return own.val;
    }
    return null;
  };
  return {
    fiscalYear: period.fiscalYear,
    fiscalPeriod: period.fiscalPeriod,
    figures: { revenue_usd: pick('revenue_usd'), net_income_usd: pick('net_income_usd'), eps_basic: pick('eps_basic'), eps_diluted: pick('eps_diluted') },
  };
}
