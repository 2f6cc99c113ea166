/**
 * Each endpoint on each plan: envelope, clamping, written fields, filters and order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';
import { PLANS } from '../../src/plans.js';
import { ROUTES } from '../../src/routes.js';
import { ROW_ORDER } from '../../src/rows/order.js';
import { WRITTEN_FIELD, type RowKind } from '../../src/rows/schemas.js';

const LIST_ROUTES = ROUTES.filter((route) => route.target.kind === 'rows') as (typeof ROUTES[number] & { target: { kind: 'rows'; rows: RowKind } })[];

test('every list endpoint on every plan: envelope, count, clamping and written fields', async (t) => {
  const h = await startHarness(t);
  for (const plan of PLANS) {
    const key = KEYS[plan.id];
    for (const route of LIST_ROUTES) {
      const reply = await h.get(`${route.path}?limit=500`, withKey(key));
      assert.equal(reply.status, 200, `${plan.id} ${route.path}`);
      const body = reply.json;
      assert.equal(body.ok, true);
      assert.equal(body.api_version, 'v1');
      assert.equal(body.as_of, '2026-11-21T12:00:00.000Z');
      assert.match(body.license, /not investment advice/);
      assert.match(body.attribution, /equity-facts/);
      assert.equal(body.count, body.data.length);
      assert.ok(body.count <= plan.maxPageSize, `${plan.id} ${route.path} clamped`);
      const field = WRITTEN_FIELD[route.target.rows];
      for (const row of body.data) {
        if (!plan.summaries) assert.ok(!(field in row), `${field} absent on ${plan.id}`);
        if (field in row) assert.equal(typeof row[field], 'string', 'never null');
      }
      if (plan.summaries) assert.ok(body.data.some((row: Record<string, unknown>) => field in row), `${field} present on ${plan.id} ${route.path}`);
    }
  }
});

test('the free plan gets the same rows as a paid plan, without the written fields', async (t) => {
  const h = await startHarness(t);
  const paid = (await h.get('/api/v1/finance/insiders?ticker=TSLA', withKey(KEYS.signal))).json.data;
  const free = (await h.get('/api/v1/finance/insiders?ticker=TSLA', withKey(KEYS.free))).json.data;
  assert.equal(paid.length, 1);
  assert.equal(typeof paid[0].summary, 'string');
  const { summary: _summary, ...facts } = paid[0];
  assert.deepEqual(free, [facts]);
});

test('rows with no written field have none on paid plans either (absent, not null)', async (t) => {
  const h = await startHarness(t);
  const [row] = (await h.get('/api/v1/finance/insiders?ticker=NTRA', withKey(KEYS.founders))).json.data;
  assert.equal(row.ticker, 'NTRA');
  assert.ok(!('summary' in row));
});

test('rows come in each kind\'s documented order, overview and per ticker', async (t) => {
  const h = await startHarness(t);
  for (const route of LIST_ROUTES) {
    const { data } = (await h.get(`${route.path}?limit=200`, withKey(KEYS.founders))).json;
    assert.ok(data.length >= 2, route.path);
    for (let i = 1; i < data.length; i++) assert.ok(ROW_ORDER[route.target.rows](data[i - 1], data[i]) <= 0, `${route.path} row ${i}`);
  }
  const insiders = (await h.get('/api/v1/finance/insiders', withKey(KEYS.founders))).json.data.map((row: any) => row.ticker);
  assert.deepEqual(insiders, ['TSLA', 'AAPL', 'NTRA'], '|net_usd| descending');
  const filings = (await h.get('/api/v1/finance/filings?ticker=AAPL&limit=3', withKey(KEYS.founders))).json.data.map((row: any) => row.filed_at);
  assert.deepEqual(filings, ['2025-04-25', '2025-04-24', '2025-04-23']);
  const reports = (await h.get('/api/v1/finance/reports', withKey(KEYS.founders))).json.data.map((row: any) => row.ticker);
  assert.deepEqual(reports, ['AAPL', 'TSLA', 'ZZZZ'], 'latest filing first, none last');
});

test('ticker restricts rows to that ticker; whales filter by cik', async (t) => {
  const h = await startHarness(t);
  const earnings = (await h.get('/api/v1/finance/earnings?ticker=aapl', withKey(KEYS.signal))).json;
  assert.equal(earnings.count, 2);
  assert.ok(earnings.data.every((row: any) => row.ticker === 'AAPL'));
  const whales = (await h.get('/api/v1/finance/whales?cik=1061165', withKey(KEYS.signal))).json;
  assert.deepEqual(whales.data.map((row: any) => row.filer), ['FILER 0001061165']);
});

test('meta reports plan, limits, usage and snapshot, and takes no token', async (t) => {
  const h = await startHarness(t);
  await h.get('/api/v1/finance/insiders', withKey(KEYS.insider));
  const first = await h.get('/api/v1/meta', withKey(KEYS.insider));
  const second = await h.get('/api/v1/meta', withKey(KEYS.insider));
  assert.equal(first.status, 200);
  assert.equal(first.json.count, 1);
  const [meta] = second.json.data;
  assert.deepEqual(meta, {
    type: 'meta', key_id: 'k_insider', account: 'acct-k_insider', plan: 'insider', plan_label: 'Insider', summaries: true,
    max_page_size: 100, limits: { per_minute: 180, per_day: 50000 },
    usage: { minute: { limit: 180, remaining: 179, used: 1, reset_seconds: 1 }, day: { limit: 50000, remaining: 49999, used: 1, reset_seconds: 2 } },
    snapshot: { version: 'v1', created_at: meta.snapshot.created_at, data_through: '2025-05-03' },
  });
  assert.equal(second.headers['x-ratelimit-remaining-minute'], '179');
  assert.ok(!JSON.stringify(meta).includes(KEYS.insider), 'meta never shows the key');
});

test('the OpenAPI document needs no key and is served as JSON', async (t) => {
  const h = await startHarness(t);
  const reply = await h.get('/api/v1/openapi.json');
  assert.equal(reply.status, 200);
  assert.equal(reply.json.openapi, '3.1.0');
  assert.equal(reply.headers['x-ratelimit-limit-minute'], undefined);
});

test('/healthz and /readyz answer without a key', async (t) => {
  const h = await startHarness(t);
  assert.equal((await h.get('/healthz')).status, 200);
  const ready = await h.get('/readyz');
  assert.equal(ready.status, 200);
  assert.equal(ready.json.snapshot_version, 'v1');
});
