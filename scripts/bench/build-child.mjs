/**
 * One build in a fresh process, for the build benchmark (build-run.ts): runs the compiled
 * builder with the options given as JSON in argv[2] and prints one line of JSON: the wall time,
 * the process's peak RSS (getrusage ru_maxrss: the main thread and the extract workers
 * together) and the rows written.
 */
import { buildSnapshot } from '../../dist/builder/build.js';

const options = JSON.parse(process.argv[2]);
const lines = [];
const started = performance.now();
const result = await buildSnapshot({ ...options, log: (line) => lines.push(line), progress: false, publish: false, now: () => new Date('2025-01-02T00:00:00Z') });
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({
  seconds, peakRssBytes: process.resourceUsage().maxRSS * 1024, rows: result.rows,
  filesRead: result.build.files_read, cache: lines.find((line) => line.startsWith('build: cache')) ?? null,
})}\n`);
