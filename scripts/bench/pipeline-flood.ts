/**
 * The attack of issue 22 item 1, measured: connections that pipeline thousands of requests and
 * never read the answers, against the built server (`dist/`), while honest probes ask for the
 * OpenAPI document (no key) and a data endpoint (a demo key). Per round, a fresh server; it counts
 * the probes' statuses and samples the server's resident memory (VmRSS of /proc/PID/status).
 *
 * ```sh
 * npm run build
 * npx tsx scripts/bench/pipeline-flood.ts                  # 3 rounds: 100 connections × 3,000 GET /api/v1/openapi.json (226 KB)
 * npx tsx scripts/bench/pipeline-flood.ts --variant data   # the same with a keyless data endpoint (401 answers)
 * npx tsx scripts/bench/pipeline-flood.ts --attackers 0    # control: the probes alone, to see what the machine itself does
 * npx tsx scripts/bench/pipeline-flood.ts --rounds 1 --cpu-prof /tmp/prof   # the server writes a .cpuprofile there
 * npx tsx scripts/bench/pipeline-flood.ts --dist ../before/dist             # another build (a worktree of an older commit)
 * ```
 *
 * Options: `--rounds N` (3), `--variant heavy|data` (heavy), `--attackers N` (100; 0 for a
 * control round), `--requests N` per connection (3,000), `--seconds N` of probing (20; the attack
 * starts 1 s in), `--cpu-prof DIR`, `--dist DIR` (the build to serve, `dist`), `--serve ARG…` (the
 * rest is passed to `serve`). Prints a line per round, then a JSON line of every round. Linux only
 * (/proc). The probes share the machine with the server: on a busy one, each probe's own delay
 * and the server's are mixed, so compare builds in alternating rounds (`--dist`).
 */
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startServer } from './processes.js';

/** Demo keys (README, keys.demo.json): Founders and Insider, alternated so neither bucket runs dry at 10 probes a second. */
const PROBE_KEYS = ['eqf_i4DC4EapNrjYzGzrT9Vq8aUUOpTDL8Hn07Z8sE', 'eqf_4X2Kv0N1WP4jjAyCEJXgXSQdUbkOhQEp231rJr'];
const OPENAPI = '/api/v1/openapi.json';
const DATA = '/api/v1/finance/filings?ticker=PLTR&limit=20';
/** What the attackers pipeline, by variant. */
const ATTACK_PATHS = { heavy: OPENAPI, data: DATA } as const;

interface Options {
  rounds: number;
  variant: keyof typeof ATTACK_PATHS;
  attackers: number;
  requests: number;
  seconds: number;
  cpuProf: string | undefined;
  dist: string;
  serve: string[];
}

/** What one round saw. */
interface Round {
  round: number;
  /** Statuses of the OpenAPI probe and of the data probe, by status (`error` for a failed request). */
  openapi: Record<string, number>;
  data: Record<string, number>;
  /** Probes answered 503, both probes together. */
  busy: number;
  /** The slowest probe, ms: how long the server's event loop was held at most, give or take a round trip. */
  slowestProbeMs: number;
  /** CPU time the server used during the round (user and system), ms, in steps of a clock tick (10 ms). */
  serverCpuMs: number;
  /** VmRSS, MiB: just before the attack, the most during the round, at its end. */
  rssBaselineMiB: number;
  rssPeakMiB: number;
  rssAfterMiB: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { rounds: 3, variant: 'heavy', attackers: 100, requests: 3_000, seconds: 20, cpuProf: undefined, dist: 'dist', serve: [] };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!;
    if (name === '--serve') {
      options.serve = argv.slice(i + 1);
      break;
    }
    const value = argv[++i];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name === '--variant') {
      if (value !== 'heavy' && value !== 'data') throw new Error('--variant is heavy or data');
      options.variant = value;
    } else if (name === '--cpu-prof') options.cpuProf = value;
    else if (name === '--dist') options.dist = value;
    else if (name === '--rounds' || name === '--attackers' || name === '--requests' || name === '--seconds') {
      // --attackers 0 is the control: the same probes and server with no attack.
      const n = Number(value);
      const least = name === '--attackers' ? 0 : 1;
      if (!Number.isSafeInteger(n) || n < least) throw new Error(`${name} must be a whole number from ${least}`);
      options[name.slice(2) as 'rounds' | 'attackers' | 'requests' | 'seconds'] = n;
    } else throw new Error(`unknown option ${name}`);
  }
  return options;
}

/** VmRSS of a process, MiB. */
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kib / 1024;
}

/** CPU time a process has used so far (user and system), ms: fields 14 and 15 of /proc/PID/stat, in clock ticks of 10 ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Opens `count` connections that each write `requests` pipelined GETs of `path` and read nothing. */
function attack(url: URL, path: string, count: number, requests: number): Socket[] {
  const payload = `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`.repeat(requests);
  return Array.from({ length: count }, () => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(payload));
    socket.pause();
    socket.on('error', () => {});
    return socket;
  });
}

function tally(counts: Record<string, number>, status: string): void {
  counts[status] = (counts[status] ?? 0) + 1;
}

async function round(n: number, options: Options): Promise<Round> {
  const nodeArgs = options.cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.cpuProf];
  const served = await startServer([...nodeArgs, join(options.dist, 'cli', 'main.js'), 'serve', '--port', '0', '--access-log', 'off', ...options.serve]);
  const pid = served.child.pid!;
  const url = new URL(served.url);
  const agent = new Agent({ connections: 8 });
  const result: Round = { round: n, openapi: {}, data: {}, busy: 0, slowestProbeMs: 0, serverCpuMs: 0, rssBaselineMiB: 0, rssPeakMiB: 0, rssAfterMiB: 0 };
  const probe = async (counts: Record<string, number>, path: string, headers: Record<string, string>): Promise<void> => {
    const sent = performance.now();
    try {
      const reply = await request(`${served.url}${path}`, { dispatcher: agent, headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
      await reply.body.dump();
      tally(counts, String(reply.statusCode));
      if (reply.statusCode === 503) result.busy++;
    } catch {
      tally(counts, 'error');
    }
    result.slowestProbeMs = Math.max(result.slowestProbeMs, performance.now() - sent);
  };
  let sockets: Socket[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // settle after start
    const started = performance.now();
    const probes: Promise<void>[] = [];
    let tick = 0;
    result.rssBaselineMiB = await rssMiB(pid);
    const cpuBefore = await cpuMs(pid);
    let attacked = false;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = performance.now() - started;
        if (elapsed >= options.seconds * 1_000) {
          clearInterval(timer);
          return resolve();
        }
        if (!attacked && elapsed >= 1_000) {
          attacked = true;
          sockets = attack(url, ATTACK_PATHS[options.variant], options.attackers, options.requests);
        }
        probes.push(probe(result.openapi, OPENAPI, {}));
        probes.push(probe(result.data, DATA, { 'x-api-key': PROBE_KEYS[tick++ % PROBE_KEYS.length]! }));
        rssMiB(pid).then((mib) => { result.rssPeakMiB = Math.max(result.rssPeakMiB, mib); }, () => {});
      }, 100);
    });
    await Promise.all(probes);
    result.rssAfterMiB = await rssMiB(pid);
    result.serverCpuMs = (await cpuMs(pid)) - cpuBefore;
    result.rssPeakMiB = Math.max(result.rssPeakMiB, result.rssAfterMiB);
  } finally {
    for (const socket of sockets) socket.destroy();
    await agent.close();
    await served.stop();
  }
  return result;
}

const options = parseArgs(process.argv.slice(2));
const rounds: Round[] = [];
console.log(`${options.dist}: ${options.attackers} connections × ${options.requests} pipelined ${ATTACK_PATHS[options.variant]}, unread; probes every 100 ms for ${options.seconds} s`);
for (let n = 1; n <= options.rounds; n++) {
  const r = await round(n, options);
  rounds.push(r);
  const mib = (x: number): string => x.toFixed(0);
  console.log(`round ${n}: 503 × ${r.busy}; slowest probe ${r.slowestProbeMs.toFixed(0)} ms; server CPU ${r.serverCpuMs} ms; openapi ${JSON.stringify(r.openapi)} data ${JSON.stringify(r.data)}; RSS MiB baseline ${mib(r.rssBaselineMiB)} peak ${mib(r.rssPeakMiB)} after ${mib(r.rssAfterMiB)}`);
}
console.log(JSON.stringify({ variant: options.variant, attackers: options.attackers, requests: options.requests, rounds }));
