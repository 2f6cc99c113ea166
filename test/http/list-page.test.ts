/**
 * What a list keeps between requests (list-page.ts): the strings of its last page are reused for
 * the same query, but a list never keeps a long query's text, which a client chooses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, KEYS } from '../helpers/harness.js';
import { MAX_KEPT_QUERY_CHARS } from '../../src/http/list-page.js';

test('a list keeps no query text longer than MAX_KEPT_QUERY_CHARS: a 15 KB valid query gets its Link, and the list holds neither', async (t) => {
  const h = await startHarness(t, { baseUrl: 'https://api.example.test' });
  // limit with 15,000 leading zeros is a valid limit of 3 (docs/api.md §1: `05` is 5).
  const query = `ticker=aapl&limit=${'0'.repeat(15_000)}3`;
  for (let round = 0; round < 2; round++) {
    const reply = await h.get(`/api/v1/finance/filings?${query}`, withKey(KEYS.signal));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.count, 3);
    assert.match(String(reply.headers.link), new RegExp(`^<https://api\\.example\\.test/api/v1/finance/filings\\?${query}&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
  }
  const list = h.server.handler.snapshot()!.list('filings', 'AAPL');
  const kept = [list.memo?.linkQuery, list.memo?.link, list.lastCursor].filter((text) => text !== undefined);
  assert.ok(kept.every((text) => text.length <= MAX_KEPT_QUERY_CHARS + 200), `kept: ${kept.map((text) => text.length).join(', ')} characters`);
  // A usual query is still kept, and its Link reused.
  const short = await h.get('/api/v1/finance/filings?ticker=aapl&limit=3', withKey(KEYS.signal));
  assert.equal(list.memo?.linkQuery, 'ticker=aapl&limit=3');
  assert.equal(list.memo?.link, short.headers.link);
});
