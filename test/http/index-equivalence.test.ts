/**
 * A version loaded from its index files serves exactly what the same version loaded by reading
 * every row serves, and so do one whose rows are split into many chunks and one whose rows are
 * read from their files per page (docs/api.md §17): random list requests (route, filter, limit,
 * plan, cursor walks, If-None-Match) are sent to the four servers in turn, and every answer must be the same bytes with the same headers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startHarness, withKey, writeFixtureSnapshot, KEYS, type Harness } from '../helpers/harness.js';
import { SPLIT_BYTES_VARIABLE } from '../../src/data/snapshot-index.js';
import { richFixtureRows } from '../fixtures/rows.js';

/** Headers that differ between any two servers whatever they serve. */
const OWN_HEADERS = new Set(['date', 'x-request-id']);
const DAY_MS = 86_400_000;

/** A server on port 0 serving `v2` of {@link richFixtureRows}, with or without index files, its rows in memory or read from their files. */
async function serving(t: Parameters<typeof startHarness>[0], indexes: boolean, rowsIn: 'memory' | 'file' = 'memory'): Promise<Harness> {
  const h = await startHarness(t, { rowsIn });
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', richFixtureRows(), true, indexes);
  assert.deepEqual(await h.server.handler.reload(), { snapshot: true, keys: true });
  return h;
}

/** One exchange as compared: status, headers but the server's own, body; the server's address made neutral. */
interface Seen { status: number; headers: Record<string, unknown>; body: string }

async function exchange(h: Harness, url: string, headers: Record<string, string>): Promise<{ seen: Seen; etag: string | undefined; next: string | undefined }> {
  const reply = await h.get(url, headers);
  const neutral = (value: unknown): unknown => (typeof value === 'string' ? value.replaceAll(h.base, 'BASE') : value);
  const kept = Object.fromEntries(Object.entries(reply.headers).filter(([name]) => !OWN_HEADERS.has(name)).map(([name, value]) => [name, neutral(value)]));
  const link = typeof reply.headers.link === 'string' ? /^<([^>]+)>/.exec(reply.headers.link)?.[1] : undefined;
  return {
    seen: { status: reply.status, headers: kept, body: neutral(reply.text) as string },
    etag: typeof reply.headers.etag === 'string' ? reply.headers.etag : undefined,
    next: link?.slice(h.base.length),
  };
}

const LIST_ROUTES = ['reports', 'insiders', 'whales', 'earnings', 'filings'] as const;
const TICKERS = ['AAPL', 'TSLA', 'GOOG', 'GOOGL', 'googl', 'MSFT', 'NVDA', 'BRK-B', 'BRK.B', 'NTRA', 'ZZZZ', 'NONE'];
const CIKS = ['0001045810', '1061165', '0000000009'];

const requests = fc.record({
  route: fc.oneof({ arbitrary: fc.constantFrom(...LIST_ROUTES), weight: 1 }, { arbitrary: fc.constant('filings' as const), weight: 2 }),
  plan: fc.constantFrom<keyof typeof KEYS>('free', 'signal', 'insider', 'founders'),
  ticker: fc.option(fc.constantFrom(...TICKERS), { nil: undefined, freq: 2 }),
  cik: fc.option(fc.constantFrom(...CIKS), { nil: undefined }),
  limit: fc.option(fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 8 }), weight: 6 },
    { arbitrary: fc.integer({ min: 9, max: 60 }), weight: 2 },
    { arbitrary: fc.constantFrom('x', '-1', '007', '500'), weight: 1 },
  ), { nil: undefined, freq: 6 }),
  pages: fc.integer({ min: 1, max: 6 }),
  revalidate: fc.boolean(),
});

type ListRequest = typeof requests extends fc.Arbitrary<infer T> ? T : never;

/** What one server answers to a request and the walk of its `Link`s. */
async function walk(h: Harness, request: ListRequest): Promise<Seen[]> {
  h.clock.advance(DAY_MS); // every run starts with full buckets
  const query = new URLSearchParams();
  if (request.route === 'whales' && request.cik !== undefined) query.set('cik', request.cik);
  if (request.route !== 'whales' && request.ticker !== undefined) query.set('ticker', request.ticker);
  if (request.limit !== undefined) query.set('limit', String(request.limit));
  let url: string | undefined = `/api/v1/finance/${request.route}${query.size > 0 ? `?${query}` : ''}`;
  const seen: Seen[] = [];
  for (let page = 0; page < request.pages && url !== undefined; page++) {
    const answer = await exchange(h, url, withKey(KEYS[request.plan]));
    seen.push(answer.seen);
    if (request.revalidate && answer.etag !== undefined) seen.push((await exchange(h, url, { ...withKey(KEYS[request.plan]), 'if-none-match': answer.etag })).seen);
    url = answer.next;
  }
  return seen;
}

test('a version served from its index files, the same without them, the same split into chunks, and the same read from its files per page answer every list request alike', async (t) => {
  const indexed = await serving(t, true);
  const fromFiles = await serving(t, true, 'file');
  const unindexed = await serving(t, false);
  process.env[SPLIT_BYTES_VARIABLE] = '1500';
  let split: Harness;
  try {
    split = await serving(t, true);
  } finally {
    delete process.env[SPLIT_BYTES_VARIABLE];
  }
  let pages = 0;
  let walked = 0;
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const expected = await walk(unindexed, request);
    assert.deepEqual(await walk(indexed, request), expected, 'with index files');
    assert.deepEqual(await walk(split, request), expected, 'split into chunks of 1500 bytes');
    assert.deepEqual(await walk(fromFiles, request), expected, 'rows read from their files per page');
    pages += expected.filter((seen) => seen.status === 200).length;
    if (expected.filter((seen) => seen.status === 200).length > 2) walked++;
  }), { numRuns: 200 });
  assert.ok(pages > 200 && walked > 20, `enough pages and walks were compared (${pages} pages, ${walked} walks of 3 pages or more)`);
});
