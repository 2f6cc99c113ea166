/**
 * The one function that turns a key's token counts into a {@link LimitDecision}. Every store
 * builds its decisions here, so the same tokens give the same headers whichever store counted
 * them (this process, the cluster primary, or Redis's script).
 */
import type { Plan } from '../plans.js';
import type { LimitDecision } from './limiter-store.js';
import { DAY_WINDOW_MS, MINUTE_WINDOW_MS, bucketFigures, secondsUntil } from './token-bucket.js';

/**
 * A decision from the tokens the buckets hold after the request (before it, when refused).
 * When refused, the day bucket decides the code and the wait if it is empty: with both empty,
 * `rate_limited_day` and the day bucket's wait.
 *
 * @param allowed - whether the request passed.
 * @param minute - tokens in the minute bucket (after the take; before it when refused), may be fractional.
 * @param day - tokens in the day bucket, likewise.
 * @param plan - the key's plan: the capacities.
 */
export function limitDecision(allowed: boolean, minute: number, day: number, plan: Plan): LimitDecision {
  const minuteView = bucketFigures(minute, plan.perMinute, MINUTE_WINDOW_MS);
  const dayView = bucketFigures(day, plan.perDay, DAY_WINDOW_MS);
  if (allowed) return { allowed, minute: minuteView, day: dayView };
  const dayEmpty = day < 1;
  return {
    allowed,
    code: dayEmpty ? 'rate_limited_day' : 'rate_limited_minute',
    retryAfterSeconds: dayEmpty
      ? secondsUntil(day, 1, plan.perDay, DAY_WINDOW_MS)
      : secondsUntil(minute, 1, plan.perMinute, MINUTE_WINDOW_MS),
    minute: minuteView,
    day: dayView,
  };
}
