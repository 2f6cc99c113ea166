/**
 * The written fields (decisions §6): `summary` on insider, whale, filing and report rows and
 * `recap` on earnings rows, made from templates over the row's own figures. They state facts
 * only: no advice words (ADVICE_WORDS, matched case-insensitively; a sentence that would
 * contain one, say through a company name, is dropped) and no judging adjectives.
 */
import { ADVICE_WORDS } from '../rows/schemas.js';
import type { EarningsRow, FilingRow, Holding, InsiderRow, ReportRow, WhaleRow } from '../rows/types.js';

/**
 * Formats USD for prose: `$1.23 billion`, `$456.7 million`, `$12,345`.
 *
 * @param usd - amount in USD; the sign is written as `-`.
 */
export function formatUsd(usd: number): string {
  const sign = usd < 0 ? '-' : '';
  const a = Math.abs(usd);
  if (a >= 1e9) return `${sign}$${(a / 1e9).toFixed(2)} billion`;
  if (a >= 1e6) return `${sign}$${(a / 1e6).toFixed(1)} million`;
  return `${sign}$${Math.round(a).toLocaleString('en-US')}`;
}

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const shares = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 4 });

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

/** Summary of an insider row. */
export function insiderSummary(row: InsiderRow): string | undefined {
  const top = row.notable[0];
  return joinSentences([
    `From ${row.window_start} to ${row.window_end}, reporting owners of ${row.company} (${row.ticker}) reported ${count(row.n_buys, 'open-market purchase')} worth ${formatUsd(row.buy_usd)} and ${count(row.n_sells, 'open-market sale')} worth ${formatUsd(row.sell_usd)} on Form 4.`,
    `Net value: ${formatUsd(row.net_usd)}.`,
    row.n_buys > 0 ? `${count(row.n_insiders_buying, 'reporting owner')} bought.` : null,
    top ? `The largest priced trade was a ${top.code === 'P' ? 'purchase' : 'sale'} of ${shares(top.shares)} shares at $${top.price_usd} by ${top.insider} (${top.role}) on ${top.date}, worth ${formatUsd(top.value_usd)}.` : null,
    row.cluster_buying ? `At least ${row.cluster_rule.min_insiders} reporting owners bought within ${row.cluster_rule.span_days} days.` : null,
  ]);
}

const holdingName = (h: Holding): string => `${h.issuer}${h.ticker ? ` (${h.ticker})` : ''}${h.put_call ? ` ${h.put_call.toLowerCase()} options` : ''}`;

/** Summary of a whale row. */
export function whaleSummary(row: WhaleRow): string | undefined {
  const top = row.top_holdings[0];
  const actions = row.previous_period === null ? null : (['new', 'added', 'reduced', 'sold_out'] as const)
    .map((a) => [a, [...row.top_holdings, ...row.moves].filter((h, i, all) => h.action === a && all.findIndex((x) => x.cusip === h.cusip && x.put_call === h.put_call) === i).length] as const);
  return joinSentences([
    `${row.filer} reported ${count(row.n_positions, 'position')} worth ${formatUsd(row.total_value_usd)} on Form 13F for the period ending ${row.period_of_report}, filed ${row.filed_at}.`,
    top ? `The largest position was ${holdingName(top)} at ${(top.weight * 100).toFixed(1)}% of reported value.` : null,
    actions ? `Among the positions listed, compared with ${row.previous_period}: ${actions.map(([a, n]) => `${n} ${a.replace('_', ' ')}`).join(', ')}.` : null,
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
    f.eps_diluted !== null ? `diluted EPS $${f.eps_diluted}` : f.eps_basic !== null ? `basic EPS $${f.eps_basic}` : null,
  ].filter((s): s is string => s !== null);
  return joinSentences([
    `${row.company} (${row.ticker}) filed an earnings release on Form ${row.form} (item 2.02) on ${row.filed_at}${period}.`,
    figures.length > 0 ? `XBRL company facts for the period: ${figures.join('; ')}.` : null,
  ]);
}

/** Summary of a filing row. */
export function filingSummary(row: FilingRow): string | undefined {
  return joinSentences([
    `${row.company}${row.ticker ? ` (${row.ticker})` : ''} filed Form ${row.form} on ${row.filed_at}${row.period_of_report ? ` for the period ending ${row.period_of_report}` : ''}.`,
    row.items.length > 0 ? `Items reported: ${row.items.join(', ')}.` : null,
  ]);
}

/** Summary of a report row. */
export function reportSummary(row: ReportRow): string | undefined {
  const latest = (['10-K', '10-Q', '8-K'] as const).filter((form) => row.latest[form]).map((form) => `${form} on ${row.latest[form]!.filed_at}`);
  return joinSentences([
    `${row.company} (${row.ticker})${row.exchange ? ` is listed on ${row.exchange}` : ' is registered with the SEC'}${row.sic ? ` under SIC code ${row.sic}${row.sic_description ? ` (${row.sic_description})` : ''}` : ''}.`,
    latest.length > 0 ? `Latest filings: ${latest.join(', ')}.` : null,
    row.insiders ? `From ${row.insiders.window_start} to ${row.insiders.window_end}, Form 4 open-market trades netted ${formatUsd(row.insiders.net_usd)} (${count(row.insiders.n_buys, 'purchase')}, ${count(row.insiders.n_sells, 'sale')}).` : null,
    row.earnings ? `Latest earnings release filed ${row.earnings.filed_at}${row.earnings.fiscal_period && row.earnings.fiscal_year ? ` for fiscal ${row.earnings.fiscal_period === 'FY' ? 'year' : row.earnings.fiscal_period} ${row.earnings.fiscal_year}` : ''}.` : null,
    row.institutional ? `${count(row.institutional.n_filers, '13F filer')} in this snapshot reported holdings worth ${formatUsd(row.institutional.total_value_usd)}.` : null,
  ]);
}
