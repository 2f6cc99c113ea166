/**
 * The written field of a financials row (docs/api.md §6 and §16): the row's own values in words,
 * with the period and the filing that first reported it. Facts only, no advice words (checked
 * by joinSentences in summaries.ts).
 */
import type { FinancialsRow } from '../rows/types.js';
import { formatPerShare, formatShares, formatUsd } from './prose-numbers.js';
import { joinSentences } from './summaries.js';

const QUARTER_WORDS = { Q1: 'first', Q2: 'second', Q3: 'third', Q4: 'fourth' } as const;

/** What each cash concept (financials-concepts.ts) holds, in words. */
const CASH_WORDS: Readonly<Record<string, string>> = {
  'us-gaap:CashAndCashEquivalentsAtCarryingValue': 'cash and cash equivalents',
  'us-gaap:Cash': 'cash',
  'us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents': 'cash, cash equivalents and restricted cash',
};

/** An amount whose sign names it: `net income of $1.2 billion`, `net loss of $3.0 million`. */
const signed = (usd: number, gain: string, loss: string): string => (usd < 0 ? `${loss} of ${formatUsd(-usd)}` : `${gain} of ${formatUsd(usd)}`);

/** Summary of a financials row. */
export function financialsSummary(row: FinancialsRow): string | undefined {
  const v = row.values;
  const period = row.fiscal_period === 'FY'
    ? `fiscal year ${row.fiscal_year}`
    : `the ${QUARTER_WORDS[row.fiscal_period]} quarter of fiscal year ${row.fiscal_year}`;
  const eps = v.eps_diluted !== null ? `diluted EPS of ${formatPerShare(v.eps_diluted)}` : v.eps_basic !== null ? `basic EPS of ${formatPerShare(v.eps_basic)}` : null;
  const flows = [
    v.revenue_usd !== null ? `revenue of ${formatUsd(v.revenue_usd)}` : null,
    v.operating_income_usd !== null ? signed(v.operating_income_usd, 'operating income', 'operating loss') : null,
    v.net_income_usd !== null ? signed(v.net_income_usd, 'net income', 'net loss') : null,
    eps,
    v.operating_cash_flow_usd !== null ? `net cash from operating activities of ${formatUsd(v.operating_cash_flow_usd)}` : null,
  ].filter((s): s is string => s !== null);
  const balances = [
    v.total_assets_usd !== null ? `total assets of ${formatUsd(v.total_assets_usd)}` : null,
    v.total_liabilities_usd !== null ? `total liabilities of ${formatUsd(v.total_liabilities_usd)}` : null,
    v.stockholders_equity_usd !== null ? `stockholders' equity of ${formatUsd(v.stockholders_equity_usd)}` : null,
    v.cash_usd !== null ? `${CASH_WORDS[row.concepts.cash_usd ?? ''] ?? 'cash'} of ${formatUsd(v.cash_usd)}` : null,
  ].filter((s): s is string => s !== null);
  const shares = v.shares_outstanding === null
    ? null
    : row.concepts.shares_outstanding?.startsWith('dei:')
      ? `The cover page of that filing states ${formatShares(v.shares_outstanding)} common shares outstanding as of a date after the period.`
      : `Common shares outstanding at ${row.period_end}: ${formatShares(v.shares_outstanding)}.`;
  return joinSentences([
    `${row.company}${row.ticker ? ` (${row.ticker})` : ''} first reported ${period}, ${row.period_start} to ${row.period_end}, on Form ${row.form} filed ${row.filed_at}.`,
    flows.length > 0 ? `For the period: ${list(flows)}.` : null,
    balances.length > 0 ? `At ${row.period_end}: ${list(balances)}.` : null,
    shares,
  ]);
}

/** `a`, `a and b`, `a, b and c`. */
function list(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
