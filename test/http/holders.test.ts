/**
 * The holders endpoint through the real server on a snapshot built from the EDGAR test set
 * (docs/api.md §16): the envelope and headers of the other lists, written fields only on paid
 * plans, every row reachable through `Link` in the file's order; and a version built before the
 * kind existed still serves, with no holder rows.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { listen } from '../../src/server.js';
import { KEY_RECORDS, KEYS, ManualClock, withKey } from '../helpers/harness.js';
import { asBuiltBefore } from '../helpers/older-version.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';
import { realBuild, secDataSkip as skip } from '../helpers/real-build.js';

const EVERYTHING = Object.freeze({ asOf: '2026-12-31', windowDays: 730, filingsDays: 20_000 });
const BASE_URL = 'https://api.example.test';
const PATH = '/api/v1/finance/holders';

/** The real server on port 0 over `snapshotsDir`, with the test keys and a clock the test moves. */
async function serve(t: TestContext, snapshotsDir: string) {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-holders-'));
  const keysFile = join(dir, 'keys.json');
  await writeKeysFile(keysFile, KEY_RECORDS);
  const clock = new ManualClock();
  const server = await listen({ port: 0, snapshotsDir, keysFile, now: clock.now, log: () => {}, watchIntervalMs: 0, baseUrl: BASE_URL });
  const agent = new Agent();
  t.after(async () => {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const get = async (path: string, key: string) => {
    const response = await request(`${server.url}${path}`, { headers: withKey(key), dispatcher: agent });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text, json: JSON.parse(text) };
  };
  return { server, clock, get };
}

/** Follows `Link: rel="next"` from the first page to the last; the clock moves a minute per page, so no plan runs out. */
async function walk(s: Awaited<ReturnType<typeof serve>>, limit: number, key: string): Promise<{ rows: Record<string, unknown>[]; pages: number }> {
  const rows: Record<string, unknown>[] = [];
  let next: string | undefined = `${PATH}?limit=${limit}`;
  let pages = 0;
  while (next !== undefined) {
    const reply = await s.get(next, key);
    assert.equal(reply.status, 200, `${next}: ${reply.text.slice(0, 200)}`);
    rows.push(...reply.json.data);
    pages++;
    const link = reply.headers.link as string | undefined;
    next = link === undefined ? undefined : /^<https:\/\/api\.example\.test([^>]+)>; rel="next"$/.exec(link)![1];
    s.clock.advance(60_000);
    assert.ok(pages < 100, 'the walk ends');
  }
  return { rows, pages };
}

test(skip ? `holders endpoint (${skip})` : 'holders: the envelope of every list, no summary on the free plan, and Link reaches every row once in order', { skip }, async (t) => {
  const build = await realBuild(EVERYTHING);
  const s = await serve(t, build.root);
  const file = build.rows.holders;
  assert.ok(file.length > 200, `${file.length} holder rows built`);

  const first = await s.get(`${PATH}?limit=5`, KEYS.signal);
  assert.equal(first.status, 200);
  assert.deepEqual(Object.keys(first.json).sort(), ['api_version', 'as_of', 'attribution', 'count', 'data', 'license', 'ok']);
  assert.equal(first.json.ok, true);
  assert.equal(first.json.api_version, 'v1');
  assert.equal(first.json.count, 5);
  assert.deepEqual(first.json.data, file.slice(0, 5), 'the first rows of the file, largest value first, each with its summary');
  assert.ok(first.json.data.every((r: { summary?: string }) => typeof r.summary === 'string'));
  assert.match(String(first.headers.etag), /^W\/"/);
  assert.equal(first.headers['x-snapshot-version'], build.version);
  assert.match(String(first.headers['content-type']), /^application\/json; charset=utf-8$/);
  const document = (await s.get('/api/v1/openapi.json', KEYS.signal)).json;
  assert.equal(createResponseValidator(document).validate(PATH, 200, first.json), null, 'valid against the served OpenAPI document');

  // Free plan: pages of at most 10, the rows' facts without the written field.
  const free = await walk(s, 500, KEYS.free);
  assert.equal(free.pages, Math.ceil(file.length / 10));
  assert.ok(free.rows.every((r) => !('summary' in r)), 'no summary key on the free plan');
  assert.deepEqual(free.rows, file.map(({ summary: _summary, ...facts }) => facts));

  // A paid plan: every row once, in the file's order, with its summary.
  const paid = await walk(s, 50, KEYS.signal);
  assert.equal(paid.pages, Math.ceil(file.length / 50));
  assert.deepEqual(paid.rows, file);
});

test(skip ? `holders on an older version (${skip})` : 'a version built before holders existed still serves: holders answers 200 with count 0, the other lists as before', { skip }, async (t) => {
  const build = await realBuild(EVERYTHING);
  const root = await mkdtemp(join(tmpdir(), 'eqf-old-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await cp(join(build.root, build.version), join(root, build.version), { recursive: true });
  await asBuiltBefore(join(root, build.version), 'holders');
  await writeFile(join(root, 'CURRENT'), `${build.version}\n`);
  assert.equal(JSON.parse(await readFile(join(root, build.version, 'manifest.json'), 'utf8')).files['holders.ndjson'], undefined);
  const s = await serve(t, root);
  const holders = await s.get(PATH, KEYS.signal);
  assert.equal(holders.status, 200, holders.text);
  assert.deepEqual([holders.json.count, holders.json.data, holders.headers.link], [0, [], undefined]);
  const whales = await s.get('/api/v1/finance/whales?limit=50', KEYS.signal);
  assert.deepEqual(whales.json.data, build.rows.whales);
});
