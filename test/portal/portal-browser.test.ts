/**
 * The developer portal in a real browser (docs/api.md §18): Debian's Chromium driven by
 * playwright-core, against the portal and a real API process on another port (so the holder's
 * page calls the API across origins, as in production). It walks a sign-up, the holder's usage
 * page with the new key, and one operator change (a suspension) seen in the keys file; records
 * every request the pages make and checks that none leaves 127.0.0.1 and that no key is in an
 * address; and keeps screenshots at 360 and 1,280 px wide in test-artifacts/ (git-ignored).
 *
 * Without /usr/bin/chromium (or EQF_CHROMIUM) the test is skipped, saying so in its name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CHROMIUM_SKIP_REASON, HAVE_CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { parseKeysFile } from '../../src/keys/keys-file.js';
import { fixtureDir, startServe } from '../helpers/serve-process.js';
import { ADMIN_TOKEN, keysReloaded, startPortal } from '../helpers/portal.js';

const ARTIFACTS = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../test-artifacts');
const WIDTHS = [360, 1280] as const;

test(HAVE_CHROMIUM ? 'in Chromium: sign up, see the new key\'s usage from the API, suspend it as the operator; no request leaves 127.0.0.1, no key in an address; screenshots at 360 and 1,280 px'
  : CHROMIUM_SKIP_REASON, { skip: !HAVE_CHROMIUM }, async (t) => {
  const fixture = await fixtureDir(t);
  const api = await startServe(t, fixture, ['--watch-interval-ms', '20', '--access-log', 'off']);
  const portal = await startPortal(t, fixture.keys, { apiUrl: api.url });
  await mkdir(ARTIFACTS, { recursive: true });
  const context = await launchChromium(t);
  const requests: { url: string; method: string; headers: Record<string, string> }[] = [];
  const elsewhere: string[] = [];
  await context.route('**/*', async (route) => {
    const request = route.request();
    const url = request.url();
    if (!url.startsWith('data:') && new URL(url).hostname !== '127.0.0.1') {
      elsewhere.push(url);
      return route.abort();
    }
    requests.push({ url, method: request.method(), headers: request.headers() });
    return route.continue();
  });
  const page = context.pages()[0] ?? await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(error.message));
  const shoot = async (name: string): Promise<void> => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      const path = join(ARTIFACTS, `portal-${name}-${width}.png`);
      await page.screenshot({ path, fullPage: true });
      // The page must not be wider than the screen (a table scrolls inside its box instead).
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as number;
      assert.ok(overflow <= 0, `${name} at ${width} px is ${overflow} px wider than the screen`);
      t.diagnostic(`screenshot: ${path}`);
    }
  };

  /** Clicks `button`, waits for the box showing a new key, reads the key and its id; `reloaded` resolves once the API has read the file. */
  const mintedBy = async (button: string, box: string, keyField: string, idField: string) => {
    const from = api.stderr.text.length;
    await page.click(button);
    await page.locator(`#${box}`).waitFor({ state: 'visible' });
    const minted = (await page.locator(`#${keyField}`).textContent())!.trim();
    assert.match(minted, /^eqf_[0-9A-Za-z]{38}$/);
    return { key: minted, id: (await page.locator(`#${idField}`).textContent())!.trim(), reloaded: keysReloaded(api, from) };
  };

  await page.goto(`${portal.url}/`);
  assert.equal(await page.locator('#plans tbody tr').count(), 4);
  assert.equal(await page.locator('#docs-link').getAttribute('href'), `${api.url}/docs`);
  await shoot('home');

  // Sign-up: the key is shown once.
  await page.goto(`${portal.url}/signup`);
  await shoot('signup-form');
  await page.fill('#signup-name', 'Ada Lovelace');
  await page.fill('#signup-email', 'ada@example.com');
  const { key, id: keyId, reloaded } = await mintedBy('#signup-submit', 'signup-result', 'signup-key', 'signup-key-id');
  await shoot('signup');
  await reloaded;

  // The holder's page: usage from the API's meta, the key in a header.
  await page.goto(`${portal.url}/account`);
  await page.fill('#account-key', key);
  await page.click('#account-submit');
  await page.locator('#account-usage').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#usage-plan').textContent(), 'free');
  assert.equal(await page.locator('#usage-key-id').textContent(), keyId);
  assert.equal(await page.locator('#usage-limit-minute').textContent(), '10');
  assert.equal(await page.locator('#usage-limit-day').textContent(), '200');
  assert.match((await page.locator('#usage-reset-minute').textContent())!, /^(now|again in \d+ s)$/);
  assert.equal(await page.inputValue('#account-key'), '', 'the key is not left in the field');
  await shoot('account');

  // The holder rotates: the new key is shown once, and the page follows it once the API has it.
  const { key: rotated, id: rotatedId, reloaded: rotationReloaded } = await mintedBy('#rotate-button', 'rotate-result', 'rotate-key', 'rotate-key-id');
  assert.notEqual(rotated, key);
  await rotationReloaded;
  await page.locator('#usage-key-id', { hasText: rotatedId }).waitFor();
  await shoot('account-rotated');

  // The operator suspends the new key.
  await page.goto(`${portal.url}/admin`);
  await page.fill('#admin-token', ADMIN_TOKEN);
  await page.click('#admin-login-submit');
  await page.locator(`#key-row-${keyId}`).waitFor({ state: 'visible' });
  await page.selectOption(`#key-status-${keyId}`, 'suspended');
  await page.locator('#admin-message').waitFor({ state: 'visible' });
  assert.match((await page.locator('#admin-message').textContent())!, new RegExp(`${keyId}: suspended`));
  const records = parseKeysFile(await readFile(fixture.keys, 'utf8'), fixture.keys).records;
  assert.equal(records.find((r) => r.id === keyId)!.status, 'suspended');
  await shoot('admin');

  assert.deepEqual(elsewhere, [], 'no request left 127.0.0.1');
  assert.ok(requests.every((r) => !r.url.includes(key) && !r.url.includes(rotated) && !r.url.includes(ADMIN_TOKEN)), 'no key or token in an address');
  const rotation = requests.find((r) => r.url === `${portal.url}/account/rotate`)!;
  assert.equal(rotation.headers['x-api-key'], key, 'the rotation sent the key in a header');
  const metaCalls = requests.filter((r) => r.url === `${api.url}/api/v1/meta`);
  assert.ok(metaCalls.length >= 2 && metaCalls.every((r) => r.headers['x-api-key'] === key || r.headers['x-api-key'] === rotated), 'meta was called with the key in X-API-Key');
  // After the rotation the page asks meta with the new key until the API has read it: a 401 then
  // is expected (Chromium logs each one), anything else is not.
  assert.deepEqual(problems.filter((p) => !/status of 401/.test(p)), [], 'no script error and nothing blocked by the CSP');
});
