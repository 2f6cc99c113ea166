import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import {
  COMPANY_TICKERS, archiveLocation, companyFactsLocation, fileOf, filingIndexLocation, rawDocumentName,
  submissionsLocation, submissionsPageLocation, urlOf,
} from '../../src/fetch/edgar-paths.js';

test('EDGAR URLs: each kind on its own host, with EDGAR\'s CIK and accession forms (docs/api.md §14)', () => {
  assert.equal(urlOf(COMPANY_TICKERS), 'https://www.sec.gov/files/company_tickers.json');
  assert.equal(urlOf(submissionsLocation('320193')), 'https://data.sec.gov/submissions/CIK0000320193.json');
  assert.equal(urlOf(submissionsPageLocation('CIK0001318605-submissions-001.json')!), 'https://data.sec.gov/submissions/CIK0001318605-submissions-001.json');
  assert.equal(urlOf(companyFactsLocation('0001045810')), 'https://data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json');
  assert.equal(urlOf(archiveLocation('0001318605', '0000899243-22-035394', 'doc4.xml')!), 'https://www.sec.gov/Archives/edgar/data/1318605/000089924322035394/doc4.xml');
  assert.equal(urlOf(filingIndexLocation('796343', '000079634323000044')), 'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044-index.htm');
});

test('--base-url replaces both hosts and keeps EDGAR\'s paths', () => {
  assert.equal(urlOf(submissionsLocation('1'), 'http://127.0.0.1:8099/'), 'http://127.0.0.1:8099/submissions/CIK0000000001.json');
  assert.equal(urlOf(COMPANY_TICKERS, 'http://mirror.example/edgar'), 'http://mirror.example/edgar/files/company_tickers.json');
});

test('a location\'s file is its URL path under the output folder', () => {
  assert.equal(fileOf('/data/edgar', archiveLocation('320193', '0000320193-24-000084', 'wk-form4_1723069808.xml')!),
    join('/data/edgar', 'Archives/edgar/data/320193/000032019324000084/wk-form4_1723069808.xml'));
  assert.equal(fileOf('out', COMPANY_TICKERS), join(resolve('out'), 'files/company_tickers.json'));
});

test('names read from EDGAR can never address a file outside the output folder', () => {
  for (const name of ['../x.xml', '..', 'a/b.xml', '.hidden', '', 'a b.xml', 'x\\..\\y', `${'a'.repeat(201)}.xml`]) {
    assert.equal(archiveLocation('1', '0000000001-24-000001', name), undefined, name);
  }
  assert.equal(submissionsPageLocation('../../etc/passwd'), undefined);
  assert.equal(submissionsPageLocation('CIK1-submissions-001.json'), undefined);
  assert.equal(archiveLocation('1', 'not-an-accession', 'a.xml'), undefined);
  assert.throws(() => submissionsLocation('12345678901'), /not a CIK/);
  assert.throws(() => filingIndexLocation('1', 'x'), /not an accession number/);
  for (const path of ['/a/../b', '/a//b', '/a/./b', '/a/b\\c', '/a/\0']) assert.throws(() => fileOf('/out', { host: 'www', path }), /not a mirrorable EDGAR path/);
});

test('a Form 4 or 13F primaryDocument loses its XSL rendering folder; other names stay', () => {
  assert.equal(rawDocumentName('xslF345X05/wk-form4_1723069808.xml'), 'wk-form4_1723069808.xml');
  assert.equal(rawDocumentName('xslForm13F_X02/primary_doc.xml'), 'primary_doc.xml');
  assert.equal(rawDocumentName('aapl-20230202.htm'), 'aapl-20230202.htm');
  assert.equal(rawDocumentName('xslF345X05/../x.xml'), undefined);
  assert.equal(rawDocumentName('other/x.xml'), undefined);
});
