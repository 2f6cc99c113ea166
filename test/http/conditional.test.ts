/**
 * Conditional requests through the real server (docs/api.md §10): weak ETags on list pages,
 * a strong one on the OpenAPI document, and 304 that takes no token but still checks the key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, withKey, writeFixtureSnapshot, KEYS } from '../helpers/harness.js';
import { fixtureRows } from '../fixtures/rows.js';

const FILINGS = '/api/v1/finance/filings?ticker=AAPL&limit=5';

test('a list page has a weak ETag that names its rows, not the moment: the same page has the same tag', async (t) => {
  const h = await startHarness(t);
  const a = await h.get(FILINGS, withKey(KEYS.signal));
  h.clock.advance(5000);
  const b = await h.get(FILINGS, withKey(KEYS.signal));
  assert.match(String(a.headers.etag), /^W\/"[^"]+"$/);
  assert.notEqual(a.json.as_of, b.json.as_of);
  assert.equal(a.headers.etag, b.headers.etag, 'as_of is not part of the tag');
  const tags = new Set([
    a.headers.etag,
    (await h.get('/api/v1/finance/filings?ticker=AAPL&limit=4', withKey(KEYS.signal))).headers.etag, // count
    (await h.get('/api/v1/finance/filings?ticker=AAPL&limit=5', withKey(KEYS.free))).headers.etag, // variant
    (await h.get('/api/v1/finance/filings?limit=5', withKey(KEYS.signal))).headers.etag, // list
    (await h.get('/api/v1/finance/earnings?ticker=AAPL&limit=5', withKey(KEYS.signal))).headers.etag, // kind
  ]);
  const second = await h.get(/<[^>]*(\/api[^>]+)>/.exec(String(a.headers.link))![1]!.replace(/^.*\/api/, '/api'), withKey(KEYS.signal));
  tags.add(second.headers.etag); // position
  assert.equal(tags.size, 6, 'count, variant, list, kind and position each change the tag');
});

test('If-None-Match with the current tag gives 304: no body, the same fields, current limits, and no token', async (t) => {
  const h = await startHarness(t);
  const first = await h.get(FILINGS, withKey(KEYS.signal));
  const tag = String(first.headers.etag);
  for (const condition of [tag, tag.slice(2), `"other", ${tag}`, '*', `W/"x",${tag}`]) {
    for (const method of ['GET', 'HEAD']) {
      const reply = await h.get(FILINGS, { ...withKey(KEYS.signal), 'if-none-match': condition }, method);
      assert.equal(reply.status, 304, `${method} If-None-Match: ${condition}`);
      assert.equal(reply.text, '');
      assert.equal(reply.headers.etag, tag);
      assert.equal(reply.headers['cache-control'], 'private, no-cache');
      assert.equal(reply.headers.vary, first.headers.vary, 'Vary as the 200 sends it');
      assert.equal(reply.headers['x-snapshot-version'], 'v1');
      assert.ok(reply.headers['x-request-id']);
      assert.equal(reply.headers['access-control-allow-origin'], '*');
      assert.equal(reply.headers['x-ratelimit-remaining-minute'], first.headers['x-ratelimit-remaining-minute'], 'took no token');
      assert.equal(reply.headers.ratelimit, first.headers.ratelimit);
      assert.equal(reply.headers['content-type'], undefined);
    }
  }
  const meta = await h.get('/api/v1/meta', withKey(KEYS.signal));
  assert.equal(meta.json.data[0].usage.minute.used, 1, 'only the first request used a token');
  const stale = await h.get(FILINGS, { ...withKey(KEYS.signal), 'if-none-match': 'W/"stale"' });
  assert.equal(stale.status, 200);
  assert.equal(stale.headers['x-ratelimit-remaining-minute'], String(Number(first.headers['x-ratelimit-remaining-minute']) - 1));
});

test('a 304 still needs a good key, account and plan, and valid parameters; an empty bucket still gets its 304', async (t) => {
  const h = await startHarness(t);
  const tag = String((await h.get(FILINGS, withKey(KEYS.free))).headers.etag);
  const conditional = (key: string, path = FILINGS) => h.get(path, { ...withKey(key), 'if-none-match': '*' });
  assert.equal((await conditional('nope')).status, 401);
  assert.equal((await conditional(KEYS.suspended)).status, 402);
  assert.equal((await conditional(KEYS.inactive)).status, 403);
  assert.equal((await conditional(KEYS.nonApi)).status, 403);
  const bad = await conditional(KEYS.free, `${FILINGS}&bogus=1`);
  assert.equal(bad.status, 400, 'invalid parameters are answered after the limits, with a token');
  for (let i = 0; i < 10; i++) await h.get(FILINGS, withKey(KEYS.free));
  assert.equal((await h.get(FILINGS, withKey(KEYS.free))).status, 429);
  const polled = await h.get(FILINGS, { ...withKey(KEYS.free), 'if-none-match': tag });
  assert.equal(polled.status, 304, 'polling an unchanged list is free, even with an empty bucket');
  assert.equal(polled.headers['x-ratelimit-remaining-minute'], '0');
});

test('a new snapshot changes every list tag, so a stale If-None-Match gets the new rows', async (t) => {
  const h = await startHarness(t);
  const tag = String((await h.get(FILINGS, withKey(KEYS.signal))).headers.etag);
  await writeFixtureSnapshot(h.snapshotsDir, 'v2', fixtureRows());
  await h.server.handler.reload();
  const reply = await h.get(FILINGS, { ...withKey(KEYS.signal), 'if-none-match': tag });
  assert.equal(reply.status, 200);
  assert.notEqual(reply.headers.etag, tag);
});

test('the OpenAPI document has a strong ETag per content coding and answers If-None-Match with 304', async (t) => {
  const h = await startHarness(t);
  const plain = await h.get('/api/v1/openapi.json');
  const br = await h.get('/api/v1/openapi.json', { 'accept-encoding': 'br' });
  assert.match(String(plain.headers.etag), /^"[A-Za-z0-9_-]+"$/);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.notEqual(br.headers.etag, plain.headers.etag);
  const again = await h.get('/api/v1/openapi.json', { 'if-none-match': String(plain.headers.etag) });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
  assert.equal(again.headers['cache-control'], 'public, max-age=300');
  const otherCoding = await h.get('/api/v1/openapi.json', { 'if-none-match': String(plain.headers.etag), 'accept-encoding': 'gzip' });
  assert.equal(otherCoding.status, 200, 'the identity tag does not match the gzip representation');
});
