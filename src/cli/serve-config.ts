/**
 * Configuration of `equity-facts serve`: flags first, then `EQF_*` environment variables, then
 * the defaults. The flags, variables, their checks and the usage all come from the one table of
 * settings ({@link SERVE_ROWS}), so the help text, the docs table and the parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import { didYouMean } from '../suggest.js';
import type { ListenOptions } from '../server.js';
import type { OptionsOf } from '../settings/setting.js';
import { SERVE_ROWS, plainDefault, type SERVE_SETTINGS } from '../settings/table.js';

export { MAX_WORKERS } from '../settings/table.js';

/**
 * The settings of `serve`: the server's, plus what the command itself does with them
 * (`workers`, `accessLogTarget`, `shutdownDelayMs`, `logFormat`: see {@link SERVE_SETTINGS}).
 */
export interface ServeConfig extends ListenOptions, OptionsOf<typeof SERVE_SETTINGS> {}

/** A usage problem with the serve flags or environment. */
export class ServeUsageError extends Error {}

/** The columns of `serve --help`: flag with its value's name, variable, what it does and its default. */
const USAGE_COLUMNS = SERVE_ROWS.map(({ setting: s }) => [s.flag ? `--${s.flag} ${s.placeholder ?? 'N'}` : '', s.env, `${s.help}; default ${plainDefault(s)}`] as const);
const FLAG_WIDTH = Math.max(...USAGE_COLUMNS.map(([flag]) => flag.length));
const ENV_WIDTH = Math.max(...USAGE_COLUMNS.map(([, env]) => env.length));

/** Usage of `serve`, with every setting (printed by `serve --help` and with a usage error). */
export const SERVE_USAGE = `usage: equity-facts serve [flags]

Serves the API from the snapshots folder with the keys file. A flag wins over its environment
variable, which wins over the default.

${USAGE_COLUMNS.map(([flag, env, what]) => `  ${flag.padEnd(FLAG_WIDTH)}  ${env.padEnd(ENV_WIDTH)}  ${what}`).join('\n')}
  ${'-h, --help'.padEnd(FLAG_WIDTH)}  this text

signals: SIGHUP reloads snapshot and keys (and reopens the access log file); SIGUSR2 toggles a
forced-open breaker; SIGTERM/SIGINT fail /readyz (503), keep serving for --shutdown-delay-ms (a
second signal ends that delay), then stop accepting, answer every request received, and exit 0 (a
further one closes what is left at once). With --workers, signal the primary (the pid it prints):
it relays them to every worker.`;

/**
 * Reads the serve settings, each with its kind's reading of text.
 *
 * @param argv - words after `serve`.
 * @param env - the environment (process.env).
 * @returns the settings given (no defaults), or `'help'` when `--help` or `-h` is given.
 * @throws ServeUsageError naming the flag or variable at fault.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const flags = SERVE_ROWS.flatMap(({ setting }) => (setting.flag ? [setting.flag] : []));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: Object.fromEntries(flags.map((flag) => [flag, { type: 'string' }])), strict: true, allowPositionals: false }).values;
  } catch (error) {
    const unknown = /Unknown option '--([^']+)'/.exec((error as Error).message)?.[1];
    throw new ServeUsageError(`${(error as Error).message}${unknown === undefined ? '' : didYouMean(unknown, flags, '--')}`);
  }
  const out: Record<string, unknown> = {};
  for (const { option, setting } of SERVE_ROWS) {
    const fromFlag = setting.flag ? values[setting.flag] : undefined;
    const raw = typeof fromFlag === 'string' ? fromFlag : env[setting.env];
    if (raw === undefined || raw === '') continue;
    try {
      out[option] = setting.kind.read!(raw, typeof fromFlag === 'string' ? `--${setting.flag}` : setting.env);
    } catch (error) {
      if (error instanceof TypeError) throw new ServeUsageError(error.message);
      throw error;
    }
  }
  return out as ServeConfig;
}
