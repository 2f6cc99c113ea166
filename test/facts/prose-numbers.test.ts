import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatChangePercent, formatCount, formatPerShare, formatPrice, formatShare, formatShares, formatUsd } from '../../src/facts/prose-numbers.js';

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

/** `n / d` rounded half away from zero, in BigInt: the test's own reference. */
const halfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);
const withCommas = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

test('whole dollars, shares and weights of 6 decimals read as the exact decimals do', () => {
  fc.assert(fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -2e9, max: 2e9 }), fc.constantFrom(0, -0, 949_999, 950_000, 994_999_999, 995_000_000, -995_000_000)), (n) => {
    const a = BigInt(Math.abs(n));
    const billions = halfUp(a, 10n ** 7n);
    const millions = halfUp(a, 10n ** 5n);
    const body = billions >= 100n ? `${withCommas(String(billions / 100n))}.${String(billions % 100n).padStart(2, '0')} billion`
      : millions >= 10n ? `${millions / 10n}.${millions % 10n} million` : withCommas(String(a));
    assert.equal(formatUsd(n), `${n < 0 ? '-' : ''}$${body}`, String(n));
    assert.equal(formatShares(n), `${n < 0 ? '-' : ''}${withCommas(String(a))}`);
  }), { numRuns: 20_000 });
  fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), (millionths) => {
    const tenths = halfUp(BigInt(millionths), 1000n);
    assert.equal(formatShare(millionths / 1e6), `${tenths / 10n}.${tenths % 10n}%`, String(millionths));
  }), { numRuns: 20_000 });
  // Not whole, or more decimals than a row holds: the exact path, as before.
  assert.deepEqual([formatUsd(999_999.5), formatShares(35.944), formatShare(0.12345649), formatShare(0.0004999999)], ['$1.0 million', '35.944', '12.3%', '0.0%']);
  assert.deepEqual([formatChangePercent(50), formatChangePercent(-13.12), formatChangePercent(1250), formatChangePercent(0)], ['+50%', '-13.12%', '+1,250%', '0%']);
});
