/**
 * A client of equity-facts as an API consumer writes one: types generated from the served
 * OpenAPI document by openapi-typescript, calls made with openapi-fetch. It calls every
 * operation, follows `Link: rel="next"` to the last page of a company's filings, filters filings,
 * and sends a conditional request. Typechecked with TypeScript 5.9 (so the generated types must be usable: rows typed as
 * their row schemas, not as empty records), then run against the real server by check.mjs.
 *
 * Usage: node out/js/client.js BASE_URL API_KEY
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './out/api.js';

type FilingRow = components['schemas']['FilingRow'];
type ErrorCode = components['schemas']['ErrorEnvelope']['error'];

const [baseUrl, key] = process.argv.slice(2);
if (!baseUrl || !key) throw new Error('usage: client.js BASE_URL API_KEY');
const client = createClient<paths>({ baseUrl, headers: { 'X-API-Key': key } });

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`client check failed: ${message}`);
}

// Every operation: the authenticated ones and the document.
const meta = await client.GET('/api/v1/meta');
check(meta.data?.data[0]?.type === 'meta', `meta: ${meta.response.status}`);
const maxPageSize: number = meta.data.data[0].max_page_size;

const reports = await client.GET('/api/v1/finance/reports', { params: { query: { limit: 2 } } });
check(reports.data?.data.every((row) => typeof row.company === 'string'), 'reports');
const insiders = await client.GET('/api/v1/finance/insiders', { params: { query: { ticker: 'TSLA' } } });
check(insiders.data?.data.every((row) => typeof row.net_usd === 'number'), 'insiders');
const whales = await client.GET('/api/v1/finance/whales', { params: { query: { cik: '1045810' } } });
check(whales.data?.data.every((row) => Array.isArray(row.top_holdings)), 'whales');
const earnings = await client.GET('/api/v1/finance/earnings', { params: { query: { ticker: 'AAPL', limit: 1 } } });
check(earnings.data?.data.every((row) => row.type === 'earnings'), 'earnings');
const transactions = await client.GET('/api/v1/finance/insider-transactions', { params: { query: { ticker: 'TSLA', limit: 2 } } });
check(transactions.data?.data.every((row) => row.type === 'insider_transaction' && (row.value_usd === null || typeof row.value_usd === 'number')), 'insider-transactions');
const financials = await client.GET('/api/v1/finance/financials', { params: { query: { ticker: 'AAPL', limit: 2 } } });
check(financials.data?.data.every((row) => Number.isInteger(row.fiscal_year) && typeof row.values.revenue_usd !== 'string'), 'financials');
const holders = await client.GET('/api/v1/finance/holders', { params: { query: { ticker: 'GOOG', limit: 2 } } });
check((holders.data?.data.length ?? 0) > 0 && holders.data?.data.every((row) => row.type === 'holder' && row.tickers.includes('GOOG')), 'holders');
const coded = await client.GET('/api/v1/finance/insider-transactions', { params: { query: { ticker: 'TSLA', code: 'S,M', since: '2020-01-01', limit: 3 } } });
check(coded.data?.data.every((row) => row.code === 'S' || row.code === 'M'), 'insider-transactions with filters');
const document = await client.GET('/api/v1/openapi.json');
check(document.data?.openapi.startsWith('3.1'), 'openapi.json');
const head = await client.HEAD('/api/v1/finance/filings', { params: { query: { limit: 1 } } });
check(head.response.status === 200, `HEAD filings: ${head.response.status}`);

// An error is typed by the error table.
const refused = await client.GET('/api/v1/finance/filings', { params: { query: { limit: 0 } } });
const code: ErrorCode | undefined = refused.error?.error;
check(refused.response.status === 400 && code === 'invalid_parameter', `limit=0: ${refused.response.status} ${code}`);

// Follow Link to the last page of one company's filings (NVIDIA's, about 1,000 rows: some 20 pages
// of the Signal key's 50, within its 60 requests a minute): every row once, in order.
const rows: FilingRow[] = [];
let page = await client.GET('/api/v1/finance/filings', { params: { query: { ticker: 'NVDA', limit: maxPageSize } } });
let pages = 0;
for (;;) {
  check(page.data !== undefined, `filings page ${pages}: ${page.response.status}`);
  rows.push(...page.data.data);
  pages++;
  const link = page.response.headers.get('link');
  if (link === null) break;
  const next = /^<([^>]+)>; rel="next"$/.exec(link);
  check(next, `Link: ${link}`);
  const cursor = new URL(next[1]!).searchParams.get('cursor');
  check(cursor, 'Link has a cursor');
  page = await client.GET('/api/v1/finance/filings', { params: { query: { ticker: 'NVDA', limit: maxPageSize, cursor } } });
}
const accessions = new Set(rows.map((row) => `${row.accession_no} ${row.cik}`));
check(pages > 1 && accessions.size === rows.length, `walked ${pages} pages, ${rows.length} rows, ${accessions.size} distinct`);
for (let i = 1; i < rows.length; i++) check(rows[i - 1]!.filed_at >= rows[i]!.filed_at, `filings in order at ${i}`);

// Filters (docs/api.md §15), typed from the document: several companies, one form, a date range.
const filtered = await client.GET('/api/v1/finance/filings', { params: { query: { tickers: 'AAPL,MSFT,NVDA', form: '8-K', since: '2026-01-01', limit: 5 } } });
const filteredRows: FilingRow[] = filtered.data?.data ?? [];
check(filteredRows.length > 0 && filteredRows.every((row) => ['AAPL', 'MSFT', 'NVDA'].includes(row.ticker ?? '') && row.form === '8-K' && row.filed_at >= '2026-01-01'),
  `filtered filings: ${filtered.response.status}, ${filteredRows.length} rows`);

// A conditional request: the same page with its ETag is 304 and takes no token.
const first = await client.GET('/api/v1/finance/filings', { params: { query: { limit: 5 } } });
const etag = first.response.headers.get('etag');
check(etag !== null && etag.startsWith('W/"'), `ETag: ${etag}`);
const before = first.response.headers.get('x-ratelimit-remaining-day');
const again = await client.GET('/api/v1/finance/filings', { params: { query: { limit: 5 }, header: { 'If-None-Match': etag } } });
check(again.response.status === 304, `If-None-Match: ${again.response.status}`);
check(again.response.headers.get('x-ratelimit-remaining-day') === before, '304 took no token');

process.stdout.write(`client check: ${pages} filings pages, ${rows.length} rows, ${filteredRows.length} filtered rows, conditional 304 ok\n`);
