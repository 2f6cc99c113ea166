/**
 * U.S. Eastern time written out by hand from the statute (15 U.S.C. §260a, as amended by the
 * Energy Policy Act of 2005): from 2007, daylight saving runs from the second Sunday of March
 * 02:00 to the first Sunday of November 02:00; from 1987 to 2006, from the first Sunday of
 * April to the last Sunday of October. Tests compare the builder's Intl-based conversion with it.
 */

/** Day of month of the n-th Sunday (n from 1; -1 is the last) of a month. */
function sunday(year: number, month: number, n: number): number {
  if (n > 0) {
    const firstDow = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((7 - firstDow) % 7) + (n - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return lastDay - new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
}

/** Hours New York is behind UTC at a wall-clock time outside the changeover hours. */
export function hoursBehindUtc(year: number, month: number, day: number, hour: number): 4 | 5 {
  const [startMonth, startDay, endMonth, endDay] = year >= 2007
    ? [3, sunday(year, 3, 2), 11, sunday(year, 11, 1)]
    : [4, sunday(year, 4, 1), 10, sunday(year, 10, -1)];
  const key = (m: number, d: number, h: number): number => (m * 100 + d) * 100 + h;
  const now = key(month, day, hour);
  return now >= key(startMonth, startDay, 2) && now < key(endMonth, endDay, 2) ? 4 : 5;
}

/** The UTC instant of an EDGAR `YYYYMMDDHHMMSS` Eastern time, by the statute. */
export function easternDigitsToUtc(digits: string): string {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(digits.slice(at, at + (i === 0 ? 4 : 2)))) as [number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h + hoursBehindUtc(y, mo, d, h), mi, s)).toISOString();
}
