/**
 * The filter indexes and their scan (docs/api.md §15): postings hold each row once per value,
 * ascending, and read back from their parts alone; the leapfrog scan gives exactly the rows a
 * brute-force intersection of unions gives, from any position; a date range is a run of rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { indexPlanOf, indexPlans, KindFilterIndexBuilder, NO_DATE, Postings } from '../../src/data/filter-index.js';
import { FilterScan, firstRowBelow, gallop } from '../../src/data/filter-scan.js';
import { LISTED_BY } from '../../src/data/snapshot-index.js';
import { cikFilter, sinceFilter } from '../../src/filters.js';
import { dayNumber } from '../../src/calendar-date.js';
import { ROUTES } from '../../src/routes.js';

const sortedList = fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 60 }).map((values) => Int32Array.from(values.sort((a, b) => a - b)));

test('gallop finds the first element at or after the target from any start', () => {
  fc.assert(fc.property(sortedList, fc.integer({ min: 0, max: 60 }), fc.integer({ min: -1, max: 202 }), (list, from, target) => {
    const start = Math.min(from, list.length);
    let expected = start;
    while (expected < list.length && list[expected]! < target) expected++;
    assert.equal(gallop(list, start, target), expected);
  }));
});

test('the scan gives the rows every criterion holds (a union of lists each), ascending, within its range', () => {
  const criteria = fc.array(fc.array(sortedList, { minLength: 1, maxLength: 3 }), { maxLength: 3 });
  fc.assert(fc.property(criteria, fc.integer({ min: 0, max: 210 }), fc.integer({ min: 0, max: 210 }), (lists, from, end) => {
    const expected: number[] = [];
    for (let row = from; row < end; row++) if (lists.every((union) => union.some((list) => list.includes(row)))) expected.push(row);
    const scan = new FilterScan(lists, from, end);
    const got: number[] = [];
    for (let row = scan.next(); row !== -1; row = scan.next()) got.push(row);
    assert.deepEqual(got, expected);
    assert.equal(scan.next(), -1, 'an ended scan stays ended');
  }));
});

test('postings hold each row once per value however many fields hold it, ascending, and read back from their parts', () => {
  const builder = new KindFilterIndexBuilder(indexPlanOf('filings'));
  const rows = [
    { form: '8-K', items: ['2.02', '9.01', '2.02'], filed_at: '2025-03-02', cik: '0000000001' },
    { form: '4', items: [], filed_at: '2025-03-01', cik: '0000000002' },
    { form: '8-k', items: ['20200103', '9.01'], filed_at: '2025-03-01', cik: '0000000001' },
    { form: '10-K', items: [], filed_at: null, cik: '0000000001' },
  ];
  rows.forEach((row, number) => builder.add(number, row));
  const filings = builder.finish();
  assert.deepEqual([...filings.postings.keys()].sort(), ['cik', 'form', 'item'], 'ticker is the lists\' own index, not built again');
  const forms = filings.postings.get('form')!;
  assert.deepEqual([...forms.get('8-K')!], [0, 2], 'values are normalised as queries are (case)');
  assert.deepEqual([...filings.postings.get('item')!.get('2.02')!], [0]);
  assert.deepEqual(filings.postings.get('item')!.values, ['2.02', '9.01'], 'an item no query can name is not indexed');
  const copy = new Postings([...forms.values], Int32Array.from(forms.starts), Int32Array.from(forms.rows));
  for (const value of forms.values) assert.deepEqual(copy.get(value), forms.get(value));
  assert.equal(copy.get('S-1'), undefined);
  const dates = filings.dates.get('filed_at')!;
  assert.deepEqual([...dates], [dayNumber('2025-03-02'), dayNumber('2025-03-01'), dayNumber('2025-03-01'), NO_DATE]);
  assert.deepEqual([firstRowBelow(dates, dayNumber('2025-03-02')! + 1), firstRowBelow(dates, dayNumber('2025-03-01')!), firstRowBelow(dates, NO_DATE + 1)], [0, 3, 3],
    'a range is a run of rows; a row without a date is in no range');
});

test('the route table is checked against the indexes: a date filter leads its kind\'s order, a filter on the lists\' index reads their fields', () => {
  const filings = ROUTES.find((route) => route.path.endsWith('/filings'))!;
  assert.throws(() => indexPlans(LISTED_BY, [{ ...filings, filters: [sinceFilter('accepted_at')] }]),
    /since is on accepted_at, which does not lead the order of filings/);
  const whales = ROUTES.find((route) => route.path.endsWith('/whales'))!;
  assert.throws(() => indexPlans(LISTED_BY, [{ ...whales, filters: [cikFilter('13F filer', ['filer_cik'])] }]),
    /cik reads filer_cik, but the lists of whales it is answered by are keyed by cik/);
});
