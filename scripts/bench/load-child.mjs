// Loads and indexes one snapshot with the compiled server code (dist/), exactly as `serve`
// does at start-up, and prints one JSON line: wall time, rows, and the process's peak RSS
// (VmHWM from /proc/self/status, which includes Node's own baseline, also reported).
// Usage: node scripts/bench/load-child.mjs DIST_DIR SNAPSHOTS_DIR [--inline-hash|--worker-hash] [--rows-in file|memory]
// (the rows' SHA-256 on the main thread, or on a worker thread, else as the load chooses; the
// rows left in their files or copied to memory, else the build's default; builds before these
// options ignore them.)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [distDir, snapshotsDir, ...flags] = process.argv.slice(2);
const statusKb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const { loadSnapshot } = await import(pathToFileURL(join(distDir, 'data/snapshot-index.js')).href);
const baselineRss = statusKb('VmRSS');
const started = process.hrtime.bigint();
const options = {};
for (let i = 0; i < flags.length; i++) {
  if (flags[i] === '--inline-hash') options.hashOnWorker = false;
  else if (flags[i] === '--worker-hash') options.hashOnWorker = true;
  else if (flags[i] === '--rows-in') options.rowsIn = flags[++i];
  else throw new Error(`load-child: unknown flag ${flags[i]}`);
}
const snapshot = await loadSnapshot(snapshotsDir, undefined, options);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const usage = process.resourceUsage();
const rows = Object.values(snapshot.rowCounts).reduce((a, b) => a + b, 0);
const memory = process.memoryUsage();
process.stdout.write(`${JSON.stringify({
  version: snapshot.version, seconds, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, rows, rowCounts: snapshot.rowCounts,
  peakRssBytes: statusKb('VmHWM'), baselineRssBytes: baselineRss, rssAfterBytes: memory.rss, heapUsedAfterBytes: memory.heapUsed,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
})}\n`);
