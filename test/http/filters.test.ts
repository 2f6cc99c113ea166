/**
 * Filters through the real server (docs/api.md §15): every filter of every list endpoint selects
 * exactly the rows of the unfiltered list that match it, whole lists walked through `Link`
 * (fast-check over filter sets and page sizes); bad values are 400 naming the parameter; a
 * cursor belongs to its filter set, compared normalised; the ETag names the filter set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withKey, KEYS } from '../helpers/harness.js';
import { definedOnly, filterHarness, matches, maybe, PATH, query, someOf, walk, type Filters, type Row } from '../helpers/filter-walk.js';
import { FILTER_COMPANIES, FILTER_FORMS } from '../fixtures/filter-rows.js';
import type { RowKind } from '../../src/rows/schemas.js';

test('every filter of every list endpoint gives exactly the matching rows of the unfiltered list, in its order', async (t) => {
  const h = await filterHarness(t);
  const cases: [RowKind, Filters][] = [
    ['filings', { ticker: 'goog' }], ['filings', { tickers: 'MSFT,brk.b,NOPE' }], ['filings', { cik: '1652044' }],
    ['filings', { cik: '0001800903' }], ['filings', { form: '8-k' }], ['filings', { form: 'sc 13g,10-Q' }], ['filings', { since: '2025-01-20' }],
    ['filings', { until: '2025-01-05' }], ['filings', { since: '2025-01-10', until: '2025-01-10' }], ['filings', { item: '9.01' }],
    ['filings', { tickers: 'AAPL,GOOG', form: '8-K,4', since: '2025-01-03', until: '2025-01-25', item: '2.02' }],
    ['earnings', { tickers: 'AAPL,MSFT' }], ['earnings', { cik: '789019' }], ['earnings', { since: '2025-01-20', until: '2025-02-19' }],
    ['insiders', { tickers: 'GOOG,TSLA' }], ['insiders', { cik: '1318605' }],
    ['reports', { tickers: 'googl,ZZZZ' }], ['reports', { cik: '320193' }],
    ['whales', { cik: '1045810' }],
  ];
  const overviews = new Map<RowKind, Row[]>();
  for (const [kind, filters] of cases) {
    if (!overviews.has(kind)) overviews.set(kind, await walk(h, `${PATH(kind)}?limit=200`));
    const expected = overviews.get(kind)!.filter((row) => matches(row, filters, kind));
    const got = await walk(h, `${PATH(kind)}?${query(filters, 3)}`);
    assert.deepEqual(got, expected, `${kind}?${query(filters)}`);
    assert.ok(kind === 'whales' || expected.length < overviews.get(kind)!.length, `${kind}?${query(filters)} leaves rows out`);
  }
});

test('property: a filtered list, walked through Link, holds exactly the rows of the unfiltered list that match', async (t) => {
  const h = await filterHarness(t);
  const other = await filterHarness(t);
  const all = await walk(h, '/api/v1/finance/filings?limit=200');
  const tickerNames = ['AAPL', 'aapl', 'MSFT', 'GOOG', 'GOOGL', 'brk.b', 'BRK/A', 'NOPE'];
  const days = ['2025-01-01', '2025-01-04', '2025-01-10', '2025-01-11', '2025-01-20', '2025-01-30', '2025-04-05', '2025-12-31'];
  const filters = fc.record({
    company: maybe(fc.oneof(
      fc.constantFrom(...tickerNames).map((ticker): Filters => ({ ticker })),
      someOf(tickerNames).map((tickers): Filters => ({ tickers: tickers.join(',') })),
    )),
    cik: maybe(fc.constantFrom(...FILTER_COMPANIES.map((company) => company.cik.replace(/^0+/, '')), '0000320193', '42')),
    form: maybe(someOf([...FILTER_FORMS, '8-k', 'S-1']).map((forms) => forms.join(','))),
    since: maybe(fc.constantFrom(...days)),
    until: maybe(fc.constantFrom(...days)),
    item: maybe(fc.constantFrom('2.02', '9.01', '5.02', '7.01')),
  }).filter(({ since, until }) => since === undefined || until === undefined || since <= until)
    .map(({ company, ...rest }) => definedOnly({ ...company, ...rest }));
  await fc.assert(fc.asyncProperty(filters, fc.integer({ min: 1, max: 7 }), async (set, limit) => {
    const got = await walk(h, `/api/v1/finance/filings?${query(set, limit)}`);
    assert.ok(got.every((row) => matches(row, set)), "every row matches its filters");
    assert.deepEqual(got.map((row) => row.accession_no), all.filter((row) => matches(row, set)).map((row) => row.accession_no), query(set, limit));
  }), { numRuns: 120 });
});

test('rows whose order keys are equal are each sent once in a filtered list, whether a server resumes its own cursor or reads another\'s', async (t) => {
  const h = await filterHarness(t);
  const other = await filterHarness(t);
  const all = await walk(h, '/api/v1/finance/earnings?limit=200');
  const tied = all.filter((row, i) => all.some((same, j) => i !== j && same.accession_no === row.accession_no));
  assert.equal(tied.length, 3, 'the fixture has its tie');
  for (const filters of [{ cik: tied[0]!.cik }, { tickers: `${tied[0]!.ticker},NOPE`, since: '2025-01-01' }] as Filters[]) {
    const expected = all.filter((row) => matches(row, filters)).map((row) => JSON.stringify(row));
    for (const server of [undefined, other]) {
      const got = (await walk(h, `/api/v1/finance/earnings?${query(filters, 1)}`, server)).map((row) => JSON.stringify(row));
      assert.deepEqual(got, expected, `${query(filters)} ${server ? 'alternating servers' : 'one server'}`);
    }
  }
});

test('a bad filter value is 400 invalid_parameter naming the parameter, and takes a token', async (t) => {
  const h = await filterHarness(t);
  const cases: [string, string][] = [
    ['tickers=AAPL,MSFT,GOOG,BRK-B,A,B,C,D,E,F,G', 'tickers'], ['form=4,8-K,10-K,10-Q,3,5,S-1,S-3,SC 13G,SC 13D,424B2', 'form'],
    ['form=4,,8-K', 'form'], ['form=', 'form'], ['form=8-K,', 'form'], ['tickers=', 'tickers'], ['tickers=AAPL,TOOLONGTICKERX', 'tickers'],
    ['ticker=AAPL&tickers=MSFT', 'tickers'], ['tickers=MSFT&ticker=AAPL', 'ticker'], ['ticker=A$', 'ticker'], ['cik=12a', 'cik'],
    ['cik=123456789012345678901', 'cik'], ['form=%2F8-K', 'form'], ['item=2.2', 'item'], ['item=2.02,9.01', 'item'],
    ['since=2026-02-30', 'since'], ['until=2025-13-01', 'until'], ['since=2025-1-05', 'since'], ['since=20250105', 'since'],
    ['since=2025-02-01&until=2025-01-31', 'since'], ['until=', 'until'],
  ];
  let remaining = Number((await h.get('/api/v1/finance/filings?limit=1', withKey(KEYS.insider))).headers['x-ratelimit-remaining-minute']);
  for (const [text, name] of cases) {
    const reply = await h.get(`/api/v1/finance/filings?${text}`, withKey(KEYS.insider));
    assert.equal(reply.status, 400, `${text}: ${reply.text}`);
    assert.equal(reply.json.error, 'invalid_parameter', text);
    assert.match(reply.json.detail, new RegExp(`\\b${name}\\b`), `${text}: ${reply.json.detail}`);
    assert.doesNotMatch(reply.json.detail, /unknown query parameter/, 'the filter is known; its value is what is refused');
    assert.equal(Number(reply.headers['x-ratelimit-remaining-minute']), --remaining, 'a 400 has consumed its token');
  }
  // A filter the endpoint does not list is still unknown (docs/api.md §1).
  for (const path of ['/api/v1/finance/earnings?form=8-K', '/api/v1/finance/whales?tickers=AAPL', '/api/v1/finance/insiders?since=2025-01-01']) {
    const reply = await h.get(path, withKey(KEYS.insider));
    assert.equal(reply.status, 400, path);
    assert.match(reply.json.detail, /unknown query parameter/);
  }
});

test('filters read before are reused for the same parameters only: a value holding & or = is still refused', async (t) => {
  const h = await filterHarness(t);
  const key = withKey(KEYS.signal);
  assert.equal((await h.get('/api/v1/finance/filings?form=8-K&ticker=AAPL', key)).status, 200);
  const reply = await h.get('/api/v1/finance/filings?form=8-K%26ticker%3DAAPL', key);
  assert.equal(reply.status, 400, reply.text);
  assert.match(reply.json.detail, /form/);
});

test('a filter that matches nothing is 200 with count 0 and no Link', async (t) => {
  const h = await filterHarness(t);
  for (const text of ['form=S-1', 'tickers=NOPE,NADA', 'cik=42', 'since=2030-01-01', 'until=1990-01-01', 'ticker=AAPL&form=SC+13G&item=5.02']) {
    const reply = await h.get(`/api/v1/finance/filings?${text}`, withKey(KEYS.signal));
    assert.equal(reply.status, 200, text);
    assert.deepEqual([reply.json.count, reply.json.data, reply.headers.link], [0, [], undefined], text);
  }
});

test('a cursor is valid only with its filter set, compared normalised; ticker=A and tickers=A are one list', async (t) => {
  const h = await filterHarness(t);
  const key = withKey(KEYS.founders);
  const cursorOf = async (path: string): Promise<string> => {
    const reply = await h.get(path, key);
    assert.equal(reply.status, 200, reply.text);
    return /cursor=([A-Za-z0-9_-]+)>/.exec(String(reply.headers.link))![1]!;
  };
  const forms = await cursorOf('/api/v1/finance/filings?form=4,8-K&limit=2');
  for (const same of ['form=8-k,4', 'form=4,8-K,4', 'form=8-K,4&limit=5']) {
    assert.equal((await h.get(`/api/v1/finance/filings?${same}&cursor=${forms}`, key)).status, 200, same);
  }
  for (const other of ['form=4', 'form=4,8-K&since=2025-01-01', 'form=4,8-K&ticker=AAPL', '', 'ticker=AAPL']) {
    const reply = await h.get(`/api/v1/finance/filings?${other}&cursor=${forms}`, key);
    assert.equal(reply.status, 400, other);
    assert.match(reply.json.detail, /^cursor /, other);
  }
  const single = await cursorOf('/api/v1/finance/filings?ticker=aapl&limit=2');
  const viaTickers = await h.get(`/api/v1/finance/filings?tickers=AAPL&limit=2&cursor=${single}`, key);
  assert.equal(viaTickers.status, 200, 'tickers=AAPL continues the list of ticker=aapl');
  const byCik = await cursorOf('/api/v1/finance/filings?cik=0000320193&since=2025-01-01&limit=1');
  assert.equal((await h.get(`/api/v1/finance/filings?since=2025-01-01&cik=320193&limit=1&cursor=${byCik}`, key)).status, 200, 'leading zeros and order do not matter');
  assert.equal((await h.get(`/api/v1/finance/filings?cik=320193&limit=1&cursor=${byCik}`, key)).status, 400, 'without the range it is another list');
});

test('the ETag names the filter set: equal for the same set written otherwise, different for any other, 304 on a match', async (t) => {
  const h = await filterHarness(t);
  const key = withKey(KEYS.signal);
  const tag = async (text: string): Promise<string> => {
    h.clock.advance(1_000);
    const reply = await h.get(`/api/v1/finance/filings?${text}`, key);
    assert.equal(reply.status, 200, reply.text);
    return String(reply.headers.etag);
  };
  assert.equal(await tag('tickers=MSFT,AAPL&form=4'), await tag('form=4&tickers=aapl,msft,AAPL'));
  assert.equal(await tag('ticker=AAPL'), await tag('tickers=aapl'), 'ticker=A and tickers=A are one list');
  const tags = [
    await tag('tickers=MSFT,AAPL'), await tag('tickers=MSFT,AAPL&form=4'), await tag('ticker=AAPL'), await tag('cik=320193'),
    await tag('cik=320193&since=2000-01-01'), await tag('form=4'), await tag('form=4&limit=3'), await tag(''),
  ];
  assert.equal(new Set(tags).size, tags.length, 'every other filter set (or page size) has its own tag, even where the rows are the same');
  const conditional = await h.get('/api/v1/finance/filings?form=8-K&since=2025-01-02', { ...key, 'if-none-match': await tag('since=2025-01-02&form=8-k') });
  assert.equal(conditional.status, 304);
});

test('Link repeats the filters as sent and replaces only the cursor', async (t) => {
  const h = await filterHarness(t);
  const first = await h.get('/api/v1/finance/filings?tickers=aapl,MSFT&form=8-K%2C4&since=2025-01-02&limit=2', withKey(KEYS.signal));
  assert.match(String(first.headers.link), /^<https:\/\/api\.example\.test\/api\/v1\/finance\/filings\?tickers=aapl,MSFT&form=8-K%2C4&since=2025-01-02&limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
});
