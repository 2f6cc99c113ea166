/**
 * Options of the embeddable handler and the server: all defaults in one place, validated once
 * per field with a message naming the option, then frozen.
 */
import { fileURLToPath } from 'node:url';
import type { BreakerOptions } from './guard/breaker.js';
import type { LimiterStore } from './guard/limiter-store.js';
import type { RedisFallback } from './guard/redis-store.js';

/** The package's root folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Options of {@link createHandler}. Every field is optional. */
export interface HandlerOptions {
  /** Snapshots folder holding CURRENT and version folders. Default: the embedded `snapshots/`. */
  snapshotsDir?: string;
  /** Keys file (decisions §4). Default: the embedded `keys.demo.json` (a warning is logged). */
  keysFile?: string;
  /** Public base address, used in the OpenAPI `servers` and the default attribution. Default `http://127.0.0.1:8080`. */
  baseUrl?: string;
  /** The `license` string of every response. Default: SEC data public domain, reuse condition, disclaimer. */
  license?: string;
  /** The `attribution` string of every success response. Default names equity-facts and the base address. */
  attribution?: string;
  /** Clock in ms since the epoch, for the limiter and breaker. Default `Date.now`. */
  now?: () => number;
  /** Receives log lines (start-up, reloads, warnings, internal errors). Default: stderr. */
  log?: (line: string) => void;
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
   * Where the buckets live when they are neither here nor in Redis (the cluster worker's store,
   * which asks the primary). Not together with `redisUrl`. Default: this process's own buckets.
   */
  limiterStore?: LimiterStore;
  /**
   * Receives one JSON line (no newline) per response (decisions §12 access log). Default: none,
   * and the request path then does no work for it.
   */
  accessLog?: (line: string) => void;
  /**
   * Keeps Prometheus metrics (decisions §12), read with the handler's `metrics()`. Needs the
   * optional package `prom-client`. Default false, and the request path then does no work for them.
   */
  metrics?: boolean;
}

/** Options after defaults and validation. */
export type ResolvedOptions = Readonly<Required<Omit<HandlerOptions, 'breaker' | 'redisUrl' | 'limiterStore' | 'accessLog'>>> & {
  readonly breaker: Partial<BreakerOptions>;
  readonly redisUrl: string | undefined;
  readonly limiterStore: LimiterStore | undefined;
  readonly accessLog: ((line: string) => void) | undefined;
};

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** Default licence text (decisions §5). */
export const DEFAULT_LICENSE =
  'SEC EDGAR data (filings, figures, dates) is U.S. public domain and needs no permission. ' +
  'Written summaries and recaps may be reused only while the attribution is visible and linked. ' +
  'Information only, not investment advice: no recommendations, price targets or ratings.';

const DEFAULTS = {
  snapshotsDir: `${PACKAGE_ROOT}snapshots`,
  keysFile: `${PACKAGE_ROOT}keys.demo.json`,
  baseUrl: DEFAULT_BASE_URL,
  now: Date.now,
  log: (line: string): void => { process.stderr.write(`${line}\n`); },
  watchIntervalMs: 1000, // ms
  limiterSweepIntervalMs: 60_000, // ms
  compressMinBytes: 1024, // bytes
  redisTimeoutMs: 250, // ms; a burst of 1,000 requests on a 2-core machine answers well within it
  redisFallback: 'local' as RedisFallback, // keep answering, per process, while Redis is away
  metrics: false,
};

/**
 * Applies defaults and checks every option.
 *
 * @throws TypeError naming the option, e.g. "watchIntervalMs must be a whole number of ms, 0 or more".
 */
export function resolveOptions(options: HandlerOptions = {}): ResolvedOptions {
  const baseUrl = options.baseUrl ?? DEFAULTS.baseUrl;
  checkString('snapshotsDir', options.snapshotsDir);
  checkString('keysFile', options.keysFile);
  checkString('license', options.license);
  checkString('attribution', options.attribution);
  checkString('baseUrl', options.baseUrl);
  if (!URL.canParse(baseUrl)) throw new TypeError(`baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
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
  if (options.limiterStore !== undefined && (typeof options.limiterStore?.take !== 'function' || typeof options.limiterStore.peek !== 'function')) {
    throw new TypeError('limiterStore must have take and peek methods');
  }
  if (options.accessLog !== undefined && typeof options.accessLog !== 'function') throw new TypeError('accessLog must be a function');
  if (options.metrics !== undefined && typeof options.metrics !== 'boolean') throw new TypeError('metrics must be true or false');
  return Object.freeze({
    snapshotsDir: options.snapshotsDir ?? DEFAULTS.snapshotsDir,
    keysFile: options.keysFile ?? DEFAULTS.keysFile,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    license: options.license ?? DEFAULT_LICENSE,
    attribution: options.attribution ?? `Written analysis by equity-facts, ${baseUrl.replace(/\/+$/, '')}`,
    now: options.now ?? DEFAULTS.now,
    log: options.log ?? DEFAULTS.log,
    watchIntervalMs: options.watchIntervalMs ?? DEFAULTS.watchIntervalMs,
    breaker: Object.freeze({ ...options.breaker }),
    limiterSweepIntervalMs: options.limiterSweepIntervalMs ?? DEFAULTS.limiterSweepIntervalMs,
    compressMinBytes: options.compressMinBytes ?? DEFAULTS.compressMinBytes,
    redisUrl: options.redisUrl,
    redisTimeoutMs: options.redisTimeoutMs ?? DEFAULTS.redisTimeoutMs,
    redisFallback: options.redisFallback ?? DEFAULTS.redisFallback,
    limiterStore: options.limiterStore,
    accessLog: options.accessLog,
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
