/**
 * The breaker's options (docs/api.md §8: thresholds are operator settings with defaults), from
 * {@link BREAKER_SETTINGS}: checked once at start-up, each message naming the option, then frozen.
 */
import { BREAKER_SETTINGS, type BreakerOptions } from '../settings/breaker-settings.js';
import { checkSettings } from '../settings/setting.js';

export type { BreakerOptions } from '../settings/breaker-settings.js';

/** {@link BreakerOptions} with every default applied, checked and frozen. */
export type ResolvedBreakerOptions = Readonly<Required<BreakerOptions>>;

/**
 * Applies the defaults to breaker options and checks every field.
 *
 * @param options - as given by the operator or the CLI.
 * @returns frozen options with every field set.
 * @throws TypeError naming the first bad option, e.g. "maxInFlight must be a positive integer".
 */
export function resolveBreakerOptions(options: BreakerOptions): ResolvedBreakerOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  const checked = checkSettings(BREAKER_SETTINGS, options);
  // Derived from coolDownMs, which is checked by then.
  const retryAfterSeconds = checked.retryAfterSeconds ?? Math.max(1, Math.ceil(checked.coolDownMs / 1000));
  return Object.freeze({ ...checked, retryAfterSeconds, sample: checked.sample! });
}
