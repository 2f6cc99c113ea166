/**
 * Configuration of `equity-facts serve`: flags first, then `EQF_*` environment variables, then
 * the defaults. The flags, variables, their checks and the usage all come from the one table of
 * settings ({@link SERVE_ROWS}), so the help text, the docs table and the parser cannot disagree.
 */
import type { ListenOptions } from '../server.js';
import type { OptionsOf } from '../settings/setting.js';
import { SERVE_ROWS, type SERVE_SETTINGS } from '../settings/table.js';
import { UsageError, flagUsageLines, readFlags } from '../settings/read-flags.js';

export { MAX_WORKERS } from '../settings/table.js';

/**
 * The settings of `serve`: the server's, plus what the command itself does with them
 * (`workers`, `accessLogTarget`, `shutdownDelayMs`, `logFormat`: see {@link SERVE_SETTINGS}).
 */
export interface ServeConfig extends ListenOptions, OptionsOf<typeof SERVE_SETTINGS> {}

/** A usage problem with the serve flags or environment. */
export { UsageError as ServeUsageError } from '../settings/read-flags.js';

/** Usage of `serve`, with every setting (printed by `serve --help` and with a usage error). */
export const SERVE_USAGE = `usage: equity-facts serve [flags]

Serves the API from the snapshots folder with the keys file. A flag wins over its environment
variable, which wins over the default.

${flagUsageLines(SERVE_ROWS)}

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
  return readFlags(SERVE_ROWS, argv, env) as ServeConfig;
}
