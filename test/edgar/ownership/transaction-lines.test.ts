/**
 * Transaction lines of Table I and Table II as the ownership XML reader gives them (EDGAR
 * Ownership XML Technical Specification: `nonDerivativeTransaction`, `derivativeTransaction`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOwnershipXml } from '../../../src/edgar/ownership/ownership-xml.js';

const line = (element: string, inner: string): string => `<${element}>${inner}</${element}>`;
const DOCUMENT = `<?xml version="1.0"?>
<ownershipDocument>
  <documentType>4</documentType><periodOfReport>2024-03-01</periodOfReport>
  <issuer><issuerCik>123</issuerCik><issuerName>Example Corp</issuerName><issuerTradingSymbol>EXA</issuerTradingSymbol></issuer>
  <reportingOwner><reportingOwnerId><rptOwnerCik>777</rptOwnerCik><rptOwnerName>Doe Jane</rptOwnerName></reportingOwnerId></reportingOwner>
  <nonDerivativeTable>
    ${line('nonDerivativeTransaction', `<securityTitle><value>Common Stock</value></securityTitle>
      <transactionDate><value>2024-03-01</value></transactionDate>
      <transactionCoding><transactionCode>s</transactionCode></transactionCoding>
      <transactionAmounts><transactionShares><value>1,000</value></transactionShares><transactionPricePerShare><value>10.125</value></transactionPricePerShare>
        <transactionAcquiredDisposedCode><value>D</value></transactionAcquiredDisposedCode></transactionAmounts>
      <postTransactionAmounts><sharesOwnedFollowingTransaction><value>5000</value></sharesOwnedFollowingTransaction></postTransactionAmounts>
      <ownershipNature><directOrIndirectOwnership><value>I</value></directOrIndirectOwnership></ownershipNature>`)}
    <nonDerivativeHolding><securityTitle><value>Common Stock</value></securityTitle></nonDerivativeHolding>
  </nonDerivativeTable>
  <derivativeTable>
    ${line('derivativeTransaction', `<securityTitle><value>Convertible Note</value></securityTitle>
      <conversionOrExercisePrice><footnoteId id="F1"/></conversionOrExercisePrice>
      <transactionDate><value>2024-02-28</value></transactionDate>
      <transactionCoding><transactionCode>P</transactionCode></transactionCoding>
      <transactionAmounts><transactionTotalValue><value>250000</value></transactionTotalValue>
        <transactionPricePerShare><footnoteId id="F2"/></transactionPricePerShare>
        <transactionAcquiredDisposedCode><value>A</value></transactionAcquiredDisposedCode></transactionAmounts>
      <postTransactionAmounts><valueOwnedFollowingTransaction><value>250000</value></valueOwnedFollowingTransaction></postTransactionAmounts>
      <ownershipNature><directOrIndirectOwnership><value>D</value></directOrIndirectOwnership></ownershipNature>`)}
    ${line('derivativeTransaction', `<securityTitle><value>Stock Option</value></securityTitle>
      <transactionDate><value>2024-02-27</value></transactionDate>
      <transactionCoding><transactionCode>M</transactionCode></transactionCoding>
      <transactionAmounts><transactionShares><value>10</value></transactionShares>
        <transactionAcquiredDisposedCode><value>x</value></transactionAcquiredDisposedCode></transactionAmounts>`)}
  </derivativeTable>
  <footnotes>
    <footnote id="F1">The note converts at a conversion price of $4.00 per share.</footnote>
    <footnote id="F2">Bought at a price of $1,000 per unit of principal.</footnote>
  </footnotes>
</ownershipDocument>`;

test('Table I and Table II lines are read in the form\'s order with every cell a row shows', () => {
  const filing = parseOwnershipXml(DOCUMENT, '0000000777-24-000001', '2024-03-04');
  assert.deepEqual(filing.transactions, [{
    code: 'S', date: '2024-03-01', shares: 1000, price: 10.125, sharesText: '1000', priceText: '10.125', priceInFootnote: false,
    securityTitle: 'Common Stock', acquiredDisposed: 'D', sharesOwnedAfter: 5000, directIndirect: 'I',
  }], 'a holding is no transaction');
  assert.deepEqual(filing.derivativeTransactions.map((t) => [t.securityTitle, t.code, t.shares, t.sharesText, t.price, t.priceInFootnote, t.acquiredDisposed, t.sharesOwnedAfter, t.directIndirect]), [
    // A value without shares, its price only in a footnote; owned after, a value only.
    ['Convertible Note', 'P', null, null, null, true, 'A', null, 'D'],
    // A code other than A or D, no ownership cell: null, for the row builder to leave out.
    ['Stock Option', 'M', 10, '10', null, false, null, null, null],
  ]);
});
