// Limiter memory, in process with the compiled Limiter (dist/) and a fixed clock, so no key is
// swept while it is measured. Run with --expose-gc. The key id strings are made before the
// baseline (the keys table holds them anyway), so the growth is the limiter's own: its Map from
// key id to slot plus the typed arrays. V8 keeps typed-array contents outside the JS heap, so
// "heap" here is heapUsed + arrayBuffers; both are reported.
// Usage: node --expose-gc scripts/bench/limiter-child.mjs DIST_DIR KEYS
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [distDir, keysArg] = process.argv.slice(2);
const count = Number(keysArg);
const { Limiter } = await import(pathToFileURL(join(distDir, 'guard/limiter.js')).href);
const { findPlan } = await import(pathToFileURL(join(distDir, 'plans.js')).href);
const plan = findPlan('founders');
let nowMs = 1_750_000_000_000;
const limiter = new Limiter({ now: () => nowMs, sweepIntervalMs: 0 });
const ids = Array.from({ length: count }, (_, i) => `k_${i.toString(16).padStart(8, '0')}`);

const measure = () => {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers };
};
const before = measure();
const started = process.hrtime.bigint();
for (const id of ids) if (!limiter.take(id, plan).allowed) throw new Error(`${id} was refused`);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const after = measure();
const keysWithState = limiter.size;
// One day later every bucket is full again; the sweep forgets them all.
nowMs += 86_400_000;
limiter.sweep();
const swept = measure();
const growth = (m) => (m.heapUsed - before.heapUsed) + (m.arrayBuffers - before.arrayBuffers);
process.stdout.write(`${JSON.stringify({
  keys: ids.length, keysWithState, keysAfterSweep: limiter.size, takeSeconds: seconds,
  heapUsedGrowthBytes: after.heapUsed - before.heapUsed, arrayBuffersGrowthBytes: after.arrayBuffers - before.arrayBuffers,
  bytesPerKey: growth(after) / count, bytesPerKeyAfterSweep: growth(swept) / count,
})}\n`);
