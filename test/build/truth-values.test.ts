/**
 * Values of built rows against the raw EDGAR files (issue 11, "Wrong values"). Each expected
 * value is recomputed here from the raw text with code of the test's own, never taken from the
 * builder or from an earlier snapshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDED_OPTIONS, rawFiles, rawJson, rawText, realBuild, secDataSkip as skip } from '../helpers/real-build.js';
import { easternDigitsToUtc, hoursBehindUtc } from '../helpers/us-eastern.js';

/** `2022-05-06T18:30:57.000Z` read as a New York wall-clock time, by the statute. */
function easternWallToUtc(text: string): string {
  const [y, mo, d, h, mi, s] = text.match(/\d+/g)!.slice(0, 6).map(Number) as [number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h + hoursBehindUtc(y, mo, d, h), mi, s)).toISOString();
}

/**
 * Acceptance instants by accession number. SGML headers are Eastern. Each submissions file is
 * Eastern or UTC as a whole: the header times of its filings say which; without them, a written
 * hour before 06:00 (EDGAR opens at 06:00 Eastern) means UTC, one from 06 to 09 means Eastern.
 */
function rawAcceptanceTimes(): { sgml: Map<string, string>; submissions: Map<string, Set<string>>; clocks: Map<string, string> } {
  const sgml = new Map<string, string>();
  for (const path of rawFiles()) {
    if (!/\.(txt|nc)$/.test(path)) continue;
    const text = rawText(path).slice(0, 20_000);
    const accepted = /<ACCEPTANCE-DATETIME>(\d{14})/.exec(text)?.[1];
    const accession = /ACCESSION[ -]NUMBER>?:?\s*(\d{10}-\d{2}-\d{6})/.exec(text)?.[1];
    if (accepted && accession) sgml.set(accession, easternDigitsToUtc(accepted));
  }
  const submissions = new Map<string, Set<string>>();
  const clocks = new Map<string, string>();
  for (const path of rawFiles('submissions')) {
    const json = rawJson(path);
    const columns = json.filings?.recent ?? json;
    const pairs: [string, string][] = columns.accessionNumber.map((a: string, i: number) => [a, columns.acceptanceDateTime[i]]).filter(([, t]: string[]) => t);
    const checked = pairs.filter(([a]) => sgml.has(a));
    let eastern: boolean;
    if (checked.length > 0) eastern = checked.every(([a, t]) => easternWallToUtc(t) === sgml.get(a));
    else {
      const hours = pairs.filter(([a]) => !a.startsWith('99999999')).map(([, t]) => Number(t.slice(11, 13)));
      eastern = hours.some((h) => h >= 6 && h <= 9) && !hours.some((h) => h < 6);
    }
    clocks.set(path, eastern ? 'eastern' : 'utc');
    for (const [a, t] of pairs) {
      const instant = eastern ? easternWallToUtc(t) : new Date(t).toISOString();
      submissions.set(a, (submissions.get(a) ?? new Set()).add(instant));
    }
  }
  return { sgml, submissions, clocks };
}

test(skip ? `accepted_at against the raw files (${skip})` : 'accepted_at is the Eastern acceptance time of the SGML header and the submissions JSON, in UTC', { skip }, async () => {
  const { rows } = await realBuild(EMBEDDED_OPTIONS);
  const { submissions, sgml, clocks } = rawAcceptanceTimes();
  // The example: ownership/complete_submissions/0000320193-22-000061.txt says
  // ACCEPTANCE-DATETIME 20220506183057 (EDT); Apple's submissions JSON writes 2022-05-06T18:30:57.000Z
  // (Eastern with a Z) and Katherine Adams's writes 22:30:57.000Z (true UTC) for the same filing.
  const apple = rows.filings.find((r) => r.accession_no === '0000320193-22-000061')!;
  assert.equal(apple.accepted_at, '2022-05-06T22:30:57.000Z');
  assert.deepEqual([clocks.get('submissions/CIK0000320193.json'), clocks.get('submissions/CIK0001462356.json'), clocks.get('submissions/CIK0001045810.json')],
    ['eastern', 'utc', 'utc']);
  for (const [accession, instants] of submissions) {
    assert.equal(instants.size, 1, `${accession}: every file that lists it gives one instant (${[...instants].join(', ')})`);
    if (sgml.has(accession)) assert.equal([...instants][0], sgml.get(accession), accession);
  }

  let checked = 0;
  for (const row of rows.filings) {
    const expected = sgml.get(row.accession_no) ?? [...(submissions.get(row.accession_no) ?? [])][0];
    if (expected === undefined) continue;
    assert.equal(row.accepted_at, expected, row.accession_no);
    checked++;
  }
  assert.ok(checked > 1000, `${checked} filing rows checked`);
});
