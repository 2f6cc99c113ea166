/**
 * What `fetch` reads to decide what to download: filing index pages (the real Adobe 8-K index
 * and a real Form 4 index from sec-data, and 13F rows written in EDGAR's layout) and the
 * submissions JSON (the real Tesla file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSubmissions } from '../../src/edgar/company/submissions-json.js';
import { informationTable, parseFilingIndex, pressReleaseExhibit } from '../../src/fetch/filing-index.js';
import { filingKind, pagesInWindow, planFilings } from '../../src/fetch/filing-plan.js';
import { SEC_DATA } from '../helpers/edgar-replay.js';

const skip = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

test(skip ? `real index pages (${skip})` : 'the real Adobe 8-K index names EX-99.1 adbeex991q123.htm; a Form 4 index lists its XML once, without the XSL rendering', { skip }, async () => {
  const adobe = parseFilingIndex(await readFile(join(SEC_DATA, '8k/adobe_2023-03-15_item2.02/0000796343-23-000044-index.html'), 'utf8'));
  assert.deepEqual(adobe.slice(0, 3).map((d) => [d.name, d.type]), [['adbe-20230315.htm', '8-K'], ['adbeex991q123.htm', 'EX-99.1'], ['image.jpg', 'GRAPHIC']]);
  assert.equal(pressReleaseExhibit(adobe), 'adbeex991q123.htm');
  assert.ok(adobe.some((d) => d.name === 'adbe-20230315.xsd' && d.type === 'EX-101.SCH'), 'the Data Files table is read too');
  const form4 = parseFilingIndex(await readFile(join(SEC_DATA, 'other/filing_index/0001609804-0000950142-22-003095-index.html'), 'utf8'));
  assert.deepEqual(form4.map((d) => d.name), ['es220296680_4-davis.xml', '0000950142-22-003095.txt']);
  assert.equal(pressReleaseExhibit(form4), undefined);
});

test('a 13F-HR index gives the raw information table, not its rendering; an 8-K may number its release EX-99.01', () => {
  const row = (href: string, text: string, type: string) => `<tr><td>1</td><td>d</td><td><a href="${href}">${text}</a></td><td>${type}</td><td>1</td></tr>`;
  const html = `<table class="tableFile" summary="Document Format Files">
    ${row('/Archives/edgar/data/1/000000000124000001/xslForm13F_X02/primary_doc.xml', 'primary_doc.html', '13F-HR')}
    ${row('/Archives/edgar/data/1/000000000124000001/primary_doc.xml', 'primary_doc.xml', '13F-HR')}
    ${row('/Archives/edgar/data/1/000000000124000001/xslForm13F_X02/infotable.xml', 'infotable.html', 'INFORMATION TABLE')}
    ${row('/Archives/edgar/data/1/000000000124000001/infotable.xml', 'infotable.xml', 'INFORMATION TABLE')}
    ${row('/Archives/edgar/data/1/000000000124000001/../../evil.xml', 'evil', 'INFORMATION TABLE')}
    ${row('/ix?doc=/Archives/edgar/data/1/000000000124000001/ex99.htm', 'ex99.htm', 'EX-99.01')}
  </table>`;
  const documents = parseFilingIndex(html);
  assert.deepEqual(documents.map((d) => d.name), ['primary_doc.xml', 'infotable.xml', 'evil.xml', 'ex99.htm']);
  assert.equal(informationTable(documents), 'infotable.xml');
  assert.equal(pressReleaseExhibit(documents), 'ex99.htm');
  assert.deepEqual(parseFilingIndex('<html>Not Found</html>'), []);
  assert.equal(informationTable([]), undefined);
});

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
