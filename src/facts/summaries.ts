/**
 * The written fields (docs/api.md §6): `summary` on insider, insider-transaction, whale, holder, filing and report rows and
 * `recap` on earnings rows, made from templates over the row's own figures. They state facts
 * only: no advice words (ADVICE_WORDS, matched case-insensitively as whole words; a sentence that would
 * contain one, say through a company name, is dropped) and no judging adjectives.
 */
import { ADVICE_WORDS } from '../rows/schemas.js';
import type { EarningsRow, FilingRow, HolderRow, Holding, InsiderRow, InsiderTransactionRow, ReportRow, WhaleRow } from '../rows/types.js';
import { transactionInWords } from './transaction-codes.js';
import { formatChangePercent, formatCount as count, formatPerShare, formatPrice, formatShare, formatShares, formatUsd } from './prose-numbers.js';

/** An advice word or phrase as a pattern: its words separated by any spaces, then its inflections. */
function advicePattern(word: string): string {
  const spaced = word.replace(/ /g, '\\s+');
  // upgrade → upgraded, upgrades, upgrading; recommend → recommends, recommendation; rating → ratings.
  return word.endsWith('e') ? `${spaced.slice(0, -1)}(?:e|es|ed|ing)` : `${spaced}(?:s|ed|ing|ation|ations|ance)?`;
}

/**
 * The advice words as one pattern, case-insensitive, each word or phrase (with its inflections)
 * whole, on word boundaries: "rating" is found in "a rating" and "ratings", not in "Prairie
 * Operating".
 */
const ADVICE_PATTERN = new RegExp(`\\b(?:${ADVICE_WORDS.map(advicePattern).join('|')})\\b`, 'i');

/** Whether `text` contains an advice word or phrase (ADVICE_WORDS), matched as whole words. */
export function containsAdviceWord(text: string): boolean {
  return ADVICE_PATTERN.test(text);
}

/** Joins the sentences that are free of advice words; undefined when none is left. */
export function joinSentences(sentences: readonly (string | null | undefined)[]): string | undefined {
  const kept = sentences.filter((s): s is string => typeof s === 'string' && s !== '' && !containsAdviceWord(s));
  return kept.length > 0 ? kept.join(' ') : undefined;
}

/**
 * One side of an insider row in words. Code P is an "open market or private purchase" and S an
 * "open market or private sale" (Form 4 General Instructions 8), so the words say purchase and
 * sale, with the code, never "open-market". A trade whose price cell is empty is not added as $0
 * (such trades count in n_*, not in the USD sums): where its footnote states the price, the
 * words say the price is in a footnote; else that the form reports none.
 *
 * @param n - trades of the side; `withoutPrice` of them have no price, `inFootnote` of those a price in a footnote.
 */
function side(n: number, withoutPrice: number, inFootnote: number, usd: number, code: 'P' | 'S'): string {
  const [one, many] = code === 'P' ? ['purchase', 'purchases'] : ['sale', 'sales'];
  if (n === 0) return `no ${many} (code ${code})`;
  const counted = `${count(n, one, many)} (code ${code})`;
  if (withoutPrice === 0) return `${counted} worth ${formatUsd(usd)}`;
  if (inFootnote === 0 && withoutPrice === n) return `${counted} ${n === 1 ? 'without a reported price' : 'none of them with a reported price'}`;
  if (inFootnote === n) return `${counted} ${n === 1 ? 'with its price' : 'each with its price'} stated in a footnote, not in the price column`;
  const whole = (k: number): string => k.toLocaleString('en-US');
  const parts = [
    n > withoutPrice ? `the ${whole(n - withoutPrice)} priced worth ${formatUsd(usd)}` : null,
    inFootnote > 0 ? `${whole(inFootnote)} with the price stated in a footnote, not in the price column` : null,
    withoutPrice > inFootnote ? `${whole(withoutPrice - inFootnote)} without a reported price` : null,
  ].filter((p): p is string => p !== null);
  return `${counted}: ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** Summary of an insider row. */
export function insiderSummary(row: InsiderRow): string | undefined {
  const top = row.notable.find((t) => t.price_usd !== null && t.value_usd !== null);
  const unpriced = (row.n_buys_without_price ?? 0) + (row.n_sells_without_price ?? 0);
  return joinSentences([
    `From ${row.window_start} to ${row.window_end}, reporting owners of ${row.company} (${row.ticker}) reported on Form 4: ` +
      `${side(row.n_buys, row.n_buys_without_price ?? 0, row.n_buys_price_in_footnote ?? 0, row.buy_usd, 'P')}; ` +
      `${side(row.n_sells, row.n_sells_without_price ?? 0, row.n_sells_price_in_footnote ?? 0, row.sell_usd, 'S')}.`,
    row.n_buys + row.n_sells > unpriced ? `Net value of the priced trades: ${formatUsd(row.net_usd)}.` : null,
    row.n_buys > 0 ? `${count(row.n_insiders_buying, 'reporting owner')} bought (a joint filing counts as one).` : null,
    top ? `The largest priced trade was a ${top.code === 'P' ? 'purchase' : 'sale'} of ${formatShares(top.shares)} shares at ${formatPrice(top.price_usd!)} by ${top.insider} (${top.role}) on ${top.date}, worth ${formatUsd(top.value_usd!)}.` : null,
    row.cluster_buying ? `At least ${row.cluster_rule.min_insiders} reporting owners bought within ${row.cluster_rule.span_days} days.` : null,
  ]);
}

/**
 * Summary of an insider-transaction row: who acquired or disposed of what, when, in which kind of
 * transaction (the code in SEC's words, transaction-codes.ts), at what price and value, on which form
 * and table, and what the owner held after it. A line without a price is never valued at $0: the
 * words say the price is in a footnote, or that the form reports none (docs/api.md §6).
 */
export function insiderTransactionSummary(row: InsiderTransactionRow): string | undefined {
  const unit = row.table === 'derivative' ? 'unit' : 'share';
  const security = row.security_title || 'a security the form does not name';
  const what = row.shares !== null ? `${formatShares(row.shares)} ${unit}s of ${security}` : security;
  const price = row.price_usd !== null
    ? `, at ${formatPrice(row.price_usd)} per ${unit}${row.value_usd !== null ? `, worth ${formatUsd(row.value_usd)}` : ''}`
    : row.price_in_footnote ? '; its price is stated in a footnote, not in the price column' : '; the form reports no price';
  const joint = row.joint_owner_ciks.length;
  const table = row.table === 'derivative' ? 'Table II (derivative securities)' : 'Table I (non-derivative securities)';
  const held = row.direct_indirect === 'I' ? 'indirectly' : 'directly';
  return joinSentences([
    `On ${row.transaction_date}, ${row.owner_name} (${row.role}) ${row.acquired_disposed === 'A' ? 'acquired' : 'disposed of'} ${what} ` +
      `of ${row.company}${row.ticker ? ` (${row.ticker})` : ''} in ${transactionInWords(row.code)} (code ${row.code})${price}.`,
    `Reported in ${table} of Form ${row.form}${row.form === '4/A' ? ' (an amendment)' : ''}, ${dated(row)}` +
      `${joint > 0 ? `, jointly with ${count(joint, 'other reporting owner')}` : ''}.`,
    row.shares_owned_after !== null ? `${formatShares(row.shares_owned_after)} ${unit}s owned ${held} after the transaction.` : `Owned ${held}.`,
    row.plan_10b5_1 === null ? null : `The form's Rule 10b5-1(c) box is ${row.plan_10b5_1 ? '' : 'not '}checked.`,
    row.from_data_set ? 'Read from SEC\'s Insider Transactions Data Set, which stores shares and prices with 2 decimals.' : null,
  ]);
}

/**
 * How a row's date is worded: "filed" where it is the filing date from EDGAR's own record of the
 * filing, "signed" where it is the form's signature date because no input gives the filing date.
 */
const dated = (row: { filed_at: string; filed_at_source?: string }): string =>
  row.filed_at_source === 'signature_date' ? `signed ${row.filed_at} (no input gives its filing date)` : `filed ${row.filed_at}`;

const holdingName = (h: Holding): string => `${h.issuer}${h.ticker ? ` (${h.ticker})` : ''}${h.put_call ? ` ${h.put_call.toLowerCase()} options` : ''}`;

/** Summary of a whale row: the moves are counted over all positions of the filing (`position_changes`). */
export function whaleSummary(row: WhaleRow): string | undefined {
  const top = row.top_holdings[0];
  const changes = row.position_changes;
  return joinSentences([
    `${row.filer} reported ${count(row.n_positions, 'position')} worth ${formatUsd(row.total_value_usd)} on Form 13F for the period ending ${row.period_of_report}, ${dated(row)}.`,
    top ? `The largest position was ${holdingName(top)} at ${formatShare(top.weight)} of reported value.` : null,
    changes && row.previous_period ? `Compared with ${row.previous_period}: ${count(changes.new, 'new position')}, ${changes.added.toLocaleString('en-US')} added, ` +
      `${changes.reduced.toLocaleString('en-US')} reduced, ${changes.unchanged.toLocaleString('en-US')} unchanged and ${changes.sold_out.toLocaleString('en-US')} sold out.` : null,
    row.value_unit === 'thousands' ? 'The filing reported values in thousands of USD; they are shown here in USD.' : null,
  ]);
}

/**
 * Summary of a holder row. `shares` is a number of shares, or for a `PRN` line of the information
 * table a principal amount (Form 13F General Instructions, Column 5), which the row does not say:
 * the caller tells.
 *
 * @param sharesType - the information table's `sshPrnamtType`: `SH` or `PRN`.
 */
export function holderSummary(row: HolderRow, sharesType: string): string | undefined {
  const principal = sharesType === 'PRN';
  const amount = principal ? `a principal amount of ${formatShares(row.shares)}` : `${formatShares(row.shares)} ${row.shares === 1 ? 'share' : 'shares'}`;
  const security = `${amount} of ${row.issuer}${row.ticker ? ` (${row.ticker})` : ''}`;
  return joinSentences([
    `${row.filer} reported ${row.put_call ? `${row.put_call.toLowerCase()} options on ${security}` : security} worth ${formatUsd(row.value_usd)} ` +
      `on Form 13F for the period ending ${row.period_of_report}, ${dated(row)}: ${formatShare(row.weight)} of its reported value.`,
    holderChange(row, principal),
  ]);
}

/** A holder row's move since the filer's previous report in words; null with no previous report. */
function holderChange(row: HolderRow, principal: boolean): string | null {
  if (row.action === null) return null;
  if (row.action === 'new') return 'The position was not in its previous report.';
  if (row.action === 'unchanged') return `The ${principal ? 'principal amount' : 'number of shares'} is the same as in its previous report.`;
  const size = formatShares(Math.abs(row.change_shares ?? 0));
  const pct = row.change_pct === null ? '' : ` (${formatChangePercent(row.change_pct)})`;
  const more = row.action === 'added';
  return principal
    ? `The principal amount is ${size} ${more ? 'more' : 'less'} than in its previous report${pct}.`
    : `That is ${size} ${more ? 'more' : 'fewer'} shares than in its previous report${pct}.`;
}

/** Recap of an earnings row. */
export function earningsRecap(row: EarningsRow): string | undefined {
  const f = row.figures;
  const period = row.fiscal_period && row.fiscal_year ? ` for fiscal ${row.fiscal_period === 'FY' ? 'year' : row.fiscal_period} ${row.fiscal_year}` : '';
  const figures = [
    f.revenue_usd !== null ? `revenue ${formatUsd(f.revenue_usd)}` : null,
    f.net_income_usd !== null ? `net income ${formatUsd(f.net_income_usd)}` : null,
    f.eps_diluted !== null ? `diluted EPS ${formatPerShare(f.eps_diluted)}` : f.eps_basic !== null ? `basic EPS ${formatPerShare(f.eps_basic)}` : null,
  ].filter((s): s is string => s !== null);
  return joinSentences([
    `${row.company} (${row.ticker}) filed an earnings release on Form ${row.form} (item 2.02) on ${row.filed_at}${period}.`,
    figures.length > 0 ? `XBRL company facts for the period: ${figures.join('; ')}.` : null,
  ]);
}

/**
 * Forms that the company a filing is listed under need not have filed: a Form 3, 4 or 5 is filed
 * by the reporting owner, a Form 144 by the person for whose account the securities are sold, and
 * a Schedule 13D or 13G by the beneficial owner; EDGAR lists each under the issuer (the subject
 * company) as well as under the filer.
 */
const FILED_BY_ANOTHER = /^(?:[345]|144|SC 13[DG]|SCHEDULE 13[DG])(?:\/A)?$/;

/**
 * Summary of a filing row. The row names the company EDGAR lists the filing under, not always its
 * filer: a form that another person files on the company (FILED_BY_ANOTHER) names its filers
 * where the row carries them (a Form 3/4/5's reporting owners, as EDGAR lists them: "Musk Elon
 * (Reporting)" on "Tesla, Inc. (Issuer)"), and is otherwise worded as naming the company, never
 * as filed by it.
 */
export function filingSummary(row: FilingRow): string | undefined {
  if (row.filed_at_source === 'signature_date') return signedFilingSummary(row);
  const company = `${row.company}${row.ticker ? ` (${row.ticker})` : ''}`;
  const period = row.period_of_report ? ` for the period ending ${row.period_of_report}` : '';
  const owners = row.reporting_owners ?? [];
  return joinSentences([
    !FILED_BY_ANOTHER.test(row.form)
      ? `${company} filed Form ${row.form} on ${row.filed_at}${period}.`
      : owners.length > 0
        ? `${ownerNames(owners)} filed Form ${row.form} on ${company} on ${row.filed_at}${period}.`
        : `A Form ${row.form} naming ${company} was filed on ${row.filed_at}${period}.`,
    row.items.length > 0 ? `Items reported: ${row.items.join(', ')}.` : null,
  ]);
}

/** Reporting owners in words: `A`, `A and B`, or `A and 3 other reporting owners` for a joint filing of more. */
function ownerNames(owners: readonly { name: string }[]): string {
  if (owners.length <= 2) return owners.map((o) => o.name).join(' and ');
  return `${owners[0]!.name} and ${owners.length - 1} other reporting owners`;
}

/**
 * Summary of a filing row dated by the form's signature date (no input gives its filing date):
 * it says "signed", and names the form's reporting owners (who signed it) before the company it
 * is listed under, which for a Form 3/4/5 is the issuer.
 */
function signedFilingSummary(row: FilingRow): string | undefined {
  const period = row.period_of_report ? ` for the period ending ${row.period_of_report}` : '';
  return joinSentences([
    `Form ${row.form}${(row.reporting_owners?.length ?? 0) > 0 ? ` of ${ownerNames(row.reporting_owners!)} on` : ' of'} ${row.company}${row.ticker ? ` (${row.ticker})` : ''}${period} was signed on ${row.filed_at}; no input gives its filing date.`,
    row.items.length > 0 ? `Items reported: ${row.items.join(', ')}.` : null,
  ]);
}

/** Summary of a report row. */
export function reportSummary(row: ReportRow): string | undefined {
  const latest = (['10-K', '10-Q', '8-K'] as const).filter((form) => row.latest[form]).map((form) => `${form} on ${row.latest[form]!.filed_at}`);
  return joinSentences([
    `${row.company} (${row.ticker})${row.exchange ? ` is listed on ${row.exchange}` : ' is registered with the SEC'}${row.sic ? ` under SIC code ${row.sic}${row.sic_description ? ` (${row.sic_description})` : ''}` : ''}.`,
    latest.length > 0 ? `Latest filings: ${latest.join(', ')}.` : null,
    row.insiders ? `From ${row.insiders.window_start} to ${row.insiders.window_end}, Form 4 purchases and sales (codes P and S) with a reported price netted ${formatUsd(row.insiders.net_usd)} (${count(row.insiders.n_buys, 'purchase')}, ${count(row.insiders.n_sells, 'sale')} in all).` : null,
    row.earnings ? `Latest earnings release filed ${row.earnings.filed_at}${row.earnings.fiscal_period && row.earnings.fiscal_year ? ` for fiscal ${row.earnings.fiscal_period === 'FY' ? 'year' : row.earnings.fiscal_period} ${row.earnings.fiscal_year}` : ''}.` : null,
    row.institutional ? institutionalSentence(row.institutional) : null,
  ]);
}

/** How many periods of report a report's summary names; the others are counted. */
const NAMED_PERIODS = 3;

/**
 * The 13F holdings of a report in words, per period of report (each filer's latest): filers
 * report on different quarters, so the sentence never adds values of different periods.
 */
function institutionalSentence(held: NonNullable<ReportRow['institutional']>): string {
  const periods = held.periods ?? [];
  if (periods.length === 0) return `${count(held.n_filers, 'filer')} of Form 13F in this snapshot reported holdings.`;
  const named = periods.slice(0, NAMED_PERIODS).map((p) => `${formatUsd(p.total_value_usd)} for the period ending ${p.period_of_report} (${count(p.n_filers, 'filer')})`);
  const others = periods.slice(NAMED_PERIODS).reduce((n, p) => n + p.n_filers, 0);
  return `${count(held.n_filers, 'filer')} of Form 13F in this snapshot reported holdings in their latest reports: ${named.join('; ')}` +
    `${others > 0 ? `; and ${count(others, 'filer')} for earlier periods` : ''}.`;
}
