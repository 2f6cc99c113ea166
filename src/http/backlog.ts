/**
 * What one connection may hold of answers its client has not taken. Node's server parses every
 * pipelined request of a read (up to 64 KiB, over a thousand small requests) before it pauses
 * the socket, and queues the answer to each in the process until the client takes the ones
 * before it: two clients that sent 3,000 requests each and read nothing held about 2,800
 * answers, and a hundred held 300 MB.
 *
 * So a connection whose unsent answers (bytes the socket has not handed to the kernel, and
 * answers queued behind the one being written) pass a high-water mark stops being read, and the
 * requests already parsed wait unanswered: each is answered when its response's turn on the
 * socket comes, that is, once the client has taken every answer before it. A connection with
 * more than {@link MAX_WAITING_REQUESTS} requests waiting is closed: its client is not reading,
 * and each waiting request still costs Node's request and response objects (about 1.6 KB).
 *
 * A connection that is closed has nothing more parsed: Node would parse the rest of the read it
 * is in, hand each request to the server, and on close abort each with an error whose stack it
 * formats. A hundred connections closed this way with 1,300 requests each in their read held the
 * event loop for 0.7 s (long enough to open the breaker) and 250 MB. What a client that reads
 * nothing costs is so bounded: its waiting requests (at most {@link MAX_WAITING_REQUESTS}, plus
 * the one that closes it), those whose answers are queued under the mark, and unsent bytes up to
 * the mark plus the answer that crossed it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Most requests a connection may have waiting behind unsent answers past the high-water mark;
 * one more closes it. A client reading its answers never has more than a few waiting: it takes
 * answers as fast as they are written, and the kernel's buffers (hundreds of KB to MBs) come
 * before the mark.
 */
export const MAX_WAITING_REQUESTS = 100;

/**
 * Node's fields of a server-side socket that this file reads or sets; nothing public says as
 * much. `_paused` is the flag lib/_http_server.js itself sets when it stops reading a connection
 * (parserOnIncoming) and clears when it reads again (socketOnDrain); while it is set, Node's own
 * `socket.resume()` calls (after each response) do nothing, and its parser is paused after the
 * read it is parsing. `parser` is that parser.
 */
type HttpSocket = Socket & {
  _paused?: boolean;
  parser?: HttpParser | null;
  _handle?: { writeQueueSize?: number } | null;
};

/**
 * Node's parser of a server-side connection, as this file uses it. `onIncoming` is the function
 * lib/_http_server.js sets on it (parserOnIncoming), which the parser calls when a request's
 * headers are complete; what it returns goes back to llhttp as the return of
 * `on_headers_complete`, where {@link STOP_PARSING} ends the parse of the read there (the value
 * Node itself returns for an upgrade).
 */
interface HttpParser {
  resume(): void;
  onIncoming?: (req: IncomingMessage, keepAlive: boolean) => number;
}

/** llhttp's `on_headers_complete` return that stops parsing what is left of the read (llhttp.h: upgrade). */
const STOP_PARSING = 2;

/** What {@link ConnectionBacklog.receive} did with a request. */
export type Receipt = 'answered' | 'waiting' | 'closed';

/** The unsent answers of one connection, and its requests waiting for them to be taken. */
export class ConnectionBacklog {
  readonly #socket: HttpSocket;
  readonly #highWaterBytes: number;
  readonly #onClose: () => void;
  /** Bytes of answers queued behind the response being written (Node holds them in each response). */
  #queuedBytes = 0;
  /** Requests received past the mark and not yet answered, in the order received. */
  readonly #waiting = new Set<IncomingMessage>();
  /** Whether this backlog stopped reading the connection (and so must read it again). */
  #paused = false;

  /**
   * @param socket - the connection.
   * @param highWaterBytes - the mark, bytes: the unsent answers past which requests wait.
   * @param onClose - called when too many requests waited and the connection was closed (for a log line).
   */
  constructor(socket: Socket, highWaterBytes: number, onClose: () => void) {
    this.#socket = socket;
    this.#highWaterBytes = highWaterBytes;
    this.#onClose = onClose;
    stopParsingOnceClosed(socket);
  }

  /** Bytes of answers the process holds for this connection: the socket's unsent ones and the queued ones. */
  get unsentBytes(): number {
    return this.#socket.writableLength + this.#queuedBytes;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Answers a request now, or makes it wait until its response's turn on the socket when the
   * connection's unsent answers are past the mark (or other requests wait before it, so that
   * answers are made in the order of the requests). Past {@link MAX_WAITING_REQUESTS} waiting,
   * closes the connection instead.
   *
   * @param req - the request.
   * @param res - its response.
   * @param answer - writes the answer (the handler, or the graceful stop's wrapper of it).
   */
  receive(req: IncomingMessage, res: ServerResponse, answer: RequestListener): Receipt {
    const socket = this.#socket;
    // A response that has the socket has every answer before it taken by the kernel: nothing to wait for.
    if (res.socket !== null || (this.#waiting.size === 0 && this.unsentBytes < this.#highWaterBytes)) {
      this.#answer(req, res, answer);
      return 'answered';
    }
    if (this.#waiting.size >= MAX_WAITING_REQUESTS) {
      socket.destroy();
      // None of them will be answered. When Node handles the close it aborts each request still
      // open with an error whose stack it formats (half of that abort's cost in a profile); one
      // destroyed already is passed over (a stream's destroy() does nothing the second time).
      for (const waiting of this.#waiting) waiting.destroy();
      this.#waiting.clear();
      req.destroy();
      this.#onClose();
      return 'closed';
    }
    this.#waiting.add(req);
    this.#pause();
    res.once('socket', () => {
      this.#waiting.delete(req);
      if (this.#waiting.size === 0) this.#resume();
      this.#answer(req, res, answer);
    });
    return 'waiting';
  }

  /** Answers, and counts what the answer left queued behind the response being written. */
  #answer(req: IncomingMessage, res: ServerResponse, answer: RequestListener): void {
    answer(req, res);
    if (res.socket !== null || res.destroyed) return;
    // Queued: its bytes move to the socket when its turn comes ('socket'), and count there then.
    const bytes = res.writableLength;
    if (bytes === 0) return;
    this.#queuedBytes += bytes;
    res.once('socket', () => { this.#queuedBytes -= bytes; });
  }

  /** Stops reading the connection as Node itself does (see {@link HttpSocket}). */
  #pause(): void {
    const socket = this.#socket;
    if (socket._paused === true) return;
    socket._paused = true;
    this.#paused = true;
    socket.pause();
  }

  /** Reads the connection again, when this backlog stopped it and Node has not resumed it since. */
  #resume(): void {
    const socket = this.#socket;
    if (!this.#paused) return;
    this.#paused = false;
    if (socket._paused !== true || socket.destroyed) return;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }
}

/**
 * Makes the connection's parser stop at the first request whose headers complete after the
 * connection was closed (destroyed): nothing can be written to it, so Node would only make the
 * request and its response, and abort them when the close is handled. Does nothing on a socket
 * without Node's parser (none is expected: `listen()`'s server makes one per connection before
 * its `connection` listeners run).
 *
 * @param socket - a connection of an http.Server, as its `connection` event gives it.
 */
export function stopParsingOnceClosed(socket: Socket): void {
  const parser = (socket as HttpSocket).parser;
  const onIncoming = parser?.onIncoming;
  if (parser == null || typeof onIncoming !== 'function') return;
  parser.onIncoming = (req, keepAlive) => (socket.destroyed ? STOP_PARSING : onIncoming(req, keepAlive));
}

/**
 * How much of what was written to a connection its client has taken, as two numbers that move
 * only when it takes some: bytes whose write completed (`bytesWritten` counts bytes buffered
 * too, `writableLength` the ones not completed), and bytes of the write under way that the
 * kernel has not accepted yet (libuv's write queue, which shrinks as a slow client reads a
 * large write).
 *
 * @param socket - a connection.
 */
export function takenMark(socket: Socket): { completed: number; queued: number } {
  return { completed: socket.bytesWritten - socket.writableLength, queued: (socket as HttpSocket)._handle?.writeQueueSize ?? 0 };
}
