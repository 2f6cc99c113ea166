/**
 * Test harness: a snapshot and keys file in a temp folder, the real server on port 0, a manual
 * clock and a calm (injectable) load sample. Tests talk to it over HTTP with undici.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Agent, request } from 'undici';
import { writeSnapshot, sortRows } from '../../src/data/snapshot-writer.js';
import { ROW_KINDS, type RowKind } from '../../src/rows/schemas.js';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import { hashKey, type KeyRecord } from '../../src/keys/keys-file.js';
import { listen, type ListenOptions, type RunningServer } from '../../src/server.js';
import type { LoadSample } from '../../src/guard/load-sampler.js';
import { fixtureRows } from '../fixtures/rows.js';

/** Plaintext test keys by name. */
export const KEYS = {
  free: 'test-free-key', signal: 'test-signal-key', insider: 'test-insider-key', founders: 'test-founders-key',
  suspended: 'test-suspended-key', inactive: 'test-inactive-key', nonApi: 'test-enterprise-dashboard-key',
} as const;

const record = (id: string, key: string, plan: string, status: KeyRecord['status'] = 'active'): KeyRecord => ({
  id, sha256: hashKey(key), account: `acct-${id}`, plan, status, created_at: '2026-11-01T00:00:00Z',
});

/** The keys file entries for {@link KEYS}. */
export const KEY_RECORDS: KeyRecord[] = [
  record('k_free', KEYS.free, 'free'), record('k_signal', KEYS.signal, 'signal'), record('k_insider', KEYS.insider, 'insider'),
  record('k_founders', KEYS.founders, 'founders'), record('k_susp', KEYS.suspended, 'signal', 'suspended'),
  record('k_inact', KEYS.inactive, 'signal', 'inactive'), record('k_dash', KEYS.nonApi, 'dashboard'),
];

/** A clock tests move by hand. */
export class ManualClock {
  constructor(public ms = Date.parse('2026-11-21T12:00:00Z')) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void { this.ms += ms; }
}

/**
 * Writes the fixture snapshot (or given rows) as `version` under `root`, and publishes it unless
 * told not to; with index files unless `indexes` is false (a version as built before them).
 */
export async function writeFixtureSnapshot(root: string, version: string, rows: Partial<Record<RowKind, object[]>> = fixtureRows(), publish = true, indexes = true): Promise<void> {
  const sorted = {} as Record<RowKind, object[]>;
  for (const kind of ROW_KINDS) sorted[kind] = sortRows(kind, rows[kind] ?? []);
  await writeSnapshot({ root, version, createdAt: '2026-11-21T00:00:00.000Z', dataThrough: '2025-05-03', build: { fixture: true }, rows: sorted, publish, indexes });
}

export interface Harness {
  readonly server: RunningServer;
  readonly base: string;
  readonly dir: string;
  readonly snapshotsDir: string;
  readonly keysFile: string;
  readonly clock: ManualClock;
  readonly logs: string[];
  /** The harness's HTTP client connections (undici), closed before the server; pass it as `dispatcher`. */
  readonly agent: Agent;
  /** Load sample the breaker reads; tests change it. */
  load: LoadSample;
  get(path: string, headers?: Record<string, string>, method?: string): Promise<Reply>;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** Starts the server on port 0 with the fixture snapshot and test keys; closed after the test. */
export async function startHarness(t: TestContext, options: Partial<ListenOptions> = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-test-'));
  const snapshotsDir = join(dir, 'snapshots');
  const keysFile = join(dir, 'keys.json');
  await writeFixtureSnapshot(snapshotsDir, 'v1');
  await writeKeysFile(keysFile, KEY_RECORDS);
  const clock = new ManualClock();
  const logs: string[] = [];
  const harness = {
    load: { eventLoopDelayMs: 0, inFlight: 0, heapUsedBytes: 0 } as LoadSample,
  } as Harness;
  const server = await listen({
    port: 0, snapshotsDir, keysFile, now: clock.now, log: (line) => logs.push(line), watchIntervalMs: 0,
    ...options,
    breaker: { sample: () => harness.load, ...options.breaker },
  });
  // The harness's own connections, closed before the server: a graceful stop leaves an idle
  // keep-alive connection open a little while (its client may be sending), and tests need not wait.
  const agent = new Agent();
  t.after(async () => {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  Object.assign(harness, {
    server, base: server.url, dir, snapshotsDir, keysFile, clock, logs, agent,
    async get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
      const response = await request(`${server.url}${path}`, { method: method as 'GET', headers, dispatcher: agent });
      const text = await response.body.text();
      let json: unknown;
      try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
      return { status: response.statusCode, headers: response.headers, text, json };
    },
  });
  return harness;
}

/** Header object for a key sent as X-API-Key. */
export const withKey = (key: string): Record<string, string> => ({ 'x-api-key': key });
