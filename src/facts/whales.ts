/**
 * Whale rows (decisions §6): per 13F filer, its latest period of report, compared with the
 * period before it. Positions are matched on CUSIP plus put/call; rows of the same position
 * (several managers or discretion types) are summed. Per period, a RESTATEMENT amendment
 * replaces what came before and a NEW HOLDINGS amendment adds to it (Form 13F General
 * Instructions, "Amendments").
 */
import type { Holding, WhaleRow } from '../rows/types.js';
import type { InfoTableEntry, ThirteenFFiling } from '../edgar/records.js';
import { divideDecimal, fromNumber, multiplyDecimal, roundDecimal, toNumber } from './decimal.js';
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
  accessionNo: string;
  unit: ValueUnit;
  positions: Map<string, Position>;
}

const positionKey = (e: { cusip: string; putCall: string | null }): string => `${e.cusip}|${e.putCall ?? ''}`;
const round = (n: number, digits: number): number => toNumber(roundDecimal(fromNumber(n), digits));
/** `numerator × factor / denominator` rounded once from the exact quotient. */
const ratio = (numerator: number, denominator: number, digits: number, factor = 1): number =>
  toNumber(divideDecimal(multiplyDecimal(fromNumber(numerator), fromNumber(factor)), fromNumber(denominator), digits));

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
      filedAt: filing.filedAt, accessionNo: filing.accessionNo, unit, positions: new Map(),
    };
    if (addsToKnown) {
      period.filedAt = filing.filedAt;
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
 * Compares a position with the previous period's (decisions §6): `change_pct` in percent,
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
    shares, value_usd: round(valueUsd, 2), weight: total > 0 ? ratio(valueUsd, total, 6) : 0,
    change_shares: change, change_pct: pct, action,
  };
}

/**
 * Computes one whale row per filer from its latest period.
 *
 * @param periods - from {@link foldPeriods}.
 * @param ticker - CUSIP-to-ticker lookup, null where not confident.
 */
export function computeWhaleRows(periods: Map<string, Period[]>, ticker: (p: Position) => string | null): WhaleRow[] {
  const rows: WhaleRow[] = [];
  for (const list of periods.values()) {
    const latest = list[list.length - 1]!;
    const previous = list.length > 1 ? list[list.length - 2]! : null;
    const total = [...latest.positions.values()].reduce((s, p) => s + p.valueUsd, 0);
    const holdings = [...latest.positions.values()].map((p) => compareHolding(p, previous?.positions.get(p.key), previous !== null, total, ticker));
    const soldOut = previous
      ? [...previous.positions.values()].filter((p) => !latest.positions.has(p.key)).map((p) => compareHolding(undefined, p, true, total, ticker))
      : [];
    const byValue = (a: Holding, b: Holding): number => b.value_usd - a.value_usd || (a.cusip < b.cusip ? -1 : 1);
    const valueChange = (h: Holding): number => {
      const before = previous?.positions.get(positionKey({ cusip: h.cusip, putCall: h.put_call }))?.valueUsd ?? 0;
      return Math.abs(h.value_usd - before);
    };
    // decisions §6: the largest absolute value changes, so a position held at the same share
    // count whose value moved is a move too; one whose value did not move is not.
    const moves = previous
      ? [...holdings, ...soldOut].filter((h) => valueChange(h) > 0)
        .sort((a, b) => valueChange(b) - valueChange(a) || (a.cusip < b.cusip ? -1 : 1)).slice(0, 10)
      : [];
    const changes = { new: 0, added: 0, reduced: 0, unchanged: 0, sold_out: 0 };
    for (const h of [...holdings, ...soldOut]) if (h.action !== null) changes[h.action]++;
    rows.push({
      type: 'whale', cik: latest.filerCik, filer: latest.filer, period_of_report: latest.periodOfReport,
      filed_at: latest.filedAt, accession_no: latest.accessionNo, previous_period: previous?.periodOfReport ?? null,
      total_value_usd: round(total, 2), n_positions: latest.positions.size, value_unit: latest.unit.unit,
      value_unit_inferred: latest.unit.inferred, top_holdings: [...holdings].sort(byValue).slice(0, 10), moves,
      position_changes: previous ? changes : null,
    });
  }
  return rows;
}
