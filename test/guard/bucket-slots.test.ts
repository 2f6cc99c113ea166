import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BucketSlots, DAY_TOKENS, FULL_AT_MS, MINUTE_TOKENS, SLOT_FIELDS, UPDATED_AT_MS } from '../../src/guard/bucket-slots.js';

/** Writes one slot's four numbers. */
function write(slots: BucketSlots, slot: number, values: [number, number, number, number]): void {
  const base = slot * SLOT_FIELDS;
  [slots.state[base + MINUTE_TOKENS], slots.state[base + DAY_TOKENS], slots.state[base + UPDATED_AT_MS], slots.state[base + FULL_AT_MS]] = values;
}

/** Reads one slot's four numbers. */
function read(slots: BucketSlots, slot: number): number[] {
  const base = slot * SLOT_FIELDS;
  return [slots.state[base + MINUTE_TOKENS]!, slots.state[base + DAY_TOKENS]!, slots.state[base + UPDATED_AT_MS]!, slots.state[base + FULL_AT_MS]!];
}

test('values written before the array grows are kept after it grows', () => {
  const slots = new BucketSlots();
  const initialCapacity = slots.capacity;
  const keys = initialCapacity * 2 + 1;
  for (let i = 0; i < keys; i++) write(slots, slots.allocate(`k${i}`), [i, i + 0.5, i * 2, i * 3]);
  assert.equal(slots.size, keys);
  assert.equal(slots.capacity, initialCapacity * 4);
  assert.equal(slots.state.length, initialCapacity * 4 * SLOT_FIELDS);
  for (const i of [0, initialCapacity - 1, initialCapacity, keys - 1]) {
    const slot = slots.find(`k${i}`);
    assert.ok(slot !== undefined);
    assert.deepEqual(read(slots, slot), [i, i + 0.5, i * 2, i * 3]);
  }
});

test('neighbouring slots do not overlap', () => {
  const slots = new BucketSlots();
  const first = slots.allocate('first');
  const second = slots.allocate('second');
  write(slots, first, [1, 2, 3, 4]);
  write(slots, second, [5, 6, 7, 8]);
  assert.deepEqual(read(slots, first), [1, 2, 3, 4]);
  assert.deepEqual(read(slots, second), [5, 6, 7, 8]);
});

test('releaseFull forgets exactly the keys full at that instant', () => {
  const slots = new BucketSlots();
  write(slots, slots.allocate('full-earlier'), [0, 0, 0, 99]);
  write(slots, slots.allocate('full-now'), [0, 0, 0, 100]);
  write(slots, slots.allocate('full-later'), [0, 0, 0, 101]);
  slots.releaseFull(100);
  assert.equal(slots.find('full-earlier'), undefined);
  assert.equal(slots.find('full-now'), undefined);
  assert.notEqual(slots.find('full-later'), undefined);
  assert.equal(slots.size, 1);
});

test('released slots are reused before the array grows, so churn does not grow memory', () => {
  const slots = new BucketSlots();
  const capacity = slots.capacity;
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < capacity; i++) write(slots, slots.allocate(`r${round}-${i}`), [0, 0, 0, 0]);
    slots.releaseFull(0);
  }
  assert.equal(slots.size, 0);
  assert.equal(slots.capacity, capacity);
  const reused = slots.allocate('again');
  assert.ok(reused < capacity);
});
