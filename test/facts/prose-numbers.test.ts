import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount, formatPerShare, formatPrice, formatShare, formatShares, formatUsd } from '../../src/facts/prose-numbers.js';

test('money is written with the sign first and rounded once, half-up, from the exact figure', () => {
  assert.equal(formatUsd(19_965_000_000), '$19.97 billion', '19.965 is not rounded down');
  assert.equal(formatUsd(-39_363_414_290.67), '-$39.36 billion');
  assert.equal(formatUsd(504_864_771.27), '$504.9 million');
  assert.equal(formatUsd(999_960_000), '$1.00 billion', 'rounding up to the next unit moves to that unit');
  assert.equal(formatUsd(999_999.5), '$1.0 million');
  assert.equal(formatUsd(12_345.5), '$12,346');
  assert.equal(formatUsd(-0.004), '$0', 'no negative zero');
  assert.equal(formatUsd(1_234_000_000_000), '$1,234.00 billion');
});

test('per-share figures have two decimals, prices keep what was filed, shares and counts are grouped', () => {
  assert.deepEqual([2.4, -0.25, 1.2, 6.115, -0.004].map(formatPerShare), ['$2.40', '-$0.25', '$1.20', '$6.12', '$0.00']);
  assert.deepEqual([17, 191.467, 25.0578, 1234.5].map(formatPrice), ['$17.00', '$191.467', '$25.0578', '$1,234.50']);
  assert.deepEqual([0.736661, 0.31449, 0.00049].map(formatShare), ['73.7%', '31.4%', '0.0%']);
  assert.deepEqual([3_107_623, 35.944].map(formatShares), ['3,107,623', '35.944']);
  assert.deepEqual([formatCount(1, 'sale'), formatCount(1279, 'sale'), formatCount(2, 'new position')], ['1 sale', '1,279 sales', '2 new positions']);
});
