/**
 * `equity-facts serve` as a child process (through tsx, from src/), for tests that need several
 * processes or node:cluster: started with flags, waited for until it prints where it serves,
 * stopped with SIGTERM after the test. Also a fixture folder (snapshot + keys file) and a burst
 * of concurrent requests spread over several servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { writeKeysFile } from '../../src/keys/keys-command.js';
import type { KeyRecord } from '../../src/keys/keys-file.js';
import { KEY_RECORDS, writeFixtureSnapshot } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
/** The built command (`npm run build` first). */
const DIST_MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** A running serve process. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote on stderr so far. */
  readonly stderr: { text: string };
  /** Everything it wrote on stdout so far (the access log under `--access-log stdout`). */
  readonly stdout: { text: string };
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** A folder with the fixture snapshot (`snapshots/`) and the test keys (`keys.json`), removed after the test. */
export async function fixtureDir(t: TestContext, extraKeys: KeyRecord[] = []): Promise<{ dir: string; snapshots: string; keys: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-proc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFixtureSnapshot(join(dir, 'snapshots'), 'v1');
  await writeKeysFile(join(dir, 'keys.json'), [...KEY_RECORDS, ...extraKeys]);
  return { dir, snapshots: join(dir, 'snapshots'), keys: join(dir, 'keys.json') };
}

/** How {@link startServe} treats the child's stdout. */
export interface ServeProcessOptions {
  /**
   * `false` leaves stdout a pipe that is never read (a stalled reader: the pipe fills and the
   * child's writes wait); `stdout.text` stays empty. Before stopping the child, resume it
   * (`child.stdout.resume()`), or its pending writes keep it alive. Default true.
   */
  readonly readStdout?: boolean;
  /**
   * Runs the child under a file-size limit (`ulimit -f`, KiB): a write past it is cut short,
   * then fails with EFBIG, as on a full disk. Default: none.
   */
  readonly fileSizeLimitKib?: number;
  /** Runs the built `dist/cli/main.js` (no tsx) instead of the source. Default false. */
  readonly fromDist?: boolean;
  /** Variables added to the child's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts `serve --port 0 --snapshots … --keys … ARGS` and resolves once it prints `serving on URL`.
 *
 * @throws Error with its output when it exits first.
 */
export async function startServe(t: TestContext, fixture: { snapshots: string; keys: string }, args: string[], options: ServeProcessOptions = {}): Promise<ServeProcess> {
  const main = options.fromDist ? [DIST_MAIN] : ['--import', 'tsx', MAIN];
  const command = [process.execPath, ...main, 'serve', '--port', '0', '--snapshots', fixture.snapshots, '--keys', fixture.keys, ...args];
  const limit = options.fileSizeLimitKib;
  // bash counts `ulimit -f` in KiB; exec leaves the server as the child itself (signals reach it).
  const child = limit === undefined
    ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } })
    : spawn('bash', ['-c', `ulimit -f ${limit} && exec "$@"`, 'bash', ...command], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  const stderr = { text: '' };
  const stdout = { text: '' };
  if (options.readStdout === false) child.stdout!.pause();
  else child.stdout!.setEncoding('utf8').on('data', (text: string) => { stdout.text += text; });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr.text += text;
      const match = /serving on (http:\/\/\S+)/.exec(stderr.text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stderr.text}`)));
  });
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    return (await exited)[0] as number | null;
  };
  t.after(stop);
  return { url, child, stderr, stdout, stop };
}

/** Resolves once the process's stderr matches `pattern` `times` times; fails after 30 s. */
export async function logged(server: ServeProcess, pattern: RegExp, times = 1): Promise<void> {
  const signal = AbortSignal.timeout(30_000);
  const global = new RegExp(pattern.source, 'g');
  while ((server.stderr.text.match(global) ?? []).length < times) {
    await once(server.child.stderr!, 'data', { signal }).catch(() => {
      assert.fail(`not logged ${times}× within 30 s: ${pattern}\n${server.stderr.text}`);
    });
  }
}

/** One answer of a burst. */
export interface BurstAnswer {
  status: number;
  error: string | undefined;
  retryAfter: number | undefined;
  /** When the answer arrived, `performance.now()` ms. */
  at: number;
}

/**
 * Sends `count` concurrent GETs of `path` with `headers`, request i to `urls[i % urls.length]`,
 * all at once, on connections opened beforehand.
 *
 * @returns the answers, and when the first request was sent (`performance.now()` ms).
 */
export async function burst(urls: readonly string[], path: string, headers: Record<string, string>, count: number): Promise<{ answers: BurstAnswer[]; sentAt: number }> {
  const agent = new Agent({ connections: 64, pipelining: 1 });
  try {
    // Open connections first, so the burst measures the servers, not connection set-up.
    await Promise.all(urls.flatMap((url) => Array.from({ length: 16 }, () => request(`${url}/healthz`, { dispatcher: agent }).then((r) => r.body.text()))));
    const sentAt = performance.now();
    const answers = await Promise.all(Array.from({ length: count }, async (_, i) => {
      const response = await request(`${urls[i % urls.length]}${path}`, { headers, dispatcher: agent });
      const text = await response.body.text();
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        error: response.statusCode >= 400 ? (JSON.parse(text) as { error: string }).error : undefined,
        retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
        at: performance.now(),
      };
    }));
    return { answers, sentAt };
  } finally {
    await agent.close();
  }
}
