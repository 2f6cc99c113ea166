/**
 * Pagination through the real server (docs/api.md §9): `Link: rel="next"` reaches every row of
 * every list once, in order; cursors are tied to their list, refused when mangled, and survive a
 * snapshot reload.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, writeFixtureSnapshot, KEYS, type Harness } from '../helpers/harness.js';
import { fixtureRows } from '../fixtures/rows.js';
import { nextOf as nextLink, walkLinks } from '../helpers/link-walk.js';
import { ROUTES } from '../../src/routes.js';
import { ROW_ORDER } from '../../src/rows/order.js';
import { publishVersion } from '../../src/data/snapshot-writer.js';
import { WRITTEN_FIELD, type RowKind } from '../../src/rows/schemas.js';
import { encodeCursor } from '../../src/http/cursor.js';

const BASE_URL = 'https://api.example.test';
const LIST_ROUTES = ROUTES.filter((route) => route.target.kind === 'rows') as (typeof ROUTES[number] & { target: { kind: 'rows'; rows: RowKind } })[];

const nextOf = (link: unknown): string | undefined => nextLink(link, BASE_URL);
const walk = (h: Harness, path: string, key: string): ReturnType<typeof walkLinks> => walkLinks(h, path, key, BASE_URL, 99);

test('following Link reaches every row of every list once, in order, and the last page has no Link', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const all = fixtureRows() as unknown as Record<RowKind, Record<string, unknown>[]>;
  for (const route of LIST_ROUTES) {
    const kind = route.target.rows;
    for (const limit of [1, 2, 10]) {
      const { rows, pages } = await walk(h, `${route.path}?limit=${limit}`, KEYS.founders);
      assert.equal(rows.length, all[kind].length, `${route.path} limit ${limit}: every row`);
      assert.ok(pages.slice(0, -1).every((n) => n === limit), `${route.path}: full pages until the last`);
      for (let i = 1; i < rows.length; i++) assert.ok(ROW_ORDER[kind](rows[i - 1], rows[i]) <= 0, `${route.path} row ${i} in order`);
      assert.equal(new Set(rows.map((row) => JSON.stringify(row))).size, rows.length, 'no row twice');
    }
  }
  // One ticker's list: AAPL's 25 filings, in pages of the free plan's 10, without written fields.
  const { rows, pages } = await walk(h, '/api/v1/finance/filings?ticker=aapl&limit=500', KEYS.free);
  assert.deepEqual(pages, [10, 10, 5]);
  assert.equal(new Set(rows.map((row) => row.accession_no)).size, 25);
  assert.ok(rows.every((row) => row.ticker === 'AAPL' && !(WRITTEN_FIELD.filings in row)));
});

test('Link repeats the request\'s parameters as sent, replacing only the cursor', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const first = await h.get('/api/v1/finance/filings?ticker=aapl&limit=3', withKey(KEYS.signal));
  const second = nextOf(first.headers.link)!;
  assert.match(second, /^\/api\/v1\/finance\/filings\?ticker=aapl&limit=3&cursor=[A-Za-z0-9_-]+$/);
  const cursor = /cursor=([A-Za-z0-9_-]+)$/.exec(second)![1]!;
  const reply = await h.get(`/api/v1/finance/filings?cursor=${cursor}&limit=3&ticker=AAPL`, withKey(KEYS.signal));
  assert.equal(reply.status, 200, 'parameters in any order, ticker in any case: the same list');
  const third = nextOf(reply.headers.link)!;
  assert.match(third, /^\/api\/v1\/finance\/filings\?limit=3&ticker=AAPL&cursor=[A-Za-z0-9_-]+$/, 'the old cursor is dropped, the new one appended');
  const overview = await h.get('/api/v1/finance/insiders?limit=1', withKey(KEYS.signal));
  assert.match(nextOf(overview.headers.link)!, /^\/api\/v1\/finance\/insiders\?limit=1&cursor=/);
  const none = await h.get('/api/v1/finance/insiders', withKey(KEYS.signal));
  assert.equal(none.headers.link, undefined, 'a page that ends its list has no Link');
});

test('a cursor made for another list, or mangled, is a 400 naming cursor, and takes a token', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const first = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=2', withKey(KEYS.insider));
  const cursor = /cursor=([A-Za-z0-9_-]+)/.exec(String(first.headers.link))![1]!;
  const cases = [
    `/api/v1/finance/filings?ticker=BRK-B&cursor=${cursor}`, // another filter
    `/api/v1/finance/filings?cursor=${cursor}`, // the overview
    `/api/v1/finance/earnings?ticker=AAPL&cursor=${cursor}`, // another endpoint
    `/api/v1/finance/filings?ticker=AAPL&cursor=${cursor.slice(0, -2)}`, // cut short
    `/api/v1/finance/filings?ticker=AAPL&cursor=${cursor.slice(0, 10)}A${cursor.slice(11)}`, // one character changed
    '/api/v1/finance/filings?ticker=AAPL&cursor=not*base64',
    `/api/v1/finance/filings?ticker=AAPL&cursor=${'A'.repeat(513)}`,
    '/api/v1/finance/filings?ticker=AAPL&cursor=',
    `/api/v1/finance/filings?ticker=AAPL&cursor=${cursor}&cursor=${cursor}`,
  ];
  const changed = cursor[10] === 'A' ? 'B' : 'A';
  cases[4] = `/api/v1/finance/filings?ticker=AAPL&cursor=${cursor.slice(0, 10)}${changed}${cursor.slice(11)}`;
  let remaining = Number(first.headers['x-ratelimit-remaining-minute']);
  for (const path of cases) {
    const reply = await h.get(path, withKey(KEYS.insider));
    assert.equal(reply.status, 400, path);
    assert.equal(reply.json.error, 'invalid_parameter');
    assert.match(reply.json.detail, /cursor/, path);
    assert.equal(Number(reply.headers['x-ratelimit-remaining-minute']), --remaining, 'a 400 has consumed its token');
  }
});

test('a cursor survives a reload: the next page continues after the last row sent, in the new snapshot', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const first = await h.get('/api/v1/finance/filings?ticker=AAPL&limit=5', withKey(KEYS.founders));
  const sent = first.json.data.map((row: any) => row.filed_at);
  assert.deepEqual(sent, ['2025-04-25', '2025-04-24', '2025-04-23', '2025-04-22', '2025-04-21']);
  // The new snapshot drops the last row sent (04-21) and files a new one on 04-20 beside the old 04-20.
  const rows = fixtureRows();
  rows.filings = rows.filings.filter((row) => !(row.ticker === 'AAPL' && row.filed_at === '2025-04-21'));
  const extra = { ...rows.filings.find((row) => row.filed_at === '2025-04-20')!, accession_no: '0000320193-25-999999', accepted_at: '2025-04-20T23:00:00.000Z' };
  rows.filings.push(extra);
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', rows, false);
  await publishVersion(h.snapshotsDir, 'v2');
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  const next = await h.get(nextOf(first.headers.link)!, withKey(KEYS.founders));
  assert.equal(next.status, 200, next.text);
  assert.equal(next.headers['x-snapshot-version'], 'v2');
  assert.deepEqual(next.json.data.map((row: any) => [row.filed_at, row.accession_no]).slice(0, 2),
    [['2025-04-20', '0000320193-25-999999'], ['2025-04-20', '0000020193-25-000020']], 'after 04-21 in the order, the new row included');
});

test('rows whose order keys are equal are each sent once, and a company is found by each of its tickers', async (t) => {
  const rows = fixtureRows();
  // Three earnings rows of one company with the same filed_at, accession_no and ticker: a tie in the order.
  const tie = rows.earnings[0]!;
  rows.earnings.push({ ...tie, fiscal_period: 'Q2' }, { ...tie, fiscal_period: 'Q3' });
  // Alphabet-like rows listed under two tickers, and a filing of another company between them.
  rows.filings.push(
    { ...rows.filings[0]!, ticker: 'GOOGL', tickers: ['GOOGL', 'GOOG'], cik: '0001652044', accession_no: '0001652044-25-000001', filed_at: '2025-03-01' } as any,
    { ...rows.filings[0]!, ticker: 'GOOGL', tickers: ['GOOGL', 'GOOG'], cik: '0001652044', accession_no: '0001652044-25-000002', filed_at: '2025-03-03' } as any,
  );
  const h = await startHarness(t, { baseUrl: BASE_URL });
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', rows);
  await h.server.handler.reload();
  const { rows: earnings } = await walk(h, '/api/v1/finance/earnings?ticker=AAPL&limit=1', KEYS.founders);
  assert.equal(earnings.length, 4);
  assert.deepEqual(earnings.map((row) => row.fiscal_period).sort(), ['Q1', 'Q1', 'Q2', 'Q3']);
  for (const ticker of ['GOOG', 'googl']) {
    const { rows: filings } = await walk(h, `/api/v1/finance/filings?ticker=${ticker}&limit=1`, KEYS.founders);
    assert.deepEqual(filings.map((row) => row.accession_no), ['0001652044-25-000002', '0001652044-25-000001'], ticker);
  }
});

/** The cursor of a reply's `Link`. */
function cursorOf(reply: { headers: Record<string, unknown> }): string {
  return /cursor=([A-Za-z0-9_-]+)>/.exec(String(reply.headers.link))![1]!;
}

/** Accession numbers of a reply's rows. */
const accessions = (reply: { json: any }): string[] => reply.json.data.map((row: any) => row.accession_no);

test('cursors asked for in turn, again and again, each give their own page (the last cursor and its position are kept)', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const { rows } = await walk(h, '/api/v1/finance/filings?limit=500', KEYS.founders);
  const all = rows.map((row) => row.accession_no);
  const first = await h.get('/api/v1/finance/filings?limit=3', withKey(KEYS.founders));
  const a = cursorOf(first);
  const b = cursorOf(await h.get(`/api/v1/finance/filings?limit=3&cursor=${a}`, withKey(KEYS.founders)));
  const aapl = cursorOf(await h.get('/api/v1/finance/filings?ticker=AAPL&limit=4', withKey(KEYS.founders)));
  const { rows: aaplRows } = await walk(h, '/api/v1/finance/filings?ticker=AAPL&limit=500', KEYS.founders);
  for (let round = 0; round < 3; round++) {
    for (const [cursor, expected] of [[a, all.slice(3, 6)], [a, all.slice(3, 6)], [b, all.slice(6, 9)], [b, all.slice(6, 9)], [a, all.slice(3, 6)]] as const) {
      const reply = await h.get(`/api/v1/finance/filings?limit=3&cursor=${cursor}`, withKey(KEYS.founders));
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(accessions(reply), expected, `round ${round}`);
    }
    // Another list's cursor in between, and the same overview cursor with another limit.
    const ticker = await h.get(`/api/v1/finance/filings?ticker=AAPL&limit=2&cursor=${aapl}`, withKey(KEYS.founders));
    assert.deepEqual(accessions(ticker), aaplRows.slice(4, 6).map((row) => row.accession_no));
    assert.deepEqual(accessions(await h.get(`/api/v1/finance/filings?limit=5&cursor=${b}`, withKey(KEYS.founders))), all.slice(6, 11));
  }
});

test('a refused cursor between two requests with the same cursor changes nothing: each is answered as if alone', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const { rows } = await walk(h, '/api/v1/finance/filings?limit=500', KEYS.founders);
  const all = rows.map((row) => row.accession_no);
  const cursor = cursorOf(await h.get('/api/v1/finance/filings?limit=2', withKey(KEYS.founders)));
  const other = cursorOf(await h.get(`/api/v1/finance/filings?limit=7&cursor=${cursor}`, withKey(KEYS.founders)));
  const changed = cursor[10] === 'A' ? 'B' : 'A';
  const refusals = [
    `${cursor.slice(0, 10)}${changed}${cursor.slice(11)}`, // decoded into the same buffer, refused by its CRC-32
    `${other.slice(0, -1)}${other.endsWith('A') ? 'B' : 'A'}`, // another cursor, damaged at its end
    'not*base64',
    cursor.slice(0, -2), // cut short
  ];
  for (const refused of refusals) {
    const before = await h.get(`/api/v1/finance/filings?limit=2&cursor=${cursor}`, withKey(KEYS.founders));
    assert.deepEqual(accessions(before), all.slice(2, 4));
    const reply = await h.get(`/api/v1/finance/filings?limit=2&cursor=${refused}`, withKey(KEYS.founders));
    assert.equal(reply.status, 400, refused);
    assert.match(reply.json.detail, /cursor/);
    const after = await h.get(`/api/v1/finance/filings?limit=2&cursor=${cursor}`, withKey(KEYS.founders));
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(accessions(after), all.slice(2, 4), refused);
    // The refused token twice in a row is refused twice.
    assert.equal((await h.get(`/api/v1/finance/filings?limit=2&cursor=${refused}`, withKey(KEYS.founders))).status, 400);
    assert.equal((await h.get(`/api/v1/finance/filings?limit=2&cursor=${refused}`, withKey(KEYS.founders))).status, 400);
  }
  // A cursor that decodes but belongs to another list, between two of this list's.
  const aapl = cursorOf(await h.get('/api/v1/finance/filings?ticker=AAPL&limit=2', withKey(KEYS.founders)));
  assert.deepEqual(accessions(await h.get(`/api/v1/finance/filings?limit=2&cursor=${cursor}`, withKey(KEYS.founders))), all.slice(2, 4));
  assert.equal((await h.get(`/api/v1/finance/filings?limit=2&cursor=${aapl}`, withKey(KEYS.founders))).status, 400);
  assert.deepEqual(accessions(await h.get(`/api/v1/finance/filings?limit=2&cursor=${cursor}`, withKey(KEYS.founders))), all.slice(2, 4));
  assert.equal((await h.get(`/api/v1/finance/filings?limit=2&cursor=${aapl}`, withKey(KEYS.founders))).status, 400);
});

test('the same cursor asked for before and after a reload is found again in the new snapshot', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const first = await h.get('/api/v1/finance/filings?limit=3', withKey(KEYS.founders));
  const cursor = cursorOf(first);
  const lastSent = accessions(first)[2]!;
  const before = await h.get(`/api/v1/finance/filings?limit=3&cursor=${cursor}`, withKey(KEYS.founders));
  assert.equal(before.headers['x-snapshot-version'], 'v1');
  // v2 adds a filing before every other one in the overview: each position moves by one.
  const rows = fixtureRows();
  const newest = rows.filings.reduce((a, b) => (a.filed_at >= b.filed_at ? a : b));
  rows.filings.push({ ...newest, accession_no: '0000320193-25-999998', accepted_at: '2025-05-03T23:00:00.000Z' });
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', rows, false);
  await publishVersion(h.snapshotsDir, 'v2');
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  // Asked for right after the reload, with no other cursor decoded in between.
  const after = await h.get(`/api/v1/finance/filings?limit=3&cursor=${cursor}`, withKey(KEYS.founders));
  assert.equal(after.headers['x-snapshot-version'], 'v2');
  const { rows: v2 } = await walk(h, '/api/v1/finance/filings?limit=500', KEYS.founders);
  const all = v2.map((row) => row.accession_no);
  assert.equal(all[0], '0000320193-25-999998');
  const at = all.indexOf(lastSent);
  assert.deepEqual(accessions(after), all.slice(at + 1, at + 4), 'the page after the last row sent, in v2');
  assert.deepEqual(accessions(after), accessions(before), 'the same rows as before the reload');
});

test('a cursor kept for one unknown ticker is still refused for another (their lists are one shared empty list)', async (t) => {
  const h = await startHarness(t, { baseUrl: BASE_URL });
  const zzzz = encodeCursor('filings', 'ZZZZ', Buffer.from([1, 2, 3]), 1, 0);
  for (let round = 0; round < 2; round++) {
    const own = await h.get(`/api/v1/finance/filings?ticker=ZZZZ&cursor=${zzzz}`, withKey(KEYS.founders));
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.count, 0);
    const other = await h.get(`/api/v1/finance/filings?ticker=YYYY&cursor=${zzzz}`, withKey(KEYS.founders));
    assert.equal(other.status, 400, other.text);
    assert.match(other.json.detail, /another list/);
    // Percent-encoded, the same token takes the general path and is refused the same way.
    const encoded = await h.get(`/api/v1/finance/filings?ticker=YYYY&cursor=%${zzzz.charCodeAt(0).toString(16)}${zzzz.slice(1)}`, withKey(KEYS.founders));
    assert.equal(encoded.status, 400, encoded.text);
  }
});
