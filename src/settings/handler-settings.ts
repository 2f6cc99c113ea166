/**
 * The settings of {@link createHandler}: everything the API itself needs, whichever way it is
 * run. Those with an `EQF_` variable are also `serve`'s; the rest only code gives.
 */
import type { LimiterStore } from '../guard/limiter-store.js';
import type { SnapshotSource } from '../data/snapshot-source.js';
import { ROWS_IN, type RowsIn } from '../data/snapshot-index.js';
import type { RedisFallback } from '../guard/redis-store.js';
import type { AccessLogSink } from '../ops/access-log.js';
import { createLogger, type LogSink } from '../ops/logger.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { BREAKER_SETTINGS, type BreakerOptions } from './breaker-settings.js';
import { boolean, cidrList, func, funcOrMethods, httpUrl, oneOf, redisUrl, text, whole, withMethods, type Kind } from './kinds.js';
import { DEFAULT_BASE_URL } from './listen-settings.js';
import { checkOptionNames, setting } from './setting.js';

/** Default licence text (docs/api.md §5). */
export const DEFAULT_LICENSE =
  'SEC EDGAR data (filings, figures, dates) is U.S. public domain and needs no permission. ' +
  'Written summaries and recaps may be reused only while the attribution is visible and linked. ' +
  'Information only, not investment advice: no recommendations, price targets or ratings.';

/** The default operational log: JSON lines on stderr. */
export const defaultLog: LogSink = createLogger();

/** The keys file served when none is named: the embedded demo keys, whose plaintext the README publishes. */
export const DEFAULT_KEYS_FILE = `${PACKAGE_ROOT}keys.demo.json`;

/** The names `breaker` takes: every breaker setting but `now`, which comes from the handler's own clock. */
export const BREAKER_OPTION_NAMES: readonly string[] = Object.freeze(Object.keys(BREAKER_SETTINGS).filter((name) => name !== 'now'));

/** An object of breaker thresholds; each is checked when the breaker is made, at start. */
const thresholds: Kind<Partial<BreakerOptions>> = {
  check(value, name) {
    if (value === null || typeof value !== 'object') throw new TypeError(`${name} must be an object of thresholds`);
    checkOptionNames(value, BREAKER_OPTION_NAMES, 'breaker option');
    return Object.freeze({ ...value });
  },
};

/** Every setting of {@link createHandler}. */
export const HANDLER_SETTINGS = Object.freeze({
  /** Snapshots folder holding CURRENT and version folders. Default: the embedded `snapshots/`. */
  snapshotsDir: setting({
    kind: text, default: `${PACKAGE_ROOT}snapshots`, shown: 'the embedded `snapshots/`',
    flag: 'snapshots', env: 'EQF_SNAPSHOTS_DIR', placeholder: 'DIR',
    help: 'snapshots folder (CURRENT + versions)', doc: 'snapshots folder (`CURRENT` + versions)',
  }),
  /**
   * Where a loaded version's rows are held (docs/api.md §17): `file`, checked at load and then
   * read from the file per page (the process holds the indexes only, about 0.35 × the rows at
   * 1M filings; the operating system's page cache holds the rows once for every worker and
   * process), or `memory`, copied into the process (about 1.3 × the rows per copy; pages a few
   * per cent faster). A version without index files is held in memory either way. Default: `file`.
   */
  rowsIn: setting({
    kind: oneOf<RowsIn>(ROWS_IN), default: 'file', flag: 'rows-in', env: 'EQF_ROWS_IN', placeholder: 'file|memory',
    help: "where a version's rows are held: read from their file per page, or copied to memory",
    doc: "where a version's rows are held: `file`, checked at load, then read per page through the page cache that every worker shares, or `memory`, copied into each process (see [Memory and disk](#memory-and-disk))",
  }),
  /**
   * With `rowsIn: 'file'`, MiB of answered pages kept per version in each serving thread for the
   * next request for the same page, forgotten by second chance past the limit (a page answered
   * again since it was placed is kept over one that was not; row-file.ts). A page not kept costs
   * a read per row of a ticker's list; more distinct pages asked in turn than this holds cost
   * about three times the CPU each. 0 keeps each list's last page only until another list's is
   * read. Default 256.
   */
  keptPagesMib: setting({
    kind: whole(0, 1_048_576), default: 256, flag: 'kept-pages-mib', env: 'EQF_KEPT_PAGES_MIB', placeholder: 'MIB',
    help: 'MiB of answered pages kept per serving thread, with --rows-in file',
    doc: 'with `rowsIn` `file`: MiB of answered pages kept per version in each serving thread, a page not answered again since it was placed forgotten first (second chance); a page not kept is a read per row (see [Memory and disk](#memory-and-disk))',
  }),
  /** Keys file (docs/api.md §4). Default: the embedded `keys.demo.json` (a warning is logged). */
  keysFile: setting({
    kind: text, default: DEFAULT_KEYS_FILE, shown: 'the embedded `keys.demo.json`',
    flag: 'keys', env: 'EQF_KEYS_FILE', placeholder: 'FILE',
    help: 'keys file', doc: 'keys file ([api.md §4](api.md#4-accounts-and-keys)); the demo keys are public, and a warning says so',
  }),
  /**
   * Public base address, used in the OpenAPI `servers` and the default attribution. Default:
   * under `listen()`, the address actually served (with a warning that none is set);
   * embedded, `http://127.0.0.1:8080`.
   */
  baseUrl: setting({
    kind: httpUrl, shown: `the address served, with a warning (embedded: \`${DEFAULT_BASE_URL}\`)`, env: 'EQF_BASE_URL',
    help: 'public base address (OpenAPI servers, attribution)', doc: 'public base address (OpenAPI `servers`, default attribution)',
  }),
  /** The `license` string of every response. Default: SEC data public domain, reuse condition, disclaimer. */
  license: setting({
    kind: text, default: DEFAULT_LICENSE, shown: 'built-in licence and disclaimer', env: 'EQF_LICENSE',
    help: 'the license string of every response', doc: 'the `license` string of every response',
  }),
  /** The `attribution` string of every success response. Default names equity-facts and the base address. */
  attribution: setting({
    kind: text, shown: '`Written analysis by equity-facts, <base url>`', env: 'EQF_ATTRIBUTION',
    help: 'the attribution string', doc: 'the `attribution` string of every success response',
  }),
  /**
   * Shares every key's buckets through this Redis (docs/api.md §11): `redis://[user:password@]host[:port][/db]`
   * or `rediss://…`. Needs the optional package `@redis/client`. Default: none, buckets in this process.
   */
  redisUrl: setting({
    kind: redisUrl, shown: 'none: buckets in this process', flag: 'redis-url', env: 'EQF_REDIS_URL', placeholder: 'URL',
    help: "share every key's buckets through this Redis (redis:// or rediss://)",
    doc: "share every key's buckets through this Redis, `redis://[user:password@]host[:port][/db]` or `rediss://…` (see [Deploying](#deploying)); not with `limiterStore`",
  }),
  /** Longest wait for Redis's answer to one request, ms, before the fallback answers it. Default 250. */
  redisTimeoutMs: setting({
    kind: whole(1), default: 250, // ms; a burst of 1,000 requests on a 2-core machine answers well within it
    flag: 'redis-timeout-ms', env: 'EQF_REDIS_TIMEOUT_MS',
    help: 'longest wait for Redis per request, ms, before the fallback answers',
    doc: "longest wait for Redis's answer to one request, ms, before the fallback answers it",
  }),
  /** While Redis does not answer: `local` (this process's buckets) or `closed` (503, `Retry-After: 1`). Default `local`. */
  redisFallback: setting({
    kind: oneOf<RedisFallback>(['local', 'closed']), default: 'local', // keep answering, per process, while Redis is away
    flag: 'redis-fallback', env: 'EQF_REDIS_FALLBACK', placeholder: 'local|closed',
    help: 'while Redis is away: local (own buckets) or closed (503)',
    doc: "while Redis does not answer: `local` (this process's own buckets) or `closed` (503 `service_busy`, `Retry-After: 1`)",
  }),
  /**
   * Under `redisFallback: 'local'`, this process's share of each key's limits while Redis does
   * not answer: it answers from its own buckets at the plan's per-minute and per-day limits
   * divided by this (rounded down, at least 1), so that this many processes in the fallback
   * together admit no more than the plan allows. Give it the number of processes sharing the
   * Redis (every worker of every host). A whole number, 1 or more. Default 1 (a whole plan each).
   */
  redisFallbackShare: setting({
    kind: whole(1), default: 1, // processes whose fallbacks split a key's limits; 1: each a whole plan
    flag: 'redis-fallback-share', env: 'EQF_REDIS_FALLBACK_SHARE',
    help: "under local fallback, each process admits a key's limits divided by N (N = processes sharing Redis)",
    doc: "under `--redis-fallback local`, each process's buckets hold a key's limits divided by N (rounded down, at least 1): give it the number of processes sharing the Redis, so that together they never over-admit",
  }),
  /**
   * Proxies whose `X-Forwarded-For` names the client in the access log's `remote`: IPv4 or IPv6
   * CIDRs or addresses (`10.0.0.0/8`, `fd00::/8`, `::ffff:10.0.0.0/104`), as a list or one
   * comma-separated text. Only a connection from one of them is believed, and then the
   * right-most address that is not itself one of them is the client. Default: none, and
   * `remote` is always the connection's peer.
   */
  trustProxy: setting({
    kind: cidrList, shown: 'none', flag: 'trust-proxy', env: 'EQF_TRUST_PROXY', placeholder: 'CIDR,…',
    help: "proxies whose X-Forwarded-For gives the access log's remote (IPv4 or IPv6 CIDRs or addresses)",
    doc: "proxies (IPv4 or IPv6 CIDRs or addresses, comma-separated: `10.0.0.0/8,fd00::/8`, or a list in code) whose `X-Forwarded-For` gives the access log's `remote`; a malformed one stops the start",
  }),
  /** Poll interval for CURRENT and the keys file, ms. Default 1000; 0 turns watching off. */
  watchIntervalMs: setting({
    kind: whole(0), default: 1000, // ms: a keys change (the portal's, docs/api.md §18) is in force within a second
    flag: 'watch-interval-ms', env: 'EQF_WATCH_INTERVAL_MS',
    help: 'ms between polls of CURRENT and the keys file; 0 turns watching off (SIGHUP still reloads)',
    doc: 'poll interval for `CURRENT` and the keys file, ms; 0 turns watching off',
  }),
  /** How often the limiter forgets idle full buckets, ms. Default 60000. */
  limiterSweepIntervalMs: setting({ kind: whole(1), default: 60_000, doc: 'how often the limiter forgets idle full buckets, ms' }), // ms
  /** Smallest body, in bytes, that is compressed when the client accepts gzip or br. Default 1024 (docs/api.md §5). */
  compressMinBytes: setting({ kind: whole(0), default: 1024, doc: 'smallest body, bytes, compressed when the client accepts gzip or br' }), // bytes
  /**
   * Keeps Prometheus metrics (docs/api.md §12), read with the handler's `metrics()`. Needs the
   * optional package `prom-client`. Default false, and the request path then does no work for them.
   */
  metrics: setting({
    kind: boolean, default: false,
    doc: "keeps Prometheus metrics, read with the handler's `metrics()` (needs `prom-client`); `metricsPort` turns it on",
  }),
  /** Clock in ms since the epoch, for the limiter and breaker. Default `Date.now`. */
  now: setting({ kind: func<() => number>(' returning ms'), default: Date.now, shown: '`Date.now`', doc: 'clock, ms since the epoch, for the limiter and the breaker' }),
  /**
   * The operational log (start-up, reloads, warnings, internal errors): receives each entry's
   * message, level and fields (a plain `(line) => void` works too). Default: JSON lines on
   * stderr with `time`, `level` and `msg` (see `createLogger`).
   */
  log: setting({
    kind: func<LogSink>(), default: defaultLog, shown: 'JSON lines on stderr',
    doc: "the operational log: a function taking each entry's message, level and fields (`createLogger`); `serve` sets it from `--log-format`",
  }),
  /**
   * The access log: receives one JSON line (no newline) per response, as a function, or as a
   * sink that also counts the lines it dropped (`openAccessLog`'s, for the metric
   * `eqf_access_log_dropped_total`); a sink with `writeLines` gets each batch of lines as UTF-8
   * bytes instead, with no string made per line. Default: none, and the request path then does no
   * work for it.
   */
  accessLog: setting({
    kind: funcOrMethods<(line: string) => void, AccessLogSink>(['write', 'dropped']), shown: 'none',
    doc: 'the access log: a function taking one JSON line per response, or a sink that also counts the lines it dropped (`openAccessLog`); `serve` sets it from `--access-log`',
  }),
  /**
   * Where the buckets live when they are neither here nor in Redis (the cluster worker's store,
   * which asks the primary). Not together with `redisUrl`. Default: this process's own buckets.
   */
  limiterStore: setting({
    kind: withMethods<LimiterStore>(['take', 'peek']), shown: "this process's own buckets",
    doc: "where the buckets live when neither here nor in Redis (a `--workers` worker's asks the primary); not with `redisUrl`",
  }),
  /**
   * Where the snapshot comes from when another thread loads it (a `--workers` thread's: the main
   * thread loads each version once and hands it over; see {@link SnapshotSource}). The handler
   * then neither reads nor watches `snapshotsDir` itself. Default: the handler loads
   * `snapshotsDir` and watches its `CURRENT`.
   */
  snapshotSource: setting({
    kind: withMethods<SnapshotSource>(['load', 'unchanged', 'onChange']), shown: 'the handler loads `snapshotsDir`',
    doc: 'where the snapshot comes from when another thread loads it (a `--workers` thread\'s: the main thread loads each version once and hands it over); the handler then neither reads nor watches `snapshotsDir`',
  }),
  /** Breaker thresholds; see {@link BreakerOptions}. `sample` defaults to the process's own load. */
  breaker: setting({ kind: thresholds, default: Object.freeze({}), shown: 'the `breaker.` rows below', doc: 'breaker thresholds ([api.md §8](api.md#8-breaker))' }),
});
