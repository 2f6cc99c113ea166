import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreName, fullName, shareClassOf } from '../../src/facts/issuer-names.js';
import { issuerLookup } from '../../src/facts/issuer-tickers.js';
import { TickerMap } from '../../src/edgar/company/ticker-files.js';

test('names compare without state suffixes, legal forms, punctuation or spelling differences', () => {
  assert.equal(coreName('DANAHER CORP /DE/'), coreName('Danaher Corporation'));
  assert.equal(coreName('US BANCORP \\DE\\'), coreName('U.S. Bancorp'));
  assert.equal(coreName('ASML HOLDING NV'), coreName('ASML HLDG N.V.'));
  assert.equal(coreName('APPLIED MATERIALS INC /DE'), coreName('APPLIED MATLS INC'));
  assert.equal(coreName('Nike Inc cl B'), coreName('NIKE, Inc.'), 'the class is not part of the name');
  assert.notEqual(coreName('NEWS CORP'), coreName('FOX CORP'));
  assert.ok(fullName('TAIWAN SEMICONDUCTOR MANUFACTURING CO LTD', false).startsWith(fullName('TAIWAN SEMICONDUCTOR MANUFAC', false)));
  assert.deepEqual(['CL A', 'Common stock C', 'CAP STK CL C', 'SHS CLASS A', 'COM', 'NAMEN AKT A'].map(shareClassOf), ['A', 'C', 'C', 'A', null, null]);
});

function tickers(): TickerMap {
  const map = new TickerMap();
  const e = (cik: string, name: string, ticker: string, exchange: string | null = 'NYSE') => ({ cik, name, ticker, exchange });
  map.add([
    e('0001652044', 'Alphabet Inc.', 'GOOGL', 'Nasdaq'), e('0001652044', 'Alphabet Inc.', 'GOOG', 'Nasdaq'),
    e('0001067983', 'BERKSHIRE HATHAWAY INC', 'BRK-B'), e('0001067983', 'BERKSHIRE HATHAWAY INC', 'BRK-A'),
    e('0000937966', 'ASML HOLDING NV', 'ASML', 'Nasdaq'), e('0000937966', 'ASML HOLDING NV', 'ASMLF', 'OTC'),
    e('0000070858', 'BANK OF AMERICA CORP /DE/', 'BAC'), e('0000070858', 'BANK OF AMERICA CORP /DE/', 'BAC-PE'),
    e('0001000001', 'HIPPO HOLDINGS INC', 'HIPO'), e('0001000001', 'HIPPO HOLDINGS INC', 'HIPOW'),
    e('0001326160', 'Duke Energy CORP', 'DUK'), e('0001326160', 'Duke Energy CORP', 'DUKB'),
    e('0000000001', 'ACME CORP', 'ACME'), e('0000000002', 'ACME CORPORATION /NY/', 'ACMX'),
  ]);
  return map;
}

test('a position gets its company only without ambiguity, and its ticker only where the class is certain', () => {
  const look = issuerLookup(tickers());
  const p = (issuer: string, titleOfClass = 'COM', sharesType = 'SH') => look({ issuer, titleOfClass, cusip: '000000000', sharesType });
  assert.deepEqual(p('ALPHABET INC', 'CAP STK CL A'), { cik: '0001652044', ticker: 'GOOGL' });
  assert.deepEqual(p('ALPHABET INC', 'CAP STK CL C'), { cik: '0001652044', ticker: 'GOOG' });
  assert.deepEqual(p('ALPHABET INC', 'COM'), { cik: '0001652044', ticker: null }, 'two listed classes and no class named');
  assert.deepEqual(p('Berkshire Hathaway Class B'), { cik: '0001067983', ticker: 'BRK-B' });
  assert.deepEqual(p('ASML HLDG NV', 'N Y REGISTRY SHS'), { cik: '0000937966', ticker: 'ASML' }, 'the OTC line is not the listed one');
  assert.deepEqual(p('Bank of America Corp'), { cik: '0000070858', ticker: 'BAC' }, 'preferred series are not common stock');
  assert.deepEqual(p('HIPPO HLDGS INC'), { cik: '0001000001', ticker: 'HIPO' }, 'a warrant line is not common stock');
  assert.deepEqual(p('Duke Energy Corp'), { cik: '0001326160', ticker: null }, 'a second listed line of unknown kind: no guess');
  assert.equal(p('ACME CORP'), null, 'two companies reduce to the same name');
  assert.equal(p('BANK OF AMERICA CORP', 'PFD SER L'), null, 'preferred stock is not the common');
  assert.equal(p('BANK OF AMERICA CORP', 'COM', 'PRN'), null, 'a principal amount is not shares');
  assert.equal(p('BERKSHIRE HATH'), null, 'a short name is not read as cut');
});

test('a CUSIP that one filer\'s spelling resolves resolves for every spelling, unless two companies claim it', () => {
  const held = (issuer: string, cusip: string, titleOfClass = 'COM') => ({ issuer, titleOfClass, cusip, sharesType: 'SH' });
  const positions = [
    held('Bank of America Corp', '060505104'), held('BANK AMERICA CORP', '060505104'),
    // A mistyped CUSIP shared by two companies' names: neither is guessed.
    held('HIPPO HLDGS INC', '999999999'), held('Duke Energy Corp', '999999999'),
    // The class one filer writes settles the ticker for the CUSIP.
    held('ALPHABET INC', '02079K305', 'CAP STK CL A'), held('Alphabet Inc', '02079K305', 'COM'),
  ];
  const look = issuerLookup(tickers(), [positions]);
  assert.deepEqual(look(held('BANK AMERICA CORP', '060505104')), { cik: '0000070858', ticker: 'BAC' }, 'the spelling that alone matches no company');
  assert.deepEqual(look(held('Bank of America Corp', '060505104')), { cik: '0000070858', ticker: 'BAC' });
  assert.equal(look(held('HIPPO HLDGS INC', '999999999')), null, 'two companies claim the CUSIP');
  assert.deepEqual(look(held('Alphabet Inc', '02079K305', 'COM')), { cik: '0001652044', ticker: 'GOOGL' });
  assert.equal(look({ ...held('BANK AMERICA CORP', '060505104'), sharesType: 'PRN' }), null, 'a principal amount is still not shares');
  assert.deepEqual(look(held('Bank of America Corp', '000000000')), { cik: '0000070858', ticker: 'BAC' }, 'a CUSIP not among the holdings: by name');
  assert.equal(issuerLookup(tickers())(held('BANK AMERICA CORP', '060505104')), null, 'without the other spelling, no company');
});
