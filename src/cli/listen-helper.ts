/**
 * A short-lived child process that gives `serve --workers` (threads) descriptors of one listening
 * socket. Node can neither duplicate a descriptor nor share a socket between threads without
 * one (`reusePort` is missing before Node 22.12), and a thread that closes or dies closes the
 * descriptor it listens on. So each thread listens on a descriptor of its own: this child binds
 * the socket and sends it back over IPC as many times as asked, each arriving in the parent as a
 * new descriptor of the same socket (SCM_RIGHTS), or sends back a descriptor the parent gave
 * it. It never accepts a connection; it exits when the parent disconnects.
 */
import { createServer, type Server } from 'node:net';

/** What the parent asks. */
export type HelperRequest =
  | { readonly op: 'listen'; readonly port: number; readonly host: string | undefined; readonly count: number }
  | { readonly op: 'copy' };

/** What the child answers (each `socket` message carries a descriptor). */
export type HelperAnswer =
  | { readonly op: 'socket'; readonly address: string; readonly family: string; readonly port: number }
  | { readonly op: 'error'; readonly message: string };

const send = (answer: HelperAnswer, handle?: unknown): Promise<void> => new Promise((resolve, reject) => {
  process.send!(answer, handle as Server, {}, (error) => (error ? reject(error) : resolve()));
});

process.on('message', (request: HelperRequest, handle: { close(): void } | undefined) => {
  if (request.op === 'copy' && handle !== undefined) {
    void send({ op: 'socket', address: '', family: '', port: 0 }, handle).finally(() => handle.close());
    return;
  }
  if (request.op !== 'listen') return;
  const server = createServer();
  server.once('error', (error) => void send({ op: 'error', message: error.message }));
  server.listen(request.port, request.host, () => {
    void (async () => {
      const { address, family, port } = server.address() as { address: string; family: string; port: number };
      // The raw handle: the parent gets a descriptor, not a server accepting in its own thread.
      const raw = (server as unknown as { _handle: unknown })._handle;
      for (let i = 0; i < request.count; i++) await send({ op: 'socket', address, family, port }, raw);
      server.close();
    })().catch((error: Error) => send({ op: 'error', message: error.message }));
  });
});
process.on('disconnect', () => process.exit(0));
