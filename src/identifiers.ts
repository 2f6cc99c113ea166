/**
 * Tickers and CIKs: what each looks like in a row, what the API accepts for it, and how a
 * written one becomes the row form. Stated here once for the row schemas, the query parameters
 * (their checks and their OpenAPI `pattern`s), the EDGAR readers and the fetch command.
 */

/** Longest ticker, in characters, in a row or a query. */
export const TICKER_MAX_LENGTH = 12;

/**
 * A ticker as rows hold it, in EDGAR's form (company_tickers.json): 1–12 of upper-case
 * `A-Z`, `0-9` and `-`, a class suffix after `-` (`BRK-B`). JSON Schema `pattern` syntax.
 */
export const TICKER_PATTERN = `^[A-Z0-9-]{1,${TICKER_MAX_LENGTH}}$`;

/**
 * A ticker as a client may write it in `?ticker=`: 1–12 of `A-Z a-z 0-9 . - /`. Case does not
 * matter and `.` and `/` are read as `-` ({@link edgarTicker}), so `brk.b` and `BRK/B` are `BRK-B`.
 */
export const TICKER_QUERY_PATTERN = `^[A-Za-z0-9./-]{1,${TICKER_MAX_LENGTH}}$`;

const TICKER = new RegExp(TICKER_PATTERN);

/**
 * Writes a ticker in EDGAR's form: upper case, `.` and `/` as `-` (`brk.b`, `BRK/B` → `BRK-B`).
 * Checks nothing: see {@link normaliseTicker}.
 */
export function edgarTicker(value: string): string {
  const upper = value.toUpperCase();
  return upper.indexOf('.') === -1 && upper.indexOf('/') === -1 ? upper : upper.replace(/[./]/g, '-');
}

/**
 * A ticker in EDGAR's form, from a ticker as any input writes it (surrounding spaces ignored).
 *
 * @returns the ticker, or undefined when it does not then fit {@link TICKER_PATTERN}.
 */
export function normaliseTicker(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ticker = edgarTicker(value.trim());
  return TICKER.test(ticker) ? ticker : undefined;
}

/** Digits of a CIK as rows and data.sec.gov file names write it, zero-padded. */
export const CIK_LENGTH = 10;

/** A CIK as rows hold it: exactly 10 digits, zero-padded (`0000320193`). JSON Schema `pattern` syntax. */
export const CIK_PATTERN = `^[0-9]{${CIK_LENGTH}}$`;

/** Longest CIK accepted in `?cik=`, leading zeros included. */
export const CIK_QUERY_MAX_LENGTH = 20;

/** A CIK as a client may write it in `?cik=`: 1–20 digits, leading zeros ignored ({@link padCikDigits}). */
export const CIK_QUERY_PATTERN = `^[0-9]{1,${CIK_QUERY_MAX_LENGTH}}$`;

const CIK_DIGITS = new RegExp(`^[0-9]{1,${CIK_LENGTH}}$`);

/**
 * A CIK zero-padded to 10 digits, as data.sec.gov writes it, from a CIK as an EDGAR input
 * writes it (surrounding spaces ignored).
 *
 * @param cik - 1–10 digits, with or without leading zeros, or a number.
 * @returns the padded CIK, or undefined when `cik` is not 1–10 digits.
 */
export function padCik(cik: string | number | undefined): string | undefined {
  if (cik === undefined) return undefined;
  const digits = String(cik).trim();
  return CIK_DIGITS.test(digits) ? digits.padStart(CIK_LENGTH, '0') : undefined;
}

/**
 * Digits with their leading zeros dropped, then zero-padded to 10 (`00000000000000320193` and
 * `320193` → `0000320193`). More than 10 significant digits are kept whole: no row has such a CIK.
 *
 * @param digits - ASCII digits only, checked by the caller (see {@link CIK_QUERY_PATTERN}).
 */
export function padCikDigits(digits: string): string {
  return digits.replace(/^0+/, '').padStart(CIK_LENGTH, '0');
}
