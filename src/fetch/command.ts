/**
 * `equity-facts fetch`: the command-line form of {@link runFetch}. Loaded by the CLI with a
 * dynamic import, like `build`.
 */
import { parseArgs } from 'node:util';
import { FETCH_DEFAULTS, FetchOptionError, SEC_MAX_REQUESTS_PER_SECOND, type FetchOptions } from './fetch-options.js';
import { StorageError } from './edgar-client.js';
import { FetchSelectionError, runFetch } from './fetch-run.js';

/** Usage text, printed by `--help` and with a usage error. */
export const FETCH_USAGE = `usage: equity-facts fetch --user-agent "Name email" --out DIR (--tickers T,… | --ciks C,… | --all) [options]
  --user-agent UA       who is asking, with a contact email, e.g. "Acme Research ops@acme.example"
                        (SEC fair-access policy; required; default $EQF_USER_AGENT)
  --out DIR             folder that mirrors EDGAR's paths; build --from DIR reads it as it is
  --tickers T,…         companies by ticker (company_tickers.json)
  --ciks C,…            companies, funds or reporting owners by CIK
  --all                 every company in company_tickers.json
  --since YYYY-MM-DD    first filing date to fetch (default: ${FETCH_DEFAULTS.sinceDays} days ago)
  --bulk                with --all: SEC's bulk products (submissions.zip, companyfacts.zip,
                        Insider Transactions and Form 13F data sets) instead of single files
  --base-url URL        replaces https://www.sec.gov and https://data.sec.gov (a mirror, a replay server)
  --max-rate N          requests per second (default and most for sec.gov: ${SEC_MAX_REQUESTS_PER_SECOND})
  --concurrency N       downloads in flight (default ${FETCH_DEFAULTS.concurrency})
  --retries N           retries of a document on 429, 5xx or a dropped connection (default ${FETCH_DEFAULTS.retries})
  --refresh-after H     fetch ticker files, submissions and company facts again once older than H hours
                        (default ${FETCH_DEFAULTS.refreshAfterHours}; 0: every run); filing documents are never fetched twice
exit: 0 holds everything EDGAR had (404s are counted and named), 1 gave up on errors, 2 usage, 130 interrupted`;

/** A command-line mistake: reported with the usage and exit code 2. */
class UsageError extends Error {}

const FLAGS = {
  'user-agent': { type: 'string' }, out: { type: 'string' }, tickers: { type: 'string' }, ciks: { type: 'string' },
  all: { type: 'boolean' }, since: { type: 'string' }, bulk: { type: 'boolean' }, 'base-url': { type: 'string' },
  'max-rate': { type: 'string' }, concurrency: { type: 'string' }, retries: { type: 'string' }, 'refresh-after': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Parses the words after `fetch` into run options.
 *
 * @param env - the environment, for `EQF_USER_AGENT`.
 * @throws UsageError naming the flag at fault.
 */
export function parseFetchArgs(argv: readonly string[], env: NodeJS.ProcessEnv): FetchOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const text = (name: string): string | undefined => {
    const value = values[name];
    if (value === '') throw new UsageError(`--${name} needs a value`);
    return typeof value === 'string' ? value : undefined;
  };
  const number = (name: string, pattern: RegExp, what: string): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!pattern.test(value)) throw new UsageError(`--${name} must be ${what}, got ${JSON.stringify(value)}`);
    return Number(value);
  };
  const userAgent = text('user-agent') ?? (env.EQF_USER_AGENT || undefined);
  if (userAgent === undefined) throw new UsageError('--user-agent is required: SEC asks every automated client to declare who it is, with a contact email, e.g. --user-agent "Acme Research ops@acme.example"');
  const out = text('out');
  if (out === undefined) throw new UsageError('--out is required (the folder that mirrors EDGAR)');
  const list = (name: string): string[] | undefined => text(name)?.split(/[\s,]+/).filter((s) => s !== '');
  const chosen = ['tickers', 'ciks', 'all'].filter((name) => values[name] !== undefined);
  if (chosen.length !== 1) throw new UsageError(chosen.length === 0 ? 'say what to fetch: --tickers, --ciks or --all' : `--${chosen.join(' and --')} cannot be combined; give one`);
  if (values.bulk && !values.all) throw new UsageError('--bulk fetches SEC\'s whole-market products: give --all with it');
  return {
    userAgent, out,
    tickers: list('tickers'), ciks: list('ciks'), all: values.all === true ? true : undefined,
    since: text('since'), bulk: values.bulk === true, baseUrl: text('base-url'),
    requestsPerSecond: number('max-rate', /^\d+(\.\d+)?$/, 'a number of requests per second'),
    concurrency: number('concurrency', /^\d+$/, 'a whole number'),
    retries: number('retries', /^\d+$/, 'a whole number'),
    refreshAfterHours: number('refresh-after', /^\d+$/, 'a whole number of hours'),
  };
}

/**
 * Runs `equity-facts fetch`.
 *
 * @param argv - the words after `fetch`.
 * @returns the exit code (see {@link FETCH_USAGE}).
 */
export async function runFetchCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${FETCH_USAGE}\n`);
    return 0;
  }
  let options: FetchOptions;
  try {
    options = parseFetchArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`equity-facts fetch: ${error.message}\n${FETCH_USAGE}\n`);
    return 2;
  }
  const stop = new AbortController();
  const onSignal = (signal: string): void => {
    process.stderr.write(`\nequity-facts fetch: ${signal}: stopping; held files stay, the next run resumes\n`);
    stop.abort(new Error(signal));
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  try {
    const result = await runFetch({ ...options, signal: stop.signal });
    return result.exitCode;
  } catch (error) {
    if (error instanceof FetchOptionError) {
      process.stderr.write(`equity-facts fetch: --${flagOf(error.option)} ${error.problem}\n`);
      return 2;
    }
    if (error instanceof FetchSelectionError) {
      process.stderr.write(`equity-facts fetch: ${error.message}\n`);
      return 2;
    }
    if (error instanceof StorageError) {
      process.stderr.write(`equity-facts fetch: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

/** The flag of a run option (`userAgent` → `user-agent`). */
function flagOf(option: string): string {
  const flags: Record<string, string> = { userAgent: 'user-agent', requestsPerSecond: 'max-rate', refreshAfterHours: 'refresh-after', baseUrl: 'base-url' };
  return flags[option] ?? option;
}
