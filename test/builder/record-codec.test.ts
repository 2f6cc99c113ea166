/**
 * The build cache's encoding (record-codec.ts): plain data comes back equal, key order and
 * every number included; what is not plain data is refused without a trace; damaged operations
 * are an error, never a wrong value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DamagedRecordsError, decodeRecords, NotPlainDataError, RecordEncoder, type EncodedRecords } from '../../src/builder/record-codec.js';

const roundTrip = (values: readonly unknown[]): unknown[] => {
  const encoder = new RecordEncoder();
  for (const value of values) encoder.add(value);
  return decodeRecords(encoder.finish(), values.length);
};

/** Plain data as the extracts hold it, with the awkward numbers and strings. */
const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, undefined, true, false, 0, -0, NaN, Infinity, -Infinity, 2 ** 29 - 1, 2 ** 29, -1, 0.1, Number.MAX_SAFE_INTEGER),
    fc.double(),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 5 }),
    // A __proto__ key makes fast-check build an object without a prototype, which is not plain data: tested on its own below.
    fc.dictionary(fc.oneof(fc.string().filter((k) => k !== '__proto__'), fc.constantFrom('0', '10', 'constructor')), tie('value'), { maxKeys: 5, noNullPrototype: true }),
  ),
})).value;

test('plain data comes back equal: numbers (-0, NaN, fractions, large), strings (lone surrogates), key order, undefined', () => {
  fc.assert(fc.property(fc.array(plain, { maxLength: 8 }), (values) => {
    const back = roundTrip(values);
    assert.deepStrictEqual(back, values);
    // Key order too: deepStrictEqual does not look at it.
    assert.equal(JSON.stringify(back), JSON.stringify(values));
  }), { numRuns: 1000 });
});

test('objects whose keys join to the same text keep their own shapes', () => {
  const values = [{}, { '': null }, { 'a\0b': 1 }, { a: 1, b: 2 }, { '1:a': 1 }, { a: 1 }];
  assert.equal(JSON.stringify(roundTrip(values)), JSON.stringify(values));
});

test('an object with a __proto__ key keeps it as its own property, and its prototype stays Object.prototype', () => {
  const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
  const [back] = roundTrip([value]) as [Record<string, unknown>];
  assert.equal(Object.getPrototypeOf(back), Object.prototype);
  assert.deepEqual(Object.keys(back), ['__proto__', 'a']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('strings and shapes are stored once however often they repeat', () => {
  const records = Array.from({ length: 1000 }, (_, i) => ({ issuer: 'Tesla, Inc.', form: '4', n: i }));
  const encoder = new RecordEncoder();
  for (const r of records) encoder.add(r);
  const encoded = encoder.finish();
  assert.deepEqual(encoded.strings, ['Tesla, Inc.', '4']);
  assert.deepEqual(encoded.shapes, [['issuer', 'form', 'n']]);
  assert.deepEqual(decodeRecords(encoded, records.length), records);
});

test('a value that is not plain data is refused and leaves nothing behind', () => {
  const encoder = new RecordEncoder();
  encoder.add({ a: 1 });
  for (const bad of [new Map(), new Date(0), { nested: [new Set()] }, () => 1, 10n, Symbol('s'), new (class Row {})(), Object.create(null)]) {
    assert.throws(() => encoder.add(bad), NotPlainDataError);
  }
  encoder.add('b');
  assert.equal(encoder.count, 2);
  assert.deepEqual(decodeRecords(encoder.finish(), 2), [{ a: 1 }, 'b']);
});

test('damaged operations are an error, never a wrong value', () => {
  const encoder = new RecordEncoder();
  encoder.add({ name: 'Musk Elon', shares: 1.5, codes: ['P', 'S'] });
  const good = encoder.finish();
  const damaged = (change: (e: EncodedRecords) => EncodedRecords, count = 1): void => {
    assert.throws(() => decodeRecords(change({ ...good, ops: good.ops.slice(), numbers: good.numbers.slice() }), count), DamagedRecordsError);
  };
  damaged((e) => ({ ...e, ops: e.ops.subarray(0, e.ops.length - 1) })); // cut short
  damaged((e) => e, 2); // fewer values than asked for
  damaged((e) => e, 0); // operations left over
  damaged((e) => ({ ...e, numbers: new Float64Array(0) })); // a number missing
  damaged((e) => ({ ...e, numbers: new Float64Array(2) })); // a number left over
  damaged((e) => ({ ...e, strings: [] })); // a string past the table
  damaged((e) => ({ ...e, shapes: [] })); // a shape past the table
  damaged((e) => ({ ...e, shapes: [[1 as unknown as string]] })); // a shape that is no list of keys
  damaged((e) => ({ ...e, ops: Uint32Array.of(7 * 8 + 0) })); // no such constant
  damaged((e) => ({ ...e, ops: Uint32Array.of(7) })); // no such operation
  damaged((e) => ({ ...e, ops: Uint32Array.of(1000 * 8 + 4) })); // an array longer than what follows
});
