/**
 * `equity-facts build` as an operator meets it (docs/api.md §12): usage mistakes are usage errors,
 * and a build that found no input of a kind the serving version has is not published.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { copyFileSync, writeFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuildCommand } from '../../src/builder/command.js';
import { writeFixtureSnapshot } from '../helpers/harness.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/build');

/** Runs the command with stderr captured (stdout carries the test runner's own report); `now` is its clock. */
async function build(t: TestContext, argv: string[], now?: () => number): Promise<{ code: number; err: string }> {
  let err = '';
  const stderr = t.mock.method(process.stderr, 'write', (chunk: string) => { err += chunk; return true; });
  try {
    return { code: await runBuildCommand(argv, now), err };
  } finally {
    stderr.mock.restore();
  }
}

function folders(t: TestContext): { from: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'eqf-build-command-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'from'));
  return { from: join(dir, 'from'), out: join(dir, 'snapshots') };
}

test('--as-of 2022-13-45 is a usage error naming the option, not a RangeError', async (t) => {
  for (const date of ['2022-13-45', '2022-00-10', '2022-02-30', '9999-99-99']) {
    const { code, err } = await build(t, ['--from', 'a', '--out', 'b', '--as-of', date]);
    assert.equal(code, 2, date);
    assert.match(err, new RegExp(`--as-of must be a date YYYY-MM-DD, got "${date}"`));
    assert.doesNotMatch(err, /RangeError|\n\s+at /, 'no stack trace');
  }
});

test('a typo in a flag is a usage error that suggests the flag meant', async (t) => {
  const typo = await build(t, ['--from', 'a', '--out', 'b', '--allow-emtpy']);
  assert.equal(typo.code, 2);
  assert.match(typo.err, /unknown option "--allow-emtpy" \(did you mean --allow-empty\?\)/);
});

test('a first build from an empty --from is refused, saying what it found; --allow-empty publishes it', async (t) => {
  const { from, out } = folders(t);
  const refused = await build(t, ['--from', from, '--out', out, '--as-of', '2022-12-31', '--version', 'empty']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /refused to publish, nothing changed: the new version has no rows at all: read 0 files under .*from, making 0 reports, 0 insiders/);
  assert.match(refused.err, /--allow-empty/);
  assert.equal(existsSync(join(out, 'CURRENT')), false);
  assert.equal(existsSync(join(out, 'empty')), false, 'the refused version is not left behind');
  const allowed = await build(t, ['--from', from, '--out', out, '--as-of', '2022-12-31', '--version', 'empty', '--allow-empty']);
  assert.equal(allowed.code, 0, allowed.err);
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'empty');
});

test('a build missing a kind the serving version has is refused and CURRENT stays; the kinds and counts are named', async (t) => {
  const { from, out } = folders(t);
  await writeFixtureSnapshot(out, 'v1');
  const empty = await build(t, ['--from', from, '--out', out, '--as-of', '2022-12-31', '--version', 'v2']);
  assert.equal(empty.code, 1);
  assert.match(empty.err, /no reports, insiders, whales, earnings, filings, holders rows, which the current version v1 has \(\d+ reports, \d+ insiders/);
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'v1');
  // Only a Form 4: insider rows, but no 13F, 8-K or submissions.
  copyFileSync(join(FIXTURES, 'form4-mixed.xml'), join(from, '0000320193-22-000001.xml'));
  // Its SGML header as datamule renders it: the builder takes the filing date from there.
  writeFileSync(join(from, '0000320193-22-000001.header.json'), JSON.stringify({
    submission: { 'ACCESSION-NUMBER': '0000320193-22-000001', TYPE: '4', PERIOD: '20240301', 'FILING-DATE': '20240304' },
  }));
  const partial = await build(t, ['--from', from, '--out', out, '--as-of', '2024-03-31', '--version', 'v3']);
  assert.equal(partial.code, 1, partial.err);
  assert.match(partial.err, /no [a-z, ]*whales[a-z, ]* rows, which the current version v1 has/);
  assert.doesNotMatch(partial.err, /no [a-z, ]*insiders[a-z, ]* rows/, 'insiders were found');
  assert.match(partial.err, /read 2 files under/);
  assert.deepEqual(readdirSync(out).filter((name) => !name.startsWith('.')).sort(), ['CURRENT', 'v1']);
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'v1');
  const forced = await build(t, ['--from', from, '--out', out, '--as-of', '2024-03-31', '--version', 'v3', '--allow-empty']);
  assert.equal(forced.code, 0, forced.err);
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'v3');
});

test('an --as-of after today (UTC, by the clock) is refused naming --allow-future-as-of; today is accepted; the flag allows it', async (t) => {
  const { from, out } = folders(t);
  // 23:30 in New York on 21 November is already 22 November in UTC.
  const now = (): number => Date.parse('2026-11-21T23:30:00-05:00');
  for (const asOf of ['2026-11-23', '2099-01-01']) {
    const future = await build(t, ['--from', from, '--out', out, '--as-of', asOf, '--allow-empty'], now);
    assert.equal(future.code, 2, future.err);
    assert.match(future.err, new RegExp(`--as-of ${asOf} is after today \\(2026-11-22, UTC\\)`));
    assert.match(future.err, /--allow-future-as-of/);
    assert.equal(existsSync(out), false, 'nothing is written');
  }
  const today = await build(t, ['--from', from, '--out', out, '--as-of', '2026-11-22', '--allow-empty', '--version', 'today'], now);
  assert.equal(today.code, 0, today.err);
  const allowed = await build(t, ['--from', from, '--out', out, '--as-of', '2099-01-01', '--allow-empty', '--allow-future-as-of', '--version', 'future'], now);
  assert.equal(allowed.code, 0, allowed.err);
  const manifest = JSON.parse(readFileSync(join(out, 'future', 'manifest.json'), 'utf8')) as { data_through: string };
  assert.equal(manifest.data_through, '2099-01-01');
});

test('the real CLI refuses build --as-of 2099-01-01 with exit 2 and publishes nothing', async (t) => {
  const { from, out } = folders(t);
  const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main, 'build', '--from', from, '--out', out, '--as-of', '2099-01-01', '--allow-empty'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => { err += chunk; });
  const [code] = await once(child, 'exit');
  assert.equal(code, 2, err);
  assert.match(err, /--as-of 2099-01-01 is after today .*--allow-future-as-of/s);
  assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  assert.equal(existsSync(join(out, 'CURRENT')), false);
});

test('windows that end after the inputs\' last trades are refused with the exact command whose windows hold them, and that command publishes', async (t) => {
  const { from, out } = folders(t);
  // One Form 4 filed 2024-03-04 with P and S lines of 2024-02-20 to 2024-03-01; the 90-day window back from 2024-12-31 starts 2024-10-03.
  copyFileSync(join(FIXTURES, 'form4-mixed.xml'), join(from, '0000320193-22-000001.xml'));
  writeFileSync(join(from, '0000320193-22-000001.header.json'), JSON.stringify({
    submission: { 'ACCESSION-NUMBER': '0000320193-22-000001', TYPE: '4', PERIOD: '20240301', 'FILING-DATE': '20240304' },
  }));
  const argv = ['--from', from, '--out', out, '--as-of', '2024-12-31', '--version', 'v1'];
  const refused = await build(t, argv);
  assert.equal(refused.code, 1, refused.err);
  assert.match(refused.err, /refused to publish, nothing changed: the 90-day insider window \(2024-10-03 to 2024-12-31\) holds no P or S trade of the inputs' Forms 4, which reach back to 2024-02-20/);
  assert.equal(existsSync(join(out, 'CURRENT')), false);
  assert.equal(existsSync(join(out, 'v1')), false, 'the refused version is not left behind');
  // 2024-02-20 to 2024-12-31 counting both ends is 316 days; no filing record (submissions, SGML) is among the inputs, so the filings window stays as it was.
  const command = /^ {2}equity-facts build (.*)$/m.exec(refused.err)?.[1];
  assert.ok(command, refused.err);
  assert.match(command, / --window-days 316 --filings-days 30$/);
  const words = command.split(' ');
  assert.deepEqual(words.slice(0, argv.length), argv, 'the given options are kept as they were');
  const published = await build(t, words);
  assert.equal(published.code, 0, published.err);
  assert.match(published.err, /1 insiders/);
  assert.equal(readFileSync(join(out, 'CURRENT'), 'utf8').trim(), 'v1');
  const allowed = await build(t, [...argv.slice(0, -1), 'v2', '--allow-empty']);
  assert.equal(allowed.code, 0, '--allow-empty publishes the version the windows leave empty');
});
