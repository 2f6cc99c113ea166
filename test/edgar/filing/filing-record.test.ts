import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filingFromSubmission, issuerOf } from '../../../src/edgar/filing/filing-record.js';
import type { CompleteSubmission, HeaderCompany } from '../../../src/edgar/filing/sgml.js';

const company = (role: string, cik: string): HeaderCompany => ({
  role, cik, name: `${role} ${cik}`, sic: null, sicDescription: null, stateOfIncorporation: null, fiscalYearEnd: null,
});

test('a filing is about its issuer or subject company, in any of EDGAR\'s spellings, before its filer', () => {
  assert.equal(issuerOf([company('REPORTING-OWNER', '1'), company('ISSUER', '2')])?.cik, '2');
  // A Schedule 13D: `.txt`, `.nc` and index-page spellings.
  for (const subject of ['SUBJECT COMPANY', 'SUBJECT-COMPANY', 'SUBJECT']) {
    assert.equal(issuerOf([company('FILED BY', '1'), company(subject, '2')])?.cik, '2', subject);
  }
  assert.equal(issuerOf([company('REPORTING-OWNER', '1'), company('FILER', '2')])?.cik, '2');
  assert.equal(issuerOf([company('REPORTING-OWNER', '1'), company('FILED-BY', '2')])?.cik, '2');
  assert.equal(issuerOf([company('REPORTING-OWNER', '1')])?.cik, '1', 'else the first company named');
  assert.equal(issuerOf([]), undefined);
});

test('a complete submission links its press release typed EX-99.01 as the builder\'s exhibit 99.1', () => {
  const submission: CompleteSubmission = {
    header: {
      accessionNo: '0000000001-24-000001', form: '8-K', filedAt: '2024-01-02', acceptedAt: null, periodOfReport: null,
      itemTitles: ['Results of Operations and Financial Condition'], items: [], companies: [company('FILER', '0000000001')],
    },
    documents: [
      { type: '8-K', filename: 'form8k.htm', description: null, xml: null },
      { type: 'EX-99.01', filename: 'release.htm', description: null, xml: null },
    ],
  };
  const filing = filingFromSubmission(submission);
  assert.equal(filing?.exhibit991, 'release.htm');
  assert.equal(filing?.primaryDocument, 'form8k.htm');
  assert.deepEqual(filing?.items, ['2.02']);
});
