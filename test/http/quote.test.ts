/**
 * quoteInput (docs/api.md §12): client input in a detail is a JSON string of at most 100
 * characters of it, and never shows a key, whatever the input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { QUOTE_MAX_CHARS, REDACTED_KEY, quoteInput } from '../../src/http/quote.js';
import { mintKey } from '../../src/keys/mint.js';

test('any input comes back as a JSON string of at most 100 of its characters, with no minted key in it', () => {
  const key = mintKey();
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.nat(400), fc.boolean(), (text, at, withKey) => {
    const input = withKey ? `${text.slice(0, at)}${key}${text.slice(at)}` : text;
    const quoted = quoteInput(input);
    if (quoted === REDACTED_KEY) return;
    const shown = JSON.parse(quoted) as string;
    assert.ok(shown.length <= QUOTE_MAX_CHARS);
    assert.ok(input.startsWith(shown.endsWith('…') && shown.length === QUOTE_MAX_CHARS ? shown.slice(0, -1) : shown));
    assert.ok(!shown.includes(key.slice(0, 12)), 'no part of the key that starts in the window');
  }), { numRuns: 2000 });
});

test('a key is recognised whole when the limit cuts it, percent-encoded, or by the recogniser', () => {
  const key = mintKey();
  for (let at = 50; at <= 97; at++) assert.equal(quoteInput(`${'x'.repeat(at)}/${key}`), REDACTED_KEY, `key from ${at + 1}`);
  assert.notEqual(quoteInput(`${'x'.repeat(98)}/${key}`), REDACTED_KEY, 'a key wholly past the limit is not shown anyway');
  assert.equal(quoteInput(`/p/${encodeURIComponent(key).replace('e', '%65')}`), REDACTED_KEY);
  const known = (token: string): boolean => token === 'my-custom-secret';
  assert.equal(quoteInput('/api/v1/my-custom-secret/x', known), REDACTED_KEY);
  assert.equal(quoteInput('/api/v1/my%2Dcustom%2Dsecret', known), REDACTED_KEY);
  assert.equal(quoteInput('/api/v1/my-custom-secrets', known), '"/api/v1/my-custom-secrets"', 'only whole tokens');
});
