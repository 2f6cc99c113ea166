/**
 * The one table of settings, read in order: where `listen` listens, the handler's settings, the
 * connection layer, what `serve` alone does, and the breaker's thresholds. `serve`'s flags and
 * `EQF_` variables, `--help`, option checking and the configuration table of docs/operating.md
 * are all derived from it.
 */
import { BREAKER_SETTINGS } from './breaker-settings.js';
import { BREAKER_OPTION_NAMES, HANDLER_SETTINGS } from './handler-settings.js';
import { CONNECTION_SETTINGS, LISTEN_SETTINGS } from './listen-settings.js';
import { SERVE_SETTINGS } from './serve-settings.js';
import { shownDefault, type Setting } from './setting.js';

export { BREAKER_SETTINGS } from './breaker-settings.js';
export { BREAKER_OPTION_NAMES, DEFAULT_KEYS_FILE, DEFAULT_LICENSE, HANDLER_SETTINGS, defaultLog } from './handler-settings.js';
export { CONNECTION_SETTINGS, DEFAULT_BASE_URL, DEFAULT_PORT, LISTEN_SETTINGS } from './listen-settings.js';
export { MAX_WORKERS, SERVE_SETTINGS } from './serve-settings.js';
export { LOOPBACK, MAX_TIMER_MS } from './kinds.js';

/** One row of the table: a setting, the option it sets, and who takes it. */
export interface SettingRow {
  /** The option's name; for a breaker threshold, `breaker.` and its name. */
  readonly option: string;
  /** `listen`: `listen()` alone; `handler`: `createHandler` (and `listen`); `connection`: `listen()`'s connection layer; `serve`: the command alone; `breaker`: `breaker: {…}`. */
  readonly scope: 'listen' | 'handler' | 'connection' | 'serve' | 'breaker';
  readonly setting: Setting<unknown, unknown>;
}

const rows = (scope: SettingRow['scope'], table: Readonly<Record<string, Setting<unknown, unknown>>>, prefix = ''): SettingRow[] =>
  Object.entries(table).map(([option, setting]) => ({ option: `${prefix}${option}`, scope, setting }));

/** Every setting, in the order `--help` and the docs list them. */
export const SETTINGS: readonly SettingRow[] = Object.freeze([
  ...rows('listen', LISTEN_SETTINGS),
  ...rows('handler', HANDLER_SETTINGS),
  ...rows('connection', CONNECTION_SETTINGS),
  ...rows('serve', SERVE_SETTINGS),
  ...rows('breaker', Object.fromEntries(BREAKER_OPTION_NAMES.map((name) => [name, BREAKER_SETTINGS[name as keyof typeof BREAKER_SETTINGS]])), 'breaker.'),
]);

/** A setting `serve` reads: it has an `EQF_` variable (and usually a flag). */
export interface ServeRow extends SettingRow {
  readonly setting: Setting<unknown, unknown> & { readonly env: string; readonly help: string };
}

/** The settings of `equity-facts serve`, in order. */
export const SERVE_ROWS: readonly ServeRow[] = Object.freeze(SETTINGS.filter((row): row is ServeRow => row.setting.env !== undefined));

/** The default in words for `--help`: as the docs show it, without Markdown's backticks. */
export const plainDefault = (setting: Setting<unknown, unknown>): string => shownDefault(setting).replaceAll('`', '');

/**
 * The configuration tables of docs/operating.md, Markdown: `serve`'s settings with their flag,
 * variable and option, then the options only code gives.
 */
export function settingsMarkdown(): string {
  const code = (name: string | undefined): string => (name === undefined ? '' : `\`${name}\``);
  const option = (row: SettingRow): string => (row.scope === 'serve' ? '' : code(row.option));
  const serve = SERVE_ROWS.map((row) => `| ${code(row.setting.flag && `--${row.setting.flag}`)} | ${code(row.setting.env)} | ${option(row)} | ${shownDefault(row.setting)} | ${row.setting.doc} |`);
  const codeOnly = SETTINGS.filter((row) => row.setting.env === undefined)
    .map((row) => `| ${code(row.option)} | ${shownDefault(row.setting)} | ${row.setting.doc} |`);
  return [
    '| flag | environment | option | default | what |', '|---|---|---|---|---|', ...serve, '',
    'Only in code: options of `createHandler` (and so of `listen`), and the breaker\'s thresholds under `breaker: {…}`',
    '([api.md §8](api.md#8-breaker)):', '',
    '| option | default | what |', '|---|---|---|', ...codeOnly,
  ].join('\n');
}
