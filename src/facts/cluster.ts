/**
 * The cluster-buying rule of the insider rows (docs/api.md §6): at least `min_insiders` distinct
 * reporting owners bought (code P) within some `span_days`-long span inside the window. A span
 * of 30 days covers a first day and the 29 days after it, so purchases on day 0 and day 29
 * share a span and purchases on day 0 and day 30 do not.
 */
import type { ClusterRule } from '../rows/types.js';

/** The default rule, echoed in every insider row as `cluster_rule`. */
export const DEFAULT_CLUSTER_RULE: Readonly<ClusterRule> = Object.freeze({ codes: ['P' as const], min_insiders: 3, span_days: 30 });

/** One purchase: who bought and on which transaction date. */
export interface Purchase {
  ownerCik: string;
  date: string;
}

/**
 * Whether the purchases form a cluster under `rule`.
 *
 * @param purchases - P transactions inside the window, in any order.
 * @param rule - the rule; `span_days` in calendar days.
 */
export function isClusterBuying(purchases: readonly Purchase[], rule: ClusterRule = DEFAULT_CLUSTER_RULE): boolean {
  const sorted = [...purchases].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // Each date parsed once, not once per pair; the day count is daysBetween's (conventions.ts) arithmetic.
  const times = sorted.map((p) => Date.parse(`${p.date}T00:00:00Z`));
  const days = (i: number, j: number): number => Math.round((times[j]! - times[i]!) / 86_400_000);
  for (let i = 0; i < sorted.length; i++) {
    const owners = new Set<string>();
    for (let j = i; j < sorted.length && days(i, j) < rule.span_days; j++) {
      owners.add(sorted[j]!.ownerCik);
    }
    if (owners.size >= rule.min_insiders) return true;
  }
  return false;
}
