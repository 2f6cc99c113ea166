/**
 * Configuration of `equity-facts serve`: flags first, then `EQF_*` environment variables, then
 * the defaults of the handler. One table lists every setting, so the help text, the README
 * table and the parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import type { ListenOptions } from '../server.js';

/** One setting of `serve`. */
export interface ServeSetting {
  /** Flag name without `--`, or null for environment-only settings. */
  readonly flag: string | null;
  readonly env: string;
  readonly option: 'port' | 'host' | 'snapshotsDir' | 'keysFile' | 'baseUrl' | 'license' | 'attribution'
    | 'redisUrl' | 'redisTimeoutMs' | 'redisFallback' | 'workers' | 'accessLogTarget' | 'metricsPort' | 'metricsHost';
  readonly fallback: string;
  readonly description: string;
}

/** Every setting of `serve`. */
export const SERVE_SETTINGS: readonly ServeSetting[] = [
  { flag: 'port', env: 'EQF_PORT', option: 'port', fallback: '8080', description: 'TCP port (0 picks a free one)' },
  { flag: 'host', env: 'EQF_HOST', option: 'host', fallback: '127.0.0.1', description: 'address to listen on' },
  { flag: 'snapshots', env: 'EQF_SNAPSHOTS_DIR', option: 'snapshotsDir', fallback: 'the embedded snapshots/', description: 'snapshots folder (CURRENT + versions)' },
  { flag: 'keys', env: 'EQF_KEYS_FILE', option: 'keysFile', fallback: 'the embedded keys.demo.json', description: 'keys file' },
  { flag: null, env: 'EQF_BASE_URL', option: 'baseUrl', fallback: 'http://127.0.0.1:8080', description: 'public base address (OpenAPI servers, attribution)' },
  { flag: null, env: 'EQF_LICENSE', option: 'license', fallback: 'built-in licence and disclaimer', description: 'the license string of every response' },
  { flag: null, env: 'EQF_ATTRIBUTION', option: 'attribution', fallback: '"Written analysis by equity-facts, <base url>"', description: 'the attribution string' },
  { flag: 'redis-url', env: 'EQF_REDIS_URL', option: 'redisUrl', fallback: 'none (buckets in this process)', description: 'share every key\'s buckets through this Redis (redis:// or rediss://)' },
  { flag: 'redis-timeout-ms', env: 'EQF_REDIS_TIMEOUT_MS', option: 'redisTimeoutMs', fallback: '250', description: 'longest wait for Redis per request, ms, before the fallback answers' },
  { flag: 'redis-fallback', env: 'EQF_REDIS_FALLBACK', option: 'redisFallback', fallback: 'local', description: 'while Redis is away: local (own buckets) or closed (503)' },
  { flag: 'workers', env: 'EQF_WORKERS', option: 'workers', fallback: '1', description: 'processes sharing the port (node:cluster); limits stay exact' },
  { flag: 'access-log', env: 'EQF_ACCESS_LOG', option: 'accessLogTarget', fallback: 'stdout', description: 'one JSON line per response: stdout, off or a file' },
  { flag: 'metrics-port', env: 'EQF_METRICS_PORT', option: 'metricsPort', fallback: 'off', description: 'serve Prometheus /metrics on this port (its own listener)' },
  { flag: 'metrics-host', env: 'EQF_METRICS_HOST', option: 'metricsHost', fallback: '127.0.0.1', description: 'address of the metrics listener' },
];

/** Most workers `--workers` accepts: far above any host's cores, a guard against a typo. */
export const MAX_WORKERS = 256;

/** The settings of `serve`: the server's, plus what the command itself does with them. */
export interface ServeConfig extends ListenOptions {
  /** Processes sharing the port (`--workers`); absent means 1. */
  workers?: number;
  /** `--access-log`: `stdout`, `off` or a file path; absent means stdout. */
  accessLogTarget?: string;
}

/** A usage problem with the serve flags or environment. */
export class ServeUsageError extends Error {}

/**
 * Reads the serve settings.
 *
 * @param argv - words after `serve`.
 * @param env - the environment (process.env).
 * @throws ServeUsageError naming the flag or variable at fault.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServeConfig {
  const flagOptions: Record<string, { type: 'string' }> = {};
  for (const setting of SERVE_SETTINGS) if (setting.flag) flagOptions[setting.flag] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: flagOptions, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ServeUsageError((error as Error).message);
  }
  const out: ServeConfig = {};
  for (const setting of SERVE_SETTINGS) {
    const fromFlag = setting.flag ? values[setting.flag] : undefined;
    const raw = typeof fromFlag === 'string' ? fromFlag : env[setting.env];
    if (raw === undefined || raw === '') continue;
    const source = typeof fromFlag === 'string' ? `--${setting.flag}` : setting.env;
    const option = setting.option;
    if (option === 'port' || option === 'metricsPort') {
      if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw new ServeUsageError(`${source} must be a port number from 0 to 65535, got "${raw}"`);
      out[option] = Number(raw);
    } else if (option === 'redisTimeoutMs') {
      if (!/^[0-9]{1,7}$/.test(raw) || Number(raw) < 1) throw new ServeUsageError(`${source} must be a whole number of ms from 1 to 9999999, got "${raw}"`);
      out.redisTimeoutMs = Number(raw);
    } else if (option === 'workers') {
      if (!/^[0-9]{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS) throw new ServeUsageError(`${source} must be a whole number from 1 to ${MAX_WORKERS}, got "${raw}"`);
      out.workers = Number(raw);
    } else if (option === 'redisFallback') {
      if (raw !== 'local' && raw !== 'closed') throw new ServeUsageError(`${source} must be local or closed, got "${raw}"`);
      out.redisFallback = raw;
    } else if (option === 'redisUrl') {
      if (!/^rediss?:\/\//.test(raw) || !URL.canParse(raw)) throw new ServeUsageError(`${source} must be a redis:// or rediss:// URL`);
      out.redisUrl = raw;
    } else {
      out[option] = raw;
    }
  }
  return out;
}
