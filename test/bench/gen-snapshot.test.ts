/**
 * The benchmark's synthetic snapshot is one the server accepts: real format, every kind, a
 * written field on every row, skewed filings per ticker, Founders keys, and the same bytes for
 * the same seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSnapshot } from '../../scripts/gen-snapshot.js';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { readSnapshot } from '../../src/data/snapshot-reader.js';
import { readKeysFile } from '../../src/keys/keys-file.js';
import { ADVICE_WORDS, ROW_KINDS, WRITTEN_FIELD } from '../../src/rows/schemas.js';

async function generated(t: { after: (fn: () => Promise<void>) => void }, seed = 1) {
  const out = await mkdtemp(join(tmpdir(), 'eqf-gen-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const result = await generateSnapshot({ out, companies: 50, filings: 2000, whales: 40, keys: 25, seed });
  return { out, result };
}

test('--companies 50 --filings 2000 gives a snapshot that loadSnapshot accepts, with every kind', async (t) => {
  const { result } = await generated(t);
  const snapshot = await loadSnapshot(result.snapshotsDir);
  assert.equal(snapshot.rowCounts.filings, 2000);
  assert.equal(snapshot.rowCounts.reports, 50);
  for (const kind of ROW_KINDS) assert.ok(snapshot.rowCounts[kind] > 0, `${kind} has rows`);
  assert.ok(snapshot.list('filings', null).length > 0);
});

test('every row has its written field, free of advice words', async (t) => {
  const { result } = await generated(t);
  let rows = 0;
  await readSnapshot(join(result.snapshotsDir, result.version), result.version, (kind, row) => {
    rows++;
    const written = row[WRITTEN_FIELD[kind]];
    assert.equal(typeof written, 'string', `${kind} row has ${WRITTEN_FIELD[kind]}`);
    // Whole words from their start (docs/api.md §6): "rating" and "ratings", not the end of "operating".
    for (const word of ADVICE_WORDS) assert.ok(!new RegExp(`\\b${word.replace(/ /g, '\\s+')}`, 'i').test(written as string), `"${word}" in ${written as string}`);
  });
  assert.ok(rows > 2000);
});

test('filings per ticker are skewed: the busiest ticker files far more than the median one', async (t) => {
  const { result, out } = await generated(t);
  assert.ok(result.filingsPerTicker.max >= 10 * result.filingsPerTicker.median, JSON.stringify(result.filingsPerTicker));
  const lines = (await readFile(join(out, 'tickers.txt'), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 50);
  const snapshot = await loadSnapshot(result.snapshotsDir);
  const [busiest, count] = lines[0]!.split(' ');
  assert.equal(snapshot.list('filings', busiest!).length, Number(count), 'the whole list is kept, not only its first page');
});

test('the keys file holds Founders keys whose hashes match the plaintext side file', async (t) => {
  const { result } = await generated(t);
  const table = await readKeysFile(result.keysFile!);
  const plain = (await readFile(result.keysText!, 'utf8')).trim().split('\n');
  assert.equal(table.records.length, 25);
  assert.equal(plain.length, 25);
  for (const key of plain) assert.equal(table.find(key)?.plan, 'founders');
});

test('the same seed gives the same bytes; another seed gives others', async (t) => {
  const a = await generated(t, 7);
  const b = await generated(t, 7);
  const c = await generated(t, 8);
  const manifest = async (r: typeof a) => JSON.parse(await readFile(join(r.result.snapshotsDir, r.result.version, 'manifest.json'), 'utf8'));
  assert.deepEqual((await manifest(a)).files, (await manifest(b)).files);
  assert.notDeepEqual((await manifest(a)).files, (await manifest(c)).files);
});

test('a revision keeps the companies and changes the filings', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'eqf-gen-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const base = await generateSnapshot({ out: join(out, 'r0'), companies: 30, filings: 500, whales: 5, keys: 0 });
  const next = await generateSnapshot({ out: join(out, 'r1'), companies: 30, filings: 500, whales: 5, keys: 0, revision: 1 });
  assert.equal(next.version, 'syn-f500-s1-r1');
  const tickers = async (dir: string) => (await readFile(join(out, dir, 'tickers.txt'), 'utf8')).split('\n').map((l) => l.split(' ')[0]).sort();
  assert.deepEqual(await tickers('r0'), await tickers('r1'));
  const filings = (r: typeof base) => readFile(join(r.snapshotsDir, r.version, 'filings.ndjson'), 'utf8');
  assert.notEqual(await filings(base), await filings(next));
});

test('--holders N gives N holder rows in the kind\'s order, each filer holding a position once, spread over many CUSIPs', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'eqf-gen-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const result = await generateSnapshot({ out, companies: 60, filings: 500, whales: 200, keys: 0, holders: 5000 });
  assert.equal(result.rows.holders, 5000);
  const snapshot = await loadSnapshot(result.snapshotsDir);
  assert.equal(snapshot.rowCounts.holders, 5000);
  const positions = new Set<string>();
  const cusips = new Set<string>();
  let previous = Infinity;
  await readSnapshot(join(result.snapshotsDir, result.version), result.version, (kind, row) => {
    if (kind !== 'holders') return;
    const value = row.value_usd as number;
    assert.ok(value < previous, 'value_usd strictly descending');
    previous = value;
    const position = `${String(row.filer_cik)} ${String(row.cusip)} ${String(row.put_call)}`;
    assert.ok(!positions.has(position), `${position} twice`);
    positions.add(position);
    cusips.add(row.cusip as string);
  });
  assert.equal(positions.size, 5000);
  assert.ok(cusips.size >= 40, `${cusips.size} CUSIPs`);
});
