/**
 * One setting: its option name is its key in a table (`HANDLER_SETTINGS`, `LISTEN_SETTINGS`,
 * `CONNECTION_SETTINGS`, `SERVE_SETTINGS`, `BREAKER_SETTINGS`); the entry says how it is given
 * (flag, `EQF_` variable), checked (its {@link Kind}), defaulted, and described (`--help`, the
 * configuration table of docs/operating.md). The option types are derived from the tables.
 */
import { didYouMean } from '../suggest.js';
import type { Kind } from './kinds.js';

/** A setting; `In` is what the caller gives, `Out` what the server keeps. */
export interface Setting<In, Out = In> {
  readonly kind: Kind<In, Out>;
  /** The value used when none is given; absent when the absence itself means something (none, off, derived). */
  readonly default?: NoInfer<Out>;
  /** The default in words, Markdown, when it is not {@link default} as is (`the embedded \`snapshots/\``). */
  readonly shown?: string;
  /** Flag of `equity-facts serve`, without `--`; absent for a setting only the environment or code gives. */
  readonly flag?: string;
  /** `EQF_` environment variable of `serve`; absent for a setting only code gives (a function, a store). */
  readonly env?: string;
  /** The value's name in `serve --help` (`DIR`, `URL`); `N` when absent. */
  readonly placeholder?: string;
  /** Given even when absent: checked as `undefined` (the breaker's `sample`). */
  readonly required?: boolean;
  /** What it does, in `serve --help`: short, plain text. Required with `env`. */
  readonly help?: string;
  /** What it does, in the configuration table of docs/operating.md: Markdown, no `|`. */
  readonly doc: string;
}

/** A table of settings keyed by option name. */
export type SettingTable = Readonly<Record<string, Setting<unknown, unknown>>>;

/** Builds an entry; the overloads keep a given default's type present. */
export function setting<In, Out>(spec: Setting<In, Out> & { readonly default: NoInfer<Out> }): Setting<In, Out> & { readonly default: Out };
export function setting<In, Out>(spec: Setting<In, Out>): Setting<In, Out>;
export function setting<In, Out>(spec: Setting<In, Out>): Setting<In, Out> {
  return Object.freeze(spec);
}

/** What a caller gives for a table's settings: every one optional, typed by its kind, with the entry's TSDoc. */
export type OptionsOf<T> = { -readonly [K in keyof T]?: T[K] extends Setting<infer In, unknown> ? In : never };

/** The kept value of each setting, after its check and default (`undefined` when absent without a default). */
export type CheckedOf<T> = {
  readonly [K in keyof T]: T[K] extends Setting<unknown, infer Out> ? (T[K] extends { readonly default: Out } ? Out : Out | undefined) : never;
};

/**
 * Checks each given setting of a table with its kind and fills in the defaults. Names not in
 * the table are left alone (see {@link checkOptionNames}).
 *
 * @param table - the settings.
 * @param options - as given; the caller has checked that it is an object.
 * @throws TypeError naming the first option at fault.
 */
export function checkSettings<T extends SettingTable>(table: T, options: object): CheckedOf<T> {
  const given = options as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(table)) {
    const value = given[name];
    out[name] = value === undefined && !entry.required ? entry.default : entry.kind.check(value, name);
  }
  return out as CheckedOf<T>;
}

/**
 * Throws for a name that is not an option, suggesting the closest one: a typo such as
 * `snapshotDir` would otherwise be ignored and the default used without a word.
 *
 * @param options - the object given.
 * @param known - the valid names.
 * @param where - what the object is, for the message (e.g. `createHandler option`).
 * @throws TypeError naming the unknown option, e.g. `unknown createHandler option "snapshotDir" (did you mean snapshotsDir?)`.
 */
export function checkOptionNames(options: object, known: readonly string[], where: string): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new TypeError(`unknown ${where} "${name}"${didYouMean(name, known)}`);
  }
}

/** The default as `serve --help` and the docs show it (Markdown; `--help` drops the backticks). */
export function shownDefault(entry: Setting<unknown, unknown>): string {
  return entry.shown ?? `\`${String(entry.default)}\``;
}
