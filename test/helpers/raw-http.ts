/**
 * Raw HTTP/1.1 over `node:net` for tests that attack the connection itself: pipelining,
 * aborts, malformed bytes, slow headers. A small response reader checks that every answer is
 * a complete response (status line, header fields, a body of exactly Content-Length bytes).
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** One response as read off the wire. */
export interface RawResponse {
  status: number;
  /** Header fields, names lower-case; a repeated field keeps its last value. */
  headers: Record<string, string>;
  /** The body bytes as latin1 text. */
  body: string;
}

/** Opens a connection to a `http://host:port` base. */
export async function rawConnect(base: string): Promise<Socket> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  return socket;
}

/**
 * Reads responses from a byte stream: `push` text as it arrives, then take whole responses.
 * Throws on anything that is not a well-formed response with a Content-Length.
 */
export class ResponseReader {
  #buffer = '';
  readonly responses: RawResponse[] = [];

  /** Adds bytes (latin1) and parses every complete response they finish. */
  push(chunk: string): void {
    this.#buffer += chunk;
    for (;;) {
      const end = this.#buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const lines = this.#buffer.slice(0, end).split('\r\n');
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0]!);
      if (!match) throw new Error(`not a status line: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon <= 0) throw new Error(`not a header field: ${JSON.stringify(line.slice(0, 80))}`);
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(match[1]);
      const length = headers['content-length'];
      if (length === undefined || !/^\d+$/.test(length)) throw new Error(`response ${status} has no Content-Length`);
      if (this.#buffer.length < end + 4 + Number(length)) return;
      this.responses.push({ status, headers, body: this.#buffer.slice(end + 4, end + 4 + Number(length)) });
      this.#buffer = this.#buffer.slice(end + 4 + Number(length));
    }
  }

  /** Bytes received after the last complete response. */
  get rest(): string {
    return this.#buffer;
  }
}

/** Everything a connection received until it closed, parsed, and how it closed. */
export interface Exchange {
  responses: RawResponse[];
  /** Bytes after the last complete response (should be empty). */
  rest: string;
  /** The socket error that ended it (e.g. ECONNRESET), if any. */
  error: string | undefined;
}

/**
 * Writes `payload` (and half-closes when `end`), then reads until the server closes the
 * connection.
 */
export async function exchange(base: string, payload: string | Buffer, options: { end?: boolean } = {}): Promise<Exchange> {
  const socket = await rawConnect(base);
  return readUntilClosed(socket, () => (options.end ? socket.end(payload) : socket.write(payload)));
}

/** Reads a connection until it closes; `start` runs once the listeners are in place. */
export function readUntilClosed(socket: Socket, start: () => void = () => {}): Promise<Exchange> {
  const reader = new ResponseReader();
  let error: string | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => reader.push(chunk));
  socket.on('error', (err: NodeJS.ErrnoException) => { error = err.code ?? err.message; });
  // Not events.once: it rejects on the 'error' (ECONNRESET, EPIPE) that comes before 'close'.
  const closed = new Promise<Exchange>((resolve) => socket.once('close', () => resolve({ responses: reader.responses, rest: reader.rest, error })));
  start();
  return closed;
}

/** A GET request's bytes. */
export const get = (path: string, headers: Record<string, string> = {}): string =>
  `GET ${path} HTTP/1.1\r\nHost: test\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;

/** Parses a body as JSON (decoding gzip or br first), asserting nothing; undefined when it is not JSON. */
export function jsonBody(response: RawResponse): any {
  try {
    let bytes = Buffer.from(response.body, 'latin1');
    const encoding = response.headers['content-encoding'];
    if (encoding === 'br') bytes = brotliDecompressSync(bytes);
    else if (encoding === 'gzip') bytes = gunzipSync(bytes);
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
