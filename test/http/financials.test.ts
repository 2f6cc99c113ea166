/**
 * The financials endpoint through the real server (docs/api.md §16): envelope, order, the
 * written field by plan, the ticker list, and pages that split a company's FY and Q4 rows,
 * which end the same day and so share their place in the order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';

const PATH = '/api/v1/finance/financials';

test('financials answers in the envelope, latest period first, companies without a ticker after those with one on the same day', async (t) => {
  const h = await startHarness(t);
  const reply = await h.get(PATH, withKey(KEYS.founders));
  assert.equal(reply.status, 200);
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = reply.json;
  assert.deepEqual([body.ok, body.api_version, body.count], [true, 'v1', 7]);
  assert.deepEqual(body.data.map((r: any) => `${r.period_end} ${r.ticker ?? '-'} ${r.fiscal_period}`), [
    '2025-03-31 TSLA Q1', '2025-03-31 - Q1', '2025-03-29 AAPL Q2', '2024-12-31 TSLA FY', '2024-12-28 AAPL Q1', '2024-09-28 AAPL FY', '2024-09-28 AAPL Q4',
  ]);
  const row = body.data.find((r: any) => r.ticker === 'AAPL' && r.fiscal_period === 'FY');
  assert.deepEqual(Object.keys(row), ['type', 'ticker', 'tickers', 'cik', 'company', 'fiscal_year', 'fiscal_period', 'period_start', 'period_end',
    'form', 'accession_no', 'filed_at', 'values', 'concepts', 'summary']);
  assert.equal(typeof row.summary, 'string');
});

test('on the free plan financials rows are the same facts without summary', async (t) => {
  const h = await startHarness(t);
  const paid = (await h.get(`${PATH}?ticker=aapl`, withKey(KEYS.signal))).json.data;
  const free = (await h.get(`${PATH}?ticker=aapl`, withKey(KEYS.free))).json.data;
  assert.equal(paid.length, 4);
  assert.ok(paid.every((r: any) => typeof r.summary === 'string' && r.ticker === 'AAPL'));
  assert.deepEqual(free, paid.map(({ summary: _summary, ...facts }: any) => facts));
  assert.equal((await h.get(`${PATH}?ticker=ZZZZ`, withKey(KEYS.free))).json.count, 0, 'a ticker without rows is an empty list');
  assert.deepEqual((await h.get(`${PATH}?cik=320193`, withKey(KEYS.free))).json.data, free, 'cik selects the company (docs/api.md §15)');
});

test('pages of financials split a company\'s FY and Q4 rows of the same day without losing or repeating one', async (t) => {
  const h = await startHarness(t, { baseUrl: 'https://api.example.test' });
  for (const [path, expected] of [[`${PATH}?limit=3`, 7], [`${PATH}?ticker=AAPL&limit=3`, 4], [`${PATH}?ticker=AAPL&limit=1`, 4]] as const) {
    const rows: any[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const reply = await h.get(next, withKey(KEYS.insider));
      assert.equal(reply.status, 200, reply.text);
      rows.push(...reply.json.data);
      const link: string | undefined = reply.headers.link as string | undefined;
      next = link === undefined ? undefined : /^<https:\/\/api\.example\.test([^>]+)>; rel="next"$/.exec(link)![1];
      assert.ok(rows.length <= expected, 'the walk ends');
    }
    assert.equal(rows.length, expected, path);
    assert.equal(new Set(rows.map((r) => r.accession_no)).size, expected, `${path}: every row once`);
    const last = rows.slice(-2).map((r) => r.fiscal_period);
    assert.deepEqual(last, ['FY', 'Q4'], `${path}: the FY and Q4 rows that end 2024-09-28, across a page break`);
  }
});
