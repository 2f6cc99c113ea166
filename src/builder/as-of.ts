/**
 * The as-of date of a snapshot: it holds nothing filed after it, in every row kind. Filing
 * records, Forms 3/4/5, 13F reports and company facts are cut at their filing date (for a
 * document whose filing date no input gives, its signature date, see resolve.ts). The insider and filings windows end at the as-of date too.
 */
import type { CompanyFacts } from '../edgar/company/company-facts-json.js';
import { factsFiledBy } from '../facts/fiscal-periods.js';
import type { Resolved } from './resolve.js';
import type { FilingRecord, OwnershipFiling, ThirteenFFiling } from '../edgar/records.js';

/** The inputs as they stood at the end of the as-of date; a list is the resolved one itself where nothing in it came later. */
export interface AsOfInputs {
  filings: FilingRecord[];
  ownership: OwnershipFiling[];
  thirteenF: ThirteenFFiling[];
  companyFacts: Map<string, CompanyFacts>;
}

/**
 * Cuts the inputs at `asOf`.
 *
 * @param asOf - `YYYY-MM-DD`; filings filed on that day are kept.
 */
export function cutAtAsOf(resolved: Resolved, companyFacts: ReadonlyMap<string, CompanyFacts>, asOf: string): AsOfInputs {
  return {
    filings: cut(resolved.filings, (f) => f.filedAt <= asOf),
    ownership: cut(resolved.ownership, (f) => f.filedAt !== null && f.filedAt <= asOf),
    thirteenF: cut(resolved.thirteenF, (f) => f.filedAt <= asOf),
    companyFacts: new Map([...companyFacts].map(([cik, facts]) => [cik, factsFiledBy(facts, asOf)])),
  };
}

/** The items `keep` takes, in order; the list itself where it takes all (a build without --as-of, or a recent one). */
function cut<T>(list: T[], keep: (item: T) => boolean): T[] {
  return list.every(keep) ? list : list.filter(keep);
}

/**
 * The as-of date when none is given: the latest filing date of any input, so that the snapshot
 * holds everything read, but never after the build date.
 *
 * @param today - the build date, `YYYY-MM-DD`.
 */
export function defaultAsOf(resolved: Resolved, companyFacts: ReadonlyMap<string, CompanyFacts>, today: string): string {
  let latest: string | null = null;
  const see = (date: string | null): void => {
    if (date !== null && date <= today && (latest === null || date > latest)) latest = date;
  };
  for (const f of resolved.filings) see(f.filedAt);
  for (const f of resolved.ownership) see(f.filedAt);
  for (const f of resolved.thirteenF) see(f.filedAt);
  for (const facts of companyFacts.values()) for (const f of facts.filings.values()) see(f.filedAt);
  return latest ?? today;
}
