/**
 * Insider rows (docs/api.md §6): per issuer, the purchases (code P, "open market or private
 * purchase") and sales (code S, "open market or private sale"; SEC Form 4 General Instructions
 * 8) of Table I of Forms 4 and 4/A with a transaction date inside the window. Value = shares ×
 * price per share, exact; each sum is rounded once to the cent. A transaction without a price
 * counts in `n_buys`/`n_sells` and in `n_*_without_price` only, and in `n_*_price_in_footnote` too
 * where the line's price cell is empty and an attached footnote states the price per share or unit
 * (such a trade is listed in `notable` after the priced ones, with null price and value). A 4/A that carries
 * non-derivative transactions replaces the earlier filings of the same reporting owner, issuer
 * and period of report; a 4/A without them changes nothing. A joint filing (several reporting
 * owners on one form) reports one set of transactions, so it counts once, credited to its first
 * reporting owner, in the sums, the counts and the cluster rule: its owners are one buyer.
 * A trade read from an Insider Transactions Data Set, whose table stores shares and prices with 2
 * decimals, says so (`from_data_set`).
 */
import type { InsiderRow, NotableTrade } from '../rows/types.js';
import { DEFAULT_CLUSTER_RULE, isClusterBuying, type Purchase } from './cluster.js';
import { multiplyDecimal, parseDecimal, roundDecimal, subtractDecimal, sumDecimals, toNumber, type Decimal } from './decimal.js';
import { addDays } from '../edgar/conventions.js';
import type { OwnershipFiling, OwnershipTransaction } from '../edgar/records.js';
import { ownerRole } from './owner-role.js';

/** Options of the insider computation. */
export interface InsiderOptions {
  /** Last day of the window, `YYYY-MM-DD`. */
  asOf: string;
  /** Window length in days, counting `asOf`. */
  windowDays: number;
  /** Tickers (primary first) and name of an issuer CIK, or undefined when it has no ticker. */
  issuer: (cik: string, filing: OwnershipFiling) => { ticker: string; tickers: string[]; name: string } | undefined;
}

/** Rows and what was left out. */
export interface InsiderResult {
  rows: InsiderRow[];
  /** Issuers with P or S trades in the window but no ticker. */
  issuersWithoutTicker: string[];
  /** Filings that a 4/A replaced. */
  replacedByAmendment: number;
  /**
   * P and S transactions inside the window in the filings left after amendments, those of a
   * filing without a reporting owner included (which rows leave out): whether the input had
   * anything for the insider rows to count.
   */
  tradesInWindow: number;
  /**
   * P and S transactions counted in the rows that were read from an Insider Transactions Data Set
   * (2-decimal shares and prices) rather than from the form's XML.
   */
  transactionsFromDataSet: number;
}

/** The transaction codes that insider rows count: P (purchase) and S (sale); the builder keeps no others. */
export const COUNTED_CODES: ReadonlySet<string> = new Set(['P', 'S']);
/** USD rounded once to cents, half away from zero. */
const cents = (usd: Decimal): Decimal => roundDecimal(usd, 2);

/** shares × price per share exactly, from the text as filed; null where either is absent. */
export function exactValue(t: Pick<OwnershipTransaction, 'sharesText' | 'priceText'>): Decimal | null {
  const shares = parseDecimal(t.sharesText ?? undefined);
  const price = parseDecimal(t.priceText ?? undefined);
  return shares && price ? multiplyDecimal(shares, price) : null;
}

/**
 * Keeps, per reporting owner, issuer and period of report, the latest 4/A with
 * non-derivative transactions in place of the filings before it (by filing date, then
 * accession number); Forms 4 and 4/A only.
 *
 * @returns `standing`, every Form 4 and 4/A that no later 4/A replaced (a 4/A without Table I
 *   lines replaces nothing, but its own lines stand: facts/insider-transactions.ts lists them);
 *   `kept`, those of them whose Table I lines the insider rows count (a 4/A without Table I lines
 *   has none); and how many filings were `replaced`.
 */
export function applyAmendments(filings: readonly OwnershipFiling[]): { kept: OwnershipFiling[]; standing: OwnershipFiling[]; replaced: number } {
  const forms = filings.filter((f) => f.documentType === '4' || f.documentType === '4/A');
  const ownerOf = (f: OwnershipFiling): string => f.owners[0]?.cik ?? '';
  const key = (f: OwnershipFiling): string => `${ownerOf(f)}|${f.issuerCik}|${f.periodOfReport}`;
  const order = (f: OwnershipFiling): string => `${f.filedAt ?? ''}|${f.accessionNo}`;
  const replacing = new Map<string, OwnershipFiling>();
  // Few reporting owners ever file a 4/A: the key of another owner's filing is not built.
  const amendingOwners = new Set<string>();
  for (const f of forms) {
    if (f.documentType !== '4/A' || (f.transactionsFiled ?? f.transactions.length) === 0) continue;
    const known = replacing.get(key(f));
    if (!known || order(f) > order(known)) replacing.set(key(f), f);
    amendingOwners.add(ownerOf(f));
  }
  const kept: OwnershipFiling[] = [];
  const standing: OwnershipFiling[] = [];
  let replaced = 0;
  for (const f of forms) {
    const amendment = amendingOwners.has(ownerOf(f)) ? replacing.get(key(f)) : undefined;
    if (amendment && amendment !== f && order(f) < order(amendment)) {
      replaced++;
      continue;
    }
    standing.push(f);
    if (f.documentType === '4' || f === amendment) kept.push(f);
  }
  return { kept, standing, replaced };
}

/**
 * Computes the insider rows.
 *
 * @param filings - every ownership filing read.
 * @param options - window and issuer lookup.
 * @returns rows in no particular order (the writer sorts them).
 */
export function computeInsiderRows(filings: readonly OwnershipFiling[], options: InsiderOptions): InsiderResult {
  const windowStart = addDays(options.asOf, -(options.windowDays - 1));
  const { kept, replaced } = applyAmendments(filings);
  const byIssuer = new Map<string, { filing: OwnershipFiling; trades: (NotableTrade & { ownerCik: string; exact: Decimal | null })[] }>();
  let tradesInWindow = 0;
  for (const filing of kept) {
    const owner = filing.owners[0];
    for (const t of filing.transactions) {
      if (!COUNTED_CODES.has(t.code) || t.date < windowStart || t.date > options.asOf) continue;
      tradesInWindow++;
      if (!owner) continue;
      const exact = exactValue(t);
      const entry = byIssuer.get(filing.issuerCik) ?? { filing, trades: [] };
      entry.trades.push({
        insider: owner.name, role: ownerRole(owner), code: t.code as 'P' | 'S',
        value_usd: exact ? toNumber(cents(exact)) : null, date: t.date, shares: t.shares ?? 0,
        price_usd: t.price, plan_10b5_1: filing.plan10b51, accession_no: filing.accessionNo,
        price_in_footnote: t.priceInFootnote, from_data_set: filing.fromDataSet === true, ownerCik: owner.cik || owner.name, exact,
      });
      byIssuer.set(filing.issuerCik, entry);
    }
  }
  const rows: InsiderRow[] = [];
  const issuersWithoutTicker: string[] = [];
  let transactionsFromDataSet = 0;
  for (const [cik, { filing, trades }] of byIssuer) {
    const issuer = options.issuer(cik, filing);
    if (!issuer) {
      issuersWithoutTicker.push(cik);
      continue;
    }
    transactionsFromDataSet += trades.filter((t) => t.from_data_set).length;
    const buys = trades.filter((t) => t.code === 'P');
    const sells = trades.filter((t) => t.code === 'S');
    // Each sum is exact and rounded once; net is the difference of the two rounded sums, so
    // that net_usd = buy_usd - sell_usd holds to the cent (docs/api.md §6).
    const sum = (list: typeof trades): Decimal => cents(sumDecimals(list.flatMap((t) => (t.exact ? [t.exact] : []))));
    const buyUsd = sum(buys);
    const sellUsd = sum(sells);
    const netUsd = toNumber(subtractDecimal(buyUsd, sellUsd));
    const purchases: Purchase[] = buys.map((t) => ({ ownerCik: t.ownerCik, date: t.date }));
    const later = (a: (typeof trades)[number], b: (typeof trades)[number]): number => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || (a.accession_no < b.accession_no ? 1 : -1);
    // Priced trades by value, then those whose price only a footnote gives (no value to rank them by), latest first.
    const notable = [
      ...trades.filter((t) => t.exact !== null && t.value_usd! > 0).sort((a, b) => b.value_usd! - a.value_usd! || later(a, b)),
      ...trades.filter((t) => t.exact === null && t.price_in_footnote).sort(later),
    ].slice(0, 5).map(({ ownerCik: _owner, exact: _exact, ...trade }) => (trade.price_in_footnote ? { ...trade, price_usd: null } : trade));
    rows.push({
      type: 'insider', ticker: issuer.ticker, tickers: issuer.tickers, cik, company: issuer.name, window_days: options.windowDays,
      window_start: windowStart, window_end: options.asOf, net_usd: netUsd, buy_usd: toNumber(buyUsd),
      sell_usd: toNumber(sellUsd), n_buys: buys.length, n_sells: sells.length,
      n_buys_without_price: buys.filter((t) => t.exact === null).length, n_sells_without_price: sells.filter((t) => t.exact === null).length,
      n_buys_price_in_footnote: buys.filter((t) => t.exact === null && t.price_in_footnote).length,
      n_sells_price_in_footnote: sells.filter((t) => t.exact === null && t.price_in_footnote).length,
      n_insiders_buying: new Set(purchases.map((p) => p.ownerCik)).size,
      cluster_buying: isClusterBuying(purchases, DEFAULT_CLUSTER_RULE),
      cluster_rule: { ...DEFAULT_CLUSTER_RULE, codes: [...DEFAULT_CLUSTER_RULE.codes] }, notable,
    });
  }
  return { rows, issuersWithoutTicker, replacedByAmendment: replaced, tradesInWindow, transactionsFromDataSet };
}
