/**
 * Order keys as bytes agree with the kinds' row comparators (`ROW_ORDER`) on every pair of rows:
 * the cursor's binary search relies on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ORDER_KEY_PARTS, OrderKeyWriter } from '../../src/data/order-key.js';
import { ROW_ORDER } from '../../src/rows/order.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';

// Small domains, so that ties and shared prefixes are common.
const date = fc.constantFrom('2025-04-20', '2025-04-21', '2024-12-31', null);
const dateTime = fc.constantFrom('2025-04-20T20:00:00.000Z', '2025-04-20T20:00:00Z', '2025-04-20T20:00:00.5Z', '2025-04-20T19:59:59.999-04:00', null);
const ticker = fc.constantFrom('A', 'AA', 'AAPL', 'BRK-B', 'BRK', 'Z9', null);
const accession = fc.constantFrom('0000320193-25-000001', '0000320193-25-000002', '0001067983-24-000010');
const number = fc.oneof(fc.constantFrom(0, -0, 1, -1, 5_000_000, -5_000_000, 0.1, 1e300, -1e-300), fc.double({ noNaN: true, noDefaultInfinity: true }));
const row = fc.record({
  filed_at: date, accepted_at: dateTime, latest_filing_at: date, accession_no: accession, ticker, cik: fc.constantFrom('0000320193', '0001067983'),
  net_usd: number, total_value_usd: number.map(Math.abs),
  value_usd: number.map(Math.abs), filer_cik: fc.constantFrom('0001061165', '0001517137'), cusip: fc.constantFrom('02079K305', '02079K107', 'N07059210'),
  put_call: fc.constantFrom('Put', 'Call', null),
});

test('for every kind, the byte order of two rows\' keys is the order ROW_ORDER gives them', () => {
  for (const kind of ROW_KINDS) {
    fc.assert(fc.property(row, row, (a, b) => {
      const writer = new OrderKeyWriter();
      writer.add(ORDER_KEY_PARTS[kind], a);
      writer.add(ORDER_KEY_PARTS[kind], b);
      const keys = writer.finish();
      const bytes = Math.sign(keys.compare(0, keys.bytes, keys.start(1), keys.ends[1]!));
      const rows = Math.sign(ROW_ORDER[kind](a, b));
      assert.equal(bytes, rows === 0 ? 0 : rows, `${kind}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    }), { numRuns: 3000 });
  }
});

test('a key with a character outside ASCII, or longer than a cursor can carry, is refused with the field named', () => {
  assert.throws(() => new OrderKeyWriter().add(ORDER_KEY_PARTS.reports, { latest_filing_at: '2025-04-20', ticker: 'ÄPPL' }), /ticker holds a character outside ASCII/);
  assert.throws(() => new OrderKeyWriter().add(ORDER_KEY_PARTS.filings, { filed_at: '2025-04-20', accepted_at: `2025-04-20T20:00:00.${'1'.repeat(400)}Z`, accession_no: 'x', ticker: 'A' }), /order key is \d+ bytes/);
});
