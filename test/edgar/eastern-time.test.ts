/**
 * EDGAR's times are Eastern (America/New_York). The conversion is checked against the U.S.
 * daylight-saving rules written out by hand in test/helpers/us-eastern.ts, not against Intl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { easternToUtc, edgarEasternToIso } from '../../src/edgar/eastern-time.js';
import { decideSubmissionsClock, readWritten } from '../../src/edgar/company/submissions-clock.js';
import { easternDigitsToUtc, hoursBehindUtc } from '../helpers/us-eastern.js';

test('EDGAR times in all three forms are Eastern and come out in UTC', () => {
  // ownership/complete_submissions/0000320193-22-000061.txt: <ACCEPTANCE-DATETIME>20220506183057 (EDT).
  assert.equal(edgarEasternToIso('20220506183057'), '2022-05-06T22:30:57.000Z');
  // The submissions JSON writes the same Eastern time with a "Z".
  assert.equal(edgarEasternToIso('2022-05-06T18:30:57.000Z'), '2022-05-06T22:30:57.000Z');
  // A -index.htm "Accepted" line, in winter (EST).
  assert.equal(edgarEasternToIso('2023-01-06 17:29:21'), '2023-01-06T22:29:21.000Z');
  assert.equal(edgarEasternToIso('20230606213204'), '2023-06-07T01:32:04.000Z', 'an evening in EDT is the next day in UTC');
});

test('daylight saving switches at 02:00 on the days the statute names', () => {
  // 2022: DST from Sunday 13 March to Sunday 6 November.
  assert.equal(edgarEasternToIso('20220313015959'), '2022-03-13T06:59:59.000Z');
  assert.equal(edgarEasternToIso('20220313030000'), '2022-03-13T07:00:00.000Z');
  assert.equal(edgarEasternToIso('20221105235959'), '2022-11-06T03:59:59.000Z');
  assert.equal(edgarEasternToIso('20221106020000'), '2022-11-06T07:00:00.000Z');
  assert.equal(easternToUtc({ year: 2022, month: 11, day: 6, hour: 0, minute: 0, second: 0 })?.toISOString(), '2022-11-06T04:00:00.000Z');
  // 2005 rules: first Sunday of April (3 April) to last Sunday of October (30 October).
  assert.equal(edgarEasternToIso('20050402120000'), '2005-04-02T17:00:00.000Z');
  assert.equal(edgarEasternToIso('20050404120000'), '2005-04-04T16:00:00.000Z');
  assert.equal(edgarEasternToIso('20051031120000'), '2005-10-31T17:00:00.000Z');
});

test('a repeated hour reads as its first occurrence and a skipped hour with the offset before the change', () => {
  assert.equal(edgarEasternToIso('20221106013000'), '2022-11-06T05:30:00.000Z', '01:30 EDT, not 01:30 EST');
  assert.equal(edgarEasternToIso('20220313023000'), '2022-03-13T07:30:00.000Z', '02:30 does not exist; read as EST');
});

test('every hour of 2000-2030 agrees with the statute', () => {
  for (let year = 2000; year <= 2030; year++) {
    for (let month = 1; month <= 12; month++) {
      for (const day of [1, 7, 8, 14, 15, 28]) {
        for (const hour of [0, 1, 3, 6, 12, 18, 21, 23]) {
          const expected = new Date(Date.UTC(year, month - 1, day, hour + hoursBehindUtc(year, month, day, hour)));
          assert.equal(easternToUtc({ year, month, day, hour, minute: 0, second: 0 })?.toISOString(), expected.toISOString(), `${year}-${month}-${day} ${hour}:00`);
        }
      }
    }
  }
});

test('text that is not an EDGAR time gives undefined, not a wrong instant', () => {
  for (const bad of [undefined, '', '2022-05-06', '20220230120000', '20221306120000', '2022-05-06T25:00:00Z', 'yesterday', '2022050618305']) {
    assert.equal(edgarEasternToIso(bad), undefined, String(bad));
  }
  assert.equal(edgarEasternToIso(' 2022-05-06T18:30:57.5Z '), '2022-05-06T22:30:57.500Z', 'fractions and spaces are kept and trimmed');
  // other/filing_index/0000912057-00-023442-index.html: "Accepted 2000-05-11 00:00:00", EDGAR's unknown time.
  assert.equal(edgarEasternToIso('2000-05-11 00:00:00'), undefined);
  assert.equal(readWritten('1998-03-27T00:00:00.000Z', 'utc'), undefined, 'CIK0001009672-submissions-001.json');
});

test('a submissions file is read on the clock its evidence shows, per file', () => {
  // 13f/nvda/0001045810-24-000021.txt: <ACCEPTANCE-DATETIME>20240214161245 (EST) = 21:12:45 UTC, and
  // CIK0001045810.json writes 2024-02-14T21:12:45.000Z: that file is true UTC.
  const known = new Map([['0001045810-24-000021', easternDigitsToUtc('20240214161245')]]);
  assert.deepEqual(decideSubmissionsClock([{ accessionNo: '0001045810-24-000021', written: '2024-02-14T21:12:45.000Z' }], known).clock, 'utc');
  // ownership/complete_submissions/0000320193-22-000061.txt: 20220506183057 (EDT); CIK0000320193.json
  // writes 2022-05-06T18:30:57.000Z: that file is Eastern with a Z.
  const apple = new Map([['0000320193-22-000061', easternDigitsToUtc('20220506183057')]]);
  const decided = decideSubmissionsClock([{ accessionNo: '0000320193-22-000061', written: '2022-05-06T18:30:57.000Z' }], apple);
  assert.deepEqual([decided.clock, decided.decidedBy], ['eastern', 'acceptance times in SGML headers or -index pages']);
  assert.equal(readWritten('2022-05-06T18:30:57.000Z', decided.clock), '2022-05-06T22:30:57.000Z');
});

test('without headers, hours when EDGAR is closed decide; EDGAR-made and paper filings do not vote', () => {
  const none = new Map<string, string>();
  const at = (accessionNo: string, written: string) => ({ accessionNo, written });
  // 01:12 can only be UTC (21:12 Eastern the evening before); 07:30 can only be Eastern.
  assert.equal(decideSubmissionsClock([at('0000000001-24-000001', '2024-02-15T01:12:45.000Z'), at('0000000001-24-000002', '2024-02-15T15:00:00.000Z')], none).clock, 'utc');
  assert.equal(decideSubmissionsClock([at('0000000001-24-000001', '2024-02-15T07:30:00.000Z')], none).clock, 'eastern');
  const effect = decideSubmissionsClock([at('9999999995-25-001386', '2025-05-05T00:15:15.000Z'), at('0000000001-24-000001', '2024-02-15T08:30:00.000Z')], none);
  assert.deepEqual([effect.clock, effect.votes], ['eastern', { utc: 0, eastern: 1 }], 'an EFFECT notice stamped 00:15 does not vote');
  const unknown = decideSubmissionsClock([at('0000000001-24-000001', '2024-02-15T15:00:00.000Z')], none);
  assert.deepEqual([unknown.clock, unknown.decidedBy], ['utc', 'no evidence: read as written (UTC)']);
  assert.equal(readWritten('not a time', 'utc'), undefined);
});
