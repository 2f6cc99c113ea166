/**
 * The manifest's `build` section (docs/api.md §7, "build": options used): the options, what was
 * read and skipped (with each reason), the rows written, and notes that make the data's limits
 * visible: inputs left out and why, how units, clocks and tickers were decided.
 */
import { relative } from 'node:path';
import type { RowKind } from '../rows/schemas.js';
import type { AsOfInputs } from './as-of.js';
import type { Inputs } from './inputs.js';
import type { FinancialsNotes } from '../facts/financials.js';
import type { InsiderResult } from '../facts/insiders.js';
import type { InsiderTransactionResult } from '../facts/insider-transactions.js';
import type { Resolved } from './resolve.js';
import type { PositionIssuer } from '../facts/issuer-tickers.js';
import type { Period, Position } from '../facts/whales.js';

/** What the section is made from. */
export interface BuildSectionInputs {
  options: Record<string, unknown>;
  inputs: Inputs;
  resolved: Resolved;
  known: AsOfInputs;
  counts: Record<RowKind, number>;
  insiders: InsiderResult;
  transactions: InsiderTransactionResult;
  earnings: { withoutTicker: number; withoutDocument: number };
  reports: { withoutTicker: number };
  financials: FinancialsNotes;
  periods: ReadonlyMap<string, Period[]>;
  issuerOf: (position: Position) => PositionIssuer | null;
}

/** Builds the section. Paths are relative to `--from`. */
export function buildSection(s: BuildSectionInputs): Record<string, unknown> {
  const from = String(s.options.from);
  return {
    builder: 'equity-facts build',
    options: s.options,
    files_read: s.inputs.filesRead,
    files_skipped: s.inputs.skipped.length,
    skipped_reasons: tally(s.inputs.skipped.map((k) => k.reason)),
    skipped_files: skippedFiles(s.inputs.skipped, from),
    rows: s.counts,
    notes: {
      insider_issuers_without_ticker: s.insiders.issuersWithoutTicker.length,
      filings_replaced_by_4a: s.insiders.replacedByAmendment,
      insider_transactions_from_data_set: s.insiders.transactionsFromDataSet,
      insider_transaction_rows_from_data_set: s.transactions.rowsFromDataSet,
      insider_transaction_lines_left_out: s.transactions.linesLeftOut,
      ownership_in_plain_text: s.inputs.plainTextOwnership.length,
      earnings_without_ticker: s.earnings.withoutTicker,
      earnings_without_document: s.earnings.withoutDocument,
      companies_without_ticker: s.reports.withoutTicker,
      financials: {
        companies: s.financials.companies,
        quarters_off_fiscal_calendar: s.financials.quartersOffCalendar,
        years_not_in_annual_reports: s.financials.yearsNotInAnnualReports,
        same_fiscal_period_reported_later: s.financials.samePeriodReportedLater,
        quarters_without_fiscal_calendar: s.financials.quartersWithoutCalendar,
      },
      filed_at_from_signature_date: s.resolved.filedAtFromSignature.length,
      filed_at_from_signature_date_accessions: s.resolved.filedAtFromSignature.slice(0, 50),
      submissions_clocks: submissionsClockNotes(s.resolved.submissionsClocks, from),
      unmapped_8k_item_titles: Object.fromEntries(s.inputs.unmappedItemTitles),
      data_sets: s.inputs.dataSets.map((d) => ({
        source: relative(from, d.source), kind: d.kind === 'insider' ? 'Insider Transactions Data Set' : 'Form 13F Data Set', tables: d.tables,
        filings: d.filings, rows: d.rows, rows_left_out: d.rowsLeftOut, ...(d.missing ? { missing: d.missing } : {}),
      })),
      thirteenf_tickers: thirteenFTickerNotes(s.periods, s.issuerOf),
      thirteenf_value_units: [...s.periods.values()].flat().map((p) => ({
        cik: p.filerCik, period_of_report: p.periodOfReport, accession_no: p.accessionNo, value_unit: p.unit.unit,
        decided_by: p.unit.inferred ? 'implied price per share' : 'filing date', median_implied_price: p.unit.medianImpliedPrice,
      })),
    },
  };
}

/**
 * How many distinct 13F securities (CUSIP and put/call) of the snapshot's periods were resolved
 * to a company and to a ticker (issuer-tickers.ts), and the share with a ticker.
 */
function thirteenFTickerNotes(periods: ReadonlyMap<string, Period[]>, issuerOf: (position: Position) => PositionIssuer | null): Record<string, number> {
  const securities = new Map<string, Position>();
  for (const list of periods.values()) for (const period of list) for (const [key, p] of period.positions) securities.set(key, p);
  const issuers = [...securities.values()].map(issuerOf);
  const withTicker = issuers.filter((i) => i?.ticker).length;
  return {
    securities: securities.size,
    with_company: issuers.filter((i) => i !== null).length,
    with_ticker: withTicker,
    share_with_ticker: securities.size > 0 ? Math.round((withTicker / securities.size) * 10_000) / 10_000 : 0,
  };
}

/** How many submissions files were read on each clock, and which ones were not plain UTC by evidence. */
function submissionsClockNotes(clocks: Resolved['submissionsClocks'], from: string): Record<string, unknown> {
  const noEvidence = (c: Resolved['submissionsClocks'][number]): boolean => c.decidedBy === 'no evidence: read as written (UTC)';
  return {
    utc: clocks.filter((c) => c.clock === 'utc' && !noEvidence(c)).length,
    eastern_with_z: clocks.filter((c) => c.clock === 'eastern').length,
    no_evidence_read_as_utc: clocks.filter(noEvidence).length,
    not_utc_by_evidence: clocks.filter((c) => c.clock === 'eastern' || noEvidence(c)).slice(0, 50)
      .map((c) => ({ file: relative(from, c.path), clock: c.clock, decided_by: c.decidedBy, votes: c.votes })),
  };
}

/** Up to 10 files per reason, relative to `--from`, so that an operator can find what was left out. */
function skippedFiles(skipped: Inputs['skipped'], from: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { path, reason } of skipped) {
    const list = (out[reason] ??= []);
    if (list.length < 10) list.push(relative(from, path));
  }
  return out;
}

function tally(reasons: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of reasons) out[r] = (out[r] ?? 0) + 1;
  return out;
}
