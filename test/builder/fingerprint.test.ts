import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { builderFingerprint, builderSources } from '../../src/builder/fingerprint.js';

test('the fingerprint covers the readers in edgar/ subfolders, the builder and the computations', async () => {
  const sources = await builderSources();
  const has = (folder: string, name: string) => sources.some((s) => s.folder === folder && s.name.replace(/\.js$/, '.ts') === name);
  assert.ok(has('../edgar/', 'conventions.ts'));
  assert.ok(has('../edgar/', join('filing', 'sgml.ts')), 'a reader grouped by form is hashed too');
  assert.ok(has('../edgar/', join('ownership', 'ownership-xml.ts')));
  assert.ok(has('./', 'file-extract.ts'));
  assert.ok(has('../facts/', 'insiders.ts'));
  assert.match(await builderFingerprint(), /^[0-9a-f]{32}$/);
});
