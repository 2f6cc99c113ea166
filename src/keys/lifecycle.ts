/**
 * The times of a key's life: the RFC 3339 date-times of the keys file (`created_at`,
 * `expires_at`), the grace a rotation leaves the old key (`keys rotate --grace 24h`), and whether
 * a key has expired at a given instant. From its `expires_at` on, a key answers 401
 * `invalid_api_key` saying it expired; the server asks its clock at every request, so a key
 * expires on time without a reload of the file.
 */

/**
 * RFC 3339 §5.6 `date-time`: full-date `T` full-time, with a `Z` or numeric offset (never a
 * local time). `T`, `Z` and a space for `T` are accepted in either case (RFC 3339 §5.6, note).
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Reads an RFC 3339 date-time strictly: a real calendar day (not February 30), hours 00-23,
 * minutes and seconds 00-59 (a leap second 60 is refused: `Date` cannot hold it), an offset of at
 * most 23:59. `Date.parse` alone accepts `2026-02-30T00:00:00Z` (as March 2) and a date without a
 * time or zone.
 *
 * @param text - e.g. `2026-11-22T12:00:00Z` or `2026-11-22T13:00:00.5+01:00`.
 * @returns the instant in ms since the Unix epoch, or `undefined` when `text` is not one.
 */
export function parseDateTime(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, , , offsetHours, offsetMinutes] = match;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  if (offsetHours !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const midnight = new Date(0);
  midnight.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  if (midnight.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return undefined;
  return Date.parse(text.toUpperCase().replace(' ', 'T'));
}

/**
 * An instant as the keys file writes it: RFC 3339 in UTC, whole seconds when the instant has no
 * milliseconds (`2026-11-22T12:00:00Z`), else with them.
 *
 * @param ms - ms since the Unix epoch.
 */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** ms in one unit of a grace: `s`, `m`, `h`, `d`. */
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The grace `keys rotate` leaves the old key when `--grace` is not given: 24 hours, in ms. */
export const DEFAULT_GRACE_MS = 24 * UNIT_MS.h;

/** The longest grace `--grace` accepts, ms: 365 days. A longer one is not a grace but a second key. */
export const MAX_GRACE_MS = 365 * UNIT_MS.d;

/**
 * Reads a grace duration: a whole number and one unit, `s`, `m`, `h` or `d` (`90s`, `30m`, `24h`,
 * `7d`); `0s` expires the old key at once.
 *
 * @param text - the value of `--grace`.
 * @returns the duration in ms, or `undefined` when `text` is not one or is above {@link MAX_GRACE_MS}.
 */
export function parseGrace(text: string): number | undefined {
  const match = /^(\d{1,9})([smhd])$/.exec(text);
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms <= MAX_GRACE_MS ? ms : undefined;
}

/**
 * Whether a key has expired at `nowMs`: from its `expires_at` on (that instant included).
 *
 * @param expiresAt - the record's `expires_at`, already checked by the keys file; absent means never.
 * @param nowMs - the clock, ms since the Unix epoch.
 */
export function hasExpired(expiresAt: string | undefined, nowMs: number): boolean {
  // Only keys with an expiry pay for the parse (a rotated key in its grace): about a microsecond.
  return expiresAt !== undefined && nowMs >= parseDateTime(expiresAt)!;
}
