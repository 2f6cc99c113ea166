/**
 * The filter indexes of a kind's index file (filter-sections.ts; docs/api.md §15, §17), damaged
 * behind a manifest whose SHA-256 and size were made to match: each damage is refused naming the
 * index file, and a server asked to reload such a version keeps serving the one it had. An index
 * file without filter sections (written before them) loads, the indexes built from the rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexSection } from '../../src/data/index-file.js';
import { loadSnapshot } from '../../src/data/snapshot-index.js';
import { startHarness, withKey, writeFixtureSnapshot, KEYS } from '../helpers/harness.js';
import { editIndexSections, refusal, tempVersion } from '../helpers/snapshot-files.js';
import { filterRows } from '../fixtures/filter-rows.js';

type Sections = Map<string, IndexSection>;

const i32 = (sections: Sections, name: string): Int32Array => {
  assert.ok(sections.has(name), `the index file has ${name}`);
  return sections.get(name)!.values as Int32Array;
};
const valuesOf = (sections: Sections, name: string): string[] => {
  assert.ok(sections.has(name), `the index file has ${name}`);
  return JSON.parse(Buffer.from(sections.get(name)!.values).toString('utf8'));
};
const setValues = (sections: Sections, name: string, values: unknown[] | string): void => {
  sections.set(name, { name, type: 'utf8', values: Buffer.from(typeof values === 'string' ? values : JSON.stringify(values)) });
};
/** Replaces the first value of a values section that `pick` chooses by `replace(value)`. */
const rewriteValue = (sections: Sections, name: string, pick: (value: string) => boolean, replace: (value: string) => string): void => {
  const values = valuesOf(sections, name);
  const at = values.findIndex(pick);
  assert.ok(at >= 0, `${name} has the value to damage`);
  values[at] = replace(values[at]!);
  setValues(sections, name, values);
};

/** Damages of a kind's filter sections: the index file, the damage, the refusal. */
const DAMAGES: [string, string, (sections: Sections) => void, RegExp][] = [
  ['a row number out of range', 'insider-transactions.index', (s) => {
    const rows = i32(s, 'filters.owner_cik.rows');
    rows[rows.length - 1] = 1_000_000;
  }, /insider-transactions\.index: filters\.owner_cik\.rows is not ascending row numbers below \d+/],
  ['row numbers of a value out of order', 'insider-transactions.index', (s) => {
    const [starts, rows] = [i32(s, 'filters.code.starts'), i32(s, 'filters.code.rows')];
    [rows[starts[0]!], rows[starts[0]! + 1]] = [rows[starts[0]! + 1]!, rows[starts[0]!]!];
  }, /insider-transactions\.index: filters\.code\.rows is not ascending row numbers below \d+/],
  ['offsets that do not span the rows', 'insider-transactions.index', (s) => { i32(s, 'filters.code.starts')[0] = 1; },
    /insider-transactions\.index: filters\.code\.starts does not span filters\.code\.rows/],
  ['a date column that increases', 'insider-transactions.index', (s) => {
    const days = i32(s, 'filters.date.transaction_date');
    days[1] = days[0]! + 1;
  }, /insider-transactions\.index: filters\.date\.transaction_date increases at row 2/],
  ['a date column a row short', 'financials.index', (s) => {
    const days = s.get('filters.date.period_end')!;
    s.set('filters.date.period_end', { ...days, values: (days.values as Int32Array).slice(1) });
  }, /financials\.index: filters\.date\.period_end has \d+ values for \d+ rows/],
  ['a fiscal period in lower case', 'financials.index', (s) => rewriteValue(s, 'filters.fiscal_period.values', (v) => v === 'FY', () => 'fy'),
    /financials\.index: filters\.fiscal_period\.values is not a list of fiscal_period values as a query reads them/],
  ['a section of the filters missing', 'financials.index', (s) => { s.delete('filters.cik.rows'); }, /financials\.index: has no section filters\.cik\.rows/],
  ['a CIK without its leading zeros', 'holders.index', (s) => rewriteValue(s, 'filters.cik.values', () => true, (v) => v.replace(/^0+/, '')),
    /holders\.index: filters\.cik\.values is not a list of cik values as a query reads them/],
  ['a CUSIP in lower case', 'holders.index', (s) => rewriteValue(s, 'filters.cusip.values', (v) => /[A-Z]/.test(v), (v) => v.toLowerCase()),
    /holders\.index: filters\.cusip\.values is not a list of cusip values as a query reads them/],
  ['a CUSIP listed twice', 'holders.index', (s) => rewriteValue(s, 'filters.cusip.values', (v) => v === '02079K107', () => '02079K305'),
    /holders\.index: filters\.cusip\.values names a value twice/],
  ['values that are not JSON', 'holders.index', (s) => setValues(s, 'filters.cusip.values', '["037833100"'), /holders\.index: filters\.cusip\.values is not JSON/],
];

for (const [what, file, damage, message] of DAMAGES) {
  test(`a damaged filter section with a matching SHA-256 is refused, and a reload keeps the version served: ${what}`, async (t) => {
    const h = await startHarness(t);
    await writeFixtureSnapshot(h.snapshotsDir, 'v2', filterRows());
    await editIndexSections(`${h.snapshotsDir}/v2`, file, damage);
    assert.match(await refusal(h.snapshotsDir), new RegExp(`v2/${message.source}`));
    assert.equal((await h.server.handler.reload()).snapshot, false);
    assert.ok(h.logs.some((line) => line.includes('reload refused') && message.test(line)), h.logs.join('\n'));
    const reply = await h.get('/api/v1/finance/insider-transactions?code=S&owner_cik=1214156', withKey(KEYS.signal));
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['x-snapshot-version'], 'v1');
    assert.ok(reply.json.count > 0 && reply.json.data.every((row: { code: string }) => row.code === 'S'));
  });
}

test('an index file without filter sections loads, its filter indexes built from the rows as a version without index files', async (t) => {
  const whole = await tempVersion(t, true, filterRows());
  const expected = (await loadSnapshot(whole.root)).filters;
  const stripped = await tempVersion(t, true, filterRows());
  for (const kind of ['insider-transactions', 'financials', 'holders']) {
    await editIndexSections(stripped.dir, `${kind}.index`, (s) => { for (const name of [...s.keys()]) if (name.startsWith('filters.')) s.delete(name); });
  }
  const loaded = await loadSnapshot(stripped.root);
  assert.deepEqual(loaded.filters, expected);
  assert.ok(expected.holders.postings.get('cusip')!.values.length > 0, 'the indexes compared are not empty');
  assert.deepEqual((await loadSnapshot((await tempVersion(t, false, filterRows())).root)).filters, expected, 'and as a version without index files');
});
