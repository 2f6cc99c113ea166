/**
 * The insider-transactions endpoint through the real server on port 0, serving a snapshot built
 * from the real EDGAR test set (docs/api.md §16): the envelope, written fields by plan, every row
 * reachable through `Link` in the documented order (page boundaries inside lines whose order keys
 * tie included), and the 400, 401, 404 and 405 answers of every list endpoint; and a version built
 * before the kind existed, served with the kind empty (docs/api.md §7).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KEYS, startHarness, withKey, writeFixtureSnapshot, type Harness } from '../helpers/harness.js';
import { publishVersion } from '../../src/data/snapshot-writer.js';
import { walkLinks } from '../helpers/link-walk.js';
import { realBuild, secDataSkip as skip } from '../helpers/real-build.js';
import { ORDER_KEY_PARTS } from '../../src/data/order-key.js';

const PATH = '/api/v1/finance/insider-transactions';
const BASE_URL = 'https://api.example.test';
/** The embedded snapshot's options (package.json `build:snapshot`). */
const EMBEDDED = Object.freeze({ asOf: '2026-09-04', windowDays: 5909, filingsDays: 11103 });

async function serveRealBuild(t: Parameters<typeof startHarness>[0]): Promise<{ h: Harness; rows: Record<string, unknown>[] }> {
  const built = await realBuild(EMBEDDED);
  const h = await startHarness(t, { snapshotsDir: built.root, baseUrl: BASE_URL });
  return { h, rows: built.rows['insider-transactions'] as unknown as Record<string, unknown>[] };
}

const walk = (h: Harness, path: string, key: string): ReturnType<typeof walkLinks> => walkLinks(h, path, key, BASE_URL);

/** The fields of the order key, as text: rows whose texts are equal tie, and keep their file order. */
const orderKey = (row: Record<string, unknown>): string => ORDER_KEY_PARTS['insider-transactions'].map((p) => String(row[p.field])).join('|');

test(skip ? `insider-transactions endpoint (${skip})` : 'the endpoint answers with the envelope; the free plan gets the same rows without summary', { skip }, async (t) => {
  const { h, rows } = await serveRealBuild(t);
  const paid = await h.get(`${PATH}?limit=5`, withKey(KEYS.signal));
  assert.equal(paid.status, 200);
  assert.deepEqual([paid.json.ok, paid.json.api_version, paid.json.count], [true, 'v1', 5]);
  assert.match(paid.json.license, /not investment advice/);
  assert.equal(paid.headers['x-snapshot-version'], 'real');
  assert.deepEqual(paid.json.data, rows.slice(0, 5), 'the first rows of the snapshot, as built');
  assert.ok(paid.json.data.every((row: Record<string, unknown>) => typeof row.summary === 'string' && row.type === 'insider_transaction'));
  const free = await h.get(`${PATH}?limit=50`, withKey(KEYS.free));
  assert.equal(free.json.count, 10, 'clamped to the free plan\'s page');
  assert.deepEqual(free.json.data, rows.slice(0, 10).map(({ summary: _summary, ...facts }) => facts), 'no summary key on the free plan');
  const head = await h.get(`${PATH}?limit=5`, withKey(KEYS.signal), 'HEAD');
  assert.deepEqual([head.status, head.text, head.headers.etag], [200, '', paid.headers.etag]);
  const again = await h.get(`${PATH}?limit=5`, { ...withKey(KEYS.signal), 'if-none-match': String(paid.headers.etag) });
  assert.equal(again.status, 304);
});

test(skip ? `insider-transactions pagination (${skip})` : 'Link walks every row once in order, overview and per ticker, across pages that split lines whose order keys tie', { skip }, async (t) => {
  const { h, rows } = await serveRealBuild(t);
  const all = await walk(h, `${PATH}?limit=200`, KEYS.founders);
  assert.equal(all.rows.length, rows.length);
  assert.deepEqual(all.rows, rows, 'every row once, in the snapshot\'s order');
  // Tesla's lines: many forms list dozens of sales on one date, which tie on the order key.
  const tsla = rows.filter((row) => (row.tickers as string[]).includes('TSLA'));
  const tslaWalk = await walk(h, `${PATH}?ticker=tsla&limit=200`, KEYS.founders);
  assert.deepEqual(tslaWalk.rows, tsla);
  let at = 0;
  const splitTies = tslaWalk.pages.slice(0, -1).filter((n) => {
    at += n;
    return orderKey(tsla[at - 1]!) === orderKey(tsla[at]!);
  });
  assert.ok(splitTies.length > 0, 'some page ends inside a run of tied rows');
  const none = await h.get(`${PATH}?ticker=ZZZZZZ`, withKey(KEYS.signal));
  assert.deepEqual([none.status, none.json.count, none.json.data], [200, 0, []]);
});

test(skip ? `insider-transactions errors (${skip})` : 'bad requests get the errors of every list endpoint', { skip }, async (t) => {
  const { h } = await serveRealBuild(t);
  const expect = async (path: string, status: number, error: string, headers = withKey(KEYS.signal), method = 'GET'): Promise<string> => {
    const reply = await h.get(path, headers, method);
    assert.deepEqual([reply.status, reply.json?.ok, reply.json?.error], [status, false, error], `${method} ${path}: ${reply.text}`);
    return reply.json.detail;
  };
  await expect(`${PATH}/`, 404, 'not_found');
  await expect(PATH, 401, 'invalid_api_key', {});
  await expect(PATH, 405, 'method_not_allowed', withKey(KEYS.signal), 'POST');
  assert.match(await expect(`${PATH}?form=4`, 400, 'invalid_parameter'), /form/);
  assert.match(await expect(`${PATH}?limit=0`, 400, 'invalid_parameter'), /limit/);
  assert.match(await expect(`${PATH}?ticker=A$B`, 400, 'invalid_parameter'), /ticker/);
  const insiders = await h.get('/api/v1/finance/insiders?limit=1', withKey(KEYS.signal));
  const cursor = /cursor=([A-Za-z0-9_-]+)/.exec(String(insiders.headers.link))![1]!;
  assert.match(await expect(`${PATH}?cursor=${cursor}`, 400, 'invalid_parameter'), /cursor/);
});

test('a version built before insider-transactions existed is served, the endpoint answering 200 with count 0', async (t) => {
  const h = await startHarness(t);
  // v2 as an older build wrote it: no insider-transactions.ndjson, and no manifest entry for it.
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', undefined, false);
  await rm(join(h.snapshotsDir, 'v2', 'insider-transactions.ndjson'));
  const manifestFile = join(h.snapshotsDir, 'v2', 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  delete manifest.files['insider-transactions.ndjson'];
  await writeFile(manifestFile, JSON.stringify(manifest));
  await publishVersion(h.snapshotsDir, 'v2');
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  const empty = await h.get(`${PATH}?ticker=AAPL`, withKey(KEYS.signal));
  assert.deepEqual([empty.status, empty.headers['x-snapshot-version'], empty.json.count, empty.json.data], [200, 'v2', 0, []]);
  const filings = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=50', withKey(KEYS.signal));
  assert.equal(filings.json.count, 25, 'the other kinds as before');
});
