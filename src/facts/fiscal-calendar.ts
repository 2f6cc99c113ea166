/**
 * A company's fiscal calendar, from the dates of what it reported (docs/api.md §16): which
 * periods are quarters or years, where its fiscal years end, and which fiscal year and quarter a
 * three-month period is. The filing's `fy` and `fp` tags are not used: they describe the filing,
 * not the fact (a 10-K's prior-year comparatives carry the 10-K's own year), and some filings tag
 * them wrongly.
 *
 * Period lengths follow XBRL US's data quality rule DQC_0006 (period lengths of 10-Q and 10-K
 * filings: a quarter 77 to 119 days, a fiscal year 350 to 379), narrowed for a quarter so that a
 * two- or four-month period is not taken for one.
 */
import { addDays, daysBetween } from '../edgar/conventions.js';

/** Days from a quarter's first day to its last (`daysBetween`): 80 to 100 (13 weeks are 90, 14 weeks 97, a calendar quarter 89 to 91). */
export const QUARTER_DAYS = Object.freeze({ min: 80, max: 100 });
/** Days from a fiscal year's first day to its last: 350 to 380 (52 weeks are 363, 53 weeks 370, a calendar year 364 or 365). */
export const YEAR_DAYS = Object.freeze({ min: 350, max: 380 });

/** A quarter's average length in days (365.25 / 4): how far a quarter's end lies from its year's end. */
const QUARTER = 365.25 / 4;
/** How far a quarter's end may lie from where a whole number of quarters before its year's end puts it. */
const QUARTER_SLACK_DAYS = 20;
/** A quarter ending up to this many days after a fiscal year's nominal end belongs to that year (52/53-week years drift a few days). */
const YEAR_END_SLACK_DAYS = 45;

/** A quarter of a fiscal year. */
export type FiscalQuarter = 'Q1' | 'Q2' | 'Q3' | 'Q4';

/**
 * Whether `start`..`end` is a quarter, a year or neither.
 *
 * @param start - first day, `YYYY-MM-DD`.
 * @param end - last day, `YYYY-MM-DD`.
 */
export function periodLength(start: string, end: string): 'quarter' | 'year' | null {
  const days = daysBetween(start, end);
  if (days >= QUARTER_DAYS.min && days <= QUARTER_DAYS.max) return 'quarter';
  if (days >= YEAR_DAYS.min && days <= YEAR_DAYS.max) return 'year';
  return null;
}

/**
 * The number of a fiscal year that ends on `yearEnd`: the calendar year of its last day, or the
 * year before when that day is January 1 to 7. A 52/53-week year that ends on the weekday nearest
 * December 31 sometimes ends in the first days of January and is named for the year before
 * (fiscal 2020 ending January 2, 2021); a year ending later in January or in February is named
 * for the year it ends in (NVIDIA's fiscal 2024 ended January 28, 2024).
 */
export function fiscalYearName(yearEnd: string): number {
  const year = Number(yearEnd.slice(0, 4));
  return yearEnd.slice(5, 7) === '01' && Number(yearEnd.slice(8, 10)) <= 7 ? year - 1 : year;
}

/** Where a three-month period falls on a fiscal calendar. */
export interface QuarterPlace {
  fiscalYear: number;
  fiscalPeriod: FiscalQuarter;
}

/** A company's fiscal calendar: places quarters by their last day. */
export interface FiscalCalendar {
  /**
   * The fiscal year and quarter that a three-month period ending on `end` is, or null where
   * its end is not near a quarter's end of the calendar (a period of another calendar, say
   * across a change of fiscal year).
   */
  place(end: string): QuarterPlace | null;
}

/**
 * The fiscal calendar of a company.
 *
 * @param yearEnds - last days of the fiscal years its annual reports stated, `YYYY-MM-DD`, any order.
 * @param fiscalYearEnd - the fiscal year end EDGAR records for the company (submissions JSON
 *   `fiscalYearEnd`, `MMDD`), used where no year is known; null where none is.
 * @returns the calendar, or null when neither gives a fiscal year end.
 */
export function fiscalCalendar(yearEnds: readonly string[], fiscalYearEnd: string | null): FiscalCalendar | null {
  const ends = [...new Set(yearEnds)].sort();
  const anchor = ends.at(-1) ?? anchorFrom(fiscalYearEnd);
  if (anchor === null) return null;
  /** The fiscal year end that a quarter ending on `end` belongs to. */
  const yearEndFor = (end: string): string => {
    const earliest = addDays(end, -YEAR_END_SLACK_DAYS);
    const known = ends.find((e) => e >= earliest);
    // A known year end within a year of the quarter; else the anniversary of the nearest one.
    if (known !== undefined && daysBetween(end, known) <= YEAR_DAYS.max) return known;
    const base = ends.filter((e) => e <= end).at(-1) ?? ends[0] ?? anchor;
    return anniversaryOnOrAfter(base, earliest);
  };
  return {
    place(end: string): QuarterPlace | null {
      const yearEnd = yearEndFor(end);
      const days = daysBetween(end, yearEnd);
      const before = Math.round(days / QUARTER);
      if (before < 0 || before > 3 || Math.abs(days - before * QUARTER) > QUARTER_SLACK_DAYS) return null;
      return { fiscalYear: fiscalYearName(yearEnd), fiscalPeriod: `Q${4 - before}` as FiscalQuarter };
    },
  };
}

/** A date in some year on the `MMDD` fiscal year end, or null for a value that is not one. */
function anchorFrom(mmdd: string | null): string | null {
  if (mmdd === null || !/^(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$/.test(mmdd)) return null;
  return `2000-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`;
}

/** The first anniversary of `base` (same month and day; February 29 as February 28) on or after `from`. */
function anniversaryOnOrAfter(base: string, from: string): string {
  const monthDay = base.slice(5) === '02-29' ? '02-28' : base.slice(5);
  let year = Number(from.slice(0, 4)) - 1;
  let candidate = `${String(year).padStart(4, '0')}-${monthDay}`;
  while (candidate < from) candidate = `${String(++year).padStart(4, '0')}-${monthDay}`;
  return candidate;
}
