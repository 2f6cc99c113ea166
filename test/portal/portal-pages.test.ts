/**
 * The portal's pages as served (docs/api.md §18): the plans table is the plan table's figures,
 * the API's docs are linked, the stable ids the browser test and page script rely on are there,
 * and nothing on a page, in its stylesheet or in its script names another origin but the API's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKeysFile } from '../../src/keys/keys-file-write.js';
import { PLANS } from '../../src/plans.js';
import { KEY_RECORDS } from '../helpers/harness.js';
import { getPortal, startPortal } from '../helpers/portal.js';

const API = 'https://api.example.com';

test('pages: the plans from the plan table, the API docs linked, stable ids, no other origin in any page, style or script', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-portal-pages-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeKeysFile(join(dir, 'keys.json'), KEY_RECORDS);
  const portal = await startPortal(t, join(dir, 'keys.json'), { apiUrl: API });
  const home = (await getPortal(portal.url, '/')).text;
  for (const plan of PLANS) {
    const row = new RegExp(`<tr id="plan-${plan.id}"><th scope="row">${plan.label}<small>${plan.id}</small></th>` +
      `<td>${plan.perMinute.toLocaleString('en-US')}</td><td>${plan.perDay.toLocaleString('en-US')}</td><td>${plan.maxPageSize}</td><td>${plan.summaries ? 'yes' : 'no'}</td></tr>`);
    assert.match(home, row, plan.id);
  }
  assert.match(home, new RegExp(`id="docs-link" href="${API}/docs"`));
  const ids: Record<string, string[]> = {
    '/signup': ['signup-form', 'signup-name', 'signup-email', 'signup-submit', 'signup-error', 'signup-result', 'signup-key', 'signup-key-id', 'signup-account'],
    '/account': ['account-form', 'account-key', 'account-submit', 'account-error', 'account-usage', 'usage-key-id', 'usage-account', 'usage-plan', 'usage-plan-label',
      'usage-used-minute', 'usage-limit-minute', 'usage-remaining-minute', 'usage-reset-minute', 'usage-used-day', 'usage-limit-day', 'usage-remaining-day', 'usage-reset-day',
      'usage-refresh', 'rotate-button', 'rotate-result', 'rotate-key', 'rotate-key-id', 'rotate-old-expires'],
    '/admin': ['admin-login-form', 'admin-token', 'admin-login-submit', 'admin-login-error', 'admin-panel', 'admin-message', 'admin-error', 'admin-new-key',
      'admin-mint-form', 'mint-account', 'mint-plan', 'mint-label', 'mint-submit', 'admin-keys', 'admin-keys-body', 'admin-row-template'],
  };
  const texts = [home];
  for (const [path, wanted] of Object.entries(ids)) {
    const page = (await getPortal(portal.url, path)).text;
    texts.push(page);
    for (const id of wanted) assert.ok(page.includes(`id="${id}"`), `${path} has #${id}`);
    // A key field is never a named form field: a form sent without the script would not carry it.
    assert.doesNotMatch(page, /<input[^>]*name=/, `${path}: no named input`);
  }
  texts.push((await getPortal(portal.url, '/assets/portal.css')).text, (await getPortal(portal.url, '/assets/portal.js')).text);
  const origins = new Set(texts.flatMap((text) => [...text.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+(?::\d+)?/gi)].map((m) => m[0])));
  assert.deepEqual([...origins], [API], 'no origin but the API\'s');
  assert.doesNotMatch(texts.join('\n'), /@import|url\(|innerHTML|eval\(|localStorage|sessionStorage|document\.cookie/, 'no import, no HTML from answers, no storage');
});
