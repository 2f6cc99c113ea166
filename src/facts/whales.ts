/**
 * Whale rows (docs/api.md §6): per 13F filer, its latest period of report, compared with the
 * period before it. Positions are matched on CUSIP plus put/call; rows of the same position
 * (several managers or discretion types) are summed. Per period, a RESTATEMENT amendment
 * replaces what came before and a NEW HOLDINGS amendment adds to it (Form 13F General
 * Instructions, "Amendments").
 */
import type { Holding, WhaleRow } from '../rows/types.js';
import type { FiledAtSource, InfoTableEntry, ThirteenFFiling } from '../edgar/records.js';
import { divideDecimal, fromNumber, multiplyDecimal, roundDecimal, toNumber, wholeQuotient } from './decimal.js';
import { decideValueUnit, type ValueUnit } from './value-unit.js';
import { pushTo } from './group.js';

/** One position of a period, values in USD. */
export interface Position {
  key: string;
  issuer: string;
  cusip: string;
  titleOfClass: string;
  putCall: 'Put' | 'Call' | null;
  /** `SH` (shares) or `PRN` (principal amount). */
  sharesType: string;
  shares: number;
  valueUsd: number;
}

/** A filer's holdings for one period after amendments. */
export interface Period {
  filerCik: string;
  filer: string;
  periodOfReport: string;
  /** The latest filing that shaped the period. */
  filedAt: string;
  /** Where that filing's date came from. */
  filedAtSource: FiledAtSource;
  accessionNo: string;
  unit: ValueUnit;
  positions: Map<string, Position>;
}

const positionKey = (e: { cusip: string; putCall: string | null }): string => `${e.cusip}|${e.putCall ?? ''}`;
const round = (n: number, digits: number): number => toNumber(roundDecimal(fromNumber(n), digits));
/** `numerator × factor / denominator` rounded once from the exact quotient (in floating point where that is exact: wholeQuotient). */
const ratio = (numerator: number, denominator: number, digits: number, factor = 1): number =>
  (Number.isSafeInteger(numerator) && Number.isSafeInteger(factor) ? wholeQuotient(numerator * factor, denominator, digits) : undefined)
    ?? toNumber(divideDecimal(multiplyDecimal(fromNumber(numerator), fromNumber(factor)), fromNumber(denominator), digits));
/** `value_usd` as positions show it: rounded to the cent, without decimal arithmetic for the whole dollars 13F values are. */
const usd = (n: number): number => (Number.isInteger(n) ? n : round(n, 2));

/**
 * Folds a filer's filings into periods.
 *
 * @param filings - 13F-HR and 13F-HR/A filings with their tables (notices without a table are ignored).
 * @returns periods by filer CIK, each list oldest first.
 */
export function foldPeriods(filings: readonly ThirteenFFiling[]): Map<string, Period[]> {
  const sorted = [...filings].filter((f) => f.entries.length > 0)
    .sort((a, b) => (a.filedAt + a.accessionNo < b.filedAt + b.accessionNo ? -1 : 1));
  const periods = new Map<string, Period>();
  for (const filing of sorted) {
    const id = `${filing.filerCik}|${filing.periodOfReport}`;
    const unit = decideValueUnit(filing.filedAt, filing.entries);
    const known = periods.get(id);
    const addsToKnown = known !== undefined && filing.amendmentType === 'NEW HOLDINGS';
    const period: Period = addsToKnown ? known : {
      filerCik: filing.filerCik, filer: filing.filer, periodOfReport: filing.periodOfReport,
      filedAt: filing.filedAt, filedAtSource: filing.filedAtSource, accessionNo: filing.accessionNo, unit, positions: new Map(),
    };
    if (addsToKnown) {
      period.filedAt = filing.filedAt;
      period.filedAtSource = filing.filedAtSource;
      period.accessionNo = filing.accessionNo;
    }
    for (const entry of filing.entries) addEntry(period.positions, entry, unit.unit === 'thousands' ? 1000 : 1);
    periods.set(id, period);
  }
  const byFiler = new Map<string, Period[]>();
  for (const period of periods.values()) pushTo(byFiler, period.filerCik, period);
  for (const list of byFiler.values()) list.sort((a, b) => (a.periodOfReport < b.periodOfReport ? -1 : 1));
  return byFiler;
}

function addEntry(positions: Map<string, Position>, entry: InfoTableEntry, multiplier: number): void {
  const key = positionKey(entry);
  const known = positions.get(key);
  if (known) {
    known.shares += entry.shares;
    known.valueUsd += entry.value * multiplier;
    return;
  }
  positions.set(key, {
    key, issuer: entry.issuer, cusip: entry.cusip, titleOfClass: entry.titleOfClass, putCall: entry.putCall, sharesType: entry.sharesType,
    shares: entry.shares, valueUsd: entry.value * multiplier,
  });
}

/**
 * Compares a position with the previous period's (docs/api.md §6): `change_pct` in percent,
 * null where there were no shares before or no previous period.
 */
export function compareHolding(current: Position | undefined, previous: Position | undefined, hasPrevious: boolean, total: number, ticker: (p: Position) => string | null): Holding {
  const base = (current ?? previous)!;
  const shares = current?.shares ?? 0;
  const valueUsd = current?.valueUsd ?? 0;
  let change: number | null = null;
  let pct: number | null = null;
  let action: Holding['action'] = null;
  if (hasPrevious) {
    const before = previous?.shares ?? 0;
    change = shares - before;
    pct = before > 0 ? ratio(change, before, 2, 100) : null;
    action = !current ? 'sold_out' : !previous ? 'new' : change > 0 ? 'added' : change < 0 ? 'reduced' : 'unchanged';
  }
  return {
    issuer: base.issuer, cusip: base.cusip, ticker: ticker(base), title_of_class: base.titleOfClass, put_call: base.putCall,
    shares, value_usd: usd(valueUsd), weight: total > 0 ? ratio(valueUsd, total, 6) : 0,
    change_shares: change, change_pct: pct, action,
  };
}


/** Larger first, then CUSIP, then put/call: a total order, so ties fall the same way whatever the input order. */
const byCusip = (a: Holding, b: Holding): number => (a.cusip < b.cusip ? -1 : a.cusip > b.cusip ? 1 : (a.put_call ?? '') < (b.put_call ?? '') ? -1 : (a.put_call ?? '') > (b.put_call ?? '') ? 1 : 0);

/**
 * The items whose key is among the `n` largest (every item tied with the n-th kept), in input
 * order: the candidates for a top-n, so that exact figures are computed for them alone.
 */
function candidates<T>(items: readonly T[], n: number, key: (item: T) => number): T[] {
  if (items.length <= n) return [...items];
  const keys = items.map(key);
  const threshold = [...keys].sort((a, b) => b - a)[n - 1]!;
  return items.filter((_, i) => keys[i]! >= threshold);
}

/** A filer's latest period as its rows show it: whale rows and holder rows (docs/api.md §6, §16) both read it. */
export interface LatestPeriod {
  latest: Period;
  /** The period before it, or null where the filer has one period. */
  previous: Period | null;
  /** The latest period's positions, in the order read. */
  held: Position[];
  /** Their value in USD, unrounded: the base of every weight. */
  total: number;
  /** A position of the latest period with its figures (weight, change since the previous period). */
  holding: (p: Position) => Holding;
}

/**
 * A filer's latest period and the one before, with the one computation of a held position's
 * figures, so that a position has the same figures in the whale row and in its holder row.
 *
 * @param list - the filer's periods from {@link foldPeriods}, oldest first (at least one).
 * @param ticker - CUSIP-to-ticker lookup, null where not confident.
 */
export function latestPeriodOf(list: readonly Period[], ticker: (p: Position) => string | null): LatestPeriod {
  const latest = list[list.length - 1]!;
  const previous = list.length > 1 ? list[list.length - 2]! : null;
  const held = [...latest.positions.values()];
  const total = held.reduce((s, p) => s + p.valueUsd, 0);
  return {
    latest, previous, held, total,
    holding: (p) => compareHolding(p, previous?.positions.get(p.key), previous !== null, total, ticker),
  };
}

/**
 * Computes one whale row per filer from its latest period. Exact figures (weights, changes in
 * percent) are computed only for the positions a row shows: a filer may hold thousands.
 *
 * @param periods - from {@link foldPeriods}.
 * @param ticker - CUSIP-to-ticker lookup, null where not confident.
 */
export function computeWhaleRows(periods: Map<string, Period[]>, ticker: (p: Position) => string | null): WhaleRow[] {
  const rows: WhaleRow[] = [];
  for (const list of periods.values()) {
    const { latest, previous, held, total, holding } = latestPeriodOf(list, ticker);
    const soldOut = previous ? [...previous.positions.values()].filter((p) => !latest.positions.has(p.key)) : [];
    const topHoldings = candidates(held, 10, (p) => usd(p.valueUsd)).map(holding)
      .sort((a, b) => b.value_usd - a.value_usd || byCusip(a, b)).slice(0, 10);
    // docs/api.md §6: the largest absolute value changes, so a position held at the same share
    // count whose value moved is a move too; one whose value did not move is not.
    const change = (current: Position | undefined, before: Position | undefined): number => Math.abs(usd(current?.valueUsd ?? 0) - (before?.valueUsd ?? 0));
    let moves: Holding[] = [];
    const changes = { new: 0, added: 0, reduced: 0, unchanged: 0, sold_out: 0 };
    if (previous) {
      const moved = [
        ...held.map((p) => ({ p, before: previous.positions.get(p.key), now: p as Position | undefined })),
        ...soldOut.map((p) => ({ p, before: p as Position | undefined, now: undefined })),
      ].filter((m) => change(m.now, m.before) > 0);
      moves = candidates(moved, 10, (m) => change(m.now, m.before))
        .map((m) => ({ h: m.now ? holding(m.now) : compareHolding(undefined, m.p, true, total, ticker), size: change(m.now, m.before) }))
        .sort((a, b) => b.size - a.size || byCusip(a.h, b.h)).slice(0, 10).map((m) => m.h);
      for (const p of held) {
        const before = previous.positions.get(p.key);
        changes[!before ? 'new' : p.shares > before.shares ? 'added' : p.shares < before.shares ? 'reduced' : 'unchanged']++;
      }
      changes.sold_out = soldOut.length;
    }
    rows.push({
      type: 'whale', cik: latest.filerCik, filer: latest.filer, period_of_report: latest.periodOfReport,
      filed_at: latest.filedAt, filed_at_source: latest.filedAtSource, accession_no: latest.accessionNo, previous_period: previous?.periodOfReport ?? null,
      total_value_usd: round(total, 2), n_positions: latest.positions.size, value_unit: latest.unit.unit,
      value_unit_inferred: latest.unit.inferred, top_holdings: topHoldings, moves,
      position_changes: previous ? changes : null,
    });
  }
  return rows;
}
