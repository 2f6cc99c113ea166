/**
 * The snapshot builder: reads EDGAR's files under `from`, computes every row kind of
 * decisions §6 and writes them with the snapshot writer, which verifies the version as the
 * server would before it publishes `CURRENT` (decisions §7).
 */
import { relative } from 'node:path';
import { ROW_KINDS, type RowKind } from '../rows/schemas.js';
import type { StoredRow } from '../rows/types.js';
import { sortRows, writeSnapshot } from '../data/snapshot-writer.js';
import { cusipTickerLookup } from './cusip-tickers.js';
import { computeEarningsRows } from './earnings.js';
import { computeFilingRows } from './filings.js';
import { emptyInputs, readInputFile } from './inputs.js';
import { computeInsiderRows, latestTradeDate } from './insiders.js';
import { computeReportRows } from './reports.js';
import { resolveInputs, type Resolved } from './resolve.js';
import { earningsRecap, filingSummary, insiderSummary, reportSummary, whaleSummary } from './summaries.js';
import { walkFiles } from './walk.js';
import { computeWhaleRows, foldPeriods } from './whales.js';

/** Options of a build; see command.ts for their command-line form. */
export interface BuildOptions {
  /** Folder of EDGAR files, walked recursively. */
  from: string;
  /** The snapshots folder. */
  out: string;
  /** Last day of the insider and filings windows, `YYYY-MM-DD`; default the latest P/S transaction date read. */
  asOf?: string;
  /** Insider window in days, counting as-of. @default 90 */
  windowDays?: number;
  /** Filings window in days, counting as-of. @default 30 */
  filingsDays?: number;
  /** Version label; default `<as-of>_<build time>`. */
  version?: string;
  /** Whether to point CURRENT at the new version. @default true */
  publish?: boolean;
  /** Clock, for created_at and the default version. */
  now?: () => Date;
  /** Receives one line per skipped file and progress lines; default stderr. */
  log?: (line: string) => void;
  /** Whether to log progress. @default whether stderr is a TTY */
  progress?: boolean;
}

/** Defaults of the build options. */
export const BUILD_DEFAULTS = Object.freeze({
  /** Insider window, days (decisions §6 example). */
  windowDays: 90,
  /** Filings window, days. */
  filingsDays: 30,
});

/** What a build wrote. */
export interface BuildResult {
  version: string;
  dir: string;
  rows: Record<RowKind, number>;
  build: Record<string, unknown>;
}

/**
 * Builds, verifies and publishes a snapshot.
 *
 * @throws Error when a kind that had inputs ends up without rows, or when the written
 *   snapshot fails verification (nothing is published then).
 */
export async function buildSnapshot(options: BuildOptions): Promise<BuildResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const progress = options.progress ?? process.stderr.isTTY === true;
  const windowDays = options.windowDays ?? BUILD_DEFAULTS.windowDays;
  const filingsDays = options.filingsDays ?? BUILD_DEFAULTS.filingsDays;
  const now = (options.now ?? (() => new Date()))();

  const inputs = emptyInputs();
  const paths = await walkFiles(options.from);
  for (const [i, path] of paths.entries()) {
    await readInputFile(path, inputs);
    if (progress && (i % 100 === 99 || i === paths.length - 1)) log(`build: read ${i + 1}/${paths.length} files`);
  }
  const resolved = resolveInputs(inputs);
  for (const s of inputs.skipped) log(`build: skipped ${s.path}: ${s.reason}`);

  const asOf = options.asOf ?? latestTradeDate(resolved.ownership) ?? now.toISOString().slice(0, 10);
  const tickerOf = (cik: string): { ticker: string; name: string } | undefined => {
    const company = resolved.company(cik);
    return company?.tickers[0] ? { ticker: company.tickers[0], name: company.name } : undefined;
  };
  const insiders = computeInsiderRows(resolved.ownership, {
    asOf, windowDays,
    issuer: (cik, filing) => tickerOf(cik)
      ?? (filing.issuerTradingSymbol ? { ticker: filing.issuerTradingSymbol, name: filing.issuerName } : undefined),
  });
  const cusipTicker = cusipTickerLookup(inputs.tickers);
  const periods = foldPeriods(resolved.thirteenF);
  const whales = computeWhaleRows(periods, cusipTicker);
  const earnings = computeEarningsRows(resolved.filings, tickerOf, inputs.companyFacts);
  const filings = computeFilingRows(resolved.filings, asOf, filingsDays, (cik) => {
    const company = resolved.company(cik);
    return { ticker: company?.tickers[0] ?? null, name: company?.name || null };
  });
  const reports = computeReportRows({
    ciks: [...inputs.companies.keys(), ...insiders.rows.map((r) => r.cik), ...earnings.rows.map((r) => r.cik), ...inputs.companyFacts.keys()],
    company: resolved.company, filings: resolved.filings, insiders: insiders.rows, earnings: earnings.rows, periods, ticker: cusipTicker,
  });

  const rows: Record<RowKind, StoredRow[]> = {
    insiders: insiders.rows.map((r) => withText(r, 'summary', insiderSummary(r))),
    whales: whales.map((r) => withText(r, 'summary', whaleSummary(r))),
    earnings: earnings.rows.map((r) => withText(r, 'recap', earningsRecap(r))),
    filings: filings.map((r) => withText(r, 'summary', filingSummary(r))),
    reports: reports.rows.map((r) => withText(r, 'summary', reportSummary(r))),
  };
  const hadInputs: Record<RowKind, boolean> = {
    insiders: resolved.ownership.some((f) => f.transactions.some((t) => t.code === 'P' || t.code === 'S')),
    whales: resolved.thirteenF.some((f) => f.entries.length > 0),
    earnings: earnings.rows.length + earnings.withoutTicker + earnings.withoutDocument > 0,
    filings: resolved.filings.length > 0,
    reports: inputs.companies.size > 0,
  };
  const empty = ROW_KINDS.filter((kind) => hadInputs[kind] && rows[kind].length === 0);
  if (empty.length > 0) throw new Error(`no ${empty.join(', ')} rows although the input had some (check --as-of ${asOf}, --window-days ${windowDays}, --filings-days ${filingsDays})`);

  const counts = Object.fromEntries(ROW_KINDS.map((k) => [k, rows[k].length])) as Record<RowKind, number>;
  const build = {
    builder: 'equity-facts build',
    options: { from: options.from, as_of: asOf, as_of_source: options.asOf ? 'option' : 'latest P/S transaction date', window_days: windowDays, filings_days: filingsDays },
    files_read: inputs.filesRead,
    files_skipped: inputs.skipped.length,
    skipped_reasons: tally(inputs.skipped.map((s) => s.reason)),
    rows: counts,
    notes: {
      insider_issuers_without_ticker: insiders.issuersWithoutTicker.length,
      filings_replaced_by_4a: insiders.replacedByAmendment,
      earnings_without_ticker: earnings.withoutTicker,
      companies_without_ticker: reports.withoutTicker,
      thirteenf_filed_at_from_signature_date: resolved.filedAtFromSignature,
      submissions_clocks: submissionsClockNotes(resolved.submissionsClocks, options.from),
      unmapped_8k_item_titles: Object.fromEntries(inputs.unmappedItemTitles),
      thirteenf_value_units: [...periods.values()].flat().map((p) => ({
        cik: p.filerCik, period_of_report: p.periodOfReport, accession_no: p.accessionNo, value_unit: p.unit.unit,
        decided_by: p.unit.inferred ? 'implied price per share' : 'filing date', median_implied_price: p.unit.medianImpliedPrice,
      })),
    },
  };
  const version = options.version ?? `${asOf}_${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
  const dates = [asOf, ...rows.filings.map((r) => (r as { filed_at: string }).filed_at), ...rows.earnings.map((r) => (r as { filed_at: string }).filed_at), ...rows.whales.map((r) => (r as { filed_at: string }).filed_at)];
  const written = await writeSnapshot({
    root: options.out, version, createdAt: now.toISOString(), dataThrough: dates.reduce((a, b) => (a > b ? a : b)), build,
    rows: Object.fromEntries(ROW_KINDS.map((k) => [k, sortRows(k, rows[k])])) as Record<RowKind, StoredRow[]>,
    publish: options.publish,
  });
  if (progress) log(`build: wrote ${ROW_KINDS.map((k) => `${counts[k]} ${k}`).join(', ')} to ${written.dir}`);
  return { version, dir: written.dir, rows: counts, build };
}

function withText<T extends object>(row: T, field: 'summary' | 'recap', value: string | undefined): T {
  return value === undefined ? row : { ...row, [field]: value };
}

/** How many submissions files were read on each clock, and which ones were not plain UTC by evidence. */
function submissionsClockNotes(clocks: Resolved['submissionsClocks'], from: string): Record<string, unknown> {
  const count = (test: (c: Resolved['submissionsClocks'][number]) => boolean): number => clocks.filter(test).length;
  return {
    utc: count((c) => c.clock === 'utc' && c.decidedBy !== 'no evidence: read as written (UTC)'),
    eastern_with_z: count((c) => c.clock === 'eastern'),
    no_evidence_read_as_utc: count((c) => c.decidedBy === 'no evidence: read as written (UTC)'),
    not_utc_by_evidence: clocks.filter((c) => c.clock === 'eastern' || c.decidedBy === 'no evidence: read as written (UTC)').slice(0, 50)
      .map((c) => ({ file: relative(from, c.path), clock: c.clock, decided_by: c.decidedBy, votes: c.votes })),
  };
}

function tally(reasons: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of reasons) out[r] = (out[r] ?? 0) + 1;
  return out;
}
