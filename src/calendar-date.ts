/**
 * Calendar dates as the API writes them, `YYYY-MM-DD` (RFC 3339 §5.6 `full-date`): whether one
 * names a real day, and which. Read by hand, with no Date or regular expression: the snapshot
 * reader checks a date of every row, and the filter indexes read one of every row.
 */

/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the `length` ASCII digits at `at` in `text`, or -1 when one is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Days from 1970-01-01 to a date `YYYY-MM-DD` (four, two and two digits) of the proleptic
 * Gregorian calendar (RFC 3339 `full-date`), or undefined when the text is not one or the date
 * does not exist (2026-02-30).
 */
export function dayNumber(text: string): number | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > MONTH_DAYS[month - 1]! + (month === 2 && leap ? 1 : 0)) return undefined;
  // Days from civil (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"): years from March.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
