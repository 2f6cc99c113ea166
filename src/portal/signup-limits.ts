/**
 * The sign-up limits (docs/api.md §18): at most `perAddress` sign-ups from one client address in
 * any rolling hour, and at most `perDay` from all addresses in any rolling 24 hours. Over either,
 * the sign-up is refused with 429 and `Retry-After` (whole seconds until the oldest sign-up of the
 * window leaves it). Only sign-ups taken are remembered, so memory is bounded by `perDay`
 * timestamps whatever the number of addresses trying; an IPv6 client counts by its /64 (one
 * subscriber's usual allocation, RFC 6177 §3), so that rotating through its own addresses gives
 * it nothing.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { PortalError } from './portal-errors.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Limits on sign-ups; `take` records one or throws. */
export interface SignupLimits {
  /**
   * Counts a sign-up from `address` now, or refuses it.
   *
   * @param address - the client's address (after `--trust-proxy`), or undefined when unknown (one shared bucket).
   * @throws PortalError `signup_limited_address` or `signup_limited_day` with the seconds to wait.
   */
  take(address: string | undefined): void;
}

/**
 * The bucket an address counts in: an IPv4 address itself (also when IPv4-mapped), the first
 * four groups of an IPv6 address (its /64), or `unknown`.
 */
export function addressBucket(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Whole seconds from `nowMs` until `untilMs`, at least 1 (RFC 9110 §10.2.3 delay-seconds). */
const secondsUntil = (untilMs: number, nowMs: number): number => Math.max(1, Math.ceil((untilMs - nowMs) / 1000));

/**
 * @param perAddress - sign-ups one address may make in a rolling hour.
 * @param perDay - sign-ups of all addresses in a rolling 24 hours.
 * @param now - the clock, ms since the Unix epoch.
 */
export function createSignupLimits(perAddress: number, perDay: number, now: () => number): SignupLimits {
  const day: number[] = [];
  const byAddress = new Map<string, number[]>();
  let sweptAt = now();
  return {
    take(address) {
      const at = now();
      while (day.length > 0 && day[0]! <= at - DAY_MS) day.shift();
      if (at - sweptAt >= HOUR_MS) {
        sweptAt = at;
        for (const [bucket, times] of byAddress) if (times[times.length - 1]! <= at - HOUR_MS) byAddress.delete(bucket);
      }
      const bucket = addressBucket(address);
      const times = (byAddress.get(bucket) ?? []).filter((time) => time > at - HOUR_MS);
      if (times.length >= perAddress) throw new PortalError('signup_limited_address', undefined, secondsUntil(times[times.length - perAddress]! + HOUR_MS, at));
      if (day.length >= perDay) throw new PortalError('signup_limited_day', undefined, secondsUntil(day[day.length - perDay]! + DAY_MS, at));
      times.push(at);
      byAddress.set(bucket, times);
      day.push(at);
    },
  };
}
