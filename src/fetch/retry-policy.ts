/**
 * What to do with each answer from EDGAR, and how long to wait before trying again.
 *
 * - 200: keep the body. 404 and 410: EDGAR does not have the document; counted, never retried.
 * - 429 and 5xx: retried with exponential back-off and jitter, or after `Retry-After` when EDGAR
 *   gives one (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).
 * - 403 with SEC's "Request Rate Threshold Exceeded" page: SEC blocks a client over the fair-access
 *   rate and lifts the block once its rate "has dropped below the threshold for 10 minutes"
 *   (SEC, Website Privacy and Security Policy, https://www.sec.gov/privacy.htm#security), so every
 *   request waits {@link RATE_THRESHOLD_PAUSE_MS} and the request is retried.
 * - 403 with SEC's page for "undeclared automated tools": SEC refused the declared User-Agent;
 *   retrying cannot help, the run stops.
 * - Any other status: not retried; the document is counted as failed.
 */

/** How long SEC keeps a client blocked after it passed the rate threshold, ms. */
export const RATE_THRESHOLD_PAUSE_MS = 10 * 60_000;

/** The verdict on one response. */
export type Verdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'retry'; readonly pauseAllMs: number | null; readonly reason: string }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'failed'; readonly reason: string };

/** Answers that say "try again later". */
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

/**
 * Judges a response.
 *
 * @param status - the HTTP status.
 * @param retryAfter - the `Retry-After` field, if any.
 * @param body403 - the first KB of a 403's body (its page says why), else ''.
 * @param now - the clock, ms since the epoch (to read an HTTP-date `Retry-After`).
 */
export function judgeResponse(status: number, retryAfter: string | null, body403: string, now: number): Verdict {
  if (status >= 200 && status < 300) return { kind: 'ok' };
  if (status === 404 || status === 410) return { kind: 'missing' };
  if (RETRYABLE.has(status)) {
    const wait = parseRetryAfter(retryAfter, now);
    return { kind: 'retry', pauseAllMs: wait ?? null, reason: `HTTP ${status}${wait === undefined ? '' : `, Retry-After ${Math.ceil(wait / 1000)} s`}` };
  }
  if (status === 403 && /Request Rate Threshold Exceeded/i.test(body403)) {
    return { kind: 'retry', pauseAllMs: RATE_THRESHOLD_PAUSE_MS, reason: 'HTTP 403, SEC request rate threshold exceeded' };
  }
  if (status === 403 && /undeclared automated tool/i.test(body403)) {
    return { kind: 'refused', reason: 'SEC refused the User-Agent as an undeclared automated tool: declare a company or name and a contact email with --user-agent' };
  }
  return { kind: 'failed', reason: `HTTP ${status}` };
}

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3).
 *
 * @param value - delay-seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`).
 * @param now - the clock, ms since the epoch.
 * @returns the wait in ms (0 for a date in the past), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The back-off before retry number `attempt`: exponential, capped, with "equal jitter" (half
 * the delay fixed, half random), so that clients that failed together do not retry together
 * and no retry comes too soon (M. Brooker, "Exponential Backoff And Jitter", AWS Architecture
 * Blog, 2015).
 *
 * @param attempt - 1 for the first retry.
 * @param baseMs - the first delay before jitter.
 * @param capMs - the largest delay.
 * @param random - a number in [0, 1).
 * @returns the delay in ms.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: number): number {
  const delay = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(delay / 2 + (delay / 2) * random);
}
