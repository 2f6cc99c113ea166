/**
 * The README and docs/ are the truth for a new user: the README's demo keys and first commands,
 * the configuration table of docs/operating.md, and every link between the documents must match
 * the code and each other.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile, readdir } from 'node:fs/promises';
import { parseKeysFile } from '../src/keys/keys-file.js';
import { SERVE_ROWS, settingsMarkdown } from '../src/settings/table.js';
import { portalSettingsMarkdown } from '../src/portal/portal-settings.js';
import { between } from '../scripts/markers.js';
import { PLANS } from '../src/plans.js';

const root = new URL('../', import.meta.url);
const read = (path: string): Promise<string> => readFile(new URL(path, root), 'utf8');

test('the README starts with the two set-up commands', async () => {
  const readme = await read('README.md');
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  assert.match(firstBlock, /^npm ci && npm start\b/m);
  assert.match(firstBlock, /^npm test\b/m);
});

test('every demo key in the README is in keys.demo.json with the plan and status the README says', async () => {
  const readme = await read('README.md');
  const table = parseKeysFile(await read('keys.demo.json'), 'keys.demo.json');
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

test('the configuration tables of docs/operating.md are the ones the settings table generates (npx tsx scripts/settings-table.ts --write)', async () => {
  const operating = await read('docs/operating.md');
  assert.equal(between(operating, 'settings', 'docs/operating.md'), settingsMarkdown());
  assert.equal(between(operating, 'portal-settings', 'docs/operating.md'), portalSettingsMarkdown());
  for (const { setting } of SERVE_ROWS) {
    assert.ok(operating.includes(`\`${setting.env}\``), setting.env);
    if (setting.flag) assert.ok(operating.includes(`\`--${setting.flag}\``), setting.flag);
  }
});

test('the examples script finds its markers in docs/examples.md and the README', async () => {
  for (const [path, name] of [['docs/examples.md', 'examples'], ['README.md', 'example']] as const) {
    const text = await read(path);
    assert.ok(text.indexOf(`<!-- ${name}:start -->`) < text.indexOf(`<!-- ${name}:end -->`), `${path} has ${name} markers`);
  }
});

/** Text outside fenced code blocks and inline code, where links and headings live. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('every relative link and anchor in the README, BENCHMARKS.md and docs/ resolves', async () => {
  const files = ['README.md', 'BENCHMARKS.md', 'snapshots/README.md', ...(await readdir(new URL('docs/', root))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const broken: string[] = [];
  for (const file of files) {
    const text = await read(file);
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? new URL(file, root) : new URL(path, new URL(file, root));
      try {
        await access(resolved);
      } catch {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor !== undefined && resolved.pathname.endsWith('.md') && !anchors(await readFile(resolved, 'utf8')).has(anchor)) {
        broken.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
