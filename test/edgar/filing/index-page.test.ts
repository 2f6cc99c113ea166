/**
 * The documents of a filing index page, as `fetch` and the builder both read them: the real
 * Adobe 8-K index and a real Form 4 index from sec-data, and 13F rows written in EDGAR's layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { informationTable, pressRelease } from '../../../src/edgar/filing/document-types.js';
import { readIndexDocuments } from '../../../src/edgar/filing/index-page.js';
import { SEC_DATA } from '../../helpers/edgar-replay.js';

const skip = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

test(skip ? `real index pages (${skip})` : 'the real Adobe 8-K index names EX-99.1 adbeex991q123.htm; a Form 4 index lists its XML raw once besides its XSL rendering, without the complete submission', { skip }, async () => {
  const adobe = readIndexDocuments(await readFile(join(SEC_DATA, '8k/adobe_2023-03-15_item2.02/0000796343-23-000044-index.html'), 'utf8'), '0000796343-23-000044');
  assert.deepEqual(adobe.slice(0, 3).map((d) => [d.path, d.type]), [['adbe-20230315.htm', '8-K'], ['adbeex991q123.htm', 'EX-99.1'], ['image.jpg', 'GRAPHIC']]);
  assert.equal(pressRelease(adobe)?.path, 'adbeex991q123.htm');
  assert.ok(adobe.some((d) => d.path === 'adbe-20230315.xsd' && d.type === 'EX-101.SCH' && d.description === 'XBRL TAXONOMY EXTENSION SCHEMA DOCUMENT'), 'the Data Files table is read too');
  const form4 = readIndexDocuments(await readFile(join(SEC_DATA, 'other/filing_index/0001609804-0000950142-22-003095-index.html'), 'utf8'), '0000950142-22-003095');
  assert.deepEqual(form4.map((d) => d.path), ['xslF345X03/es220296680_4-davis.xml', 'es220296680_4-davis.xml']);
  assert.equal(pressRelease(form4), undefined);
});

test('a 13F-HR index gives the raw information table, not its rendering; an 8-K may number its release EX-99.01; a link out of the folder is no document', () => {
  const row = (href: string, text: string, type: string) => `<tr><td>1</td><td>d</td><td><a href="${href}">${text}</a></td><td>${type}</td><td>1</td></tr>`;
  const html = `<table class="tableFile" summary="Document Format Files">
    ${row('/Archives/edgar/data/1/000000000124000001/xslForm13F_X02/primary_doc.xml', 'primary_doc.html', '13F-HR')}
    ${row('/Archives/edgar/data/1/000000000124000001/primary_doc.xml', 'primary_doc.xml', '13F-HR')}
    ${row('/Archives/edgar/data/1/000000000124000001/xslForm13F_X02/infotable.xml', 'infotable.html', 'INFORMATION TABLE')}
    ${row('/Archives/edgar/data/1/000000000124000001/infotable.xml', 'infotable.xml', 'INFORMATION TABLE')}
    ${row('/Archives/edgar/data/1/000000000124000001/../../evil.xml', 'evil', 'INFORMATION TABLE')}
    ${row('/ix?doc=/Archives/edgar/data/1/000000000124000001/ex99.htm', 'ex99.htm', 'EX-99.01')}
  </table>`;
  const documents = readIndexDocuments(html, '0000000001-24-000001');
  assert.deepEqual(documents.map((d) => d.path), ['xslForm13F_X02/primary_doc.xml', 'primary_doc.xml', 'xslForm13F_X02/infotable.xml', 'infotable.xml', 'ex99.htm']);
  assert.equal(informationTable(documents)?.path, 'infotable.xml');
  assert.equal(pressRelease(documents)?.path, 'ex99.htm');
  assert.deepEqual(readIndexDocuments('<html>Not Found</html>', '0000000001-24-000001'), []);
  assert.equal(informationTable([]), undefined);
});
