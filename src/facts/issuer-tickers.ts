/**
 * The company, and where it is unambiguous the ticker, of a 13F position. A security is one
 * company however its filers spell the issuer, so the CUSIP decides first: a CUSIP that any
 * filer's spelling resolves to a company resolves to it for every filer, and a CUSIP whose
 * spellings resolve to two different companies resolves for none. The inputs hold no CUSIP
 * table, so a spelling resolves by comparing the issuer name as filed with the company names of
 * the ticker files (issuer-names.ts), and only a match to exactly one company counts:
 * 1. the names without their legal-form words are equal (`DANAHER CORP` and `DANAHER CORP /DE/`);
 * 2. else, for a name cut at the 13F list's length, one company's name starts with it, words
 *    in one spelling or as written (`TAIWAN SEMICONDUCTOR MANUFAC`).
 * The company's ticker for the position is then the one ticker left after dropping preferred,
 * warrant, unit and right series and OTC lines (ASML rather than ASMLF); where several remain
 * (share classes), the class decides: a ticker with that class suffix (`BRK-B`) or one of
 * {@link SHARE_CLASS_TICKERS}. A CUSIP is one class, so the class one filer names settles the
 * ticker for all; two filers' classes that give two tickers give none. Otherwise the ticker is
 * null, never a guess (the service's rule: 13F holdings get a ticker only where the CUSIP's issuer
 * is resolved without ambiguity).
 */
import type { InfoTableEntry } from '../edgar/records.js';
import { coreName, fullName, shareClassOf } from './issuer-names.js';
import type { TickerMap } from '../edgar/company/ticker-files.js';

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

/** What the lookup reads of a 13F position: the information table's issuer, class, CUSIP and `SH`/`PRN`. */
export type HeldSecurity = Pick<InfoTableEntry, 'issuer' | 'titleOfClass' | 'cusip' | 'sharesType'>;

/**
 * Builds the lookup.
 *
 * @param tickers - the ticker files.
 * @param held - the information tables read, each a list of its positions (any order, repeats
 *   allowed): the spellings and classes each CUSIP is filed under. A position whose CUSIP is not among them is
 *   resolved by its own name and class alone. Default: none.
 * @returns a function giving the issuer of a position, or null: for a security that is not
 *   shares of stock (`PRN`, preferred, notes, warrants…), a CUSIP two companies claim, or a
 *   name that matches no company or several.
 */
export function issuerLookup(tickers: TickerMap, held: readonly (readonly HeldSecurity[])[] = []): (position: HeldSecurity) => PositionIssuer | null {
  const companyOf = nameLookup(tickers);
  const isStock = (p: HeldSecurity): boolean => p.sharesType === 'SH' && !NOT_STOCK.test(p.titleOfClass) && !NOT_STOCK.test(p.issuer);
  const classOf = (p: HeldSecurity): string | null => shareClassOf(p.titleOfClass) ?? shareClassOf(p.issuer);
  // Each CUSIP's distinct spellings and classes (a large build holds millions of positions, far
  // fewer of these): a CUSIP's list is mostly one spelling long, so a position costs one lookup by
  // CUSIP and a comparison or two, no key built for it. The rest of the test for stock runs once
  // per spelling. Which order the spellings come in decides nothing below.
  const spellings = new Map<string, HeldSecurity[]>();
  for (const table of held) for (const p of table) {
    if (p.sharesType !== 'SH') continue;
    const known = spellings.get(p.cusip);
    if (known === undefined) spellings.set(p.cusip, [p]);
    else if (!known.some((q) => q.issuer === p.issuer && q.titleOfClass === p.titleOfClass)) known.push(p);
  }
  const stock = [...spellings.values()].flat().filter(isStock);
  // CUSIP → company, null where two companies claim it; then CUSIP → the tickers its classes give.
  const byCusip = new Map<string, string | null>();
  for (const p of stock) {
    const cik = companyOf(p.issuer);
    if (cik === null) continue;
    byCusip.set(p.cusip, byCusip.has(p.cusip) && byCusip.get(p.cusip) !== cik ? null : cik);
  }
  const tickersByCusip = new Map<string, Set<string>>();
  for (const p of stock) {
    const cik = byCusip.get(p.cusip);
    if (cik === undefined || cik === null) continue;
    const ticker = tickerOfClass(cik, tickers, classOf(p));
    if (ticker !== null) tickersByCusip.set(p.cusip, (tickersByCusip.get(p.cusip) ?? new Set()).add(ticker));
  }
  return (position) => {
    if (!isStock(position)) return null;
    if (byCusip.has(position.cusip)) {
      const cik = byCusip.get(position.cusip)!;
      const found = tickersByCusip.get(position.cusip);
      return cik === null ? null : { cik, ticker: found?.size === 1 ? [...found][0]! : null };
    }
    const cik = companyOf(position.issuer);
    return cik === null ? null : { cik, ticker: tickerOfClass(cik, tickers, classOf(position)) };
  };
}

/** Issuer name as filed → the one company of the ticker files it names, or null (see the file's comment). */
function nameLookup(tickers: TickerMap): (issuer: string) => string | null {
  const byCore = new Map<string, Set<string>>();
  const full: [string, string, string][] = [];
  for (const [cik, company] of tickers.entries()) {
    const core = coreName(company.name);
    byCore.set(core, (byCore.get(core) ?? new Set()).add(cik));
    full.push([fullName(company.name), fullName(company.name, false), cik]);
  }
  const cache = new Map<string, string | null>();
  return (issuer) => {
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
