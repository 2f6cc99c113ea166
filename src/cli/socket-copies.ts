/**
 * Descriptors of one listening socket for `serve --workers` threads (see listen-helper.ts): one
 * per thread, each closed by its thread alone (when it stops, or with it when it dies), and a
 * spare held here that keeps the socket open and from which a replacement thread's descriptor is
 * copied. The main thread never listens on any of them, so it accepts no connection itself.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { HelperAnswer, HelperRequest } from './listen-helper.js';

/** A raw socket handle as the IPC channel delivers it. */
interface RawHandle {
  readonly fd: number;
  close(): void;
}

const HELPER = fileURLToPath(new URL(`./listen-helper${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

/** The socket the threads accept on. */
export class SocketCopies {
  /** Handles whose descriptors were given to threads: kept (never closed here: the thread closes it). */
  readonly #given: RawHandle[] = [];

  readonly #spare: RawHandle;

  private constructor(readonly address: { readonly address: string; readonly family: string; readonly port: number }, spare: RawHandle) {
    this.#spare = spare;
  }

  /**
   * Binds `host:port` (port 0: any free one) and returns `count` descriptors plus the spare.
   *
   * @throws Error with the listen error's message (EADDRINUSE, EACCES…).
   */
  static async open(port: number, host: string | undefined, count: number): Promise<{ socket: SocketCopies; fds: number[] }> {
    const answers = await ask({ op: 'listen', port, host, count: count + 1 }, count + 1);
    const [first] = answers;
    const socket = new SocketCopies({ address: first!.answer.address, family: first!.answer.family, port: first!.answer.port }, answers[count]!.handle);
    return { socket, fds: answers.slice(0, count).map(({ handle }) => socket.#give(handle)) };
  }

  /** A new descriptor of the socket, for a replacement thread. */
  async another(): Promise<number> {
    const [copy] = await ask({ op: 'copy' }, 1, this.#spare);
    return this.#give(copy!.handle);
  }

  /** Closes the spare: call after every thread stopped (the socket is then closed). */
  close(): void {
    this.#spare.close();
  }

  #give(handle: RawHandle): number {
    this.#given.push(handle);
    return handle.fd;
  }
}

/** Forks the helper, asks once, collects `count` descriptors, then lets it exit. */
async function ask(request: HelperRequest, count: number, handle?: RawHandle): Promise<{ answer: HelperAnswer & { op: 'socket' }; handle: RawHandle }[]> {
  const child: ChildProcess = fork(HELPER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const got: { answer: HelperAnswer & { op: 'socket' }; handle: RawHandle }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      child.on('message', (answer: HelperAnswer, received: RawHandle | undefined) => {
        if (answer.op === 'error') reject(new Error(answer.message));
        else if (received !== undefined) got.push({ answer, handle: received });
        if (got.length === count) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the listening helper exited with code ${code}`)));
    });
    child.send(request, handle as never);
    await done;
    return got;
  } finally {
    child.disconnect();
    if (child.exitCode === null) await once(child, 'exit');
  }
}
