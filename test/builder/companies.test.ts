import { test } from 'node:test';
import assert from 'node:assert/strict';
import { companyDirectory } from '../../src/builder/companies.js';
import { emptyInputs } from '../../src/builder/inputs.js';
import type { HeaderProfile } from '../../src/edgar/records.js';

const header = (filedAt: string, extra: Partial<HeaderProfile>): HeaderProfile => ({
  cik: '0000001750', name: 'AAR CORP', sic: null, sicDescription: null, stateOfIncorporation: null, fiscalYearEnd: null, filedAt, ...extra,
});

test('header profiles fill what no submissions JSON gives, from the latest header filed by the as-of date', () => {
  const inputs = emptyInputs();
  inputs.tickers.add([{ cik: '0000001750', name: 'AAR CORP', ticker: 'AIR', exchange: 'NYSE' }]);
  inputs.headerProfiles.push(
    header('2024-01-10', { sic: '3720', sicDescription: 'AIRCRAFT & PARTS', stateOfIncorporation: 'DE', fiscalYearEnd: '0531' }),
    header('2025-01-22', { sic: '3721', sicDescription: 'AIRCRAFT', stateOfIncorporation: null }),
  );
  const late = companyDirectory(inputs, null)('0000001750')!;
  assert.deepEqual([late.sic, late.sicDescription, late.stateOfIncorporation, late.fiscalYearEnd], ['3721', 'AIRCRAFT', 'DE', '0531'],
    'per field, the latest header that gives it; the SIC title comes with its code');
  const early = companyDirectory(inputs, '2024-12-31')('0000001750')!;
  assert.deepEqual([early.sic, early.sicDescription], ['3720', 'AIRCRAFT & PARTS'], 'a header filed after the as-of date is not used');
  assert.deepEqual(early.tickers, ['AIR']);
});

test('the submissions JSON wins, tickers are merged primary first, and its SIC title wording is preferred', () => {
  const inputs = emptyInputs();
  inputs.companies.set('0000001750', {
    cik: '0000001750', name: 'AAR CORP', tickers: ['AIR'], exchange: 'NYSE', sic: '3720', sicDescription: 'Aircraft & Parts',
    stateOfIncorporation: null, fiscalYearEnd: '0531',
  });
  inputs.tickers.add([{ cik: '0000001750', name: 'AAR CORP', ticker: 'AIR', exchange: 'NYSE' }, { cik: '0000001750', name: 'AAR CORP', ticker: 'AIR-PA', exchange: 'NYSE' }]);
  inputs.headerProfiles.push(header('2025-01-22', { sic: '9999', sicDescription: 'OTHER', stateOfIncorporation: 'DE' }));
  const company = companyDirectory(inputs, null)('0000001750')!;
  assert.deepEqual([company.sic, company.sicDescription, company.stateOfIncorporation, company.tickers], ['3720', 'Aircraft & Parts', 'DE', ['AIR', 'AIR-PA']]);
  assert.equal(companyDirectory(inputs, null)('0000009999'), undefined, 'a CIK no submissions JSON or ticker file names');
});
