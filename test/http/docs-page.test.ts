/**
 * The docs page (docs/api.md §13) in a real browser: Debian's Chromium driven by playwright-core.
 * The page renders the seven operations of the API, its first screen at 1,280×800 shows Authorize
 * (where the key is entered) and the first operation, HEAD and OPTIONS are not listed as operations,
 * its icon answers, a key entered once makes try-it calls return 200 with rows, and no request goes
 * to another host (every request is intercepted and counted). Screenshots are kept in
 * test-artifacts/ (git-ignored) and their paths printed.
 *
 * Without /usr/bin/chromium (or EQF_CHROMIUM) the browser test is skipped, saying so in its name;
 * `.ci/run` installs Chromium where it is missing. The page's plain HTTP behaviour is tested
 * without a browser below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CHROMIUM_SKIP_REASON, HAVE_CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { startHarness, KEYS } from '../helpers/harness.js';
import { ROUTES } from '../../src/routes.js';

const ARTIFACTS = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../test-artifacts');

/** The seven operations of the service spec's endpoint table: everything under /api/v1. */
const API_OPERATIONS = ROUTES.filter((route) => route.underApi);

test('the docs page serves its HTML with a self-only CSP, its viewer files with ETags, and 404 for any other file', async (t) => {
  const h = await startHarness(t);
  const page = await h.get('/docs');
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(String(page.headers['content-security-policy']), /default-src 'none'.*connect-src 'self'/);
  assert.doesNotMatch(page.text, /https?:\/\//, 'the page names no other host');
  // The first request starts compressing on the thread pool and gets the identity body; once the
  // brotli body is ready, requests get it.
  const identity = await h.get('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'br' });
  assert.equal(identity.status, 200);
  let bundle = identity;
  const deadline = Date.now() + 30_000; // a bound, not a wait: each turn asks again at once
  while (Date.now() < deadline && bundle.headers['content-encoding'] !== 'br') {
    await new Promise((resolve) => setImmediate(resolve));
    bundle = await h.get('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'br' });
  }
  assert.equal(bundle.headers['content-encoding'], 'br');
  assert.equal(Number(bundle.headers['content-length']) < Number(identity.headers['content-length']) / 3, true);
  assert.notEqual(bundle.headers.etag, identity.headers.etag, 'each coding has its own strong tag');
  const again = await h.get('/docs/swagger-ui-bundle.js', { 'accept-encoding': 'br', 'if-none-match': String(bundle.headers.etag) });
  assert.equal(again.status, 304);
  assert.equal((await h.get('/docs/LICENSE.swagger-ui.txt')).status, 200, 'the viewer\'s licence ships with it');
  for (const path of ['/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/nope.js', '/docs/', '/docs/constructor']) {
    const reply = await h.get(path);
    assert.equal(reply.status, 404, path);
    assert.equal(reply.json.error, 'not_found');
  }
  assert.equal((await h.get('/docs', {}, 'POST')).status, 405);
});

test('a 404 under /docs quotes the name at most 100 characters, JSON-escaped, and never a key', async (t) => {
  const h = await startHarness(t);
  const minted = 'eqf_O4fTdfnqXNNdQMMAlCyNfYImM75IxpsU3jZ1Yj';
  for (const name of [KEYS.founders, minted, `${'a'.repeat(95)}/${KEYS.founders}`, encodeURIComponent(KEYS.founders).replace(/-/g, '%2D')]) {
    const reply = await h.get(`/docs/${name}`);
    assert.equal(reply.status, 404, name);
    const detail = (reply.json as { detail: string }).detail;
    assert.doesNotMatch(detail, new RegExp(`${KEYS.founders.slice(4, 16)}|O4fTdfnq`), name);
    assert.match(detail, /not shown: it holds an API key/, name);
  }
  const long = await h.get(`/docs/${'b'.repeat(300)}`);
  assert.equal((long.json as { detail: string }).detail, `No such file of the docs page: "${'b'.repeat(99)}…"`);
});

test('/favicon.ico answers an ICO of the project\'s own, cacheable, and the docs page links to it', async (t) => {
  const h = await startHarness(t);
  const icon = await h.get('/favicon.ico');
  assert.equal(icon.status, 200);
  assert.equal(icon.headers['content-type'], 'image/x-icon');
  assert.equal(icon.headers['cache-control'], 'public, max-age=3600');
  const bytes = Buffer.from(icon.text, 'latin1');
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header (reserved 0, type 1)');
  assert.equal((await h.get('/favicon.ico', { 'if-none-match': String(icon.headers.etag) })).status, 304);
  assert.equal((await h.get('/favicon.ico', {}, 'HEAD')).status, 200);
  assert.match((await h.get('/docs')).text, /<link rel="icon" href="favicon\.ico"/, 'relative, like the page\'s other files');
});

test(HAVE_CHROMIUM ? 'in Chromium the docs page lists each operation once (GET), shows Authorize and the first operation in its first 1,280×800 screen, has an icon that answers, and a key entered once makes try-it calls return rows, with no request to another host'
  : CHROMIUM_SKIP_REASON, { skip: !HAVE_CHROMIUM }, async (t) => {
  // The document names another host as its server; the page must still call only its own origin.
  const h = await startHarness(t, { baseUrl: 'https://api.example.test' });
  const context = await launchChromium(t);
  const origin = new URL(h.base).origin;
  const elsewhere: string[] = [];
  const requests: { url: string; key: string | undefined }[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) {
      elsewhere.push(url);
      return route.abort();
    }
    requests.push({ url, key: route.request().headers()['x-api-key'] });
    return route.continue();
  });
  const page = context.pages()[0] ?? await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${h.base}/docs`);

  for (const route of API_OPERATIONS) {
    await page.locator(`[id^="operations-"][id$="-${route.operationId}"]`).first().waitFor({ timeout: 30_000 });
  }
  // GET only: every route once; HEAD and OPTIONS stay in the served document for generators.
  assert.equal(await page.locator('.opblock').count(), ROUTES.length);
  assert.equal(await page.locator('.opblock-get').count(), ROUTES.length);
  assert.equal(await page.locator('.opblock-head, .opblock-options').count(), 0, 'no HEAD or OPTIONS operation is listed');
  const served = (await (await fetch(`${h.base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  assert.ok(Object.values(served.paths).every((operations) => 'head' in operations), 'the document still has HEAD');

  // The first screen, unscrolled: Authorize and the first operation are wholly in the viewport.
  await mkdir(ARTIFACTS, { recursive: true });
  const firstScreen = join(ARTIFACTS, 'docs-page-first-screen.png');
  await page.screenshot({ path: firstScreen, fullPage: false });
  t.diagnostic(`screenshot: ${firstScreen}`);
  const inFirstScreen = async (what: string, selector: string): Promise<void> => {
    const box = await page.locator(selector).first().boundingBox();
    assert.ok(box !== null, `${what} is shown`);
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 1280 && box.y + box.height <= 800,
      `${what} is in the first 1,280×800 screen: ${JSON.stringify(box)}`);
  };
  assert.equal(await page.evaluate('window.scrollY'), 0); // (strings: the project's types have no DOM)
  await inFirstScreen('Authorize (the key field)', 'button.authorize');
  await inFirstScreen('the first operation', '.opblock');


  // Authorize once with X-API-Key.
  await page.locator('button.authorize').first().click();
  const scheme = page.locator('.auth-container').filter({ hasText: 'X-API-Key' });
  await scheme.locator('input').fill(KEYS.signal);
  await scheme.locator('button.authorize').click();
  await page.locator('.btn-done, button.close-modal').first().click();

  const tryIt = async (operationId: string, fill: Record<string, string> = {}): Promise<string> => {
    const block = page.locator(`[id^="operations-"][id$="-${operationId}"]`).first();
    await block.locator('.opblock-summary').first().click();
    await block.locator('.try-out__btn').click();
    for (const [name, value] of Object.entries(fill)) await block.locator(`tr[data-param-name="${name}"] input`).fill(value);
    await block.locator('.execute').click();
    const status = block.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    assert.equal((await status.textContent())?.trim(), '200', operationId);
    return (await block.locator('.live-responses-table tr.response .microlight, .live-responses-table tr.response pre').first().textContent()) ?? '';
  };
  const filings = await tryIt('listFilings', { ticker: 'AAPL', limit: '3' });
  assert.match(filings, /"count": 3/);
  assert.match(filings, /"type": "filing"/);
  const meta = await tryIt('getMeta');
  assert.match(meta, /"key_id": "k_signal"/, 'the same key, entered once, is sent again');

  await page.locator('.live-responses-table').last().scrollIntoViewIfNeeded();
  const shot = join(ARTIFACTS, 'docs-page.png');
  await page.screenshot({ path: shot, fullPage: false });
  t.diagnostic(`screenshot: ${shot}`);

  const apiCalls = requests.filter((r) => r.url.includes('/api/v1/finance/') || r.url.includes('/api/v1/meta'));
  assert.ok(apiCalls.length >= 2 && apiCalls.every((r) => r.key === KEYS.signal), 'try-it calls carry the key in X-API-Key');
  assert.ok(requests.every((r) => !r.url.includes(KEYS.signal)), 'the key never goes in a URL');
  assert.deepEqual(elsewhere, [], 'no request left the page\'s origin');
  assert.deepEqual(problems.filter((p) => /Content Security Policy|Refused/.test(p)), [], 'the CSP blocked nothing the viewer needs');
  // The page's icon: its link answers 200 with an icon Chromium decodes. Playwright aborts every
  // intercepted request for a path ending in /favicon.ico (a rule of its own), so the icon is
  // fetched once interception has ended; the assertion checks that it is this origin's address.
  await context.unrouteAll({ behavior: 'wait' });
  const icon = await page.evaluate(`(async () => {
    const href = document.querySelector('link[rel~="icon"]').href;
    const response = await fetch(href);
    const image = new Image();
    image.src = href;
    await image.decode();
    return { href, status: response.status, type: response.headers.get('content-type'), width: image.naturalWidth };
  })()`);
  assert.deepEqual(icon, { href: `${origin}/favicon.ico`, status: 200, type: 'image/x-icon', width: 32 });
});
