/**
 * The list query's one-pass reader against the general path (docs/api.md §1): for every query it
 * reads, the general path returns the same query and no error; the usual queries are read by it.
 * Generated with fast-check from the characters that matter to either path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../src/errors.js';
import { ROUTES } from '../../src/routes.js';
import { hasKeyInQuery, parseListQuery, quickListQuery, splitQuery, type ListQuery } from '../../src/http/params.js';
import { encodeCursor } from '../../src/http/cursor.js';

const LIST_ROUTES = ROUTES.filter((route) => route.target.kind === 'rows');

/** The general path as the handler runs it; an error as its code. */
function general(query: string, route: (typeof LIST_ROUTES)[number]): ListQuery | string {
  const { pairs, malformed } = splitQuery(query);
  if (hasKeyInQuery(pairs)) return 'key in query';
  try {
    return parseListQuery(pairs, malformed, route);
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

/** What the quick path reads of `query` behind a path, as the handler calls it. */
function quick(query: string, route: (typeof LIST_ROUTES)[number]): ListQuery | undefined {
  const url = `${route.path}?${query}`;
  return quickListQuery(url, route.path.length + 1, route);
}

/** A cursor that decodes (whether it fits a list is the rows step's question). */
const VALID_CURSOR = encodeCursor('filings', 'AAPL', Buffer.from([0, 1, 2]), 1, 3);

const segment = fc.oneof(
  fc.constantFrom('limit', 'ticker', 'tickers', 'cik', 'form', 'since', 'item', 'cursor', 'Limit', 'TICKER', 'api_key', 'token', 'x', ''),
  fc.stringMatching(/^[a-z]{1,6}$/),
).chain((name) => fc.oneof(
  fc.constant(name),
  fc.tuple(fc.constant(name), fc.stringMatching(/^[0-9A-Za-z.\/%+=\-_ ]{0,14}$/)).map(([n, value]) => `${n}=${value}`),
  fc.tuple(fc.constant(name), fc.integer({ min: 0, max: 2_000_000_000 })).map(([n, value]) => `${n}=${value}`),
  fc.tuple(fc.constant(name), fc.constantFrom('AAPL', 'BRK-B', 'brk.b', 'BRK/B', '0000320193', '320193', '%41APL', 'A+B', '05', '0', '', VALID_CURSOR, `${VALID_CURSOR}x`, VALID_CURSOR.replace(/^./, 'B'))).map(([n, value]) => `${n}=${value}`),
));
const queries = fc.array(segment, { maxLength: 4 }).map((segments) => segments.join('&'));

test('whatever the quick path reads, the general path reads the same, without an error', () => {
  fc.assert(fc.property(queries, fc.constantFrom(...LIST_ROUTES), (query, route) => {
    const read = quick(query, route);
    if (read !== undefined) assert.deepEqual(read, general(query, route), `${route.path}?${query}`);
  }), { numRuns: 5_000 });
});

test('the usual queries take the quick path', () => {
  const filings = LIST_ROUTES.find((route) => route.path.endsWith('/filings'))!;
  const whales = LIST_ROUTES.find((route) => route.path.endsWith('/whales'))!;
  assert.deepEqual(quick('ticker=AAPL&limit=20', filings), { limit: 20, key: 'AAPL', cursor: null, filters: null });
  assert.deepEqual(quick('limit=100', filings), { limit: 100, key: null, cursor: null, filters: null });
  assert.deepEqual(quick('limit=05&ticker=BRK-B', filings), { limit: 5, key: 'BRK-B', cursor: null, filters: null });
  assert.deepEqual(quick('', filings), { limit: 20, key: null, cursor: null, filters: null });
  assert.deepEqual(quick('&ticker=X&', filings), { limit: 20, key: 'X', cursor: null, filters: null }, 'empty segments are skipped, as splitQuery does');
  for (const other of ['ticker=aapl', 'ticker=BRK.B', 'ticker=%41', 'limit=0', 'limit=1&limit=2', 'cik=1', 'api_key=x', 'limit=1234567890']) {
    assert.equal(quick(other, filings), undefined, `${other} is left to the general path`);
  }
  assert.equal(quick('cik=320193', whales), undefined, 'cik is left to the general path');
  assert.equal(quick(`ticker=AAPL&cursor=${VALID_CURSOR}`, filings)?.cursor, VALID_CURSOR, 'a cursor takes the quick path too, as sent');
  assert.equal(quick('cursor=not*base64', filings)?.cursor, 'not*base64', 'whether it decodes is the rows step\'s question, on either path');
  for (const other of ['cursor=', `cursor=${VALID_CURSOR}%41`, `limit=5&cursor=${VALID_CURSOR}&ticker=A+B`]) {
    assert.equal(quick(other, filings), undefined, `${other} is left to the general path`);
  }
});
