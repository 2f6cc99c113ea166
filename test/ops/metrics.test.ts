/**
 * Prometheus metrics (docs/api.md §12) through the real server: `/metrics` on its own listener,
 * never on the API port, valid exposition text (Prometheus's own `promtool check metrics` when
 * Debian's `prometheus` package provides it), and figures that follow the requests. Also the
 * sum over `--workers` threads served by the main thread, the process's own figures once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { KEYS, startHarness, withKey } from '../helpers/harness.js';
import { NO_REDIS_REASON, startRedis } from '../helpers/redis-server.js';
import { fixtureDir, startServe } from '../helpers/serve-process.js';

const HAS_PROMTOOL = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).error === undefined;

/** `promtool check metrics` on the text: its complaints, or null when it is content. */
function promtool(text: string): string | null {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return result.status === 0 ? null : `${result.stdout}${result.stderr}`;
}

/**
 * The samples of an exposition (text format 0.0.4): `name{labels} value` lines, with every
 * sample's family declared by `# TYPE` before it. Throws on a line that is neither.
 */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const types = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) { types.add(type[1]!); continue; }
    if (line.startsWith('# HELP ')) continue;
    // prom-client writes NaN as `Nan` (an event-loop lag figure before its first sample), which
    // Prometheus's parser takes (Go's ParseFloat ignores case).
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|Nan|[+-]Inf)$/.exec(line);
    assert.ok(sample, `not a sample line: ${line}`);
    const family = sample[1]!.replace(/_(bucket|sum|count|total)$/, '');
    assert.ok(types.has(sample[1]!) || types.has(family) || types.has(`${family}_total`), `no # TYPE before ${line}`);
    out.set(`${sample[1]}${sample[2] ?? ''}`, Number(sample[3]));
  }
  return out;
}

async function scrape(url: string): Promise<{ status: number; type: string | undefined; text: string }> {
  const response = await request(`${url}/metrics`);
  return { status: response.statusCode, type: response.headers['content-type'] as string | undefined, text: await response.body.text() };
}

test(`/metrics on its own port counts requests, latency, 429s, in flight, keys, breaker, snapshot and reloads, has the process's CPU, memory, event-loop lag and GC, and ${HAS_PROMTOOL ? 'passes promtool check metrics' : 'parses as exposition text (promtool is not installed: apt-get install prometheus)'}`, async (t) => {
  const h = await startHarness(t, { metricsPort: 0 });
  const metricsUrl = h.server.metricsUrl!;
  assert.notEqual(metricsUrl, h.base);
  assert.equal((await h.get('/metrics')).status, 404, 'never on the API port');
  for (let i = 0; i < 11; i++) await h.get('/api/v1/finance/filings?limit=1', withKey(KEYS.free));
  await h.get('/api/v1/meta', withKey(KEYS.signal));
  await h.get('/nowhere');
  await h.server.handler.reload();
  h.server.handler.breaker.toggleForced();
  const { status, type, text } = await scrape(metricsUrl);
  h.server.handler.breaker.toggleForced();
  assert.equal(status, 200);
  assert.match(type!, /^text\/plain; version=0\.0\.4/);
  if (HAS_PROMTOOL) assert.equal(promtool(text), null);
  const values = samples(text);
  const expect = {
    'eqf_http_requests_total{route="/api/v1/finance/filings",status="200",plan="free"}': 10,
    'eqf_http_requests_total{route="/api/v1/finance/filings",status="429",plan="free"}': 1,
    'eqf_http_requests_total{route="/api/v1/meta",status="200",plan="signal"}': 1,
    'eqf_http_requests_total{route="unmatched",status="404",plan="none"}': 2, // /metrics on the API port, and /nowhere
    'eqf_http_request_duration_seconds_count{route="/api/v1/finance/filings"}': 11,
    'eqf_rate_limited_total{plan="free",window="minute"}': 1,
    'eqf_http_requests_in_flight': 0,
    'eqf_limiter_keys': 1,
    'eqf_breaker_state{state="forced_open"}': 1,
    'eqf_breaker_state{state="closed"}': 0,
    'eqf_breaker_transitions_total{to="forced_open"}': 1,
    'eqf_snapshot_info{version="v1"}': 1,
    'eqf_reloads_total{kind="keys",result="reloaded"}': 1,
  };
  for (const [name, value] of Object.entries(expect)) assert.equal(values.get(name), value, `${name}: ${values.get(name)}`);
  assert.ok(values.get('eqf_snapshot_created_timestamp_seconds')! > 1.7e9);
  assert.equal(values.get('eqf_snapshot_data_through_timestamp_seconds'), Date.parse('2025-05-03') / 1000);
  assert.equal(values.has('eqf_redis_up'), false, 'no Redis metrics without Redis');
  assert.equal(values.get('eqf_access_log_dropped_total'), 0, 'no access log here, nothing dropped');
  // prom-client's default process metrics, by their own names.
  assert.ok(values.get('process_cpu_seconds_total')! > 0);
  assert.ok(values.get('process_resident_memory_bytes')! > 0);
  assert.ok(values.get('nodejs_heap_size_used_bytes')! > 0);
  assert.ok(values.get('nodejs_eventloop_lag_seconds')! >= 0);
  assert.match(text, /^# TYPE nodejs_gc_duration_seconds histogram$/m);
  assert.equal((await request(`${metricsUrl}/other`)).statusCode, 404);
});

test(`with Redis, /metrics shows Redis up, then down with one fallback and its answers${NO_REDIS_REASON ? ` (skipped: ${NO_REDIS_REASON})` : ''}`, { skip: NO_REDIS_REASON || false }, async (t) => {
  const redis = await startRedis(t);
  const h = await startHarness(t, { metricsPort: 0, redisUrl: redis.url, redisTimeoutMs: 100 });
  await h.get('/api/v1/finance/filings?limit=1', withKey(KEYS.free));
  let values = samples((await scrape(h.server.metricsUrl!)).text);
  assert.deepEqual([values.get('eqf_redis_up'), values.get('eqf_redis_fallbacks_total'), values.get('eqf_limiter_keys')], [1, 0, 0]);
  await redis.kill();
  const deadline = performance.now() + 10_000;
  for (;;) {
    values = samples((await scrape(h.server.metricsUrl!)).text);
    if (values.get('eqf_redis_up') === 0) break;
    assert.ok(performance.now() < deadline, 'eqf_redis_up still 1 ten seconds after Redis was killed');
    await new Promise((resolve) => setImmediate(resolve));
  }
  await h.get('/api/v1/finance/filings?limit=1', withKey(KEYS.free));
  const { text } = await scrape(h.server.metricsUrl!);
  if (HAS_PROMTOOL) assert.equal(promtool(text), null);
  values = samples(text);
  assert.deepEqual([values.get('eqf_redis_up'), values.get('eqf_redis_fallbacks_total'), values.get('eqf_redis_fallback_answers_total'), values.get('eqf_limiter_keys')], [0, 1, 1, 1]);
});

test('serve --workers 2 --metrics-port: the main thread serves the sum of its threads and its own bucket keys, the process\'s memory once, and every log line is JSON', async (t) => {
  const fixture = await fixtureDir(t);
  const server = await startServe(t, fixture, ['--workers', '2', '--access-log', 'off', '--metrics-port', '0']);
  const metricsUrl = /metrics on (http:\/\/\S+)\/metrics/.exec(server.stderr.text)![1]!;
  for (let i = 0; i < 12; i++) {
    const response = await request(`${server.url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.free), reset: true });
    await response.body.dump();
  }
  const { status, text } = await scrape(metricsUrl);
  assert.equal(status, 200);
  if (HAS_PROMTOOL) assert.equal(promtool(text), null);
  const values = samples(text);
  assert.equal(values.get('eqf_http_requests_total{route="/api/v1/finance/filings",status="200",plan="free"}'), 10);
  assert.equal(values.get('eqf_http_requests_total{route="/api/v1/finance/filings",status="429",plan="free"}'), 2);
  assert.equal(values.get('eqf_limiter_keys'), 1, "the primary's buckets");
  assert.equal(values.get('eqf_breaker_state{state="closed"}'), 2, 'one per worker');
  assert.equal(values.get('eqf_snapshot_info{version="v1"}'), 1);
  // One process: its resident memory counted once, not once per thread (three would be 3 ×).
  const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) * 1024;
  const scraped = values.get('process_resident_memory_bytes')!;
  assert.ok(scraped > 0.5 * rss && scraped < 1.5 * rss, `process_resident_memory_bytes ${scraped}, the process's VmRSS ${rss}`);
  // The primary's lines and the workers' are JSON too; a worker's carry its id.
  const entries = server.stderr.text.trimEnd().split('\n').map((line) => JSON.parse(line) as { level: string; msg: string; worker?: number });
  assert.ok(entries.some((entry) => /with 2 workers/.test(entry.msg) && entry.worker === undefined));
  assert.ok(entries.some((entry) => /^snapshot: loaded/.test(entry.msg) && entry.worker !== undefined));
});
