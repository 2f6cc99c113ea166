/**
 * EDGAR's clock. EDGAR stamps filings in Eastern time (America/New_York, daylight saving
 * included): the SGML header's `<ACCEPTANCE-DATETIME>` (`YYYYMMDDHHMMSS`), the "Accepted" line
 * of a filing's `-index.htm` page (`YYYY-MM-DD HH:MM:SS`), and, in some submissions JSON files,
 * `acceptanceDateTime`, which then writes the Eastern wall-clock time with a misleading `Z`
 * (`2022-05-06T18:30:57.000Z` for a filing accepted at 18:30:57 EDT, that is 22:30:57 UTC;
 * which files do is settled in company/submissions-clock.ts). Rows carry instants in UTC, so every
 * Eastern time goes through {@link easternToUtc}. The offsets come from the tz database that Node's
 * `Intl` carries; nothing is hard-coded about when daylight saving starts or ends.
 */

/** A wall-clock time in New York, as EDGAR writes it. */
export interface EasternWallTime {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** @default 0 */
  millisecond?: number;
}

const HOUR_MS = 3_600_000;
/** New York's two offsets behind UTC, in hours: EDT first, so that a repeated hour reads as its first occurrence. */
const OFFSETS_BEHIND_UTC = [4, 5] as const;

let formatter: Intl.DateTimeFormat | undefined;

/** The wall-clock fields that New York showed at `instant` (ms since the epoch). */
function newYorkFields(instant: number): string {
  formatter ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
    hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  const parts = formatter.formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/**
 * The UTC instant of a New York wall-clock time. A time that occurs twice (the hour after
 * 01:00 on the first Sunday of November) is read as its first occurrence (EDT); a time that
 * never occurs (the hour after 02:00 on the second Sunday of March) is read with the offset
 * in force before the change (EST), which is how Temporal's "compatible" disambiguation and
 * most libraries read it. EDGAR accepts filings from 06:00 to 22:00, so neither case arises in
 * real acceptance times.
 *
 * @param wall - the wall-clock fields.
 * @returns the instant, or undefined when the fields are not a calendar date and time.
 */
export function easternToUtc(wall: EasternWallTime): Date | undefined {
  const { year, month, day, hour, minute, second } = wall;
  const millisecond = wall.millisecond ?? 0;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const check = new Date(asUtc);
  if (Number.isNaN(asUtc) || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day
    || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second) return undefined;
  const wanted = `${year}-${month}-${day} ${hour}:${minute}:${second}`;
  for (const behind of OFFSETS_BEHIND_UTC) {
    const instant = asUtc + behind * HOUR_MS;
    if (newYorkFields(instant) === wanted) return new Date(instant);
  }
  return new Date(asUtc + OFFSETS_BEHIND_UTC[1] * HOUR_MS);
}

const COMPACT = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;
const SEPARATED = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z?$/;

/**
 * Reads an EDGAR Eastern time in any of its three forms and returns the instant as RFC 3339
 * UTC with milliseconds (`2022-05-06T22:30:57.000Z`):
 * - `20220506183057` (SGML `<ACCEPTANCE-DATETIME>`);
 * - `2022-05-06 18:30:57` (the "Accepted" line of a `-index.htm` page);
 * - `2022-05-06T18:30:57.000Z` (`acceptanceDateTime` of a submissions file that writes Eastern time with a `Z`).
 *
 * EDGAR writes midnight (`00:00:00`) where it does not know the time, for filings of the 1990s
 * and early 2000s; it never accepts filings at midnight, so such a value gives undefined.
 *
 * @returns the instant, or undefined when `value` is none of these, not a real time, or midnight.
 */
export function edgarEasternToIso(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const m = COMPACT.exec(text) ?? SEPARATED.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millisecond = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  if (hour === 0 && minute === 0 && second === 0 && millisecond === 0) return undefined;
  return easternToUtc({ year, month, day, hour, minute, second, millisecond })?.toISOString();
}
