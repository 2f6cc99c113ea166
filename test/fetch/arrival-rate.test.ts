/**
 * SEC counts the requests that arrive (fair-access policy: at most 10 per second), so the rate
 * is checked here where SEC would check it: on a replay server that stamps every arrival on the
 * real clock, while fetch runs on that same clock with its real sleep, with 429s (Retry-After),
 * 503s and dropped connections in the mix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFetch } from '../../src/fetch/fetch-run.js';
import { EdgarReplay } from '../helpers/edgar-replay.js';
import { USER_AGENT } from '../helpers/fixture-run.js';
import { FIXTURE_DOCUMENTS, FIXTURE_SINCE, seedFixtureEdgar } from '../fixtures/fetch-edgar.js';

const clock = (): number => performance.timeOrigin + performance.now();
const DOCUMENTS = Object.keys(FIXTURE_DOCUMENTS).filter((path) => path.startsWith('/Archives/'));

test('at most 10 requests arrive in any one second, retries after 429, 503 and dropped connections included', async (t) => {
  const replay = await EdgarReplay.start({ secData: null, now: clock });
  seedFixtureEdgar(replay);
  const out = await mkdtemp(join(tmpdir(), 'eqf-arrivals-'));
  t.after(async () => {
    await replay.close();
    await rm(out, { recursive: true, force: true });
  });
  // Every document fails first: most with a quick 503 (a back-off of a few ms, so that their
  // retries crowd the gate), some with a 429 that pauses everyone, some with a dropped connection.
  DOCUMENTS.forEach((path, i) => {
    if (i % 4 === 0) replay.fail(path, { status: 429, retryAfter: '1' });
    else if (i % 4 === 1) replay.fail(path, { drop: 'before-headers' });
    else replay.fail(path, { status: 503 }, 2);
  });
  /** Client-side start of every request, by path, in order. */
  const starts = new Map<string, number[]>();
  const result = await runFetch({
    userAgent: USER_AGENT, out, tickers: ['EQFX'], since: FIXTURE_SINCE, baseUrl: replay.url, now: clock,
    concurrency: 16, backoffBaseMs: 1, backoffCapMs: 4, log: () => {}, progress: null,
    observe: (event) => {
      if (event.type === 'request') {
        const path = new URL(event.url).pathname;
        starts.set(path, [...(starts.get(path) ?? []), clock()]);
      }
    },
  });
  assert.equal(result.exitCode, 0);
  assert.ok(replay.requests.length > 20, `${replay.requests.length} requests`);
  // Pair each arrival with its start: requests for one path are sequential, so the k-th arrival
  // of a path is its k-th start.
  const seen = new Map<string, number>();
  const arrivals = replay.requests.map((r) => {
    const k = seen.get(r.path) ?? 0;
    seen.set(r.path, k + 1);
    return { at: r.at, start: starts.get(r.path)![k]! };
  }).sort((a, b) => a.at - b.at);
  // Any 11 arrivals in a row span at least one second. The network can only delay a request
  // (arrival after start) and so bunch arrivals that started apart: the margin is exactly
  // that delay, taken from the earliest start of the 11, and nowhere else.
  for (let i = 0; i + 10 < arrivals.length; i++) {
    const eleven = arrivals.slice(i, i + 11);
    const earliestStart = Math.min(...eleven.map((a) => a.start));
    assert.ok(eleven[10]!.at - earliestStart >= 1000, `arrivals ${i}..${i + 10}: ${eleven.map((a) => Math.round(a.at - arrivals[0]!.at)).join(', ')} ms`);
  }
});
