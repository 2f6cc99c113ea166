/**
 * Token buckets shared through Redis (docs/api.md §11): every process naming the same Redis shares
 * each key's two buckets exactly, because one request's decision is one script run in Redis
 * (`redis-script.ts`). When Redis is unreachable or slower than the command timeout, the
 * `fallback` policy answers: `local` from this process's own buckets, `closed` with 503
 * `service_busy` and `Retry-After: 1`; never a 500. Each switch between Redis and the fallback
 * is logged once.
 *
 * The client is `@redis/client`, an optional dependency loaded with a dynamic import only here,
 * so a server without `--redis-url` loads nothing and runs air-gapped. Concurrent requests'
 * scripts leave in one write: the client pipelines every command issued in the same tick.
 */
import type { RedisClientType } from '@redis/client';
import { ApiError } from '../errors.js';
import type { Plan } from '../plans.js';
import { limitDecision } from './limit-decision.js';
import type { LimitDecision, LimiterStore, LimiterStoreState } from './limiter-store.js';
import { RedisReplyWatch, RedisSilentError } from './redis-reply-watch.js';
import { BUCKETS_SCRIPT, BUCKETS_SCRIPT_SHA1, bucketKeys } from './redis-script.js';
import type { LogSink } from '../ops/logger.js';

/** What a process does while Redis does not answer (docs/api.md §11, `--redis-fallback`). */
export type RedisFallback = 'local' | 'closed';

/** Options of {@link openRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
  readonly url: string;
  /**
   * Longest time Redis may leave a script without any reply, ms, before the request is answered
   * by the fallback and the store switches to it (`--redis-timeout-ms`, default 250). Counted
   * from when the script was written, or from Redis's last reply, and judged after the process
   * has read what arrived meanwhile (`redis-reply-watch.ts`): a busy event loop (a burst of
   * requests, a starved process) does not count against Redis.
   */
  readonly timeoutMs: number;
  /** The policy while Redis does not answer. */
  readonly fallback: RedisFallback;
  /** This process's own buckets, which answer under the `local` policy. */
  readonly local: LimiterStore;
  /**
   * Under the `local` policy, the number of processes whose fallbacks split each key's limits
   * (`--redis-fallback-share`): the local buckets hold the plan's limits divided by it, rounded
   * down, at least 1 ({@link fallbackPlan}). A whole number, 1 or more. @default 1
   */
  readonly fallbackShare?: number;
  /** The operational log: told of each switch. */
  readonly log: LogSink;
  /** While in the fallback, how often Redis is asked whether it answers again, ms. @default 1000 */
  readonly probeIntervalMs?: number;
  /** Longest wait for the first connection at start-up, ms, before serving from the fallback. @default 2000 */
  readonly connectTimeoutMs?: number;
}

/** Counters of a Redis store, for the metrics. */
export interface RedisStoreCounters {
  /** Switches from Redis to the fallback. */
  fallbacks: number;
  /** Requests answered by the fallback (local buckets or 503). */
  fallbackAnswers: number;
}

/** The refusal of the `closed` policy: one instance, so a refusal costs no stack trace. */
const UNAVAILABLE = new ApiError('service_busy', 'Rate limits cannot be checked right now; retry shortly.', 1);

/** The Redis socket's write high-water mark, bytes: 64 MiB, about 500,000 scripts (see {@link openRedisStore}). */
const WRITE_HIGH_WATER_MARK = 64 * 1024 * 1024;

/** Reconnection delay after `retries` failed attempts: 50 ms doubling to 2 s, with jitter so that hosts spread out. */
const reconnectDelay = (retries: number): number => Math.min(50 * 2 ** retries, 2000) + Math.floor(Math.random() * 50);

/**
 * Loads `@redis/client`, connects, loads the script and returns the store. When Redis does not
 * answer within `connectTimeoutMs`, the store starts in the fallback (logged) and keeps trying.
 *
 * @throws Error when `@redis/client` is not installed (the message says how to install it).
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  let redis: typeof import('@redis/client');
  try {
    redis = await import('@redis/client');
  } catch (error) {
    throw new Error('--redis-url needs the optional package @redis/client, which is not installed; run `npm install @redis/client` beside equity-facts', { cause: error });
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const socket = {
    connectTimeout: connectTimeoutMs,
    reconnectStrategy: reconnectDelay,
    // Passed on to net.createConnection. The client stops a write at the socket's high-water
    // mark (16 KiB, about 120 scripts) and writes the rest on 'drain', a turn of the event loop
    // later; so that a burst's scripts leave in the one write that `RedisReplyWatch` times,
    // the mark is above any burst.
    writableHighWaterMark: WRITE_HIGH_WATER_MARK,
  };
  const client = redis.createClient({
    url: options.url,
    // A command for a disconnected client fails at once (and is answered by the fallback)
    // instead of waiting in a queue for a Redis that may not come back soon.
    disableOfflineQueue: true,
    // The client's own command timeout (5 s by default) makes an AbortSignal and a timer per
    // command: with it the server spent 46-51 µs of CPU per filings request, without it about
    // 33 (31 in-process). The store times its scripts itself (timeoutMs), so it is off.
    commandOptions: { timeout: 0 },
    socket,
  }) as RedisClientType;
  const store = new RedisStore(client, options);
  await store.start(connectTimeoutMs);
  return store;
}

/** The Redis store; see the module comment. Built by {@link openRedisStore}. */
export class RedisStore implements LimiterStore {
  readonly counters: RedisStoreCounters = { fallbacks: 0, fallbackAnswers: 0 };
  readonly #client: RedisClientType;
  readonly #options: RedisStoreOptions;
  readonly #where: string;
  /** Decides when a script is unanswered, from Redis's side only (`redis-reply-watch.ts`). */
  readonly #watch: RedisReplyWatch;
  #shared = false;
  #probe: NodeJS.Timeout | undefined;
  #probing = false;
  #closed = false;
  /** Whether {@link start} has decided the first mode (until then, probes leave it alone). */
  #started = false;
  /** The client's last error, for the start-up line. */
  #lastError: string | undefined;
  /** Each plan's share for the local fallback, by plan (see {@link fallbackPlan}). */
  readonly #sharedPlans = new Map<Plan, Plan>();
  /** A SCRIPT LOAD under way (after NOSCRIPT: Redis restarted or flushed its scripts). */
  #loading: Promise<unknown> | undefined;

  /** @internal use {@link openRedisStore}. */
  constructor(client: RedisClientType, options: RedisStoreOptions) {
    this.#client = client;
    this.#options = options;
    this.#where = describeUrl(options.url);
    this.#watch = new RedisReplyWatch(options.timeoutMs);
    client.on('error', (error: Error) => {
      this.#lastError = error.message;
      this.#toFallback(`connection lost (${error.message})`);
    });
    client.on('ready', () => void this.#probeOnce());
  }

  /** @internal First connection, bounded by `connectTimeoutMs`; see {@link openRedisStore}. */
  async start(connectTimeoutMs: number): Promise<void> {
    const connecting = this.#client.connect().then(() => this.#load());
    connecting.catch(() => {}); // a failure is reported by the race below or by the error event
    let timer: NodeJS.Timeout | undefined;
    const reason = await Promise.race([
      connecting.then(() => undefined, (error: Error) => `unreachable (${error.message})`),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`not answering within ${connectTimeoutMs} ms${this.#lastError ? ` (${this.#lastError})` : ''}`), connectTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.#started = true;
    if (reason === undefined) {
      this.#shared = true;
      this.#options.log(`limits: shared through Redis at ${this.#where} (timeout ${this.#options.timeoutMs} ms, fallback ${this.#options.fallback})`);
    } else {
      this.#shared = true; // so that the switch below is logged
      this.#toFallback(`${reason} at start`);
    }
  }

  take(keyId: string, plan: Plan): LimitDecision | Promise<LimitDecision> {
    return this.#shared ? this.#ask(keyId, plan, '1') : this.#fallbackAnswer(keyId, plan, true);
  }

  peek(keyId: string, plan: Plan): LimitDecision | Promise<LimitDecision> {
    return this.#shared ? this.#ask(keyId, plan, '0') : this.#fallbackAnswer(keyId, plan, false);
  }

  state(): LimiterStoreState {
    const mode = this.#shared ? 'shared' : this.#options.fallback === 'local' ? 'fallback_local' : 'unavailable';
    return { store: 'redis', mode, ...this.counters };
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#probe);
    try {
      if (this.#client.isOpen) await this.#client.close();
    } catch {
      this.#client.destroy();
    }
  }

  /** One script run, answered by the fallback when it fails or Redis leaves it unanswered for the timeout. */
  #ask(keyId: string, plan: Plan, take: '0' | '1'): Promise<LimitDecision> {
    const [minuteKey, dayKey] = bucketKeys(keyId);
    const args = ['EVALSHA', BUCKETS_SCRIPT_SHA1, '2', minuteKey, dayKey, String(plan.perMinute), String(plan.perDay), take];
    return this.#watch.send(() => this.#run(args)).then(([refused, minute, day]) => limitDecision(refused === '', Number(minute), Number(day), plan), (error: Error) => {
      this.#toFallback(error instanceof RedisSilentError ? error.message : `failed (${error.message})`);
      return this.#fallbackAnswer(keyId, plan, take === '1');
    });
  }

  /** EVALSHA, loading the script once more when Redis answers NOSCRIPT (it restarted or was flushed). */
  async #run(args: string[]): Promise<[string, string, string]> {
    try {
      return await this.#client.sendCommand<[string, string, string]>(args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      this.#watch.replied();
      await this.#load();
      return this.#client.sendCommand<[string, string, string]>(args);
    }
  }

  /** SCRIPT LOAD, shared by concurrent callers. */
  #load(): Promise<unknown> {
    this.#loading ??= this.#client.sendCommand(['SCRIPT', 'LOAD', BUCKETS_SCRIPT]).finally(() => { this.#loading = undefined; });
    return this.#loading;
  }

  /** The fallback's answer: this process's buckets (`local`) or the 503 refusal (`closed`). */
  #fallbackAnswer(keyId: string, plan: Plan, take: boolean): LimitDecision | Promise<LimitDecision> {
    this.counters.fallbackAnswers++;
    if (this.#options.fallback === 'closed') return Promise.reject(UNAVAILABLE);
    const share = this.#options.fallbackShare ?? 1;
    const local = share === 1 ? plan : this.#sharedPlans.get(plan) ?? this.#sharePlan(plan, share);
    return take ? this.#options.local.take(keyId, local) : this.#options.local.peek(keyId, local);
  }

  /** {@link fallbackPlan}, kept per plan (the plan table's rows: a handful). */
  #sharePlan(plan: Plan, share: number): Plan {
    const local = fallbackPlan(plan, share);
    this.#sharedPlans.set(plan, local);
    return local;
  }

  #toFallback(reason: string): void {
    if (!this.#shared || this.#closed) return;
    this.#shared = false;
    this.counters.fallbacks++;
    const share = this.#options.fallbackShare ?? 1;
    this.#options.log(`limits: Redis at ${this.#where} ${reason}; ${this.#options.fallback === 'local'
      ? `answering from this process's own buckets until it is back (--redis-fallback local: each process admits up to ${share === 1 ? 'a whole plan' : `1/${share} of each key's limits (--redis-fallback-share ${share})`} meanwhile)`
      : 'answering 503 service_busy until it is back (--redis-fallback closed)'}`, 'warn');
    this.#probe ??= setInterval(() => void this.#probeOnce(), this.#options.probeIntervalMs ?? 1000);
    this.#probe.unref();
  }

  /** While in the fallback: loads the script, and on an answer within the timeout, shares again. */
  async #probeOnce(): Promise<void> {
    if (!this.#started || this.#shared || this.#probing || this.#closed || !this.#client.isReady) return;
    this.#probing = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.#load(),
        new Promise((_, reject) => { timer = setTimeout(reject, this.#options.timeoutMs, new Error('timeout')); }),
      ]);
      if (this.#closed) return;
      clearInterval(this.#probe);
      this.#probe = undefined;
      this.#shared = true;
      this.#options.log(`limits: Redis at ${this.#where} answers again; limits are shared again`);
    } catch {
      // Still down: the next probe tries again.
    } finally {
      clearTimeout(timer);
      this.#probing = false;
    }
  }
}

/**
 * A process's share of a plan under the local fallback: the per-minute and per-day limits
 * divided by `share`, rounded down so that `share` processes together admit no more than the
 * plan allows (docs/api.md §3 limits, §11 fallback), and at least 1 so that a key is never shut
 * out (with more processes than a limit, they admit up to `share` per window together).
 *
 * @param plan - the key's plan (a row of the plan table).
 * @param share - the number of processes sharing the Redis, a whole number, 1 or more.
 */
export function fallbackPlan(plan: Plan, share: number): Plan {
  return Object.freeze({ ...plan, perMinute: Math.max(1, Math.floor(plan.perMinute / share)), perDay: Math.max(1, Math.floor(plan.perDay / share)) });
}

/** The URL without its password, for log lines. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}
