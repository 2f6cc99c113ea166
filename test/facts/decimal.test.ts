import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  addDecimal, decimalText, divideDecimal, fixedText, fromNumber, multiplyDecimal, parseDecimal, roundDecimal, sumDecimals, toNumber, wholeQuotient,
} from '../../src/facts/decimal.js';

const d = (text: string) => parseDecimal(text)!;

test('products and sums are exact where doubles are not', () => {
  // ownership/datamule_paypal/0000899243-22-035394.xml: 3,107,623 shares at 191.467.
  assert.equal(decimalText(multiplyDecimal(d('3107623'), d('191.467'))), '595007252.941');
  assert.equal(decimalText(sumDecimals([d('0.1'), d('0.2')])), '0.3');
  assert.notEqual(0.1 + 0.2, 0.3, 'the double sum is not exact');
  assert.equal(decimalText(addDecimal(d('1.5E3'), d('-.25'))), '1499.75');
  assert.equal(decimalText(d('1,234,567.50')), '1234567.5');
});

test('rounding is once, half away from zero, from the exact value', () => {
  assert.equal(fixedText(d('19.965'), 2), '19.97', '19.965 is not rounded down as the double 19.964999… would be');
  assert.equal((19.965).toFixed(2), '19.96');
  assert.equal(fixedText(d('-0.125'), 2), '-0.13');
  assert.equal(fixedText(d('2.4'), 2), '2.40');
  assert.equal(fixedText(d('-0.001'), 2), '0.00', 'no negative zero');
  assert.equal(toNumber(roundDecimal(d('39363414290.667'), 2)), 39363414290.67);
  assert.equal(decimalText(divideDecimal(d('1'), d('8'), 2)), '0.13');
  assert.equal(decimalText(divideDecimal(d('-1'), d('8'), 2)), '-0.13');
  assert.equal(decimalText(divideDecimal(d('245078392'), d('332688337'), 6)), '0.736661');
  assert.throws(() => divideDecimal(d('1'), d('0'), 2), RangeError);
});

test('numbers are read as the decimal they print as', () => {
  assert.equal(decimalText(fromNumber(19965000000)), '19965000000');
  assert.equal(decimalText(fromNumber(2.4)), '2.4');
  assert.equal(decimalText(fromNumber(1e-7)), '0.0000001');
  assert.throws(() => fromNumber(Number.NaN), RangeError);
});

test('text that is not a decimal is refused', () => {
  for (const bad of [undefined, '', '.', '-', '1.2.3', 'abc', '1e', '12,34', 'Infinity', '0x10']) assert.equal(parseDecimal(bad), undefined, String(bad));
});

test('exact sums of cents agree with integer arithmetic for any amounts', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 99_999 })), { maxLength: 50 }), (trades) => {
    // shares whole, price with up to 4 decimals: value in 1/10000 USD is shares × price×10⁴ exactly.
    const exact = trades.reduce((s, [shares, price]) => s + BigInt(shares) * BigInt(price), 0n);
    const expectedCents = (exact + 50n) / 100n;
    const sum = sumDecimals(trades.map(([shares, price]) => multiplyDecimal(d(String(shares)), { units: BigInt(price), scale: 4 })));
    assert.equal(roundDecimal(sum, 2).units * 10n ** BigInt(2 - roundDecimal(sum, 2).scale), expectedCents);
  }));
});

test('a quotient of whole numbers in floating point is the exact quotient rounded once, or left to the exact path', () => {
  const exact = (n: number, d: number, digits: number): number => toNumber(divideDecimal(fromNumber(n), fromNumber(d), digits));
  const agrees = (n: number, d: number, digits: number): void => {
    const fast = wholeQuotient(n, d, digits);
    if (fast !== undefined) assert.ok(Object.is(fast, exact(n, d, digits)), `${n} / ${d} to ${digits}: ${fast} vs ${exact(n, d, digits)}`);
  };
  const whole = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.maxSafeInteger().map((n) => n - 2 ** 52), fc.integer({ min: 1, max: 1e13 }));
  const divisor = whole.filter((n) => n !== 0);
  fc.assert(fc.property(whole, divisor, fc.constantFrom(0, 2, 6), (n, d, digits) => agrees(n, d, digits)), { numRuns: 20_000 });
  // Exact halves (n / d × 10^digits = k + 1/2) and their neighbours: the margin sends them to the exact path or rounds them right.
  fc.assert(fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 1e6 }), fc.constantFrom(2, 6), fc.constantFrom(-1, 0, 1), (k, m, digits, nudge) => {
    const d = 2 * m * 10 ** digits;
    if (Number.isSafeInteger(d)) agrees((2 * k + 1) * m + nudge, d, digits);
  }), { numRuns: 20_000 });
  assert.equal(wholeQuotient(1, 8, 2), undefined, '0.125 is a half at 2 decimals: decided exactly');
  assert.equal(exact(1, 8, 2), 0.13);
  assert.equal(wholeQuotient(-1, 3, 2), -0.33);
  assert.ok(Object.is(wholeQuotient(-1, 1000, 2), 0), 'no negative zero');
  assert.equal(wholeQuotient(1.5, 3, 2), undefined, 'not whole');
  assert.equal(wholeQuotient(1, 0, 2), undefined);
  assert.equal(wholeQuotient(2 ** 53, 3, 2), undefined, 'not a safe integer');
  assert.equal(wholeQuotient(1e12, 1, 2), undefined, 'too large to be exact in floating point');
});
