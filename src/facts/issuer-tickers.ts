/**
 * The company, and where it is unambiguous the ticker, of a 13F position. The inputs hold no
 * CUSIP table, so the issuer name as filed is compared with the company names of the ticker
 * files (issuer-names.ts), and only a match to exactly one company counts:
 * 1. the names without their legal-form words are equal (`DANAHER CORP` and `DANAHER CORP /DE/`);
 * 2. else, for a name cut at the 13F list's length, one company's name starts with it, words
 *    in one spelling or as written (`TAIWAN SEMICONDUCTOR MANUFAC`).
 * The company's ticker for the position is then the one ticker left after dropping preferred,
 * warrant, unit and right series and OTC lines (ASML rather than ASMLF); where several remain
 * (share classes), the position's class decides: a ticker with that class suffix (`BRK-B`) or
 * one of {@link SHARE_CLASS_TICKERS}. Otherwise the ticker is null, never a guess (decisions §6:
 * "13F holdings get a ticker only where the CUSIP's issuer is resolved without ambiguity").
 */
import type { InfoTableEntry } from '../edgar/records.js';
import { coreName, fullName, shareClassOf } from './issuer-names.js';
import type { TickerMap } from '../edgar/ticker-files.js';

/** A position's company, and its ticker where one is certain. */
export interface PositionIssuer {
  cik: string;
  ticker: string | null;
}

/**
 * Share classes whose tickers carry no class suffix, from each company's 10-K cover page
 * (securities registered under Section 12(b) of the Exchange Act).
 */
export const SHARE_CLASS_TICKERS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  // Alphabet Inc. (CIK 1652044): Class A Common Stock GOOGL, Class C Capital Stock GOOG.
  '0001652044': { A: 'GOOGL', C: 'GOOG' },
  // News Corporation (CIK 1564708): Class A Common Stock NWSA, Class B Common Stock NWS.
  '0001564708': { A: 'NWSA', B: 'NWS' },
  // Fox Corporation (CIK 1754301): Class A Common Stock FOXA, Class B Common Stock FOX.
  '0001754301': { A: 'FOXA', B: 'FOX' },
});

/** 13F names are cut at 28 characters on the Official List; a name this long may be cut. */
const CUT_NAME_LENGTH = 25;
/** Securities that are not shares of the issuer's stock: no company is given for them. */
const NOT_STOCK = /\b(PFD|PREF|PREFERRED|NOTES?|BONDS?|WARRANTS?|WTS?|RIGHTS?|UNITS?|DEBS?|DEBENTURES?|CONV)\b|\*W\b/i;
/** Ticker series that are not common stock: preferred (`BAC-PE`), warrants, units, rights. */
const SERIES = /-(P[A-Z]?|WT|WS|W|U|UN|R|RT)$/;

/**
 * Builds the lookup.
 *
 * @param tickers - the ticker files.
 * @returns a function giving the issuer of a position, or null.
 */
export function issuerLookup(tickers: TickerMap): (position: Pick<InfoTableEntry, 'issuer' | 'titleOfClass' | 'sharesType'>) => PositionIssuer | null {
  const byCore = new Map<string, Set<string>>();
  const full: [string, string, string][] = [];
  for (const [cik, company] of tickers.entries()) {
    const core = coreName(company.name);
    byCore.set(core, (byCore.get(core) ?? new Set()).add(cik));
    full.push([fullName(company.name), fullName(company.name, false), cik]);
  }
  const cache = new Map<string, string | null>();
  const companyOf = (issuer: string): string | null => {
    if (cache.has(issuer)) return cache.get(issuer)!;
    let found: string | null = null;
    const exact = byCore.get(coreName(issuer));
    if (exact) found = exact.size === 1 ? [...exact][0]! : null;
    else if (issuer.trim().length >= CUT_NAME_LENGTH) {
      const spelled = fullName(issuer);
      const asWritten = fullName(issuer, false);
      const ciks = new Set(full.filter(([name, written]) => name.startsWith(spelled) || written.startsWith(asWritten)).map(([, , cik]) => cik));
      found = ciks.size === 1 ? [...ciks][0]! : null;
    }
    cache.set(issuer, found);
    return found;
  };
  return (position) => {
    if (position.sharesType !== 'SH' || NOT_STOCK.test(position.titleOfClass) || NOT_STOCK.test(position.issuer)) return null;
    const cik = companyOf(position.issuer);
    if (cik === null) return null;
    const shareClass = shareClassOf(position.titleOfClass) ?? shareClassOf(position.issuer);
    return { cik, ticker: tickerOfClass(cik, tickers, shareClass) };
  };
}

/** The company's ticker for a share class (or for its stock, with no class named); null where it is not certain. */
function tickerOfClass(cik: string, tickers: TickerMap, shareClass: string | null): string | null {
  const all = tickers.byCik(cik)?.tickers ?? [];
  const lines = all.filter((t) => !SERIES.test(t) && tickers.exchangeOf(t) !== 'OTC'
    // `HIPOW` is HIPO's warrant and `BIXIU` BIXI's unit: a listed root plus a series letter.
    && !all.some((root) => root !== t && /^(W|WS|WT|U|R|RT)$/.test(t.slice(root.length)) && t.startsWith(root)));
  if (lines.length === 1) return lines[0]!;
  if (shareClass === null) return null;
  const suffixed = lines.filter((t) => t.endsWith(`-${shareClass}`));
  if (suffixed.length === 1) return suffixed[0]!;
  const named = SHARE_CLASS_TICKERS[cik]?.[shareClass];
  return named !== undefined && lines.includes(named) ? named : null;
}
