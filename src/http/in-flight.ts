/**
 * Requests in flight, as the breaker reads them (docs/api.md §8): the connections whose answers
 * the process still holds. A response is held from the moment the handler has answered without
 * the socket taking every byte (a slow reader's, or one queued behind a pipelined response)
 * until its `close`, or until its connection closes, whichever comes first; a connection counts
 * once however many it holds. Answers queued behind another on one connection cannot be sent
 * before its client takes that one: they are that client's backlog, not load on the process
 * (the connection layer bounds them), and counted one by one, two clients that pipelined 3,000
 * requests each and read nothing held the breaker open for everyone.
 *
 * Why per connection: Node (20 at least) never emits `close` on a response that is still queued
 * behind another on a socket that dies (`abortIncoming` in lib/_http_server.js destroys the
 * requests, not the queued responses). Counting per response alone leaked one for each, and a
 * few thousand pipelined requests on connections that hang up kept the breaker open for good.
 * The connection's own `close` always comes, so it releases whatever its responses still hold.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What one connection holds. */
interface ConnectionHold {
  /** Responses on this connection counted and not yet released. */
  held: number;
  /** Whether the connection has closed (everything it held was released then). */
  closed: boolean;
}

/** The count of responses in flight, kept per connection. */
export class InFlight {
  #count = 0;
  /** Holds by connection; an entry exists only while a connection has held something. */
  readonly #holds = new WeakMap<Socket, ConnectionHold>();

  /** Connections whose responses the process holds now: 0 or more. */
  get count(): number {
    return this.#count;
  }

  /**
   * Holds a response the socket has not taken whole, until its `close` or its connection's; its
   * connection counts in flight while it holds any.
   * Call once per response, after the handler has written what it will write.
   *
   * @param req - the request; its `socket` is the connection (a queued response has no socket yet).
   * @param res - the response.
   */
  hold(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    // A connection already destroyed frees its responses with it (and its 'close' may have passed).
    if (socket.destroyed) return;
    let hold = this.#holds.get(socket);
    if (hold === undefined) {
      const created: ConnectionHold = { held: 0, closed: false };
      hold = created;
      this.#holds.set(socket, created);
      socket.once('close', () => {
        created.closed = true;
        if (created.held > 0) this.#count--;
        created.held = 0;
        this.#holds.delete(socket);
      });
    }
    const entry = hold;
    if (entry.held++ === 0) this.#count++;
    res.once('close', () => {
      if (entry.closed) return;
      if (--entry.held === 0) this.#count--;
    });
  }
}
