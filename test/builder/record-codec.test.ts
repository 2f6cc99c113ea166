/**
 * The build cache's encoding (record-codec.ts): plain data comes back equal, key order and
 * every number included; what is not plain data is refused without a trace; damaged operations
 * are an error, never a wrong value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DamagedRecordsError, decodeRecords, NotPlainDataError, RecordEncoder, recordReader, type EncodedRecords } from '../../src/builder/record-codec.js';

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

test('strings that begin the reference string are stored as its length and read back from the reference given', () => {
  const path = '/in/0001999999-0000/0001999999-10-000001.header.json';
  const stem = '/in/0001999999-0000/0001999999-10-000001';
  const values = [{ stem, path, short: '/in', other: '/elsewhere/0001999999-10-000001' }, [path, path.slice(0, 16), path.slice(0, 15)]];
  const encoder = new RecordEncoder();
  for (const value of values) encoder.add(value, path);
  encoder.add({ path }); // no reference: stored in the table
  const encoded = encoder.finish();
  // Only the strings of 16 characters or more that begin the reference stay out of the table.
  assert.deepEqual(encoded.strings, ['/in', '/elsewhere/0001999999-10-000001', path.slice(0, 15), path]);
  const reader = recordReader(encoded);
  assert.deepEqual([reader.read(path), reader.read(path), reader.read()], [...values, { path }]);
  reader.end();
  // The reference the value was added with is needed: without it, or with a shorter one, it is damage.
  for (const reference of [undefined, stem.slice(0, 20)]) {
    assert.throws(() => recordReader(encoded).read(reference), DamagedRecordsError);
  }
  // Another reference reads other text, as a reader given the wrong key would: the cache gives
  // each entry its own path, which is the entry's key.
  assert.deepEqual(recordReader(encoded).read(path.replace('/in/', '/xx/')), { ...values[0], stem: stem.replace('/in/', '/xx/'), path: path.replace('/in/', '/xx/') });
});

test('strings beginning the reference keep coming back equal to what was added, for any reference', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 0, maxLength: 40 }), fc.array(fc.nat(40), { maxLength: 6 }), (reference, cuts) => {
    const value = cuts.map((n) => reference.slice(0, n));
    const encoder = new RecordEncoder();
    encoder.add(value, reference);
    const reader = recordReader(encoder.finish());
    assert.deepStrictEqual(reader.read(reference), value);
    reader.end();
  }), { numRuns: 500 });
});
