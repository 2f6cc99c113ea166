/**
 * Form tokens and address buckets as properties: a token is accepted for its own form while fresh
 * and for nothing else, any change to it is refused; every address of an IPv6 /64 counts in one
 * sign-up bucket, however it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createFormTokens, type FormName } from '../../src/portal/form-tokens.js';
import { addressBucket } from '../../src/portal/signup-limits.js';

const FORMS: FormName[] = ['signup', 'rotate', 'admin'];

test('a form token is accepted for its own form within its life only, and any changed character refuses it', () => {
  fc.assert(fc.property(fc.constantFrom(...FORMS), fc.constantFrom(...FORMS), fc.integer({ min: 0, max: 10_000 }), fc.nat(), fc.integer({ min: 0, max: 127 }), (form, other, age, at, code) => {
    let now = 1_790_000_000_000;
    const tokens = createFormTokens(5_000, () => now);
    const token = tokens.issue(form);
    now += age;
    assert.equal(tokens.check(form, token), age <= 5_000);
    assert.equal(tokens.check(other, token), other === form && age <= 5_000);
    const i = at % token.length;
    const changed = token.slice(0, i) + String.fromCharCode(code) + token.slice(i + 1);
    if (changed !== token) assert.equal(tokens.check(form, changed), false);
  }));
  // The last base64url character carries two unused bits: no other last character passes either.
  const fixed = createFormTokens(5_000, () => 1);
  const issued = fixed.issue('admin');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  assert.deepEqual([...alphabet].map((c) => issued.slice(0, -1) + c).filter((t) => t !== issued && fixed.check('admin', t)), []);
  // Another process (another secret) never accepts it.
  const token = createFormTokens(5_000, () => 0).issue('signup');
  assert.equal(createFormTokens(5_000, () => 0).check('signup', token), false);
});

test('every spelling of an address in one IPv6 /64 falls in one sign-up bucket; IPv4-mapped addresses count as IPv4', () => {
  const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
  fc.assert(fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (a, tail) => {
    const full = a.join(':');
    const sibling = [...a.slice(0, 4), ...tail].join(':');
    const padded = a.map((g) => g.padStart(4, '0')).join(':').toUpperCase();
    assert.equal(addressBucket(full), addressBucket(sibling));
    assert.equal(addressBucket(full), addressBucket(padded));
  }));
  assert.equal(addressBucket('2001:db8::1'), addressBucket('2001:0db8:0000:0000:ffff::2'));
  assert.notEqual(addressBucket('2001:db8:0:1::1'), addressBucket('2001:db8:0:2::1'));
  assert.equal(addressBucket('::ffff:203.0.113.9'), '203.0.113.9');
  assert.equal(addressBucket(undefined), 'unknown');
});
