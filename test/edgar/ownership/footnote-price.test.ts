import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statesTransactionPrice } from '../../../src/edgar/ownership/footnote-price.js';

test('a footnote that gives the price per share or unit of the transaction states its price', () => {
  // Chemomab's Form 4 of 2021 (accession 0001209191-21-021966), footnote F3, as filed.
  assert.ok(statesTransactionPrice('Reported securities purchased in the private placement transaction as one ADS and one-tenth of one warrant ' +
    '(each whole warrant exercisable to purchase one ADS) for a combined price of $17.3509 per unit.'));
  assert.ok(statesTransactionPrice('The price reported is a weighted average price of $10.25; the shares were sold at prices ranging from $10.00 to $10.50.'));
  assert.ok(statesTransactionPrice('Purchased at $ 4.10 per share.'));
});

test('a conversion or exercise price, a total, or no amount at all is not the price of the transaction', () => {
  assert.equal(statesTransactionPrice('The Series A Preferred Stock is convertible at a conversion price of $2.50 per share.'), false);
  assert.equal(statesTransactionPrice('Each warrant has an exercise price of $11.50 per share and expires in 2028.'), false);
  assert.equal(statesTransactionPrice('The option is exercisable at $3.00 per share beginning 2024.'), false);
  assert.equal(statesTransactionPrice('Acquired for an aggregate purchase price of $1,000,000.'), false);
  assert.equal(statesTransactionPrice('These securities are held of record by Rivendell Investments 2017-9 LLC.'), false);
});
