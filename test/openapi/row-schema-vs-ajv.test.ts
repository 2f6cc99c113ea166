/**
 * The row validator of src/rows/schema.ts (used by the snapshot reader, no dependencies) must
 * agree with ajv, a full JSON Schema 2020-12 implementation, on the schemas it publishes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { validate, type Schema } from '../../src/rows/schema.js';
import { META_ROW, ROW_KINDS, ROW_SCHEMAS, WRITTEN_FIELD, type RowKind } from '../../src/rows/schemas.js';
import { fixtureRows } from '../fixtures/rows.js';
import { BREAKING_MUTATIONS, SAMPLE_META_ROW, SAMPLE_ROWS, withValue } from './sample-rows.js';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
// RFC 3339 full-date: a real calendar day, as the served document's validator checks it.
ajv.addFormat('date', (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);

const compiled = new Map<Schema, ValidateFunction>();
function ajvAccepts(schema: Schema, row: unknown): boolean {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile<unknown>(schema as object);
    compiled.set(schema, check);
  }
  return check(row);
}

function assertAgree(schema: Schema, row: unknown, expectedValid: boolean, what: string): void {
  const ours = validate(row, schema);
  const theirs = ajvAccepts(schema, row);
  assert.equal(ours === null, theirs, `${what}: row validator says ${ours ?? 'valid'}, ajv says ${theirs ? 'valid' : 'invalid'}`);
  assert.equal(theirs, expectedValid, `${what}: expected ${expectedValid ? 'valid' : 'invalid'}${ours ? ` (${ours})` : ''}`);
}

const cases: [RowKind | 'meta', Schema, Record<string, unknown>][] = [
  ...ROW_KINDS.map((kind): [RowKind, Schema, Record<string, unknown>] => [kind, ROW_SCHEMAS[kind], SAMPLE_ROWS[kind]]),
  ['meta', META_ROW, SAMPLE_META_ROW],
];

for (const [kind, schema, sample] of cases) {
  describe(`${kind} row: schema.ts validate() agrees with ajv`, () => {
    test('a fully populated row is valid for both', () => assertAgree(schema, sample, true, 'sample'));

    if (kind !== 'meta') {
      test(`the row without its written field ${WRITTEN_FIELD[kind]} is valid for both (free plan)`, () => {
        assertAgree(schema, withValue(sample, WRITTEN_FIELD[kind], undefined), true, 'without written field');
      });
    }

    test('an extra property is allowed by both', () => assertAgree(schema, { ...sample, added_later: 1 }, true, 'extra property'));

    for (const [what, path, value] of BREAKING_MUTATIONS[kind]) {
      test(`${what} is refused by both`, () => assertAgree(schema, withValue(sample, path, value), false, what));
    }

    test('non-objects are refused by both', () => {
      for (const value of [null, [], 'row', 1]) assertAgree(schema, value, false, JSON.stringify(value));
    });
  });
}

test('every row of the shared HTTP fixture is valid for both validators', () => {
  const rows = fixtureRows();
  for (const kind of ROW_KINDS) {
    for (const [i, row] of rows[kind].entries()) assertAgree(ROW_SCHEMAS[kind], row, true, `fixture ${kind}[${i}]`);
  }
});

test('an impossible calendar date is refused by both validators, a real leap day accepted', () => {
  assertAgree(ROW_SCHEMAS.filings, { ...SAMPLE_ROWS.filings, filed_at: '2025-02-30' }, false, 'filed_at 2025-02-30');
  assertAgree(ROW_SCHEMAS.filings, { ...SAMPLE_ROWS.filings, filed_at: '2024-02-29' }, true, 'filed_at 2024-02-29');
  assertAgree(ROW_SCHEMAS.filings, { ...SAMPLE_ROWS.filings, filed_at: '2025-02-29' }, false, 'filed_at 2025-02-29');
});
