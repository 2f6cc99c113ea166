/**
 * Options of the embeddable handler and the server: all defaults in one place, validated once
 * per field with a message naming the option, then frozen.
 */
import { fileURLToPath } from 'node:url';
import type { BreakerOptions } from './guard/breaker.js';
import type { LimiterStore } from './guard/limiter-store.js';
import type { RedisFallback } from './guard/redis-store.js';
import type { AccessLogSink } from './ops/access-log.js';
import { parseTrustedProxies, type TrustedProxies } from './ops/client-address.js';
import { createLogger, type LogSink } from './ops/logger.js';
import { didYouMean } from './suggest.js';

/** The package's root folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Options of {@link createHandler}. Every field is optional. */
export interface HandlerOptions {
  /** Snapshots folder holding CURRENT and version folders. Default: the embedded `snapshots/`. */
  snapshotsDir?: string;
  /** Keys file (decisions §4). Default: the embedded `keys.demo.json` (a warning is logged). */
  keysFile?: string;
  /**
   * Public base address, used in the OpenAPI `servers` and the default attribution. Default:
   * under `listen()`, the address actually served (with a warning that none is set);
   * embedded, `http://127.0.0.1:8080`.
   */
  baseUrl?: string;
  /** The `license` string of every response. Default: SEC data public domain, reuse condition, disclaimer. */
  license?: string;
  /** The `attribution` string of every success response. Default names equity-facts and the base address. */
  attribution?: string;
  /** Clock in ms since the epoch, for the limiter and breaker. Default `Date.now`. */
  now?: () => number;
  /**
   * The operational log (start-up, reloads, warnings, internal errors): receives each entry's
   * message, level and fields (a plain `(line) => void` works too). Default: JSON lines on
   * stderr with `time`, `level` and `msg` (see `createLogger`).
   */
  log?: LogSink;
  /** Poll interval for CURRENT and the keys file, ms. Default 1000; 0 turns watching off. */
  watchIntervalMs?: number;
  /** Breaker thresholds; see {@link BreakerOptions}. `sample` defaults to the process's own load. */
  breaker?: Partial<BreakerOptions>;
  /** How often the limiter forgets idle full buckets, ms. Default 60000. */
  limiterSweepIntervalMs?: number;
  /** Smallest body, in bytes, that is compressed when the client accepts gzip or br. Default 1024 (decisions §5). */
  compressMinBytes?: number;
  /**
   * Shares every key's buckets through this Redis (decisions §11): `redis://[user:password@]host[:port][/db]`
   * or `rediss://…`. Needs the optional package `@redis/client`. Default: none, buckets in this process.
   */
  redisUrl?: string;
  /** Longest wait for Redis's answer to one request, ms, before the fallback answers it. Default 250. */
  redisTimeoutMs?: number;
  /** While Redis does not answer: `local` (this process's buckets) or `closed` (503, `Retry-After: 1`). Default `local`. */
  redisFallback?: RedisFallback;
  /**
   * Under `redisFallback: 'local'`, this process's share of each key's limits while Redis does
   * not answer: it answers from its own buckets at the plan's per-minute and per-day limits
   * divided by this (rounded down, at least 1), so that this many processes in the fallback
   * together admit no more than the plan allows. Give it the number of processes sharing the
   * Redis (every worker of every host). A whole number, 1 or more. Default 1 (a whole plan each).
   */
  redisFallbackShare?: number;
  /**
   * Where the buckets live when they are neither here nor in Redis (the cluster worker's store,
   * which asks the primary). Not together with `redisUrl`. Default: this process's own buckets.
   */
  limiterStore?: LimiterStore;
  /**
   * The access log: receives one JSON line (no newline) per response, as a function, or as a
   * sink that also counts the lines it dropped (`openAccessLog`'s, for the metric
   * `eqf_access_log_dropped_total`). Default: none, and the request path then does no work for it.
   */
  accessLog?: ((line: string) => void) | AccessLogSink;
  /**
   * Proxies whose `X-Forwarded-For` names the client in the access log's `remote`: IPv4 or IPv6
   * CIDRs or addresses (`10.0.0.0/8`, `fd00::/8`, `::ffff:10.0.0.0/104`), as a list or one
   * comma-separated text. Only a connection from one of them is believed, and then the
   * right-most address that is not itself one of them is the client. Default: none, and
   * `remote` is always the connection's peer.
   */
  trustProxy?: string | readonly string[];
  /**
   * Keeps Prometheus metrics (decisions §12), read with the handler's `metrics()`. Needs the
   * optional package `prom-client`. Default false, and the request path then does no work for them.
   */
  metrics?: boolean;
}

/** Options after defaults and validation. */
export type ResolvedOptions = Readonly<Required<Omit<HandlerOptions, 'breaker' | 'baseUrl' | 'attribution' | 'redisUrl' | 'limiterStore' | 'accessLog' | 'trustProxy'>>> & {
  readonly breaker: Partial<BreakerOptions>;
  /** The public base address, or `undefined` when none was given (then {@link DEFAULT_BASE_URL} or the address served). */
  readonly baseUrl: string | undefined;
  /** The attribution, or `undefined` for the default one, which names the base address. */
  readonly attribution: string | undefined;
  readonly redisUrl: string | undefined;
  readonly limiterStore: LimiterStore | undefined;
  readonly accessLog: ((line: string) => void) | AccessLogSink | undefined;
  /** The trusted proxies, or undefined when none are. */
  readonly trustProxy: TrustedProxies | undefined;
};

/** Base address used while none is set and the address served is not known: `listen()`'s default one. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** Default licence text (decisions §5). */
export const DEFAULT_LICENSE =
  'SEC EDGAR data (filings, figures, dates) is U.S. public domain and needs no permission. ' +
  'Written summaries and recaps may be reused only while the attribution is visible and linked. ' +
  'Information only, not investment advice: no recommendations, price targets or ratings.';

/** The default `attribution`, naming the base address (decisions §5). */
export const defaultAttribution = (baseUrl: string): string => `Written analysis by equity-facts, ${baseUrl}`;

/** The default operational log: JSON lines on stderr. */
export const defaultLog: LogSink = createLogger();

/** The keys file served when none is named: the embedded demo keys, whose plaintext the README publishes. */
export const DEFAULT_KEYS_FILE = `${PACKAGE_ROOT}keys.demo.json`;

const DEFAULTS = {
  snapshotsDir: `${PACKAGE_ROOT}snapshots`,
  keysFile: DEFAULT_KEYS_FILE,
  now: Date.now,
  log: defaultLog,
  watchIntervalMs: 1000, // ms
  limiterSweepIntervalMs: 60_000, // ms
  compressMinBytes: 1024, // bytes
  redisTimeoutMs: 250, // ms; a burst of 1,000 requests on a 2-core machine answers well within it
  redisFallback: 'local' as RedisFallback, // keep answering, per process, while Redis is away
  redisFallbackShare: 1, // processes whose fallbacks split a key's limits; 1: each a whole plan
  metrics: false,
};

/** Every option name of {@link HandlerOptions}; the type check below keeps it complete. */
export const HANDLER_OPTION_NAMES = Object.freeze([
  'snapshotsDir', 'keysFile', 'baseUrl', 'license', 'attribution', 'now', 'log', 'watchIntervalMs', 'breaker',
  'limiterSweepIntervalMs', 'compressMinBytes', 'redisUrl', 'redisTimeoutMs', 'redisFallback', 'redisFallbackShare', 'limiterStore', 'accessLog', 'trustProxy', 'metrics',
] as const satisfies readonly (keyof HandlerOptions)[]);

/** Every option name of `breaker`; `now` comes from the handler's own clock. */
const BREAKER_OPTION_NAMES = Object.freeze([
  'maxEventLoopDelayMs', 'maxInFlight', 'maxHeapUsedBytes', 'sampleIntervalMs', 'coolDownMs', 'retryAfterSeconds', 'sample',
] as const satisfies readonly (keyof BreakerOptions)[]);

// Compile-time completeness: a new option must be added to the lists above.
type Missing<T, Names extends readonly unknown[]> = Exclude<keyof T, Names[number]>;
const handlerNamesComplete: [Missing<HandlerOptions, typeof HANDLER_OPTION_NAMES>] extends [never] ? true : never = true;
const breakerNamesComplete: [Missing<BreakerOptions, [...typeof BREAKER_OPTION_NAMES, 'now']>] extends [never] ? true : never = true;
void handlerNamesComplete;
void breakerNamesComplete;

/**
 * Throws for a name that is not an option, suggesting the closest one: a typo such as
 * `snapshotDir` would otherwise be ignored and the default used without a word.
 *
 * @param options - the object given.
 * @param known - the valid names.
 * @param where - what the object is, for the message (e.g. `createHandler option`).
 * @throws TypeError naming the unknown option, e.g. `unknown createHandler option "snapshotDir" (did you mean snapshotsDir?)`.
 */
export function checkOptionNames(options: object, known: readonly string[], where: string): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new TypeError(`unknown ${where} "${name}"${didYouMean(name, known)}`);
  }
}

/**
 * Applies defaults and checks every option.
 *
 * @throws TypeError naming the option, e.g. "watchIntervalMs must be a whole number, 0 or more",
 *   or an unknown option (with the closest valid name, when one is close).
 */
export function resolveOptions(options: HandlerOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  checkOptionNames(options, HANDLER_OPTION_NAMES, 'createHandler option');
  checkString('snapshotsDir', options.snapshotsDir);
  checkString('keysFile', options.keysFile);
  checkString('license', options.license);
  checkString('attribution', options.attribution);
  checkString('baseUrl', options.baseUrl);
  if (options.baseUrl !== undefined && (!/^https?:\/\/[^/]/.test(options.baseUrl) || !URL.canParse(options.baseUrl))) {
    throw new TypeError(`baseUrl must be an absolute http or https URL, got ${JSON.stringify(options.baseUrl)}`);
  }
  checkWhole('watchIntervalMs', options.watchIntervalMs, 0);
  checkWhole('limiterSweepIntervalMs', options.limiterSweepIntervalMs, 1);
  checkWhole('compressMinBytes', options.compressMinBytes, 0);
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('now must be a function returning ms');
  if (options.log !== undefined && typeof options.log !== 'function') throw new TypeError('log must be a function');
  if (options.redisUrl !== undefined) {
    const protocol = URL.canParse(options.redisUrl) ? new URL(options.redisUrl).protocol : '';
    if (protocol !== 'redis:' && protocol !== 'rediss:') throw new TypeError('redisUrl must be a redis:// or rediss:// URL');
    if (options.limiterStore !== undefined) throw new TypeError('limiterStore and redisUrl cannot both be given');
  }
  checkWhole('redisTimeoutMs', options.redisTimeoutMs, 1);
  if (options.redisFallback !== undefined && options.redisFallback !== 'local' && options.redisFallback !== 'closed') {
    throw new TypeError(`redisFallback must be "local" or "closed", got ${JSON.stringify(options.redisFallback)}`);
  }
  checkWhole('redisFallbackShare', options.redisFallbackShare, 1);
  if (options.limiterStore !== undefined && (typeof options.limiterStore?.take !== 'function' || typeof options.limiterStore.peek !== 'function')) {
    throw new TypeError('limiterStore must have take and peek methods');
  }
  if (options.accessLog !== undefined && typeof options.accessLog !== 'function'
    && (options.accessLog === null || typeof options.accessLog !== 'object' || typeof options.accessLog.write !== 'function' || typeof options.accessLog.dropped !== 'function')) {
    throw new TypeError('accessLog must be a function, or an object with write and dropped methods');
  }
  if (options.trustProxy !== undefined && typeof options.trustProxy !== 'string' && !Array.isArray(options.trustProxy)) {
    throw new TypeError('trustProxy must be a list of CIDRs, or one text of them separated by commas');
  }
  const trustProxy = options.trustProxy === undefined ? undefined : parseTrustedProxies(options.trustProxy, 'trustProxy');
  if (options.metrics !== undefined && typeof options.metrics !== 'boolean') throw new TypeError('metrics must be true or false');
  if (options.breaker !== undefined) {
    if (options.breaker === null || typeof options.breaker !== 'object') throw new TypeError('breaker must be an object of thresholds');
    checkOptionNames(options.breaker, BREAKER_OPTION_NAMES, 'breaker option');
  }
  return Object.freeze({
    snapshotsDir: options.snapshotsDir ?? DEFAULTS.snapshotsDir,
    keysFile: options.keysFile ?? DEFAULTS.keysFile,
    baseUrl: options.baseUrl?.replace(/\/+$/, ''),
    license: options.license ?? DEFAULT_LICENSE,
    attribution: options.attribution,
    now: options.now ?? DEFAULTS.now,
    log: options.log ?? DEFAULTS.log,
    watchIntervalMs: options.watchIntervalMs ?? DEFAULTS.watchIntervalMs,
    breaker: Object.freeze({ ...options.breaker }),
    limiterSweepIntervalMs: options.limiterSweepIntervalMs ?? DEFAULTS.limiterSweepIntervalMs,
    compressMinBytes: options.compressMinBytes ?? DEFAULTS.compressMinBytes,
    redisUrl: options.redisUrl,
    redisTimeoutMs: options.redisTimeoutMs ?? DEFAULTS.redisTimeoutMs,
    redisFallback: options.redisFallback ?? DEFAULTS.redisFallback,
    redisFallbackShare: options.redisFallbackShare ?? DEFAULTS.redisFallbackShare,
    limiterStore: options.limiterStore,
    accessLog: options.accessLog,
    trustProxy,
    metrics: options.metrics ?? DEFAULTS.metrics,
  });
}

/** Whether the keys file is the embedded demo file (its plaintext keys are public). */
export function isDemoKeysFile(file: string): boolean {
  return file === DEFAULTS.keysFile || file.endsWith('keys.demo.json');
}

function checkString(name: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || value.length === 0)) throw new TypeError(`${name} must be a non-empty string`);
}

function checkWhole(name: string, value: unknown, minimum: number): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < minimum)) {
    throw new TypeError(`${name} must be a whole number, ${minimum} or more`);
  }
}
