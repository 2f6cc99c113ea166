/**
 * The embedded snapshot shows a newcomer what the service computes: it is as of the latest date of
 * the SEC sample, with windows that keep every company, and each row kind shows its features on
 * real rows. Checked against the raw files of the sample, and the README's and package.json's
 * build command against what `build` itself prints over the sample.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuildCommand } from '../../src/builder/command.js';
import { readCurrentVersion, readSnapshot } from '../../src/data/snapshot-reader.js';
import { PACKAGE_ROOT } from '../../src/options.js';
import type { RowKind } from '../../src/rows/schemas.js';
import { rawTrades } from '../helpers/raw-ownership.js';
import { SEC_DATA, rawFiles, secDataSkip as skip } from '../helpers/real-build.js';

const SNAPSHOTS = join(PACKAGE_ROOT, 'snapshots');

/** Every row of the embedded snapshot by kind, and its manifest. */
async function embedded(): Promise<{ rows: Record<RowKind, any[]>; manifest: any }> {
  const version = await readCurrentVersion(SNAPSHOTS);
  const rows = { reports: [], insiders: [], whales: [], earnings: [], filings: [], 'insider-transactions': [], financials: [], holders: [] } as Record<RowKind, any[]>;
  const manifest = await readSnapshot(join(SNAPSHOTS, version), version, (kind, row) => { rows[kind].push(row); });
  return { rows, manifest };
}

test(skip ? `embedded snapshot against the raw files (${skip})` : 'the embedded snapshot is as of the sample\'s latest date, has an insider row for every issuer with P or S trades, whales with moves, and earnings figures where company facts exist', { skip }, async () => {
  const { rows, manifest } = await embedded();
  const trades = rawTrades().filter((t) => (t.code === 'P' || t.code === 'S') && (t.documentType === '4' || t.documentType === '4/A'));
  // As of the latest date in the sample: no trade of its XMLs is after it, and the latest one is inside.
  const latestTrade = trades.reduce((a, t) => (t.date > a ? t.date : a), '');
  assert.ok(manifest.data_through >= latestTrade, `${manifest.data_through} covers the last trade ${latestTrade}`);
  assert.equal(manifest.build.options.as_of, manifest.data_through);
  // Every issuer with a P or S trade in the raw XMLs and a ticker (a report row) has an insider row.
  const reported = new Set(rows.reports.map((r) => r.cik));
  const issuers = new Set(trades.map((t) => t.issuerCik).filter((cik) => reported.has(cik)));
  const insiders = new Set(rows.insiders.map((r) => r.cik));
  assert.ok(issuers.size >= 15, `${issuers.size} issuers with trades`);
  for (const cik of issuers) assert.ok(insiders.has(cik), `insider row for issuer ${cik}`);
  // Whales with moves: a filer with two consecutive quarters in the sample shows them.
  const moving = rows.whales.filter((r) => r.previous_period !== null && r.moves.length > 0);
  assert.ok(moving.some((r) => r.cik === '0001061165'), 'Lone Pine Capital (2026-03-31 and 2026-06-30) shows its moves');
  assert.ok(moving.every((r) => r.moves.every((m: { action: string }) => ['new', 'added', 'reduced', 'unchanged', 'sold_out'].includes(m.action))));
  // Earnings figures wherever the sample holds the company's facts.
  const withFacts = rawFiles('companyfacts').map((path) => /CIK(\d{10})\.json$/.exec(path)?.[1]).filter((cik): cik is string => cik !== undefined);
  for (const cik of withFacts) {
    const releases = rows.earnings.filter((r) => r.cik === cik);
    if (releases.length === 0) continue;
    assert.ok(releases.some((r) => r.figures.revenue_usd !== null || r.figures.net_income_usd !== null), `figures for ${cik}`);
  }
  // Every kind has rows, and the filings reach back to the sample's first filing.
  for (const kind of Object.keys(rows) as RowKind[]) assert.ok(rows[kind].length > 0, kind);
  assert.ok(rows.filings.some((r) => r.filed_at < '2000-01-01'), 'filings of the 1990s are kept');
});

function outFolder(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'eqf-embedded-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test(skip ? `the sample's build command (${skip})` : 'over the sample, build with the default windows is refused and prints the windows that the README and build:snapshot use', { skip }, async (t) => {
  let err = '';
  const stderr = t.mock.method(process.stderr, 'write', (chunk: string) => { err += chunk; return true; });
  let code: number;
  try {
    code = await runBuildCommand(['--from', SEC_DATA, '--out', outFolder(t), '--workers', '0']);
  } finally {
    stderr.mock.restore();
  }
  assert.equal(code, 1, err);
  const windows = /--window-days (\d+) --filings-days (\d+)\n/.exec(err);
  assert.ok(windows, err.slice(-2000));
  const [, windowDays, filingsDays] = windows;
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(`equity-facts build --from ../shared/sec-data --out snaps --window-days ${windowDays} --filings-days ${filingsDays}\n`), 'the README gives the command build prints');
  const script = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).scripts['build:snapshot'] as string;
  assert.match(script, new RegExp(`--window-days ${windowDays} --filings-days ${filingsDays} `), 'build:snapshot uses the same windows');
});
