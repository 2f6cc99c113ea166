/**
 * The written fields (decisions §6): `summary` on insider, whale, filing and report rows and
 * `recap` on earnings rows, made from templates over the row's own figures. They state facts
 * only: no advice words (ADVICE_WORDS, matched case-insensitively; a sentence that would
 * contain one, say through a company name, is dropped) and no judging adjectives.
 */
import { ADVICE_WORDS } from '../rows/schemas.js';
import type { EarningsRow, FilingRow, Holding, InsiderRow, ReportRow, WhaleRow } from '../rows/types.js';
import { formatCount as count, formatPerShare, formatPrice, formatShare, formatShares, formatUsd } from './prose-numbers.js';

/** Whether `text` contains an advice word (decisions §6). */
export function containsAdviceWord(text: string): boolean {
  const lower = text.toLowerCase();
  return ADVICE_WORDS.some((word) => lower.includes(word));
}

/** Joins the sentences that are free of advice words; undefined when none is left. */
export function joinSentences(sentences: readonly (string | null | undefined)[]): string | undefined {
  const kept = sentences.filter((s): s is string => typeof s === 'string' && s !== '' && !containsAdviceWord(s));
  return kept.length > 0 ? kept.join(' ') : undefined;
}

/**
 * One side of an insider row in words. Code P is an "open market or private purchase" and S an
 * "open market or private sale" (Form 4 General Instructions 8), so the words say purchase and
 * sale, with the code, never "open-market"; trades without a reported price are said to be so
 * instead of adding $0 to a sum (decisions §6: they count in n_*, not in the USD sums).
 */
function side(n: number, withoutPrice: number, usd: number, code: 'P' | 'S'): string {
  const [one, many] = code === 'P' ? ['purchase', 'purchases'] : ['sale', 'sales'];
  if (n === 0) return `no ${many} (code ${code})`;
  const counted = `${count(n, one, many)} (code ${code})`;
  if (withoutPrice === 0) return `${counted} worth ${formatUsd(usd)}`;
  if (withoutPrice === n) return `${counted} ${n === 1 ? 'without a reported price' : 'none of them with a reported price'}`;
  return `${counted}, ${withoutPrice.toLocaleString('en-US')} of them without a reported price and the ${(n - withoutPrice).toLocaleString('en-US')} priced worth ${formatUsd(usd)}`;
}

/** Summary of an insider row. */
export function insiderSummary(row: InsiderRow): string | undefined {
  const top = row.notable[0];
  const unpriced = (row.n_buys_without_price ?? 0) + (row.n_sells_without_price ?? 0);
  return joinSentences([
    `From ${row.window_start} to ${row.window_end}, reporting owners of ${row.company} (${row.ticker}) reported on Form 4: ` +
      `${side(row.n_buys, row.n_buys_without_price ?? 0, row.buy_usd, 'P')}; ${side(row.n_sells, row.n_sells_without_price ?? 0, row.sell_usd, 'S')}.`,
    row.n_buys + row.n_sells > unpriced ? `Net value of the priced trades: ${formatUsd(row.net_usd)}.` : null,
    row.n_buys > 0 ? `${count(row.n_insiders_buying, 'reporting owner')} bought (a joint filing counts as one).` : null,
    top ? `The largest priced trade was a ${top.code === 'P' ? 'purchase' : 'sale'} of ${formatShares(top.shares)} shares at ${formatPrice(top.price_usd)} by ${top.insider} (${top.role}) on ${top.date}, worth ${formatUsd(top.value_usd)}.` : null,
    row.cluster_buying ? `At least ${row.cluster_rule.min_insiders} reporting owners bought within ${row.cluster_rule.span_days} days.` : null,
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

/** Summary of a filing row. */
export function filingSummary(row: FilingRow): string | undefined {
  if (row.filed_at_source === 'signature_date') return signedFilingSummary(row);
  return joinSentences([
    `${row.company}${row.ticker ? ` (${row.ticker})` : ''} filed Form ${row.form} on ${row.filed_at}${row.period_of_report ? ` for the period ending ${row.period_of_report}` : ''}.`,
    row.items.length > 0 ? `Items reported: ${row.items.join(', ')}.` : null,
  ]);
}

/**
 * Summary of a filing row dated by the form's signature date (no input gives its filing date):
 * it says "signed", and names the form before the company, which for a Form 3/4/5 is the issuer
 * rather than the reporting owner who signed it.
 */
function signedFilingSummary(row: FilingRow): string | undefined {
  const period = row.period_of_report ? ` for the period ending ${row.period_of_report}` : '';
  return joinSentences([
    `Form ${row.form} of ${row.company}${row.ticker ? ` (${row.ticker})` : ''}${period} was signed on ${row.filed_at}; no input gives its filing date.`,
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
    row.institutional ? `${count(row.institutional.n_filers, 'filer')} of Form 13F in this snapshot reported holdings worth ${formatUsd(row.institutional.total_value_usd)}.` : null,
  ]);
}
