import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeFilingRecords } from '../../src/builder/merge-records.js';
import type { FilingRecord } from '../../src/edgar/records.js';

const record = (fields: Partial<FilingRecord> & Pick<FilingRecord, 'cik' | 'source'>): FilingRecord => ({
  company: null, form: '4', accessionNo: '0000950170-24-110123', filedAt: '2024-09-24', acceptedAt: null, periodOfReport: null,
  items: [], primaryDocument: null, exhibit991: null, documents: [], ...fields,
});

test('the issuer\'s record names the filing, and each other field comes from the best input that knows it', () => {
  // Bank of America's Form 4: a data-set record under the issuer (no document), and the reporting
  // owner's submissions JSON, which names the document.
  const issuer = record({ cik: '0000070858', company: 'BANK OF AMERICA CORP /DE/', source: 'data-set', periodOfReport: '2024-09-20' });
  const owner = record({
    cik: '0000315090', company: 'BUFFETT WARREN E', source: 'submissions', periodOfReport: '2024-09-20', acceptedAt: '2024-09-24T21:30:00.000Z',
    primaryDocument: 'xslF345X05/ownership.xml', documents: ['ownership.xml'],
  });
  const merged = mergeFilingRecords([issuer, owner], (cik) => cik === '0000070858');
  assert.deepEqual([merged.cik, merged.company, merged.source], ['0000070858', 'BANK OF AMERICA CORP /DE/', 'data-set']);
  assert.equal(merged.primaryDocument, 'xslF345X05/ownership.xml');
  assert.equal(merged.acceptedAt, '2024-09-24T21:30:00.000Z');
  assert.deepEqual(merged.documents, ['ownership.xml']);
  assert.deepEqual(mergeFilingRecords([owner, issuer], (cik) => cik === '0000070858'), merged, 'whatever the order read');
});

test('of two inputs that know a field, the better source gives it; a lone record is returned as it is', () => {
  const index = record({ cik: '0000796343', source: 'index', form: '8-K', items: ['2.02'], primaryDocument: 'a.htm', exhibit991: 'b.htm', documents: ['a.htm', 'b.htm'] });
  const sgml = record({ cik: '0000796343', source: 'sgml', form: '8-K', items: ['2.02', '9.01'], primaryDocument: 'a.htm', documents: ['a.htm', 'c.jpg'] });
  const merged = mergeFilingRecords([index, sgml], () => true);
  assert.deepEqual(merged.items, ['2.02', '9.01']);
  assert.equal(merged.exhibit991, 'b.htm', 'only the index page names the exhibit');
  assert.deepEqual(merged.documents, ['a.htm', 'c.jpg', 'b.htm']);
  assert.equal(mergeFilingRecords([index], () => true), index);
});
