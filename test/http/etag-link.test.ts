/**
 * The pieces of conditional requests and pagination on their own: If-None-Match parsing (RFC 9110
 * §13.1.2, weak comparison), the Link of the next page, and cursor tokens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ifNoneMatchMatches, listTag, strongTag } from '../../src/http/etag.js';
import { nextLink } from '../../src/http/list-page.js';
import { decodeCursor, encodeCursor } from '../../src/http/cursor.js';

test('If-None-Match: weak comparison either way, lists, *, and anything malformed matches nothing', () => {
  const weak = 'W/"abc.1.AAPL.0.20.f"';
  const strong = '"xyz"';
  const cases: [string, string, boolean][] = [
    [weak, weak, true],
    ['"abc.1.AAPL.0.20.f"', weak, true],
    ['W/"xyz"', strong, true],
    [strong, strong, true],
    ['*', weak, true],
    [' "a" ,  W/"b", "abc.1.AAPL.0.20.f"', weak, true],
    ['"a,b", "xyz"', strong, true], // a comma inside an entity-tag is not a separator
    ['"abc.1.AAPL.0.20"', weak, false],
    ['"abc.1.AAPL.0.20.ff"', weak, false],
    ['abc.1.AAPL.0.20.f', weak, false], // unquoted
    ['"xyz', strong, false],
    ['', strong, false],
    ['W/', strong, false],
  ];
  for (const [field, tag, expected] of cases) assert.equal(ifNoneMatchMatches(field, tag), expected, `${field} vs ${tag}`);
});

test('tags: a list tag is weak and changes with each of its parts; a strong tag names its coding', () => {
  const base = listTag('snap', 'filings', 'AAPL', 0, 20, 'full');
  assert.match(base, /^W\/"[^"\s]+"$/);
  const others = [listTag('snap2', 'filings', 'AAPL', 0, 20, 'full'), listTag('snap', 'earnings', 'AAPL', 0, 20, 'full'),
    listTag('snap', 'filings', null, 0, 20, 'full'), listTag('snap', 'filings', 'AAPL', 20, 20, 'full'),
    listTag('snap', 'filings', 'AAPL', 0, 10, 'full'), listTag('snap', 'filings', 'AAPL', 0, 20, 'facts')];
  assert.equal(new Set([base, ...others]).size, 7);
  assert.notEqual(strongTag('x'), strongTag('x', 'br'));
  assert.match(strongTag('x', 'gzip'), /^"[A-Za-z0-9_-]+-gzip"$/);
});

test('the next Link keeps the parameters as sent and replaces the cursor wherever it was', () => {
  const link = (query: string): string => nextLink('https://h.test', '/api/v1/finance/filings', query, 'NEXT');
  assert.equal(link(''), '<https://h.test/api/v1/finance/filings?cursor=NEXT>; rel="next"');
  assert.equal(link('limit=5'), '<https://h.test/api/v1/finance/filings?limit=5&cursor=NEXT>; rel="next"');
  assert.equal(link('cursor=OLD'), '<https://h.test/api/v1/finance/filings?cursor=NEXT>; rel="next"');
  assert.equal(link('cursor=OLD&limit=5'), '<https://h.test/api/v1/finance/filings?limit=5&cursor=NEXT>; rel="next"');
  assert.equal(link('ticker=brk.b&cursor=OLD&limit=5'), '<https://h.test/api/v1/finance/filings?ticker=brk.b&limit=5&cursor=NEXT>; rel="next"');
  assert.equal(link('limit=5&cursor=OLD'), '<https://h.test/api/v1/finance/filings?limit=5&cursor=NEXT>; rel="next"');
  assert.equal(link('ticker=BRK%2FB&%63ursor=OLD&limit=5'), '<https://h.test/api/v1/finance/filings?ticker=BRK%2FB&limit=5&cursor=NEXT>; rel="next"', 'an encoded name is still the cursor');
});

test('cursor tokens: what is encoded decodes; damage, another format or a bad length does not', () => {
  const key = Buffer.from([0, 1, 2, 250, 255]);
  const token = encodeCursor('whales', '0001045810', key, 3, 123_456_789);
  assert.match(token, /^[A-Za-z0-9_-]+$/);
  const cursor = decodeCursor(token);
  assert.ok(typeof cursor !== 'string');
  assert.deepEqual({ ...cursor, bytes: undefined, key: cursor.bytes.subarray(cursor.keyStart, cursor.keyEnd) },
    { kind: 'whales', listKey: '0001045810', ties: 3, hint: 123_456_789, bytes: undefined, keyStart: cursor.keyStart, keyEnd: cursor.keyEnd, key });
  const overview = decodeCursor(encodeCursor('reports', null, key, 1, 0));
  assert.ok(typeof overview !== 'string' && overview.listKey === null && overview.kind === 'reports');
  for (const bad of [token.slice(0, -1), `${token}A`, 'A', 'AAAA', 'AAAAAAAAAAAAAAAA', `${token.slice(0, 4)}${token[4] === 'Q' ? 'R' : 'Q'}${token.slice(5)}`, 'a.b', 'x'.repeat(513)]) {
    assert.equal(typeof decodeCursor(bad), 'string', bad.slice(0, 40));
  }
});
