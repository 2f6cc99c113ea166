/**
 * Options of the embeddable handler: their type, defaults and checks all come from
 * {@link HANDLER_SETTINGS} (src/settings/); checked once per field with a message naming the
 * option, then frozen.
 */
import { checkOptionNames, checkSettings, type CheckedOf, type OptionsOf } from './settings/setting.js';
import { DEFAULT_KEYS_FILE, HANDLER_SETTINGS } from './settings/table.js';

export { PACKAGE_ROOT } from './package-root.js';
export { checkOptionNames } from './settings/setting.js';
export { DEFAULT_BASE_URL, DEFAULT_KEYS_FILE, DEFAULT_LICENSE, defaultLog } from './settings/table.js';

/** Options of {@link createHandler}. Every field is optional; each is described in {@link HANDLER_SETTINGS}. */
export type HandlerOptions = OptionsOf<typeof HANDLER_SETTINGS>;

/** Every option name of {@link HandlerOptions}. */
export const HANDLER_OPTION_NAMES: readonly (keyof HandlerOptions)[] = Object.freeze(Object.keys(HANDLER_SETTINGS) as (keyof HandlerOptions)[]);

/**
 * Options after defaults and checks: `undefined` only where absence means something (no base
 * address given, no Redis); a given `baseUrl` has no trailing slash; `trustProxy` is parsed.
 */
export type ResolvedOptions = CheckedOf<typeof HANDLER_SETTINGS>;

/** The default `attribution`, naming the base address (docs/api.md §5). */
export const defaultAttribution = (baseUrl: string): string => `Written analysis by equity-facts, ${baseUrl}`;

/**
 * Applies defaults and checks every option.
 *
 * @throws TypeError naming the option, e.g. "watchIntervalMs must be a whole number, 0 or more",
 *   or an unknown option (with the closest valid name, when one is close).
 */
export function resolveOptions(options: HandlerOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  checkOptionNames(options, HANDLER_OPTION_NAMES, 'createHandler option');
  const resolved = checkSettings(HANDLER_SETTINGS, options);
  if (resolved.redisUrl !== undefined && resolved.limiterStore !== undefined) throw new TypeError('limiterStore and redisUrl cannot both be given');
  return Object.freeze(resolved);
}

/** Whether the keys file is the embedded demo file (its plaintext keys are public). */
export function isDemoKeysFile(file: string): boolean {
  return file === DEFAULT_KEYS_FILE || file.endsWith('keys.demo.json');
}
