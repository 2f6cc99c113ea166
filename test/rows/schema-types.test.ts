/**
 * The schema builder's static types: `Static<typeof S>` is the type of the values `S` accepts.
 * The type assertions are checked by `npm run typecheck`; the runtime test shows that the type
 * marker adds nothing to the schema objects that the reader checks and the document publishes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arr, bool, int, literal, nullable, obj, oneOf, str, validate, type Static } from '../../src/rows/schema.js';
import type { InsiderRow, NotableTrade, ReportRow } from '../../src/rows/types.js';

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const expectType = <T extends true>(): T | undefined => undefined;

const SAMPLE = obj({
  kind: literal('sample'),
  name: str(),
  count: int(),
  flag: nullable(bool()),
  side: oneOf(['P', 'S', null]),
  tags: arr(str()),
  note: str(),
}, ['note']);

type Sample = Static<typeof SAMPLE>;

expectType<Equal<Sample['kind'], 'sample'>>();
expectType<Equal<Sample['flag'], boolean | null>>();
expectType<Equal<Sample['side'], 'P' | 'S' | null>>();
expectType<Equal<Sample['tags'], string[]>>();
expectType<Equal<Sample, { kind: 'sample'; name: string; count: number; flag: boolean | null; side: 'P' | 'S' | null; tags: string[]; note?: string }>>();
expectType<Equal<NotableTrade['code'], 'P' | 'S'>>();
expectType<Equal<InsiderRow['tickers'], string[] | undefined>>();
expectType<Equal<NonNullable<ReportRow['institutional']>['periods'], { period_of_report: string; n_filers: number; total_value_usd: number }[] | undefined>>();

test('a typed schema is a plain JSON Schema object: required lists the properties not named optional', () => {
  assert.deepEqual(SAMPLE, {
    type: 'object',
    properties: {
      kind: { const: 'sample' },
      name: { type: 'string' },
      count: { type: 'integer', minimum: 0 },
      flag: { type: ['boolean', 'null'] },
      side: { enum: ['P', 'S', null] },
      tags: { type: 'array', items: { type: 'string' } },
      note: { type: 'string' },
    },
    required: ['kind', 'name', 'count', 'flag', 'side', 'tags'],
  });
  const value: Sample = { kind: 'sample', name: 'a', count: 1, flag: null, side: 'P', tags: [] };
  assert.equal(validate(value, SAMPLE), null);
  assert.match(validate({ ...value, kind: 'other' }, SAMPLE) ?? '', /^\$\.kind: expected "sample"/);
});
