/**
 * Exact decimal arithmetic for figures that EDGAR files as decimal text (Form 4 shares and
 * prices, 13F values) and for the rounding of what is computed from them. A decimal is an
 * integer count of `10^-scale` units held in a BigInt, so products and sums are exact and a
 * figure is rounded once, at the end, half away from zero ("half-up" as people round money:
 * 0.125 → 0.13, -0.125 → -0.13). Binary floating point cannot do this: 3,107,623 × 191.467
 * is 595,007,252.941 exactly but a double carries it as 595007252.94099998…
 */

/** `units / 10^scale`, exactly. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Zero. */
export const ZERO: Decimal = Object.freeze({ units: 0n, scale: 0 });

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/**
 * Reads decimal text: `191.467`, `-0.25`, `1,234.5` (commas between digit groups are
 * dropped), `.5`, `1.5E3`.
 *
 * @returns the decimal, or undefined when `text` is not a finite decimal number.
 */
export function parseDecimal(text: string | undefined): Decimal | undefined {
  if (text === undefined) return undefined;
  const m = DECIMAL_TEXT.exec(text.trim().replace(/(\d),(?=\d{3}\b)/g, '$1'));
  if (!m) return undefined;
  const [, sign, whole = '', fraction = '', exponent] = m;
  if (whole === '' && fraction === '') return undefined;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - Number(exponent ?? 0);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/**
 * The decimal that a JavaScript number prints as (its shortest round-trip text), so that a
 * figure stored as 19965000000 or 2.4 is read as exactly that.
 *
 * @throws RangeError when `n` is not finite.
 */
export function fromNumber(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return parseDecimal(String(n))!;
}

const rescale = (d: Decimal, scale: number): bigint => d.units * 10n ** BigInt(scale - d.scale);

/** `a + b`, exactly. */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

/** `a - b`, exactly. */
export const subtractDecimal = (a: Decimal, b: Decimal): Decimal => addDecimal(a, { units: -b.units, scale: b.scale });

/** `a × b`, exactly. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** The sum of `values`, exactly. */
export function sumDecimals(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const value of values) total = addDecimal(total, value);
  return total;
}

/** `numerator / denominator` rounded half away from zero to an integer. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = (numerator < 0n) !== (denominator < 0n);
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

/**
 * Rounds half away from zero to `digits` decimals.
 *
 * @param digits - decimals to keep, 0 or more.
 */
export function roundDecimal(d: Decimal, digits: number): Decimal {
  if (d.scale <= digits) return d;
  return { units: divideHalfUp(d.units, 10n ** BigInt(d.scale - digits)), scale: digits };
}

/**
 * `numerator / denominator` rounded once, half away from zero, to `digits` decimals.
 *
 * @throws RangeError when `denominator` is zero.
 */
export function divideDecimal(numerator: Decimal, denominator: Decimal, digits: number): Decimal {
  const scale = Math.max(numerator.scale, denominator.scale);
  return { units: divideHalfUp(rescale(numerator, scale) * 10n ** BigInt(digits), rescale(denominator, scale)), scale: digits };
}

/** Largest scaled quotient that {@link wholeQuotient} answers in floating point: its error stays under 2.3e-7 below it. */
const FLOAT_QUOTIENT_LIMIT = 1e9;
/** How near a half the floating-point quotient may come before the exact path decides the rounding. */
const TIE_MARGIN = 1e-6;

/**
 * `numerator / denominator` for whole numbers, rounded once half away from zero to `digits`
 * decimals, in binary floating point where that gives the exact answer's rounding, which is the
 * usual case for 13F figures (whole dollars and share counts) and is about 20 times faster than
 * BigInt decimals. Both inputs below 2^53 are exact doubles; the product by 10^digits and the
 * division each err by at most half an ulp (IEEE 754 round to nearest), so a quotient below
 * 1e9 is within 2.3e-7 of the true one, and where it is more than 1e-6 from a half, rounding it
 * gives what rounding the true quotient gives. The units (below 1e9) divided by 10^digits are
 * then the double nearest that decimal, as `toNumber` gives it.
 *
 * @param digits - decimals to keep, 0 to 15.
 * @returns the rounded quotient, or undefined where an input is not a safe whole number, the
 *   denominator is 0, the quotient is too large, or it lies too near a half: then divide exactly
 *   ({@link divideDecimal}).
 */
export function wholeQuotient(numerator: number, denominator: number, digits: number): number | undefined {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator === 0) return undefined;
  const scaled = (numerator * 10 ** digits) / denominator;
  const size = Math.abs(scaled);
  if (size >= FLOAT_QUOTIENT_LIMIT || Math.abs((size % 1) - 0.5) <= TIE_MARGIN) return undefined;
  const units = Math.round(size);
  // No negative zero: the exact path gives 0 for a quotient that rounds to nothing.
  return (scaled < 0 && units !== 0 ? -units : units) / 10 ** digits;
}

/** The decimal as text without exponent or trailing zeros: `-0.25`, `19965000000`, `2.4`. */
export function decimalText(d: Decimal): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return `${negative && (whole !== '0' || fraction !== '') ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The decimal as a JavaScript number (exact when it has at most 15 significant digits, as cents of amounts under $10 trillion do). */
export const toNumber = (d: Decimal): number => Number(decimalText(d));

/**
 * The decimal with exactly `digits` decimals, rounded half away from zero: `2.40`, `-0.25`.
 *
 * @param digits - decimals to show, 0 or more.
 */
export function fixedText(d: Decimal, digits: number): string {
  const rounded = roundDecimal(d, digits);
  const units = rescale(rounded, digits);
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return `${negative && units !== 0n ? '-' : ''}${whole}${digits > 0 ? `.${text.slice(text.length - digits)}` : ''}`;
}
