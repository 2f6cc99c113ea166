/**
 * Child processes of the benchmark: the server under test, the bare server and the floor server
 * (each its own `node` process, started the same way), wrk runs, and one-shot measuring
 * children. Load only ever goes to 127.0.0.1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Folder of these scripts. */
export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The endpoints measured against the bare server; `{T}` is the rotating ticker. */
export const ENDPOINTS = [
  { name: 'filings', path: '/api/v1/finance/filings?ticker={T}&limit=20', data: true },
  { name: 'insiders', path: '/api/v1/finance/insiders?limit=100', data: true },
  { name: 'meta', path: '/api/v1/meta', data: false },
] as const;

/**
 * The floor server's path for an endpoint: `/floor/NAME` with the endpoint's query, so that it
 * gets the same tickers as the API (the bare server's path has no query).
 */
export function floorPath(endpoint: (typeof ENDPOINTS)[number]): string {
  const q = endpoint.path.indexOf('?');
  return `/floor/${endpoint.name}${q === -1 ? '' : endpoint.path.slice(q)}`;
}

/** Names of the endpoints whose path names a ticker (`{T}`), comma-separated, for floor-server.mjs. */
export function tickerEndpoints(): string {
  return ENDPOINTS.filter((endpoint) => endpoint.path.includes('{T}')).map((endpoint) => endpoint.name).join(',');
}

/** `taskset -c CPUS` before a command when `cpus` is given (util-linux), else nothing. */
function pinned(command: string, args: readonly string[], cpus: string | undefined): [string, string[]] {
  return cpus === undefined ? [command, [...args]] : ['taskset', ['-c', cpus, command, ...args]];
}

/** A started server: its base URL and how to stop it. */
export interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  /** Lines the child wrote on stderr so far (log lines, reload notices). */
  readonly log: { at: number; line: string }[];
  stop(): Promise<void>;
}

/**
 * The message of an operational log line: its `msg` where the server writes JSON lines (the
 * default since the one logger), else the line itself (`--log-format text`, and older builds).
 */
function messageOf(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const entry = JSON.parse(line) as { msg?: unknown };
    return typeof entry.msg === 'string' ? entry.msg : line;
  } catch {
    return line;
  }
}

/**
 * Starts `node ARGS…` and resolves once it printed `… on http://host:port (pid N)` on stderr.
 *
 * @param cpus - CPU list to pin the process to (`taskset -c`), e.g. `0`; unpinned when absent.
 * @throws Error with the child's output when it exits first or takes over `timeoutMs`.
 */
export function startServer(args: readonly string[], timeoutMs = 120_000, cpus?: string): Promise<Served> {
  const child = spawn(...pinned(process.execPath, args, cpus), { stdio: ['ignore', 'ignore', 'pipe'] });
  const log: { at: number; line: string }[] = [];
  let pending = '';
  return new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${args.join(' ')}: not listening after ${timeoutMs} ms\n${pending}`)); }, timeoutMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      pending += text;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        log.push({ at: performance.now(), line: messageOf(line) });
        const match = / on (http:\/\/[^ ]+) \(pid \d+\)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve({ url: match[1]!, child, log, stop: () => stop(child) });
        }
        newline = pending.indexOf('\n');
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${log.map((l) => l.line).join('\n')}${pending}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

/** One wrk run, as printed by rotate.lua's done(). */
export interface WrkResult {
  requests: number;
  duration_us: number;
  bytes: number;
  connect: number;
  read: number;
  write: number;
  /** Responses with status ≥ 400 (wrk's count). */
  status: number;
  timeout: number;
  p50_us: number;
  p99_us: number;
  mean_us: number;
  max_us: number;
  /** requests / duration. */
  rps: number;
}

/** What a wrk run requests. */
export interface WrkTarget {
  /** Base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Path; `{T}` is replaced by the rotating ticker. */
  path: string;
  keysText: string;
  tickersFile?: string;
  /** A file of requests, `PATH` or `PATH<TAB>IF-NONE-MATCH` per line, rotated instead of `path` (rotate.lua). */
  requestsFile?: string;
}

/** Whether wrk is on the PATH. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * Runs `wrk -t1 -cC -dDs --latency -s rotate.lua URL` and parses its JSON line. One wrk thread:
 * on a 2-core machine wrk and the server share the CPU, one core each.
 *
 * @param cpus - CPU list to pin wrk to (`taskset -c`); unpinned when absent.
 */
export function runWrk(target: WrkTarget, connections: number, seconds: number, cpus?: string): Promise<WrkResult> {
  // The Lua script sends its own prepared requests, so the URL only names host and port.
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', `${BENCH_DIR}rotate.lua`, `${target.url}/`];
  const env = {
    ...process.env, BENCH_KEYS: target.keysText, BENCH_TICKERS: target.tickersFile ?? '', BENCH_PATH: target.path, BENCH_REQUESTS: target.requestsFile ?? '',
  };
  return new Promise((resolve, reject) => {
    const child = spawn(...pinned('wrk', args, cpus), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { out += text; });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { err += text; });
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || !line) return reject(new Error(`wrk ${args.join(' ')} failed (${code}):\n${out}${err}`));
      const result = JSON.parse(line) as WrkResult;
      result.rps = result.requests / (result.duration_us / 1e6);
      resolve(result);
    });
  });
}

/** Runs `node ARGS…` to completion and parses the last JSON line it printed. */
export function runJsonChild<T>(args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => { out += text; });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => { err += text; });
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line?.startsWith('{')) return reject(new Error(`node ${args.join(' ')} failed (${code}):\n${out}${err}`));
      resolve(JSON.parse(line) as T);
    });
  });
}

/** CPU time of a process so far, µs: user + system (fields 14 and 15 of /proc/PID/stat, in clock ticks of 10 ms). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** What {@link alternateRounds} measured of each case, one entry per round. */
export interface RoundResults {
  readonly results: Record<string, WrkResult[]>;
  /** The server's CPU time per request, µs, which a machine shared with other work disturbs less than req/s. */
  readonly cpuUs: Record<string, number[]>;
}

/**
 * Runs wrk on each case's requests file (rotate.lua's BENCH_REQUESTS), a warm-up of 2 s each,
 * then `rounds` rounds in which the cases alternate, so that ratios compare figures of one run.
 *
 * @param files - per case, its requests file, in the order cases run (a Map: `Object.keys` would put
 *   a case named `304` first).
 * @param label - the bench's name, for progress lines on stderr.
 * @throws Error when a case got a response of status 400 or more.
 */
export async function alternateRounds(server: Served, keysText: string, files: ReadonlyMap<string, string>,
  options: { rounds: number; seconds: number; connections: number; label: string }): Promise<RoundResults> {
  const names = [...files.keys()];
  const results: Record<string, WrkResult[]> = Object.fromEntries(names.map((name) => [name, []]));
  const cpuUs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await runWrk({ url: server.url, path: '/', keysText, requestsFile: files.get(name)! }, options.connections, 2);
  for (let round = 1; round <= options.rounds; round++) {
    for (const name of names) {
      const before = cpuMicros(server.child.pid!);
      const result = await runWrk({ url: server.url, path: '/', keysText, requestsFile: files.get(name)! }, options.connections, options.seconds);
      const perRequest = (cpuMicros(server.child.pid!) - before) / result.requests;
      if (result.status > 0) throw new Error(`${name}: ${result.status} responses of status 400 or more`);
      results[name]!.push(result);
      cpuUs[name]!.push(perRequest);
      process.stderr.write(`[${options.label}] round ${round} ${name}: ${result.rps.toFixed(0)} req/s, p99 ${(result.p99_us / 1000).toFixed(2)} ms, ${perRequest.toFixed(1)} µs CPU/request\n`);
    }
  }
  return { results, cpuUs };
}

/** The median of some numbers (the mean of the middle two of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}
