/**
 * The README is the truth for a new user: its demo keys, settings and first commands must match
 * the code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseKeysFile } from '../src/keys/keys-file.js';
import { SERVE_SETTINGS } from '../src/cli/serve-config.js';
import { PLANS } from '../src/plans.js';

const root = new URL('../', import.meta.url);

test('the README starts with the two set-up commands', async () => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  assert.match(firstBlock, /^npm ci && npm start\b/m);
  assert.match(firstBlock, /^npm test\b/m);
});

test('every demo key in the README is in keys.demo.json with the plan and status the README says', async () => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  const table = parseKeysFile(await readFile(new URL('keys.demo.json', root), 'utf8'), 'keys.demo.json');
  const rows = [...readme.matchAll(/^\| ([^|]+) \| `(eqf_[0-9A-Za-z]{38})` \|/gm)];
  assert.equal(rows.length, table.records.length, 'one README row per demo key');
  for (const [, label, key] of rows) {
    const record = table.find(key!);
    assert.ok(record, `${label} key is in keys.demo.json`);
    if (/suspended/.test(label!)) assert.equal(record.status, 'suspended');
    else if (/inactive/.test(label!)) assert.equal(record.status, 'inactive');
    else if (/non-API/.test(label!)) assert.ok(!PLANS.some((plan) => plan.id === record.plan));
    else assert.equal(PLANS.find((plan) => plan.id === record.plan)?.label, label!.replace(/^free \((Pulse)\)$/, '$1').trim());
  }
});

test('the README configuration table lists every serve setting', async () => {
  const readme = await readFile(new URL('README.md', root), 'utf8');
  for (const setting of SERVE_SETTINGS) {
    assert.ok(readme.includes(`\`${setting.env}\``), setting.env);
    if (setting.flag) assert.ok(readme.includes(`\`--${setting.flag}\``), setting.flag);
  }
});
