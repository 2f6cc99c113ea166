/**
 * What the operators' eyes (the access log and the metrics, docs/api.md §12) learn of a request.
 * The pipeline fills a {@link RequestNote} as it goes, only when some observer is configured;
 * the responder then tells the observers of the response. With no observer the pipeline makes
 * no note, and the request path pays nothing for them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../errors.js';
import type { ListQuery } from '../http/params.js';
import type { Route } from '../routes.js';

/** What the pipeline learnt of one request, step by step; fields stay unset where it stopped earlier. */
export interface RequestNote {
  /** The response's `X-Request-Id`. */
  readonly requestId: string;
  /** When the handler took the request, ms since the epoch (the handler's clock). */
  readonly time: number;
  /** When the handler took the request, `performance.now()` ms (for the duration). */
  readonly startedAt: number;
  /** The matched route. */
  route: Route | undefined;
  /** Id of the key that passed the key check (never the key). */
  keyId: string | undefined;
  /** That key's plan as the keys file names it. */
  plan: string | undefined;
  /** The query, once it passed the parameter checks (only recognised, valid values). */
  query: ListQuery | undefined;
}

/** Makes the note of a request just taken. */
export function newNote(requestId: string, time: number): RequestNote {
  return { requestId, time, startedAt: performance.now(), route: undefined, keyId: undefined, plan: undefined, query: undefined };
}

/** One observer of responses (the access log, the metrics). */
export interface ResponseObserver {
  /**
   * One response was handed to the socket.
   *
   * @param status - HTTP status sent.
   * @param bytes - body bytes sent (after compression; 0 for HEAD).
   * @param error - the error envelope's code, when it is one.
   * @param durationMs - from the handler taking the request to the response handed to the socket.
   */
  responded(req: IncomingMessage, note: RequestNote, status: number, bytes: number, error: ErrorCode | undefined, durationMs: number): void;
  /** Writes what it keeps of the responses told so far (an observer that writes later); called before the process stops. */
  flush?(): void;
}

/**
 * One observer that tells each of several, or undefined when there are none (so that the
 * pipeline can skip its notes entirely).
 */
export function combineObservers(observers: readonly (ResponseObserver | undefined)[]): ResponseObserver | undefined {
  const present = observers.filter((observer): observer is ResponseObserver => observer !== undefined);
  if (present.length <= 1) return present[0];
  return {
    responded(req, note, status, bytes, error, durationMs) {
      for (const observer of present) observer.responded(req, note, status, bytes, error, durationMs);
    },
    flush() {
      for (const observer of present) observer.flush?.();
    },
  };
}

/** Where the handler keeps a response's note while it is answered. */
export const NOTE: unique symbol = Symbol('equity-facts request note');

/** A response that carries its request's note. */
export type NotedResponse = ServerResponse & { [NOTE]?: RequestNote };
