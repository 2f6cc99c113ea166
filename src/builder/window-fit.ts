/**
 * Whether the insider and filings windows fit the inputs. The defaults (90 and 30 days back
 * from the as-of date) fit a daily run over EDGAR, where every day brings new filings; over a
 * sample or an archive whose last filings are sparse they can hold nothing at all, and a
 * version with no insider rows though the inputs hold years of Form 4 trades is a mistake of
 * the windows, not of the data. The build then refuses to publish and names the windows that
 * cover the data, so that the operator's next command works.
 */
import { daysBetween } from '../edgar/conventions.js';
import type { FilingRecord, OwnershipFiling } from '../edgar/records.js';
import { COUNTED_CODES } from '../facts/insiders.js';

/** A row kind whose window holds none of the inputs' data for it. */
export type WindowedKind = 'insiders' | 'filings';

/** Windows that miss the data, and the ones that would hold all of it. */
export interface WindowMiss {
  /** The kinds left without rows although the inputs hold data for them before their window. */
  kinds: WindowedKind[];
  /** The as-of date the windows end on, `YYYY-MM-DD`. */
  asOf: string;
  /** Insider window, in days counting as-of, that reaches the earliest P or S trade (at least the one given). */
  windowDays: number;
  /** Filings window, in days counting as-of, that reaches the earliest filing (at least the one given). */
  filingsDays: number;
}

/** What {@link windowMiss} looks at. */
export interface WindowFitInputs {
  /** The inputs cut at the as-of date. */
  filings: readonly FilingRecord[];
  ownership: readonly OwnershipFiling[];
  asOf: string;
  /** The windows used, in days counting as-of. */
  windowDays: number;
  filingsDays: number;
  /** Rows the build made of each windowed kind. */
  rows: Readonly<Record<WindowedKind, number>>;
}

/**
 * The windows' miss, or `undefined` where every windowed kind has rows or had no data at all.
 * The earliest trade is the earliest transaction date of a P or S line (the codes insider rows
 * count) on a Form 4 or 4/A on or before the as-of date; the earliest filing, the earliest
 * filing date of a filing record.
 */
export function windowMiss(inputs: WindowFitInputs): WindowMiss | undefined {
  let earliestTrade: string | null = null;
  for (const filing of inputs.ownership) {
    if (filing.documentType !== '4' && filing.documentType !== '4/A') continue;
    for (const t of filing.transactions) {
      if (COUNTED_CODES.has(t.code) && t.date <= inputs.asOf && (earliestTrade === null || t.date < earliestTrade)) earliestTrade = t.date;
    }
  }
  let earliestFiling: string | null = null;
  for (const f of inputs.filings) if (earliestFiling === null || f.filedAt < earliestFiling) earliestFiling = f.filedAt;

  const kinds: WindowedKind[] = [];
  if (inputs.rows.insiders === 0 && earliestTrade !== null) kinds.push('insiders');
  if (inputs.rows.filings === 0 && earliestFiling !== null) kinds.push('filings');
  if (kinds.length === 0) return undefined;
  const reach = (from: string | null, given: number): number => (from === null ? given : Math.max(given, daysBetween(from, inputs.asOf) + 1));
  return { kinds, asOf: inputs.asOf, windowDays: reach(earliestTrade, inputs.windowDays), filingsDays: reach(earliestFiling, inputs.filingsDays) };
}
