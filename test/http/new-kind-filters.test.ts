/**
 * The filters of the endpoints of docs/api.md §16 through the real server (docs/api.md §15):
 * insider-transactions (ticker, tickers, cik of the issuer, owner_cik with joint owners, code,
 * since/until on transaction_date), financials (ticker, tickers, cik, fiscal_period, since/until
 * on period_end) and holders (ticker by any of the issuer's tickers, cusip, cik of the 13F filer).
 * Each selects exactly the rows of the unfiltered list that match it, walked through `Link`, with
 * the same bodies from a version with index files and one without (the indexes then built while
 * the rows are read); bad values are 400 naming the parameter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withKey, KEYS, type Harness } from '../helpers/harness.js';
import {
  definedOnly, filterHarness, matches, maybe, PATH, query, someOf, walk, walkPages, type Filters, type Row,
} from '../helpers/filter-walk.js';
import { FILTER_COMPANIES } from '../fixtures/filter-rows.js';
import { FILTER_CODES, FILTER_FILERS, FILTER_OWNERS, FILTER_SECURITIES } from '../fixtures/filter-rows-16.js';

type NewKind = 'insider-transactions' | 'financials' | 'holders';
const NEW_KINDS: readonly NewKind[] = ['insider-transactions', 'financials', 'holders'];

/** The unfiltered list of each new kind, walked on `h`. */
async function overviews(h: Harness): Promise<Map<NewKind, Row[]>> {
  return new Map(await Promise.all(NEW_KINDS.map(async (kind) => [kind, await walk(h, `${PATH(kind)}?limit=200`)] as const)));
}

/** Each case: the kind, the filter set, and what the expected rows must show so the case tests what it names. */
const CASES: [NewKind, Filters, ((rows: Row[]) => boolean)?][] = [
  ['insider-transactions', { ticker: 'goog' }, (rows) => rows.every((row) => row.ticker === 'GOOGL')],
  ['insider-transactions', { tickers: 'AAPL,brk.b,NOPE' }],
  ['insider-transactions', { cik: '1652044' }], ['insider-transactions', { cik: '000000001800903' }],
  ['insider-transactions', { owner_cik: '1000002' }, (rows) => rows.some((row) => row.owner_cik !== '0001000002')],
  ['insider-transactions', { owner_cik: '0001214156' }, (rows) => rows.some((row) => row.owner_cik !== '0001214156')],
  ['insider-transactions', { code: 'S,M' }, (rows) => new Set(rows.map((row) => row.code)).size === 2],
  ['insider-transactions', { code: 'p' }], ['insider-transactions', { code: 's,S,g' }],
  ['insider-transactions', { since: '2025-01-20' }], ['insider-transactions', { until: '2025-01-10' }],
  ['insider-transactions', { since: '2025-01-16', until: '2025-01-16' }, (rows) => rows.length === 2],
  ['insider-transactions', { tickers: 'AAPL,GOOG,MSFT', owner_cik: '01214156', code: 'S,A,F,M', since: '2025-01-04', until: '2025-02-20' }],
  ['financials', { ticker: 'GOOG' }], ['financials', { tickers: 'MSFT,aapl' }], ['financials', { cik: '00789019' }],
  ['financials', { fiscal_period: 'FY' }, (rows) => rows.every((row) => row.fiscal_period === 'FY')], ['financials', { fiscal_period: 'q4' }],
  ['financials', { since: '2024-01-01', until: '2024-06-30' }],
  ['financials', { since: '2024-09-28', until: '2024-09-28' }, (rows) => rows.some((row) => row.fiscal_period === 'FY') && rows.some((row) => row.fiscal_period === 'Q4')],
  ['financials', { ticker: 'aapl', fiscal_period: 'FY', since: '2023-01-01' }],
  ['holders', { ticker: 'GOOG' }, (rows) => rows.some((row) => row.ticker === 'GOOGL') && rows.some((row) => row.ticker === 'GOOG')],
  ['holders', { ticker: 'googl' }, (rows) => rows.some((row) => row.cusip === '02079K107')],
  ['holders', { ticker: 'brk.b' }], ['holders', { cusip: '02079k305,037833100' }, (rows) => rows.some((row) => row.put_call === 'Put')],
  ['holders', { cusip: '99999X109' }, (rows) => rows.every((row) => row.tickers.length === 0)],
  ['holders', { cik: '1045810' }], ['holders', { cik: '000102909' }], ['holders', { ticker: 'AAPL', cik: '1061165' }],
  ['holders', { cusip: '037833100,594918104', cik: '0001045810' }],
];

test('each filter of insider-transactions, financials and holders gives exactly the matching rows, alike with and without index files and with rows read from their files', async (t) => {
  const indexed = await filterHarness(t, true);
  const unindexed = await filterHarness(t, false);
  const fromFiles = await filterHarness(t, true, 'file');
  const all = await overviews(indexed);
  assert.deepEqual(await overviews(unindexed), all, 'the unfiltered lists are the same');
  for (const [kind, filters, shows] of CASES) {
    const name = `${kind}?${query(filters)}`;
    const expected = all.get(kind)!.filter((row) => matches(row, filters, kind));
    assert.ok(expected.length > 0 && expected.length < all.get(kind)!.length, `${name}: the fixture has rows it matches and rows it does not`);
    if (shows !== undefined) assert.ok(shows(expected), `${name}: the fixture has what the case is about`);
    const got = await walkPages(indexed, `${PATH(kind)}?${query(filters, 3)}`);
    assert.deepEqual(got.rows, expected, name);
    assert.deepEqual((await walkPages(unindexed, `${PATH(kind)}?${query(filters, 3)}`)).bodies, got.bodies, `${name}: the same bodies without index files`);
    // as_of is each server's own clock (docs/api.md §2): the bodies are compared without it.
    const withoutAsOf = (bodies: string[]): string[] => bodies.map((body) => body.replace(/"as_of":"[^"]+"/, ''));
    assert.deepEqual(withoutAsOf((await walkPages(fromFiles, `${PATH(kind)}?${query(filters, 3)}`)).bodies), withoutAsOf(got.bodies), `${name}: the same bodies with rows read from their files`);
  }
});

test('a bad filter value of the new endpoints is 400 invalid_parameter naming the parameter; a filter an endpoint does not list is unknown', async (t) => {
  const h = await filterHarness(t, false);
  const cases: [NewKind, string, string][] = [
    ['insider-transactions', 'code=SS', 'code'], ['insider-transactions', 'code=S,,M', 'code'], ['insider-transactions', 'code=', 'code'],
    ['insider-transactions', 'code=A,B,C,D,E,F,G,H,I,J,K', 'code'], ['insider-transactions', 'code=1', 'code'],
    ['insider-transactions', 'owner_cik=12x', 'owner_cik'], ['insider-transactions', 'owner_cik=1214156,1000001', 'owner_cik'],
    ['insider-transactions', 'cik=abc', 'cik'], ['insider-transactions', 'since=2025-02-30', 'since'], ['insider-transactions', 'until=2025-1-01', 'until'],
    ['insider-transactions', 'since=2025-03-01&until=2025-02-01', 'since'], ['insider-transactions', 'ticker=AAPL&tickers=MSFT', 'tickers'],
    ['financials', 'fiscal_period=H1', 'fiscal_period'], ['financials', 'fiscal_period=Q5', 'fiscal_period'], ['financials', 'fiscal_period=FY,Q1', 'fiscal_period'],
    ['financials', 'fiscal_period=', 'fiscal_period'], ['financials', 'since=2025-02-30', 'since'], ['financials', 'until=2024-13-31', 'until'],
    ['financials', 'tickers=MSFT&ticker=AAPL', 'ticker'], ['financials', 'cik=', 'cik'],
    ['holders', 'cusip=123', 'cusip'], ['holders', 'cusip=037833100,', 'cusip'], ['holders', 'cusip=03783310%21', 'cusip'], ['holders', 'cusip=0378331000', 'cusip'],
    ['holders', 'cik=123456789012345678901', 'cik'], ['holders', 'ticker=A$', 'ticker'], ['holders', 'ticker=', 'ticker'],
  ];
  for (const [kind, text, name] of cases) {
    h.clock.advance(60_000);
    const reply = await h.get(`${PATH(kind)}?${text}`, withKey(KEYS.insider));
    assert.equal(reply.status, 400, `${kind}?${text}: ${reply.text}`);
    assert.equal(reply.json.error, 'invalid_parameter', text);
    assert.match(reply.json.detail, new RegExp(`\\b${name}\\b`), `${kind}?${text}: ${reply.json.detail}`);
    assert.doesNotMatch(reply.json.detail, /unknown query parameter/, `${kind}?${text}: the filter is known; its value is what is refused`);
  }
  for (const path of ['holders?tickers=AAPL', 'holders?since=2025-01-01', 'financials?code=S', 'insider-transactions?fiscal_period=FY', 'financials?cusip=037833100']) {
    const reply = await h.get(`/api/v1/finance/${path}`, withKey(KEYS.insider));
    assert.equal(reply.status, 400, path);
    assert.match(reply.json.detail, /unknown query parameter/, path);
  }
  for (const path of ['insider-transactions?owner_cik=42', 'financials?ticker=NOPE&fiscal_period=FY', 'holders?cusip=000000000', 'insider-transactions?since=2030-01-01']) {
    const reply = await h.get(`/api/v1/finance/${path}`, withKey(KEYS.insider));
    assert.deepEqual([reply.status, reply.json.count, reply.headers.link], [200, 0, undefined], path);
  }
});

const tickerNames = ['AAPL', 'aapl', 'MSFT', 'GOOG', 'GOOGL', 'brk.b', 'BRK/A', 'NOPE'];
const stripped = (cik: string): string => cik.replace(/^0+/, '');
const company = maybe(fc.oneof(
  fc.constantFrom(...tickerNames).map((ticker): Filters => ({ ticker })),
  someOf(tickerNames).map((tickers): Filters => ({ tickers: tickers.join(',') })),
));
/** since and until from `days`, since never after until. */
const range = (days: string[]) => fc.record({ since: maybe(fc.constantFrom(...days)), until: maybe(fc.constantFrom(...days)) })
  .filter(({ since, until }) => since === undefined || until === undefined || since <= until);

/** Random filter sets of each new endpoint, each filter given one time in three. */
const FILTER_SETS: Record<NewKind, fc.Arbitrary<Filters>> = {
  'insider-transactions': fc.record({
    company, range: range(['2025-01-01', '2025-01-04', '2025-01-16', '2025-01-20', '2025-02-01', '2025-02-21', '2025-12-31']),
    cik: maybe(fc.constantFrom(...FILTER_COMPANIES.map((c) => stripped(c.cik)), '0001652044', '42')),
    owner_cik: maybe(fc.constantFrom(...FILTER_OWNERS.map(stripped), '0001000003', '7')),
    code: maybe(someOf([...FILTER_CODES, 's', 'J']).map((codes) => codes.join(','))),
  }).map(({ company: c, range: r, ...rest }) => definedOnly({ ...c, ...r, ...rest })),
  financials: fc.record({
    company, range: range(['2023-01-01', '2023-06-30', '2024-01-01', '2024-03-31', '2024-09-28', '2024-12-31', '2025-03-31']),
    cik: maybe(fc.constantFrom(...FILTER_COMPANIES.map((c) => stripped(c.cik)), '0000320193')),
    fiscal_period: maybe(fc.constantFrom('FY', 'fy', 'Q1', 'Q2', 'q3', 'Q4')),
  }).map(({ company: c, range: r, ...rest }) => definedOnly({ ...c, ...r, ...rest })),
  holders: fc.record({
    ticker: maybe(fc.constantFrom(...tickerNames)),
    cusip: maybe(someOf([...FILTER_SECURITIES.map((s) => s.cusip), '02079k107', '88160R101', '000000000']).map((cusips) => cusips.join(','))),
    cik: maybe(fc.constantFrom(...FILTER_FILERS.map(stripped), '0001045810', '42')),
  }).map(definedOnly),
};

test('property: a filtered list of a new endpoint, walked through Link on servers with and without index files (and rows read from files), holds exactly the matching rows', async (t) => {
  const indexed = await filterHarness(t, true);
  const unindexed = await filterHarness(t, false);
  const fromFiles = await filterHarness(t, true, 'file');
  const all = await overviews(indexed);
  const sets = fc.oneof(...NEW_KINDS.map((kind) => FILTER_SETS[kind].map((filters) => ({ kind, filters }))));
  await fc.assert(fc.asyncProperty(sets, fc.integer({ min: 1, max: 7 }), fc.boolean(), async ({ kind, filters }, limit, alternate) => {
    const got = await walk(indexed, `${PATH(kind)}?${query(filters, limit)}`, alternate ? unindexed : undefined);
    assert.ok(got.every((row) => matches(row, filters, kind)), 'every row matches its filters');
    assert.deepEqual(got, all.get(kind)!.filter((row) => matches(row, filters, kind)), `${kind}?${query(filters, limit)}`);
    assert.deepEqual(await walk(fromFiles, `${PATH(kind)}?${query(filters, limit)}`, alternate ? indexed : undefined), got, 'the same rows read from their files');
  }), { numRuns: 150 });
});
