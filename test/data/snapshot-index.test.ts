/**
 * The index serves each row as stored and derives the free-plan variant from it: by cutting the
 * written field when it is the last member, else by re-serialising. Either way the facts variant
 * must be exactly the row without its written field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { pageBytes, type RowList, type Variant } from '../../src/data/page.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { SNAPSHOT_FORMAT } from '../../src/data/snapshot-format.js';
import { sortRows, writeSnapshot } from '../../src/data/snapshot-writer.js';
import { fixtureRows } from '../fixtures/rows.js';

/** Writes a snapshot whose filings file holds exactly `lines` (other kinds empty). */
async function rawSnapshot(t: TestContext, lines: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'eqf-index-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'v1'));
  const files: Record<string, { sha256: string; rows: number }> = {};
  for (const kind of ROW_KINDS) {
    const text = kind === 'filings' ? lines.map((line) => `${line}\n`).join('') : '';
    await writeFile(join(root, 'v1', `${kind}.ndjson`), text);
    files[`${kind}.ndjson`] = { sha256: createHash('sha256').update(text).digest('hex'), rows: kind === 'filings' ? lines.length : 0 };
  }
  await writeFile(join(root, 'v1', 'manifest.json'), JSON.stringify({
    format: SNAPSHOT_FORMAT, version: 'v1', created_at: '2026-11-21T00:00:00Z', data_through: null, build: {}, files,
  }));
  await writeFile(join(root, 'CURRENT'), 'v1\n');
  return root;
}

/** The first `n` rows of a list (all when it has fewer), as the request path gives them. */
function pageSlice(list: RowList, variant: Variant, n: number): { bytes: Buffer; count: number } {
  const count = Math.min(n, list.length);
  return { bytes: pageBytes(list, variant, 0, count), count };
}

const base = fixtureRows().filings.sort((a, b) => b.filed_at.localeCompare(a.filed_at))[0]!;

test('a row whose summary is not its last member, or is written with other escapes, still loses exactly its summary', async (t) => {
  const { summary, ...facts } = { ...base, summary: 'Filed "4" on 2025-04-25, café.' };
  const summaryFirst = JSON.stringify({ summary, ...facts });
  const escaped = JSON.stringify({ ...facts, summary }).replace('café', 'caf\\u00e9');
  const trickyCompany = { ...facts, company: 'Acme ,"summary":" Co', summary };
  for (const line of [summaryFirst, escaped, JSON.stringify(trickyCompany)]) {
    const root = await rawSnapshot(t, [line]);
    const snapshot = await loadSnapshot(root);
    const page = snapshot.list('filings', null);
    const full = JSON.parse(`[${pageSlice(page, 'full', 1).bytes.toString()}]`)[0];
    const free = JSON.parse(`[${pageSlice(page, 'facts', 1).bytes.toString()}]`)[0];
    assert.deepEqual(full, JSON.parse(line), 'the full variant is the stored row');
    const { summary: _dropped, ...expected } = JSON.parse(line);
    assert.deepEqual(free, expected, `facts variant of ${line.slice(0, 60)}…`);
  }
});

test('the canonical layout is cut from the stored bytes, and a row without summary is the same in both variants', async (t) => {
  const { summary: _s, ...bare } = base;
  const withSummary = { ...base, accession_no: '0000320193-25-999999', summary: 'Ünïcode summary ✓' };
  const root = await rawSnapshot(t, [JSON.stringify(withSummary), JSON.stringify(bare)]);
  const page = (await loadSnapshot(root)).list('filings', null);
  const free = pageSlice(page, 'facts', 2).bytes.toString();
  const full = pageSlice(page, 'full', 2).bytes.toString();
  assert.equal(full, `${JSON.stringify(withSummary)},${JSON.stringify(bare)}`);
  const { summary: _t, ...withoutSummary } = withSummary;
  assert.equal(free, `${JSON.stringify(withoutSummary)},${JSON.stringify(bare)}`);
});

test('page slices of different sizes in turn each hold exactly their rows (the last slice is reused only for its own size)', async (t) => {
  const rows = [3, 2, 1].map((i) => ({ ...base, accession_no: `0000320193-25-00000${i}` })); // accession_no descending, the kind's order
  const root = await rawSnapshot(t, rows.map((row) => JSON.stringify(row)));
  const page = (await loadSnapshot(root)).list('filings', null);
  const expected = (n: number): string => rows.slice(0, n).map((row) => JSON.stringify(row)).join(',');
  for (const n of [2, 1, 1, 3, 2, 5, 0, 2]) {
    const slice = pageSlice(page, 'full', n);
    assert.equal(slice.count, Math.min(n, 3));
    assert.equal(slice.bytes.toString(), expected(n), `limit ${n}`);
  }
});

test('a ticker listed by rows of two companies gets one list of both, in order, which pages and cursors walk whole', async (t) => {
  // Filings order: filed_at descending. X is the only ticker of one company and the second ticker of another.
  const row = (i: number, tickers: string[]) => JSON.stringify({
    ...base, ticker: tickers[0], tickers, accession_no: `0000320193-25-00000${i}`, filed_at: `2025-04-0${9 - i}`, accepted_at: null,
  });
  const root = await rawSnapshot(t, [row(1, ['X']), row(2, ['Y', 'X']), row(3, ['X']), row(4, ['Y', 'X']), row(5, ['Z'])]);
  const snapshot = await loadSnapshot(root);
  const x = snapshot.list('filings', 'X');
  assert.equal(x.length, 4);
  assert.equal(x.contiguous, false, 'rows of two groups are apart in the layout');
  const accessions = (list: RowList, from: number, n: number) =>
    JSON.parse(`[${pageBytes(list, 'full', from, n).toString()}]`).map((r: { accession_no: string }) => r.accession_no.slice(-1));
  assert.deepEqual(accessions(x, 0, 4), ['1', '2', '3', '4']);
  assert.deepEqual(accessions(x, 1, 2), ['2', '3']);
  assert.deepEqual(accessions(snapshot.list('filings', 'Y'), 0, 2), ['2', '4']);
  assert.equal(snapshot.list('filings', 'Y').contiguous, true, 'one group is one slice');
  assert.deepEqual(accessions(snapshot.list('filings', null), 0, 5), ['1', '2', '3', '4', '5'], 'the overview keeps file order');
  assert.equal(snapshot.list('filings', 'NONE').length, 0);
});

test('a row is listed under every ticker of its tickers array, and under ticker when it has none', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'eqf-index-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const [aapl, tsla] = fixtureRows().reports;
  const alphabet = { ...aapl!, ticker: 'GOOGL', tickers: ['GOOGL', 'GOOG'], cik: '0001652044', company: 'Alphabet Inc.' };
  const rows = { reports: sortRows('reports', [alphabet, tsla!]) };
  await writeSnapshot({ root, version: 'v1', dataThrough: '2025-05-03', build: {}, rows: { ...Object.fromEntries(ROW_KINDS.map((k) => [k, []])), ...rows } as never });
  const snapshot = await loadSnapshot(root);
  const companies = (key: string) => JSON.parse(`[${pageBytes(snapshot.list('reports', key), 'full', 0, snapshot.list('reports', key).length).toString()}]`).map((r: { company: string }) => r.company);
  assert.deepEqual(companies('GOOG'), ['Alphabet Inc.'], 'the second class finds the company');
  assert.deepEqual(companies('GOOGL'), ['Alphabet Inc.']);
  assert.deepEqual(companies('TSLA'), [tsla!.company], 'a row without tickers is found by ticker');
});
