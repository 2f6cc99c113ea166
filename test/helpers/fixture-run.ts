/**
 * A fetch test's surroundings: the replay server serving the fixture EDGAR
 * (test/fixtures/fetch-edgar.ts), its clock, an output folder, and run options pointing at them;
 * all closed and removed after the test.
 */
import type { TestContext } from 'node:test';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FetchOptions } from '../../src/fetch/fetch-options.js';
import { EdgarReplay } from './edgar-replay.js';
import { replayTime, type ReplayTime } from './replay-time.js';
import { FIXTURE_SINCE, seedFixtureEdgar } from '../fixtures/fetch-edgar.js';

/** The User-Agent the tests declare. */
export const USER_AGENT = 'equity-facts tests tests@example.com';

/** A replay of the fixture EDGAR, its clock, and an output folder, all closed after the test. */
export async function fixtureRun(t: TestContext): Promise<{ replay: EdgarReplay; time: ReplayTime; out: string; options: (extra?: Partial<FetchOptions>) => FetchOptions; logs: string[] }> {
  const replay = await EdgarReplay.start({ secData: null });
  seedFixtureEdgar(replay);
  const out = await mkdtemp(join(tmpdir(), 'eqf-fetch-'));
  t.after(async () => {
    await replay.close();
    await rm(out, { recursive: true, force: true });
  });
  const time = replayTime(replay);
  const logs: string[] = [];
  const options = (extra: Partial<FetchOptions> = {}): FetchOptions => ({
    userAgent: USER_AGENT, out, tickers: ['EQFX'], since: FIXTURE_SINCE, baseUrl: replay.url, ...time,
    log: (line) => logs.push(line), progress: null, ...extra,
  });
  return { replay, time, out, options, logs };
}

/** Every file under a folder, relative, sorted. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name))).sort();
}
