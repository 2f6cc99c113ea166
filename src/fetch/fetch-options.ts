/**
 * Options of a fetch run: all defaults in one commented object, each field checked once with a
 * message naming it, then frozen.
 */
import { normaliseTicker, padCik } from '../identifiers.js';
import type { ClientEvent } from './edgar-client.js';
import { realSleep, type Sleep } from './rate-gate.js';

/** What to fetch: named tickers, named CIKs, or every company in company_tickers.json. */
export type Selection =
  | { readonly kind: 'tickers'; readonly tickers: readonly string[] }
  | { readonly kind: 'ciks'; readonly ciks: readonly string[] }
  | { readonly kind: 'all' };

/** Options of {@link runFetch}. `userAgent`, `out` and one of `tickers`, `ciks`, `all` are required. */
export interface FetchOptions {
  /** Declared User-Agent: a name and a contact email, e.g. `Acme Research ops@acme.example` (SEC fair access). */
  userAgent: string;
  /** The folder that mirrors EDGAR's paths. */
  out: string;
  /** Tickers to fetch (`BRK.B` is read as `BRK-B`). */
  tickers?: readonly string[];
  /** CIKs to fetch (digits, leading zeros optional): companies, funds or reporting owners. */
  ciks?: readonly string[];
  /** Every company in company_tickers.json. */
  all?: boolean;
  /** First filing date of the window, `YYYY-MM-DD`. Default: 365 days before today (UTC). */
  since?: string;
  /** SEC's bulk products instead of per-company files; needs `all`. */
  bulk?: boolean;
  /** Replaces both `https://www.sec.gov` and `https://data.sec.gov`; EDGAR's paths are kept. */
  baseUrl?: string;
  /** Request starts per second. Default 10, SEC's limit; more only for a `baseUrl` outside sec.gov. */
  requestsPerSecond?: number;
  /** Downloads in flight at once (all share the rate). Default 4. */
  concurrency?: number;
  /** Retries of a document after its first attempt. Default 4. */
  retries?: number;
  /** Files that EDGAR updates in place (ticker files, submissions, company facts, the daily bulk zips) are fetched again once older than this, hours. Default 12; 0 fetches them every run. */
  refreshAfterHours?: number;
  /** First back-off before jitter, ms. Default 1000. */
  backoffBaseMs?: number;
  /** Longest back-off, ms. Default 60000. */
  backoffCapMs?: number;
  /** A response silent this long is abandoned and retried, ms. Default 60000. */
  idleTimeoutMs?: number;
  /**
   * Clock, ms since the epoch. Default: the wall clock at start plus monotonic time since
   * (`performance.timeOrigin + performance.now()`), so that a step of the system clock during a
   * long run can neither stall the pacing nor bunch requests.
   */
  now?: () => number;
  /** How to wait. Default: timers. */
  sleep?: Sleep;
  /** Jitter source, [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Stops the run (SIGINT). */
  signal?: AbortSignal;
  /** Log lines (retries, give-ups, the summary). Default: stderr. */
  log?: (line: string) => void;
  /** Redraws the progress line; null for none. Default: on stderr when it is a TTY. */
  progress?: ((line: string) => void) | null;
  /** Told of every request, retry and body chunk (for an embedding program's own metrics). */
  observe?: (event: ClientEvent) => void;
}

/** The options after defaults and checks. */
export interface ResolvedFetchOptions {
  readonly userAgent: string;
  readonly out: string;
  readonly selection: Selection;
  readonly since: string;
  readonly bulk: boolean;
  readonly baseUrl: string | undefined;
  readonly requestsPerSecond: number;
  readonly concurrency: number;
  readonly retries: number;
  readonly refreshAfterMs: number;
  readonly backoffBaseMs: number;
  readonly backoffCapMs: number;
  readonly idleTimeoutMs: number;
  readonly now: () => number;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly signal: AbortSignal | undefined;
  readonly log: (line: string) => void;
  readonly progress: ((line: string) => void) | null;
  readonly observe: (event: ClientEvent) => void;
}

/** A bad option: `option` names it, `problem` says what is wrong (the message is both). */
export class FetchOptionError extends TypeError {
  constructor(readonly option: string, readonly problem: string) {
    super(`${option} ${problem}`);
  }
}

/** SEC's fair-access ceiling, requests per second. */
export const SEC_MAX_REQUESTS_PER_SECOND = 10;

/** Defaults of the fetch options. */
export const FETCH_DEFAULTS = Object.freeze({
  /** Requests per second: SEC's fair-access limit. */
  requestsPerSecond: SEC_MAX_REQUESTS_PER_SECOND,
  /** Downloads in flight; enough to keep 10 requests a second going over a slow link. */
  concurrency: 4,
  /** Retries after the first attempt. */
  retries: 4,
  /** Age, hours, after which an in-place-updated file is fetched again. */
  refreshAfterHours: 12,
  /** Days before today that the window starts by default. */
  sinceDays: 365,
  /** ms */
  backoffBaseMs: 1000,
  /** ms */
  backoffCapMs: 60_000,
  /** ms */
  idleTimeoutMs: 60_000,
});

/** An email address inside a User-Agent. */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/**
 * Checks a User-Agent against SEC's rule: "declare your user agent", in the form
 * `Sample Company Name AdminContact@<sample company domain>.com` (SEC, "Accessing EDGAR Data").
 *
 * @returns null when it will do, else what is wrong with it.
 */
export function userAgentProblem(userAgent: string): string | null {
  if (!/^[\x20-\x7e]+$/.test(userAgent)) return 'must be printable ASCII on one line';
  const email = EMAIL.exec(userAgent);
  if (!email) return 'must carry a contact email address, e.g. "Acme Research ops@acme.example" (SEC fair-access policy)';
  if (!/[A-Za-z]{2,}/.test(userAgent.replace(email[0], ''))) return 'must name the company or person besides the email, e.g. "Acme Research ops@acme.example"';
  return null;
}

/**
 * Applies defaults and checks every option.
 *
 * @throws FetchOptionError naming the option at fault.
 */
export function resolveFetchOptions(options: FetchOptions): ResolvedFetchOptions {
  if (typeof options.userAgent !== 'string') throw new FetchOptionError('userAgent', 'is required: a name and a contact email');
  const uaProblem = userAgentProblem(options.userAgent.trim());
  if (uaProblem) throw new FetchOptionError('userAgent', uaProblem);
  if (typeof options.out !== 'string' || options.out === '') throw new FetchOptionError('out', 'must be a folder path');
  const selection = resolveSelection(options);
  const now = options.now ?? monotonicNow;
  if (typeof now !== 'function') throw new FetchOptionError('now', 'must be a function returning ms');
  const since = options.since ?? new Date(now() - FETCH_DEFAULTS.sinceDays * 86_400_000).toISOString().slice(0, 10);
  if (!isCalendarDate(since)) throw new FetchOptionError('since', `must be a date YYYY-MM-DD, got ${JSON.stringify(since)}`);
  if (options.bulk && selection.kind !== 'all') throw new FetchOptionError('bulk', 'fetches SEC\'s whole-market products: use it with all');
  let baseUrl: string | undefined;
  if (options.baseUrl !== undefined) {
    const parsed = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash) throw new FetchOptionError('baseUrl', `must be an http(s) URL without query, got ${JSON.stringify(options.baseUrl)}`);
    baseUrl = options.baseUrl.replace(/\/+$/, '');
  }
  const requestsPerSecond = options.requestsPerSecond ?? FETCH_DEFAULTS.requestsPerSecond;
  const ceiling = baseUrl === undefined || /(^|\.)sec\.gov$/i.test(new URL(baseUrl).hostname) ? SEC_MAX_REQUESTS_PER_SECOND : 1000;
  if (typeof requestsPerSecond !== 'number' || !(requestsPerSecond > 0) || requestsPerSecond > ceiling) {
    throw new FetchOptionError('requestsPerSecond', `must be more than 0 and at most ${ceiling}${ceiling === SEC_MAX_REQUESTS_PER_SECOND ? ' (SEC fair-access limit)' : ''}`);
  }
  const whole = (name: keyof typeof FETCH_DEFAULTS, min: number, max: number): number => {
    const value = (options as unknown as Record<string, unknown>)[name] ?? FETCH_DEFAULTS[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new FetchOptionError(name, `must be a whole number from ${min} to ${max}`);
    return value;
  };
  for (const name of ['sleep', 'random', 'log', 'observe'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw new FetchOptionError(name, 'must be a function');
  }
  if (options.progress !== undefined && options.progress !== null && typeof options.progress !== 'function') throw new FetchOptionError('progress', 'must be a function or null');
  return Object.freeze({
    userAgent: options.userAgent.trim(),
    out: options.out,
    selection,
    since,
    bulk: options.bulk === true,
    baseUrl,
    requestsPerSecond,
    concurrency: whole('concurrency', 1, 16),
    retries: whole('retries', 0, 20),
    refreshAfterMs: whole('refreshAfterHours', 0, 24 * 365) * 3_600_000,
    backoffBaseMs: whole('backoffBaseMs', 1, 3_600_000),
    backoffCapMs: whole('backoffCapMs', 1, 3_600_000),
    idleTimeoutMs: whole('idleTimeoutMs', 1, 3_600_000),
    now,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    signal: options.signal,
    log: options.log ?? ((line: string) => { process.stderr.write(`${line}\n`); }),
    progress: options.progress === undefined
      ? (process.stderr.isTTY ? (line: string) => { process.stderr.write(`\r\x1b[2K${line}`); } : null)
      : options.progress,
    observe: options.observe ?? (() => {}),
  });
}

function resolveSelection(options: FetchOptions): Selection {
  const given = [options.tickers !== undefined, options.ciks !== undefined, options.all === true].filter(Boolean).length;
  if (given !== 1) throw new FetchOptionError('tickers', 'or ciks or all: give exactly one');
  if (options.all) return Object.freeze({ kind: 'all' });
  if (options.tickers) {
    if (options.tickers.length === 0) throw new FetchOptionError('tickers', 'must name at least one ticker');
    const tickers = options.tickers.map((t) => {
      const ticker = normaliseTicker(t);
      if (!ticker) throw new FetchOptionError('tickers', `has ${JSON.stringify(t)}, which is not a ticker (1-12 of A-Z 0-9 . - /)`);
      return ticker;
    });
    return Object.freeze({ kind: 'tickers', tickers: Object.freeze([...new Set(tickers)]) });
  }
  const list = options.ciks!;
  if (list.length === 0) throw new FetchOptionError('ciks', 'must name at least one CIK');
  const ciks = list.map((c) => {
    const cik = /^\d+$/.test(c.trim()) ? padCik(c.trim().replace(/^0+(?=\d)/, '')) : undefined;
    if (!cik) throw new FetchOptionError('ciks', `has ${JSON.stringify(c)}, which is not a CIK (1-10 digits)`);
    return cik;
  });
  return Object.freeze({ kind: 'ciks', ciks: Object.freeze([...new Set(ciks)]) });
}

function monotonicNow(): number {
  return performance.timeOrigin + performance.now();
}

function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))
    && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}
