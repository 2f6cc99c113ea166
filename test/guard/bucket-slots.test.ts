import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BucketSlots } from '../../src/guard/bucket-slots.js';

test('values written before the arrays grow are kept after they grow', () => {
  const slots = new BucketSlots();
  const initialLength = slots.minuteTokens.length;
  const keys = initialLength * 2 + 1;
  for (let i = 0; i < keys; i++) {
    const slot = slots.allocate(`k${i}`);
    slots.minuteTokens[slot] = i;
    slots.dayTokens[slot] = i + 0.5;
    slots.updatedAtMs[slot] = i * 2;
    slots.fullAtMs[slot] = i * 3;
  }
  assert.equal(slots.size, keys);
  assert.equal(slots.minuteTokens.length, initialLength * 4);
  for (const i of [0, initialLength - 1, initialLength, keys - 1]) {
    const slot = slots.find(`k${i}`);
    assert.ok(slot !== undefined);
    assert.deepEqual(
      [slots.minuteTokens[slot], slots.dayTokens[slot], slots.updatedAtMs[slot], slots.fullAtMs[slot]],
      [i, i + 0.5, i * 2, i * 3],
    );
  }
});

test('releaseFull forgets exactly the keys full at that instant', () => {
  const slots = new BucketSlots();
  slots.fullAtMs[slots.allocate('full-earlier')] = 99;
  slots.fullAtMs[slots.allocate('full-now')] = 100;
  slots.fullAtMs[slots.allocate('full-later')] = 101;
  slots.releaseFull(100);
  assert.equal(slots.find('full-earlier'), undefined);
  assert.equal(slots.find('full-now'), undefined);
  assert.notEqual(slots.find('full-later'), undefined);
  assert.equal(slots.size, 1);
});

test('released slots are reused before the arrays grow, so churn does not grow memory', () => {
  const slots = new BucketSlots();
  const length = slots.minuteTokens.length;
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < length; i++) slots.fullAtMs[slots.allocate(`r${round}-${i}`)] = 0;
    slots.releaseFull(0);
  }
  assert.equal(slots.size, 0);
  assert.equal(slots.minuteTokens.length, length);
  const reused = slots.allocate('again');
  assert.ok(reused < length);
});
