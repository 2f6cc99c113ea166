/**
 * Debian's Chromium, driven by playwright-core, for the browser tests (the docs page, the developer
 * portal). It runs headless without a sandbox (CI runs as root) and with background networking
 * off, so a page's own requests are the only ones; playwright-core is loaded only when a test
 * launches it. `.ci/run` installs Chromium where it is missing; without it the tests are skipped
 * with {@link CHROMIUM_SKIP_REASON} in their names.
 */
import type { TestContext } from 'node:test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** The browser binary: `EQF_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env.EQF_CHROMIUM ?? '/usr/bin/chromium';

/** Whether the binary is there. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** The name a browser test takes when it is skipped. */
export const CHROMIUM_SKIP_REASON = `skipped: Chromium is not installed at ${CHROMIUM} (set EQF_CHROMIUM or install Debian's chromium)`;

/** A fresh browser with a profile of its own, closed and removed when the test ends. */
export async function launchChromium(t: TestContext): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'eqf-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
  t.after(async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });
  return context;
}
