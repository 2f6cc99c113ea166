/**
 * Configuration of `equity-facts serve`: flags first, then `EQF_*` environment variables, then
 * the defaults of the handler. One table lists every setting, so the help text, the README
 * table and the parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import { CONNECTION_DEFAULTS } from '../http/connection-options.js';
import { didYouMean } from '../suggest.js';
import type { ListenOptions } from '../server.js';
import { parseTrustedProxies } from '../ops/client-address.js';
import { LOG_FORMATS, type LogFormat } from '../ops/logger.js';

/** One setting of `serve`. */
export interface ServeSetting {
  /** Flag name without `--`, or null for environment-only settings. */
  readonly flag: string | null;
  readonly env: string;
  readonly option: 'port' | 'host' | 'snapshotsDir' | 'keysFile' | 'baseUrl' | 'license' | 'attribution'
    | 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'shutdownTimeoutMs' | 'shutdownDelayMs'
    | 'unsentHighWaterBytes' | 'sendTimeoutMs'
    | 'redisUrl' | 'redisTimeoutMs' | 'redisFallback' | 'redisFallbackShare' | 'workers' | 'accessLogTarget' | 'metricsPort' | 'metricsHost'
    | 'logFormat' | 'trustProxy';
  /**
   * How the value is read: text as given, a port, a whole number of 1 or more, or (`special`) by
   * a rule of its own in {@link readServeConfig} (a Redis URL, the fallback policy, the worker
   * count, the shutdown delay, the log format, the trusted proxies).
   */
  readonly kind: 'text' | 'port' | 'count' | 'special';
  /** The value's name in the usage (`DIR`, `FILE`); `N` for numbers. */
  readonly value?: string;
  readonly fallback: string;
  readonly description: string;
}

/** Every setting of `serve`. */
export const SERVE_SETTINGS: readonly ServeSetting[] = [
  { flag: 'port', env: 'EQF_PORT', option: 'port', kind: 'port', fallback: '8080', description: 'TCP port (0 picks a free one)' },
  { flag: 'host', env: 'EQF_HOST', option: 'host', kind: 'text', value: 'ADDRESS', fallback: '127.0.0.1', description: 'address to listen on' },
  { flag: 'snapshots', env: 'EQF_SNAPSHOTS_DIR', option: 'snapshotsDir', kind: 'text', value: 'DIR', fallback: 'the embedded snapshots/', description: 'snapshots folder (CURRENT + versions)' },
  { flag: 'keys', env: 'EQF_KEYS_FILE', option: 'keysFile', kind: 'text', value: 'FILE', fallback: 'the embedded keys.demo.json', description: 'keys file' },
  { flag: 'max-connections', env: 'EQF_MAX_CONNECTIONS', option: 'maxConnections', kind: 'count', fallback: String(CONNECTION_DEFAULTS.maxConnections), description: 'most connections open at once; over it a new one is closed at once' },
  { flag: 'headers-timeout-ms', env: 'EQF_HEADERS_TIMEOUT_MS', option: 'headersTimeoutMs', kind: 'count', fallback: String(CONNECTION_DEFAULTS.headersTimeoutMs), description: 'most ms to receive a request line and headers, then 408' },
  { flag: 'request-timeout-ms', env: 'EQF_REQUEST_TIMEOUT_MS', option: 'requestTimeoutMs', kind: 'count', fallback: String(CONNECTION_DEFAULTS.requestTimeoutMs), description: 'most ms to receive a whole request, then 408 (at least the headers timeout)' },
  { flag: 'keep-alive-timeout-ms', env: 'EQF_KEEP_ALIVE_TIMEOUT_MS', option: 'keepAliveTimeoutMs', kind: 'count', fallback: String(CONNECTION_DEFAULTS.keepAliveTimeoutMs), description: 'ms an idle keep-alive connection stays open' },
  { flag: 'unsent-high-water-bytes', env: 'EQF_UNSENT_HIGH_WATER_BYTES', option: 'unsentHighWaterBytes', kind: 'count', fallback: String(CONNECTION_DEFAULTS.unsentHighWaterBytes), description: 'bytes of answers a client has not taken past which its connection is not read (over 100 requests waiting closes it)' },
  { flag: 'send-timeout-ms', env: 'EQF_SEND_TIMEOUT_MS', option: 'sendTimeoutMs', kind: 'count', fallback: String(CONNECTION_DEFAULTS.sendTimeoutMs), description: 'ms a client may take none of the bytes written to it, then its connection is closed' },
  { flag: 'shutdown-timeout-ms', env: 'EQF_SHUTDOWN_TIMEOUT_MS', option: 'shutdownTimeoutMs', kind: 'count', fallback: String(CONNECTION_DEFAULTS.shutdownTimeoutMs), description: 'most ms SIGTERM/SIGINT waits for requests received to be answered' },
  { flag: 'shutdown-delay-ms', env: 'EQF_SHUTDOWN_DELAY_MS', option: 'shutdownDelayMs', kind: 'special', value: 'N', fallback: '0', description: 'ms SIGTERM/SIGINT keeps serving with /readyz failing (503), for a load balancer to take the host out, before the graceful stop' },
  { flag: null, env: 'EQF_BASE_URL', option: 'baseUrl', kind: 'text', fallback: 'the address served (with a warning)', description: 'public base address (OpenAPI servers, attribution)' },
  { flag: null, env: 'EQF_LICENSE', option: 'license', kind: 'text', fallback: 'built-in licence and disclaimer', description: 'the license string of every response' },
  { flag: null, env: 'EQF_ATTRIBUTION', option: 'attribution', kind: 'text', fallback: '"Written analysis by equity-facts, <base url>"', description: 'the attribution string' },
  { flag: 'redis-url', env: 'EQF_REDIS_URL', option: 'redisUrl', kind: 'special', value: 'URL', fallback: 'none (buckets in this process)', description: 'share every key\'s buckets through this Redis (redis:// or rediss://)' },
  { flag: 'redis-timeout-ms', env: 'EQF_REDIS_TIMEOUT_MS', option: 'redisTimeoutMs', kind: 'count', fallback: '250', description: 'longest wait for Redis per request, ms, before the fallback answers' },
  { flag: 'redis-fallback', env: 'EQF_REDIS_FALLBACK', option: 'redisFallback', kind: 'special', value: 'local|closed', fallback: 'local', description: 'while Redis is away: local (own buckets) or closed (503)' },
  { flag: 'redis-fallback-share', env: 'EQF_REDIS_FALLBACK_SHARE', option: 'redisFallbackShare', kind: 'count', fallback: '1', description: 'under local fallback, each process admits a key\'s limits divided by N (N = processes sharing Redis)' },
  { flag: 'workers', env: 'EQF_WORKERS', option: 'workers', kind: 'special', fallback: '1', description: 'processes sharing the port (node:cluster); limits stay exact' },
  { flag: 'access-log', env: 'EQF_ACCESS_LOG', option: 'accessLogTarget', kind: 'text', value: 'stdout|off|FILE', fallback: 'stdout', description: 'one JSON line per response: stdout, off or a file' },
  { flag: 'metrics-port', env: 'EQF_METRICS_PORT', option: 'metricsPort', kind: 'port', fallback: 'off', description: 'serve Prometheus /metrics on this port (its own listener)' },
  { flag: 'metrics-host', env: 'EQF_METRICS_HOST', option: 'metricsHost', kind: 'text', value: 'ADDRESS', fallback: '127.0.0.1', description: 'address of the metrics listener' },
  { flag: 'log-format', env: 'EQF_LOG_FORMAT', option: 'logFormat', kind: 'special', value: 'json|text', fallback: 'json', description: 'operational log on stderr: JSON lines (time, level, msg, fields) or plain text for a terminal' },
  { flag: 'trust-proxy', env: 'EQF_TRUST_PROXY', option: 'trustProxy', kind: 'special', value: 'CIDR,…', fallback: 'none', description: "proxies whose X-Forwarded-For gives the access log's remote (IPv4 or IPv6 CIDRs or addresses)" },
];

/** Most workers `--workers` accepts: far above any host's cores, a guard against a typo. */
export const MAX_WORKERS = 256;

/** The settings of `serve`: the server's, plus what the command itself does with them. */
export interface ServeConfig extends ListenOptions {
  /** Processes sharing the port (`--workers`); absent means 1. */
  workers?: number;
  /** `--access-log`: `stdout`, `off` or a file path; absent means stdout. */
  accessLogTarget?: string;
  /**
   * `--shutdown-delay-ms`: how long, ms, the first SIGTERM or SIGINT keeps the server accepting and
   * answering with `/readyz` at 503, before the graceful stop; absent means 0 (stop at once).
   */
  shutdownDelayMs?: number;
  /** `--log-format`: the operational log's format; absent means `json`. */
  logFormat?: LogFormat;
}

/** A usage problem with the serve flags or environment. */
export class ServeUsageError extends Error {}

/** Usage of `serve`, with every setting (printed by `serve --help` and with a usage error). */
export const SERVE_USAGE = `usage: equity-facts serve [flags]

Serves the API from the snapshots folder with the keys file. A flag wins over its environment
variable, which wins over the default.

${SERVE_SETTINGS.map((s) => `  ${(s.flag ? `--${s.flag} ${s.value ?? 'N'}` : '').padEnd(27)} ${s.env.padEnd(26)} ${s.description}; default ${s.fallback}`).join('\n')}
  -h, --help                  this text

signals: SIGHUP reloads snapshot and keys (and reopens the access log file); SIGUSR2 toggles a
forced-open breaker; SIGTERM/SIGINT fail /readyz (503), keep serving for --shutdown-delay-ms (a
second signal ends that delay), then stop accepting, answer every request received, and exit 0 (a
further one closes what is left at once). With --workers, signal the primary (the pid it prints):
it relays them to every worker.`;

/** Largest value of a count setting (the longest Node timer, ms). */
const MAX_COUNT = 2 ** 31 - 1;

/**
 * Reads the serve settings.
 *
 * @param argv - words after `serve`.
 * @param env - the environment (process.env).
 * @returns the listen options, or `'help'` when `--help` or `-h` is given.
 * @throws ServeUsageError naming the flag or variable at fault.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const flagOptions: Record<string, { type: 'string' }> = {};
  for (const setting of SERVE_SETTINGS) if (setting.flag) flagOptions[setting.flag] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: flagOptions, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const unknown = /Unknown option '--([^']+)'/.exec((error as Error).message)?.[1];
    const flags = SERVE_SETTINGS.flatMap((s) => (s.flag ? [s.flag] : []));
    throw new ServeUsageError(`${(error as Error).message}${unknown === undefined ? '' : didYouMean(unknown, flags, '--')}`);
  }
  const out: ServeConfig = {};
  for (const setting of SERVE_SETTINGS) {
    const fromFlag = setting.flag ? values[setting.flag] : undefined;
    const raw = typeof fromFlag === 'string' ? fromFlag : env[setting.env];
    if (raw === undefined || raw === '') continue;
    const source = typeof fromFlag === 'string' ? `--${setting.flag}` : setting.env;
    const option = setting.option;
    if (setting.kind === 'port') {
      if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw new ServeUsageError(`${source} must be a port number from 0 to 65535, got "${raw}"`);
      out[option as 'port' | 'metricsPort'] = Number(raw);
    } else if (setting.kind === 'count') {
      if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_COUNT) {
        throw new ServeUsageError(`${source} must be a whole number from 1 to ${MAX_COUNT}, got "${raw}"`);
      }
      out[option as 'maxConnections'] = Number(raw);
    } else if (option === 'workers') {
      if (!/^[0-9]{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS) throw new ServeUsageError(`${source} must be a whole number from 1 to ${MAX_WORKERS}, got "${raw}"`);
      out.workers = Number(raw);
    } else if (option === 'shutdownDelayMs') {
      // 0 is the default (no delay), so unlike a count it is accepted.
      if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) > MAX_COUNT) throw new ServeUsageError(`${source} must be a whole number from 0 to ${MAX_COUNT}, got "${raw}"`);
      out.shutdownDelayMs = Number(raw);
    } else if (option === 'redisFallback') {
      if (raw !== 'local' && raw !== 'closed') throw new ServeUsageError(`${source} must be local or closed, got "${raw}"`);
      out.redisFallback = raw;
    } else if (option === 'logFormat') {
      if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new ServeUsageError(`${source} must be ${LOG_FORMATS.join(' or ')}, got "${raw}"`);
      out.logFormat = raw as LogFormat;
    } else if (option === 'trustProxy') {
      try {
        parseTrustedProxies(raw, source);
      } catch (error) {
        throw new ServeUsageError((error as Error).message);
      }
      out.trustProxy = raw;
    } else if (option === 'redisUrl') {
      if (!/^rediss?:\/\//.test(raw) || !URL.canParse(raw)) throw new ServeUsageError(`${source} must be a redis:// or rediss:// URL`);
      out.redisUrl = raw;
    } else {
      out[option as 'host'] = raw;
    }
  }
  return out;
}
