/**
 * The company directory: each CIK's name, tickers and profile, merged from the inputs that
 * describe companies. Submissions JSON is EDGAR's current record of a company and wins; the
 * ticker files (company_tickers.json, company_tickers_exchange.json) add tickers and the
 * exchange; filing headers (SGML, `.header.json`, `-index.htm`) fill the profile fields that
 * the submissions JSON leaves empty or that no submissions JSON gives, from the latest header
 * filed by the as-of date (docs/api.md §6: these fields are null only "where EDGAR gives none").
 */
import type { Inputs } from './inputs.js';
import type { Company, HeaderProfile } from '../edgar/records.js';
import { pushTo } from '../facts/group.js';


/**
 * Builds the directory.
 *
 * @param inputs - everything read; its companies, tickers and header profiles are read at the
 *   first lookup of a company (resolve may never look one up), so they must not change after.
 * @param asOf - only headers of filings filed on or before this date (`YYYY-MM-DD`) count; null for all.
 * @returns the company behind a CIK, or undefined when neither a submissions JSON nor a ticker file names it.
 */
export function companyDirectory(inputs: Inputs, asOf: string | null): (cik: string) => Company | undefined {
  let headers: Map<string, HeaderProfile[]> | undefined;
  let sicTitles: Map<string, string> | undefined;
  const cache = new Map<string, Company | undefined>();
  return (cik) => {
    if (cache.has(cik)) return cache.get(cik);
    const fromSubmissions = inputs.companies.get(cik);
    const fromTickers = inputs.tickers.byCik(cik);
    let result: Company | undefined;
    if (fromSubmissions || fromTickers) {
      result = {
        cik,
        name: fromSubmissions?.name || fromTickers?.name || '',
        // Decisions §6 "Tickers": every ticker from either source, the submissions JSON's order first.
        tickers: [...new Set([...(fromSubmissions?.tickers ?? []), ...(fromTickers?.tickers ?? [])])],
        exchange: fromSubmissions?.exchange ?? fromTickers?.exchange ?? null,
        sic: fromSubmissions?.sic ?? null,
        sicDescription: fromSubmissions?.sicDescription ?? null,
        stateOfIncorporation: fromSubmissions?.stateOfIncorporation ?? null,
        fiscalYearEnd: fromSubmissions?.fiscalYearEnd ?? null,
      };
      headers ??= profilesByCik(inputs.headerProfiles, asOf);
      sicTitles ??= sicTitleTable(inputs);
      const own = headers.get(cik) ?? [];
      if (result.sic === null) {
        // The code and its title come from the same header.
        const header = latestWith(own, 'sic');
        result.sic = header?.sic ?? null;
        result.sicDescription = header ? sicTitles.get(header.sic!) ?? header.sicDescription : null;
      } else {
        result.sicDescription ??= sicTitles.get(result.sic) ?? null;
      }
      result.stateOfIncorporation ??= latestWith(own, 'stateOfIncorporation')?.stateOfIncorporation ?? null;
      result.fiscalYearEnd ??= latestWith(own, 'fiscalYearEnd')?.fiscalYearEnd ?? null;
    }
    cache.set(cik, result);
    return result;
  };
}

/** Header profiles by CIK, in the order read, without those filed after `asOf` (null: none left out). */
function profilesByCik(profiles: readonly HeaderProfile[], asOf: string | null): Map<string, HeaderProfile[]> {
  const byCik = new Map<string, HeaderProfile[]>();
  for (const profile of profiles) {
    if (asOf !== null && profile.filedAt > asOf) continue;
    pushTo(byCik, profile.cik, profile);
  }
  return byCik;
}

/**
 * The latest filed of `profiles` that gives `field`; of several filed the same day, the first
 * read. One pass instead of sorting each company's headers latest first and taking the first
 * that gives the field, which chose the same header (the sort was stable).
 */
function latestWith(profiles: readonly HeaderProfile[], field: 'sic' | 'stateOfIncorporation' | 'fiscalYearEnd'): HeaderProfile | undefined {
  let latest: HeaderProfile | undefined;
  for (const profile of profiles) {
    if (profile[field] !== null && (latest === undefined || profile.filedAt > latest.filedAt)) latest = profile;
  }
  return latest;
}

/** SIC code → title, from submissions JSON (EDGAR's wording) and else from SGML headers (`AIRCRAFT & PARTS [3720]`). */
function sicTitleTable(inputs: Inputs): Map<string, string> {
  const titles = new Map<string, string>();
  for (const company of inputs.companies.values()) if (company.sic && company.sicDescription) titles.set(company.sic, company.sicDescription);
  for (const profile of inputs.headerProfiles) if (profile.sic && profile.sicDescription && !titles.has(profile.sic)) titles.set(profile.sic, profile.sicDescription);
  return titles;
}
