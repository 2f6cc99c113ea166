/**
 * Numbers in the written fields, as people write them: the sign before the dollar sign
 * (`-$0.25`), thousands separators, money in billions with two decimals and millions with one,
 * per-share amounts with two decimals, and every rounding done once, half away from zero, from
 * the exact decimal the row holds (`19,965,000,000` is "$19.97 billion", where binary floating
 * point rounds 19.965 down to 19.96).
 */
import { decimalText, fixedText, fromNumber, multiplyDecimal, roundDecimal, type Decimal } from './decimal.js';

/** `d / 10^digits`, exactly. */
const shifted = (d: Decimal, digits: number): Decimal => ({ units: d.units, scale: d.scale + digits });

/** Digits with `,` between thousands: `1234567.5` → `1,234,567.5`. */
function grouped(text: string): string {
  const [whole = '', fraction] = text.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** `-$` or `$` and the absolute value's text. */
function money(d: Decimal, body: (absolute: Decimal) => string): string {
  const negative = d.units < 0n;
  const text = body({ units: negative ? -d.units : d.units, scale: d.scale });
  return `${negative && /[1-9]/.test(text) ? '-' : ''}$${text}`;
}

/**
 * `a / divisor` rounded half away from zero, for safe whole numbers `a ≥ 0` and `divisor`: exact,
 * since the remainder and the multiple of `divisor` below `a` are exact doubles.
 */
function wholeDivision(a: number, divisor: number): number {
  const rest = a % divisor;
  return (a - rest) / divisor + (rest * 2 >= divisor ? 1 : 0);
}

/** The digits of a safe whole number as {@link decimalText} writes them, else the exact decimal's (rows hold mostly whole numbers). */
const numberText = (n: number): string => (Number.isSafeInteger(n) ? String(n) : decimalText(fromNumber(n)));

/**
 * USD for prose: `$39.36 billion`, `$504.9 million`, `$12,345`; rounded once, and moved up a
 * unit where rounding reaches it (999,960,000 is `$1.00 billion`, not `$1,000.0 million`).
 * Whole dollars (13F values) take integer arithmetic and give the same text.
 *
 * @param usd - an amount in USD as a row holds it.
 */
export function formatUsd(usd: number): string {
  if (Number.isSafeInteger(usd)) {
    const a = Math.abs(usd);
    const hundredthsOfBillion = wholeDivision(a, 1e7);
    const tenthsOfMillion = wholeDivision(a, 1e5);
    const text = hundredthsOfBillion >= 100
      ? `${grouped(String(Math.floor(hundredthsOfBillion / 100)))}.${String(hundredthsOfBillion % 100).padStart(2, '0')} billion`
      : tenthsOfMillion >= 10 ? `${Math.floor(tenthsOfMillion / 10)}.${tenthsOfMillion % 10} million` : grouped(String(a));
    return `${usd < 0 ? '-' : ''}$${text}`;
  }
  return money(fromNumber(usd), (a) => {
    const billions = fixedText(shifted(a, 9), 2);
    if (Number(billions) >= 1) return `${grouped(billions)} billion`;
    const millions = fixedText(shifted(a, 6), 1);
    if (Number(millions) >= 1) return `${millions} million`;
    return grouped(fixedText(a, 0));
  });
}

/** A price per share as filed, with at least two decimals: `$17.00`, `$191.467`, `$1,234.50`. */
export function formatPrice(usd: number): string {
  return money(fromNumber(usd), (a) => grouped(a.scale >= 2 ? decimalText(a) : fixedText(a, 2)));
}

/** Earnings per share with two decimals, rounded once: `$2.40`, `-$0.25`. */
export function formatPerShare(usd: number): string {
  return money(fromNumber(usd), (a) => fixedText(a, 2));
}

/** A share 0–1 as a percentage with one decimal, rounded once: 0.736661 → `73.7%`. */
export function formatShare(weight: number): string {
  // A weight of at most 6 decimals (as rows hold them) is its millionths exactly: no other decimal of
  // 6 places or fewer is within an ulp of it, so it prints as that decimal.
  const millionths = Math.round(weight * 1e6);
  if (weight >= 0 && Number.isSafeInteger(millionths) && millionths / 1e6 === weight) {
    const tenthsOfPercent = wholeDivision(millionths, 1000);
    return `${Math.floor(tenthsOfPercent / 10)}.${tenthsOfPercent % 10}%`;
  }
  return `${fixedText(roundDecimal(multiplyDecimal(fromNumber(weight), fromNumber(100)), 1), 1)}%`;
}

/** A count with its noun: `1 purchase`, `1,279 sales`. */
export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${grouped(String(n))} ${n === 1 ? one : many}`;
}

/** A number of shares as filed, with thousands separators: `3,107,623`, `35.944`. */
export const formatShares = (n: number): string => grouped(numberText(n));

/** A change in percent as a row holds it (already rounded), signed: `+50%`, `-13.12%`, `+1,250%`. */
export const formatChangePercent = (pct: number): string => `${pct > 0 ? '+' : ''}${grouped(numberText(pct))}%`;
