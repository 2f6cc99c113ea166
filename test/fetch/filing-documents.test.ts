/**
 * What `fetch` reads to decide what to download: the submissions JSON (the real Tesla file). The
 * filing index pages it reads for the press release and the information table are read by the
 * builder's reader (test/edgar/filing/index-page.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSubmissions } from '../../src/edgar/company/submissions-json.js';
import { filingKind, pagesInWindow, planFilings } from '../../src/fetch/filing-plan.js';
import { SEC_DATA } from '../helpers/edgar-replay.js';

const skip = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

test('fetch takes Forms 3/4/5, 13F-HR and 8-Ks with item 2.02, and nothing else', () => {
  for (const form of ['3', '4', '5', '4/A']) assert.equal(filingKind(form, []), 'ownership');
  assert.equal(filingKind('13F-HR', []), 'thirteenF');
  assert.equal(filingKind('13F-HR/A', []), 'thirteenF');
  assert.equal(filingKind('8-K', ['2.02', '9.01']), 'earnings');
  assert.equal(filingKind('8-K/A', ['2.02']), 'earnings');
  for (const [form, items] of [['8-K', ['5.02']], ['10-K', []], ['13F-NT', []], ['144', []], ['SC 13G', []]] as const) assert.equal(filingKind(form, items), undefined);
});

test(skip ? `real submissions (${skip})` : 'Tesla\'s submissions: filings in the window planned with raw names, text-era ones passed over, the older page only when it reaches the window', { skip }, async () => {
  const json = JSON.parse(await readFile(join(SEC_DATA, 'submissions/CIK0001318605.json'), 'utf8'));
  const { planned } = planFilings(parseSubmissions(json, 'CIK0001318605.json').filings, '2022-11-08');
  const musk = planned.find((p) => p.accessionNo === '0000899243-22-035394');
  assert.deepEqual(musk, { cik: '0001318605', accessionNo: '0000899243-22-035394', form: '4', filedAt: '2022-11-08', kind: 'ownership', primaryDocument: 'doc4.xml' });
  assert.ok(planned.every((p) => p.filedAt >= '2022-11-08'));
  assert.ok(planned.some((p) => p.kind === 'earnings' && /\.htm$/.test(p.primaryDocument)));
  assert.deepEqual(pagesInWindow(json, '2018-02-11').map((l) => l.path), ['/submissions/CIK0001318605-submissions-001.json']);
  assert.deepEqual(pagesInWindow(json, '2018-02-12'), []);
  assert.deepEqual(pagesInWindow({ filings: { files: [{ name: '../x.json', filingTo: '2030-01-01' }, null] } }, '2000-01-01'), []);
  assert.deepEqual(pagesInWindow({}, '2000-01-01'), []);

  const record = { cik: '0000000001', company: null, accessionNo: '0000000001-01-000001', filedAt: '2001-05-01', acceptedAt: null, periodOfReport: null, items: [], exhibit991: null, documents: [], source: 'submissions' as const };
  const old = planFilings([
    { ...record, form: '4', primaryDocument: 'form4.txt' },
    { ...record, form: '13F-HR', primaryDocument: null },
    { ...record, form: '4', primaryDocument: 'xslF345X02/../../x.xml' },
  ], '2000-01-01');
  assert.deepEqual(old.planned, []);
  assert.deepEqual(old.passedOver.map((p) => p.reason), [
    'a text filing from before EDGAR\'s XML form (form4.txt), nothing to read',
    'no primary document listed',
    'primary document name "xslF345X02/../../x.xml" is not a plain file name',
  ]);
});
