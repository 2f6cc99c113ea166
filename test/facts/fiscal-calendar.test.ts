/**
 * A company's fiscal calendar from the dates of what it reported (docs/api.md §16).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fiscalCalendar, fiscalYearName, periodLength } from '../../src/facts/fiscal-calendar.js';

test('a period is a quarter from 80 to 100 days, a year from 350 to 380, else neither', () => {
  assert.equal(periodLength('2024-06-30', '2024-09-28'), 'quarter', '13 weeks');
  assert.equal(periodLength('2023-07-02', '2023-09-30'), 'quarter');
  assert.equal(periodLength('2025-01-01', '2025-03-31'), 'quarter', 'a calendar quarter');
  assert.equal(periodLength('2022-09-25', '2023-09-30'), 'year', '53 weeks');
  assert.equal(periodLength('2024-01-01', '2024-12-31'), 'year');
  assert.equal(periodLength('2024-03-31', '2024-09-28'), null, 'six months year to date');
  assert.equal(periodLength('2023-10-01', '2024-06-29'), null, 'nine months');
});

test('a fiscal year is named for the calendar year it ends in, or the year before when it ends January 1 to 7', () => {
  assert.equal(fiscalYearName('2024-09-28'), 2024, 'Apple');
  assert.equal(fiscalYearName('2024-01-28'), 2024, 'NVIDIA names the year ending in late January for that year');
  assert.equal(fiscalYearName('2024-02-03'), 2024);
  assert.equal(fiscalYearName('2021-01-02'), 2020, 'a 52/53-week year ending on the Saturday nearest December 31');
  assert.equal(fiscalYearName('2021-01-08'), 2021);
});

test('quarters are placed by their distance to the year end that follows them, known or extrapolated', () => {
  const apple = fiscalCalendar(['2023-09-30', '2024-09-28', '2022-09-24'], '0927')!;
  assert.deepEqual(apple.place('2023-12-30'), { fiscalYear: 2024, fiscalPeriod: 'Q1' });
  assert.deepEqual(apple.place('2024-03-30'), { fiscalYear: 2024, fiscalPeriod: 'Q2' });
  assert.deepEqual(apple.place('2024-06-29'), { fiscalYear: 2024, fiscalPeriod: 'Q3' });
  assert.deepEqual(apple.place('2024-09-28'), { fiscalYear: 2024, fiscalPeriod: 'Q4' });
  // After the last known year: its anniversary, which the 52/53-week year may miss by days.
  assert.deepEqual(apple.place('2024-12-28'), { fiscalYear: 2025, fiscalPeriod: 'Q1' });
  assert.deepEqual(apple.place('2025-09-27'), { fiscalYear: 2025, fiscalPeriod: 'Q4' });
  assert.deepEqual(apple.place('2021-12-25'), { fiscalYear: 2022, fiscalPeriod: 'Q1' }, 'before the first known year');
  assert.equal(apple.place('2024-08-15'), null, 'six weeks from the year end is no quarter end');
});

test('without a known year, EDGAR\'s fiscal year end places quarters; without either there is no calendar', () => {
  const calendar = fiscalCalendar([], '1231')!;
  assert.deepEqual(calendar.place('2025-03-31'), { fiscalYear: 2025, fiscalPeriod: 'Q1' });
  assert.deepEqual(calendar.place('2025-09-30'), { fiscalYear: 2025, fiscalPeriod: 'Q3' });
  assert.equal(fiscalCalendar([], null), null);
  assert.equal(fiscalCalendar([], '1332'), null, 'not a month and day');
});
