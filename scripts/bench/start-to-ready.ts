/**
 * Start to ready of the compiled server (`npm run build` first) on one snapshots folder: the
 * method of load-paths.ts and load-compare.ts (docs/api.md §17).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { BENCH_DIR, startServer } from './processes.js';

const ROOT = join(BENCH_DIR, '..', '..');

/** What one start measured. */
export interface ReadyRun {
  /** Wall time from spawning `serve` to its first `/readyz` 200, in s. */
  seconds: number;
  /** CPU time of the process to get there, every thread, in s (less noisy than the wall time on a busy machine). */
  cpuSeconds: number;
  /** Peak RSS to then (VmHWM of /proc/PID/status, Node's own baseline included), in bytes. */
  peakRssBytes: number;
}

/**
 * Spawns `serve --snapshots snapshotsDir` with the demo keys, polls `/readyz` every 10 ms until
 * 200, measures and stops it.
 *
 * @param dist - the compiled server's folder (another build's, to compare builds). @default this tree's dist/
 */
export async function startToReady(snapshotsDir: string, dist = join(ROOT, 'dist'), extraArgs: readonly string[] = []): Promise<ReadyRun> {
  const started = performance.now();
  const server = await startServer([join(dist, 'cli/main.js'), 'serve', '--port', '0', '--host', '127.0.0.1', '--snapshots', snapshotsDir,
    '--keys', join(ROOT, 'keys.demo.json'), '--access-log', 'off', ...extraArgs], 600_000);
  try {
    for (;;) {
      const response = await request(`${server.url}/readyz`);
      await response.body.dump();
      if (response.statusCode === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8');
    // /proc/PID/stat: utime and stime are the 14th and 15th fields, in clock ticks (100 a second on Linux).
    const fields = (await readFile(`/proc/${server.child.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
    return { seconds, cpuSeconds, peakRssBytes: Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024 };
  } finally {
    await server.stop();
  }
}

/** "median (min-max)" of some numbers, with `digits` decimals. */
export function medianRange(numbers: readonly number[], digits: number): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  return `${sorted[sorted.length >> 1]!.toFixed(digits)} (${sorted[0]!.toFixed(digits)}-${sorted[sorted.length - 1]!.toFixed(digits)})`;
}
