import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessionFromName, documentUrl, indexUrl, isoDate, normaliseTicker, padCik } from '../../src/edgar/conventions.js';
import { parseOwnershipXml } from '../../src/edgar/ownership/ownership-xml.js';
import { ownerRole } from '../../src/facts/owner-role.js';
import { parseCompleteSubmission } from '../../src/edgar/filing/sgml.js';
import { itemsFromTitles } from '../../src/edgar/filing/form-8k-items.js';
import { parseCoverPage, parseInfoTable } from '../../src/edgar/thirteenf/thirteenf-xml.js';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../fixtures/build', name), 'utf8');

test('EDGAR URLs drop leading zeros of the CIK and dashes of the accession number in the folder', () => {
  // Checked against 8k/adobe_2023-03-15_item2.02/0000796343-23-000044-index.html, which links
  // Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm.
  assert.equal(documentUrl('0000796343', '0000796343-23-000044', 'adbeex991q123.htm'),
    'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/adbeex991q123.htm');
  assert.equal(indexUrl('0000796343', '0000796343-23-000044'),
    'https://www.sec.gov/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044-index.htm');
});

test('accession numbers are read from file names and Archives folder names', () => {
  assert.equal(accessionFromName('0001045810-23-000050.xml'), '0001045810-23-000050');
  assert.equal(accessionFromName('000104581023000050'), '0001045810-23-000050');
  assert.equal(accessionFromName('0000002488-15-000095_wf-form4a_145144358604094.xml'), '0000002488-15-000095');
  assert.equal(accessionFromName('form4.snow.xml'), undefined);
});

test('tickers take EDGAR form, CIKs are padded, dates of every EDGAR form become ISO', () => {
  assert.equal(normaliseTicker('brk.b'), 'BRK-B');
  assert.equal(normaliseTicker('MFAC/U'), 'MFAC-U');
  assert.equal(padCik('1318605'), '0001318605');
  assert.equal(isoDate('20240214'), '2024-02-14');
  assert.equal(isoDate('12-31-2024'), '2024-12-31');
});

test('a Form 4 keeps unpriced transactions with a null price and reads the 10b5-1 box', () => {
  const filing = parseOwnershipXml(fixture('form4-mixed.xml'), '0000000777-24-000001', '2024-03-04');
  assert.equal(filing.issuerCik, '0000000123');
  assert.equal(filing.issuerTradingSymbol, 'EXA-B');
  assert.equal(filing.plan10b51, true);
  assert.deepEqual(filing.transactions.map((t) => [t.code, t.shares, t.price]), [['S', 100, 10.5], ['S', 50, null], ['P', 20, 9], ['M', 1000, 1]]);
  assert.equal(ownerRole(filing.owners[0]!), 'CFO, Director');
});

test('a complete submission gives accession number, filing date, items and the EX-99.1', () => {
  const { header, documents } = parseCompleteSubmission(fixture('submission-8k.txt'));
  assert.equal(header.accessionNo, '0000000123-23-000044');
  assert.equal(header.filedAt, '2023-03-15');
  assert.deepEqual(itemsFromTitles(header.itemTitles), ['2.02', '9.01']);
  assert.equal(header.companies[0]?.sic, '7372');
  assert.deepEqual(documents.map((d) => [d.type, d.filename]), [['8-K', 'exa-20230315.htm'], ['EX-99.1', 'exaex991.htm']]);
});

test('a dissemination-feed .nc submission gives its header and its 13F XML documents', () => {
  const { header, documents } = parseCompleteSubmission(fixture('submission-13f.nc'));
  assert.equal(header.accessionNo, '0000000999-25-000093');
  assert.equal(header.filedAt, '2025-01-22');
  assert.equal(header.companies[0]?.cik, '0000000999');
  const cover = parseCoverPage(documents[0]!.xml!);
  assert.equal(cover.periodOfReport, '2024-12-31');
  assert.equal(parseInfoTable(documents[1]!.xml!)[0]?.cusip, '037833100');
});

test('information tables read the same with a prefixed or a default namespace', () => {
  const prefixed = parseInfoTable(fixture('infotable-prefixed.xml'));
  const plain = parseInfoTable(fixture('infotable-default.xml'));
  assert.equal(prefixed[0]?.cusip, plain[0]?.cusip);
  assert.equal(prefixed[0]?.shares, 1733);
  assert.equal(prefixed[1]?.putCall, 'Put');
  assert.equal(plain[0]?.value, 230000);
});
