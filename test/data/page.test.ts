/**
 * The row store and page builder on their own: bytes kept across chunk boundaries, rows larger
 * than a chunk, facts cut from the full bytes or kept apart, and pages built from slabs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageBuilder, PageSlabs, RowStore, pageSlice } from '../../src/data/page.js';

/** A row of about `bytes` bytes whose last member is the written field `summary`. */
function row(i: number, bytes: number): { full: Buffer; factsJson: string } {
  const facts = { i, pad: 'x'.repeat(Math.max(0, bytes - 60)) };
  return { full: Buffer.from(JSON.stringify({ ...facts, summary: `row ${i}` })), factsJson: JSON.stringify(facts) };
}

test('pages built from a store hold every row exactly, across chunk boundaries and for rows larger than a chunk', () => {
  const store = new RowStore();
  const slabs = new PageSlabs();
  const all = new PageBuilder(100_000, store);
  const even = new PageBuilder(3, store);
  const rows: ReturnType<typeof row>[] = [];
  // 9,000 rows of ~1 KiB (two 4 MiB chunks and more), then one of 5 MiB, then small ones again.
  const sizes = [...Array.from({ length: 9000 }, () => 1000), 5 << 20, 200, 300];
  sizes.forEach((size, i) => {
    const r = row(i, size);
    rows.push(r);
    // Facts as a view of the full bytes, cut before `,"summary":`; `}` is appended by the store.
    const cut = r.full.subarray(0, r.factsJson.length - 1);
    const kept = store.keep(r.full, cut, true);
    all.add(kept);
    if (i % 2 === 0) even.add(kept);
  });
  const page = all.build(slabs);
  assert.equal(page.length, rows.length);
  assert.equal(page.full.toString(), rows.map((r) => r.full.toString()).join(','));
  assert.equal(page.facts.toString(), rows.map((r) => r.factsJson).join(','));
  const firstEven = even.build(slabs);
  assert.equal(firstEven.length, 3, 'a builder keeps at most its capacity');
  assert.equal(pageSlice(firstEven, 'facts', 2).bytes.toString(), `${rows[0]!.factsJson},${rows[2]!.factsJson}`);
  assert.equal(pageSlice(firstEven, 'full', 9).bytes.toString(), [0, 2, 4].map((i) => rows[i]!.full.toString()).join(','));
});

test('facts that are not a view of the full bytes are stored apart; a row without written field is the same in both', () => {
  const store = new RowStore();
  const builder = new PageBuilder(10, store);
  const withSummary = Buffer.from('{"a":1,"summary":"s","b":2}');
  builder.add(store.keep(withSummary, Buffer.from('{"a":1,"b":2'), true));
  const plain = Buffer.from('{"a":3}');
  builder.add(store.keep(plain, plain, false));
  const page = builder.build(new PageSlabs());
  assert.equal(page.full.toString(), '{"a":1,"summary":"s","b":2},{"a":3}');
  assert.equal(page.facts.toString(), '{"a":1,"b":2},{"a":3}');
  assert.deepEqual([...page.factsEnds], [13, 21]);
});
