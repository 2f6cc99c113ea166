/**
 * Writes the configuration tables of docs/operating.md from the settings table (src/settings/):
 * `serve`'s flags and `EQF_` variables with their options, defaults and descriptions, then the
 * options only code gives, between the `settings:start` / `settings:end` markers; and the
 * portal's settings between `portal-settings:start` / `portal-settings:end`.
 * test/readme.test.ts fails while the committed tables differ from these.
 *
 * Usage: `npx tsx scripts/settings-table.ts` (prints them) or `npx tsx scripts/settings-table.ts --write`.
 */
import { settingsMarkdown } from '../src/settings/table.js';
import { portalSettingsMarkdown } from '../src/portal/portal-settings.js';
import { writeBetween } from './markers.js';

if (process.argv.includes('--write')) {
  await writeBetween('docs/operating.md', 'settings', settingsMarkdown());
  await writeBetween('docs/operating.md', 'portal-settings', portalSettingsMarkdown());
} else {
  process.stdout.write(`${settingsMarkdown()}\n\n${portalSettingsMarkdown()}\n`);
}
