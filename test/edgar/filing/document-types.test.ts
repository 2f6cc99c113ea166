import { test } from 'node:test';
import assert from 'node:assert/strict';
import { informationTable, pressRelease } from '../../../src/edgar/filing/document-types.js';

const doc = (type: string, path = `${type}.htm`) => ({ type, path });

test('the press release is EX-99.1, else EX-99.01, else EX-99, whatever their order or case', () => {
  assert.equal(pressRelease([doc('EX-99'), doc('EX-99.01'), doc('EX-99.1')])?.type, 'EX-99.1');
  assert.equal(pressRelease([doc('EX-99'), doc('ex-99.01')])?.type, 'ex-99.01');
  assert.equal(pressRelease([doc('8-K'), doc('EX-99')])?.type, 'EX-99');
  assert.equal(pressRelease([doc('EX-99.1', 'first.htm'), doc('EX-99.1', 'second.htm')])?.path, 'first.htm');
});

test('other exhibits 99 are not the press release', () => {
  for (const type of ['EX-99.2', 'EX-99.10', 'EX-99.11', 'EX-991', 'EX-10.1', 'GRAPHIC']) assert.equal(pressRelease([doc(type)]), undefined, type);
});

test('the information table is the raw XML of type INFORMATION TABLE, never its XSL rendering', () => {
  assert.equal(informationTable([doc('INFORMATION TABLE', 'xslForm13F_X02/t.xml'), doc('INFORMATION TABLE', 't.xml')])?.path, 't.xml');
  assert.equal(informationTable([doc('INFORMATION TABLE', 'xslForm13F_X02/t.xml')]), undefined);
  assert.equal(informationTable([doc('INFORMATION TABLE', 't.txt')]), undefined);
});
