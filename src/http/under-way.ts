/**
 * Whether a connection has a response under way: one being written, or queued behind it for a
 * pipelined request. Node keeps the response being written in `socket._httpMessage` and
 * assigns each queued one to it in turn when the one before finishes; it is null only between
 * requests. Node's own default answer to a parser error (lib/_http_server.js socketOnError)
 * reads the same field; nothing public says as much.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The socket field Node keeps the response being written in. */
type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Whether a response is being written or queued on the connection.
 *
 * @param socket - a connection of a `node:http` server.
 */
export function hasResponseUnderWay(socket: Socket): boolean {
  const underWay = (socket as HttpSocket)._httpMessage;
  return underWay !== null && underWay !== undefined;
}

/**
 * Runs `then` once no response is under way or queued on the connection, so that what it
 * writes lands after the complete responses to the requests before it, never inside one.
 *
 * @param socket - a connection of a `node:http` server.
 * @param then - called once: at once when nothing is under way, else after the last response
 *   under way finishes; never when one never finishes (its connection closes instead).
 */
export function afterResponsesUnderWay(socket: Socket, then: () => void): void {
  const underWay = (socket as HttpSocket)._httpMessage;
  if (underWay === null || underWay === undefined) return then();
  // Registered after Node's own 'finish' listener, which assigns the next queued response first.
  underWay.once('finish', () => afterResponsesUnderWay(socket, then));
}
