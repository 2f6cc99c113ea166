/** Ticker and CIK rules: the patterns and the functions that write the row form agree. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CIK_PATTERN, CIK_QUERY_PATTERN, edgarTicker, normaliseTicker, padCik, padCikDigits, TICKER_PATTERN, TICKER_QUERY_PATTERN,
} from '../src/identifiers.js';

const ticker = new RegExp(TICKER_PATTERN);
const tickerQuery = new RegExp(TICKER_QUERY_PATTERN);

test('every ticker a query may write becomes a ticker in the row form', () => {
  for (const written of ['AAPL', 'brk.b', 'BRK/B', 'bf-a', 'X', '123456789012', 'a.b/c-d']) {
    assert.ok(tickerQuery.test(written), written);
    assert.ok(ticker.test(edgarTicker(written)), written);
  }
  assert.equal(edgarTicker('brk.b'), 'BRK-B');
  assert.equal(edgarTicker('BRK/B'), 'BRK-B');
  assert.ok(!tickerQuery.test('1234567890123'), 'longer than 12 is refused');
  assert.ok(!tickerQuery.test('BRK B'));
});

test('normaliseTicker trims, writes EDGAR\'s form and refuses what does not then fit the row pattern', () => {
  assert.equal(normaliseTicker(' brk.b '), 'BRK-B');
  assert.equal(normaliseTicker('BRK B'), undefined);
  assert.equal(normaliseTicker('1234567890123'), undefined);
  assert.equal(normaliseTicker(undefined), undefined);
});

test('a CIK is padded to the 10 digits of the row pattern; the query form ignores up to 20 digits of leading zeros', () => {
  const cik = new RegExp(CIK_PATTERN);
  assert.equal(padCik('320193'), '0000320193');
  assert.equal(padCik(320193), '0000320193');
  assert.equal(padCik('00000000320193'), undefined, 'an EDGAR input longer than 10 digits is not a CIK');
  assert.equal(padCik('32a'), undefined);
  assert.ok(cik.test(padCik('1')!));
  assert.ok(new RegExp(CIK_QUERY_PATTERN).test('00000000000000320193'));
  assert.equal(padCikDigits('00000000000000320193'), '0000320193');
  assert.equal(padCikDigits('0'), '0000000000');
  assert.equal(padCikDigits('12345678901'), '12345678901', 'more than 10 significant digits are kept whole');
});
