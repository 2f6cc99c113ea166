/**
 * A polite HTTP client for EDGAR, on Node's built-in `fetch` (no dependency). Every request
 * carries the declared User-Agent and `Accept-Encoding: gzip, deflate` and waits its turn at the
 * shared {@link RateGate} (SEC, "Accessing EDGAR Data": "declare your user agent", at most 10
 * requests per second, "use compression"); answers are judged by {@link judgeResponse} and retried
 * a bounded number of times. A download goes to a hidden temporary file beside its target and is
 * renamed only when complete, so a file under its EDGAR name is always whole.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, utimes } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RateGate, Sleep } from './rate-gate.js';
import { urlOf, type EdgarLocation } from './edgar-paths.js';
import { backoffMs, judgeResponse } from './retry-policy.js';

/** What the client needs; {@link resolveFetchOptions} fills these from the command's options. */
export interface EdgarClientOptions {
  /** The declared User-Agent, e.g. `Acme Research ops@acme.example`. */
  userAgent: string;
  /** Replaces both EDGAR origins (tests, mirrors); undefined for EDGAR itself. */
  baseUrl: string | undefined;
  /** The shared pace of requests. */
  gate: RateGate;
  /** Retries after the first attempt. */
  retries: number;
  /** First back-off before jitter, ms; doubles each retry up to `backoffCapMs`. */
  backoffBaseMs: number;
  /** Longest back-off, ms. */
  backoffCapMs: number;
  /** A response that sends nothing for this long is abandoned and retried, ms. */
  idleTimeoutMs: number;
  now: () => number;
  sleep: Sleep;
  /** A number in [0, 1), for jitter. */
  random: () => number;
  /** Stops everything: waits, requests and downloads under way. */
  signal: AbortSignal | undefined;
  /** Told of every request, retry and body chunk (progress line, logs, tests). */
  observe: (event: ClientEvent) => void;
}

/** What the client reports as it works. */
export type ClientEvent =
  | { readonly type: 'request'; readonly url: string; readonly attempt: number }
  | { readonly type: 'retry'; readonly url: string; readonly attempt: number; readonly reason: string; readonly waitMs: number; readonly pausesAll: boolean }
  | { readonly type: 'bytes'; readonly count: number };

/** How one document went. */
export type Transfer =
  | { readonly status: 'fetched'; readonly bytes: number }
  | { readonly status: 'missing'; readonly url: string }
  | { readonly status: 'failed'; readonly url: string; readonly reason: string; readonly attempts: number };

/** SEC refused the declared User-Agent; no request can succeed, so the run stops. */
export class UserAgentRefusedError extends Error {}

/** The output folder cannot be written (full disk, no permission, a file where a folder must be); the run stops. */
export class StorageError extends Error {}

/** The largest page {@link EdgarClient.text} keeps in memory, bytes (SEC's catalog pages are under 1 MB). */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;

/** Checks a complete temporary file before it takes its EDGAR name; throws to refuse it. */
export type Validate = (file: string) => Promise<void>;

/** Talks to EDGAR (or the `--base-url` standing in for it) for one run. */
export class EdgarClient {
  readonly #o: EdgarClientOptions;
  readonly #headers: Record<string, string>;

  constructor(options: EdgarClientOptions) {
    this.#o = options;
    this.#headers = { 'user-agent': options.userAgent, 'accept-encoding': 'gzip, deflate' };
  }

  /** The URL of a location (after `--base-url`). */
  url(location: EdgarLocation): string {
    return urlOf(location, this.#o.baseUrl);
  }

  /**
   * Downloads a document to `file` (created with its folders), through a temporary file.
   *
   * @param validate - checks the complete download before it is renamed; a refusal fails the document.
   * @throws the abort reason when the run is stopped; {@link UserAgentRefusedError};
   *   {@link StorageError} when the file cannot be written.
   */
  async download(location: EdgarLocation, file: string, validate?: Validate): Promise<Transfer> {
    const temp = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.part`);
    await storage(file, () => mkdir(dirname(file), { recursive: true }));
    try {
      const result = await this.#exchange(location, async (body, touch) => {
        let bytes = 0;
        const counter = new Transform({
          transform: (chunk: Buffer, _encoding, done) => {
            bytes += chunk.length;
            touch();
            this.#o.observe({ type: 'bytes', count: chunk.length });
            done(null, chunk);
          },
        });
        // A write error is the disk's fault, not EDGAR's: it stops the run instead of a retry. A
        // connection that fails mid-body also reaches the sink (pipeline destroys it with that
        // error, and Node 24 emits it there), so only an error the body did not raise is the disk's.
        let writeError: Error | undefined;
        let readError: unknown;
        body.once('error', (error) => { readError = error; });
        const sink = createWriteStream(temp).once('error', (error) => { writeError = error; });
        try {
          await pipeline(body, counter, sink);
        } catch (error) {
          if (writeError !== undefined && writeError !== readError && writeError !== error) throw new StorageError(`cannot write ${file}: ${writeError.message}`);
          throw error;
        }
        return bytes;
      });
      if (result.status !== 'ok') return result;
      try {
        await validate?.(temp);
      } catch (error) {
        return { status: 'failed', url: this.url(location), reason: `unusable answer: ${(error as Error).message}`, attempts: result.attempts };
      }
      // The mtime says when it was fetched, on the run's clock: the refresh rule reads it.
      const at = new Date(this.#o.now());
      await storage(file, async () => {
        await utimes(temp, at, at);
        await rename(temp, file);
      });
      return { status: 'fetched', bytes: result.value };
    } finally {
      await rm(temp, { force: true }).catch(() => {});
    }
  }

  /**
   * Reads a page into memory (a data-set catalog page), with the same pace and retries.
   *
   * @throws the abort reason when the run is stopped; {@link UserAgentRefusedError}.
   */
  async text(location: EdgarLocation): Promise<{ readonly status: 'ok'; readonly text: string } | Exclude<Transfer, { status: 'fetched' }>> {
    const result = await this.#exchange(location, async (body, touch) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body) {
        touch();
        size += (chunk as Buffer).length;
        if (size > MAX_PAGE_BYTES) throw new Error(`page larger than ${MAX_PAGE_BYTES} bytes`);
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    });
    return result.status === 'ok' ? { status: 'ok', text: result.value } : result;
  }

  /** One document, with retries: `consume` reads a 2xx body; anything it throws is a failed attempt. */
  async #exchange<T>(
    location: EdgarLocation,
    consume: (body: Readable, touch: () => void) => Promise<T>,
  ): Promise<{ status: 'ok'; value: T; attempts: number } | Exclude<Transfer, { status: 'fetched' }>> {
    const o = this.#o;
    const url = this.url(location);
    for (let attempt = 1; ; attempt++) {
      await o.gate.acquire(o.signal);
      o.observe({ type: 'request', url, attempt });
      const idle = new AbortController();
      const timer = setTimeout(() => idle.abort(new Error(`no data for ${o.idleTimeoutMs} ms`)), o.idleTimeoutMs);
      const touch = (): void => { timer.refresh(); };
      let reason: string;
      let pauseAllMs: number | null = null;
      try {
        const signal = o.signal ? AbortSignal.any([o.signal, idle.signal]) : idle.signal;
        const response = await fetch(url, { headers: this.#headers, signal, redirect: 'follow' });
        const body403 = response.status === 403 ? await readHead(response, 4096) : '';
        const verdict = judgeResponse(response.status, response.headers.get('retry-after'), body403, o.now());
        if (verdict.kind === 'ok') {
          const body = response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream) : Readable.from([]);
          return { status: 'ok', value: await consume(body, touch), attempts: attempt };
        }
        await response.body?.cancel().catch(() => {});
        if (verdict.kind === 'missing') return { status: 'missing', url };
        if (verdict.kind === 'refused') throw new UserAgentRefusedError(verdict.reason);
        if (verdict.kind === 'failed') return { status: 'failed', url, reason: verdict.reason, attempts: attempt };
        reason = verdict.reason;
        pauseAllMs = verdict.pauseAllMs;
      } catch (error) {
        if (o.signal?.aborted) throw o.signal.reason;
        if (error instanceof UserAgentRefusedError || error instanceof StorageError) throw error;
        reason = idle.signal.aborted ? String((idle.signal.reason as Error).message) : describeNetworkError(error);
      } finally {
        clearTimeout(timer);
      }
      if (attempt > o.retries) return { status: 'failed', url, reason: `${reason} (gave up after ${attempt} attempts)`, attempts: attempt };
      const waitMs = pauseAllMs ?? backoffMs(attempt, o.backoffBaseMs, o.backoffCapMs, o.random());
      o.observe({ type: 'retry', url, attempt, reason, waitMs, pausesAll: pauseAllMs !== null });
      // A pause holds every request (EDGAR asked us to slow down); a back-off only this one.
      if (pauseAllMs !== null) o.gate.pauseUntil(o.now() + pauseAllMs);
      else await o.sleep(waitMs, o.signal);
    }
  }
}

/** The first `limit` bytes of a body, as text; the rest is not read. */
async function readHead(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** Runs a filesystem step; its failure becomes a {@link StorageError} naming the file. */
async function storage<T>(file: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new StorageError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** A dropped connection, a reset, a refused connection or a truncated body, in a few words. */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const message = cause?.message ?? (error as Error).message ?? String(error);
  return `connection failed: ${code ? `${code} ` : ''}${message}`.trim();
}
