/**
 * Reading a command's settings from its flags and `EQF_` variables: a flag wins over its
 * variable, which wins over the default (left to the settings' check). `serve` and `portal` read
 * theirs this way, each from its own table, so that help text, docs and parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import { didYouMean } from '../suggest.js';
import { plainDefault } from './table.js';
import type { Setting } from './setting.js';

/** A setting a command reads from text: its option name, and an entry with an `EQF_` variable. */
export interface FlagRow {
  readonly option: string;
  readonly setting: Setting<unknown, unknown> & { readonly env: string; readonly help: string };
}

/** A usage problem with a command's flags or environment; the message names the flag or variable. */
export class UsageError extends Error {}

/**
 * Reads the settings given as flags or variables, each with its kind's reading of text.
 *
 * @param rows - the command's settings.
 * @param argv - the words after the command.
 * @param env - the environment (process.env); an empty variable is unset.
 * @returns the options given (no defaults), by option name.
 * @throws UsageError naming the flag or variable at fault; an unknown flag with the closest one.
 */
export function readFlags(rows: readonly FlagRow[], argv: readonly string[], env: NodeJS.ProcessEnv): Record<string, unknown> {
  const flags = rows.flatMap(({ setting }) => (setting.flag ? [setting.flag] : []));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: Object.fromEntries(flags.map((flag) => [flag, { type: 'string' }])), strict: true, allowPositionals: false }).values;
  } catch (error) {
    const unknown = /Unknown option '--([^']+)'/.exec((error as Error).message)?.[1];
    throw new UsageError(`${(error as Error).message}${unknown === undefined ? '' : didYouMean(unknown, flags, '--')}`);
  }
  const out: Record<string, unknown> = {};
  for (const { option, setting } of rows) {
    const fromFlag = setting.flag ? values[setting.flag] : undefined;
    const raw = typeof fromFlag === 'string' ? fromFlag : env[setting.env];
    if (raw === undefined || raw === '') continue;
    try {
      out[option] = setting.kind.read!(raw, typeof fromFlag === 'string' ? `--${setting.flag}` : setting.env);
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message);
      throw error;
    }
  }
  return out;
}

/**
 * The settings lines of a usage text: flag with its value's name, variable, what it does and its
 * default, in aligned columns, then `-h, --help`.
 */
export function flagUsageLines(rows: readonly FlagRow[]): string {
  const columns = rows.map(({ setting: s }) => [s.flag ? `--${s.flag} ${s.placeholder ?? 'N'}` : '', s.env, s.required ? `${s.help} (required)` : `${s.help}; default ${plainDefault(s)}`] as const);
  const flagWidth = Math.max(...columns.map(([flag]) => flag.length));
  const envWidth = Math.max(...columns.map(([, variable]) => variable.length));
  return [...columns.map(([flag, variable, what]) => `  ${flag.padEnd(flagWidth)}  ${variable.padEnd(envWidth)}  ${what}`), `  ${'-h, --help'.padEnd(flagWidth)}  this text`].join('\n');
}
