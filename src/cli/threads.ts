/**
 * `serve --workers N` as threads (the default `--worker-mode threads`; docs/api.md §11, §17): one
 * process whose main thread loads each version once into shared memory and hands it to N request
 * threads (thread-main.ts), each running the handler on its own descriptor of one listening
 * socket (socket-copies.ts); the kernel hands each connection to one of them. The main thread
 * serves no requests: without Redis it holds every key's buckets and answers the threads over
 * their message ports (ipc-store.ts), so the limits stay exact; it watches `CURRENT` and reloads
 * on SIGHUP, posting each new version to every thread (one reference swap each; the old version's
 * memory goes back when every thread's last request on it has ended); it relays SIGHUP, SIGUSR2,
 * SIGTERM and SIGINT; replaces a thread that dies after it served and stops (exit 1) when one
 * dies before; and with `--metrics-port` serves the threads' metrics summed, with the process's
 * own figures (CPU, memory) counted once.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { Limiter } from '../guard/limiter.js';
import { answerLimits } from '../guard/ipc-store.js';
import { Reloader } from '../data/reloader.js';
import { loadSnapshot, type SnapshotIndex } from '../data/snapshot-index.js';
import { packSnapshot } from '../data/snapshot-share.js';
import { shareLoadedVersions } from '../data/shared-memory.js';
import { releaseOldVersionSoon } from '../data/release.js';
import { describeSnapshot } from '../data/snapshot-source.js';
import { CURRENT_FILE } from '../data/snapshot-format.js';
import { readCurrentVersion } from '../data/snapshot-reader.js';
import { PACKAGE_VERSION } from '../version.js';
import type { LogSink } from '../ops/logger.js';
import type { ServeConfig } from './serve-config.js';
import { logFirstScreen } from './first-screen.js';
import { HANDLER_SETTINGS, LISTEN_SETTINGS, LOOPBACK, SERVE_SETTINGS } from '../settings/table.js';
import { SocketCopies } from './socket-copies.js';
import { WORKER_READY } from './cluster.js';
import type { ThreadData, ToThread } from './thread-messages.js';
import { startThreadMetrics } from './thread-metrics.js';
import type { MetricsListener } from '../ops/metrics-server.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const THREAD_MAIN = new URL(`./thread-main${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/**
 * A thread running thread-main: from dist/, the file itself; from src/ (tests, `tsx`), through
 * tsx's loader, which a thread does not take from the process's `--import` on Node 20.
 */
function newThread(workerData: ThreadData): Worker {
  if (!FROM_SOURCE) return new Worker(THREAD_MAIN, { workerData });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(THREAD_MAIN.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/** One running thread. */
export interface ServingThread {
  readonly id: number;
  readonly worker: Worker;
  serving: boolean;
}

/**
 * Runs the main thread until SIGTERM or SIGINT.
 *
 * @param config - the serve settings (`workers` > 1).
 * @param argv - the words after `serve`, which every thread reads again.
 * @param log - the operational log (the threads' lines carry a `worker` field; the main thread's none).
 * @returns the exit code: 0 after a drain, 1 when the version, the socket or a thread could not start.
 */
export async function runThreads(config: ServeConfig, argv: readonly string[], log: LogSink): Promise<number> {
  const count = config.workers ?? SERVE_SETTINGS.workers.default;
  // Every version this thread loads goes to memory the threads share.
  shareLoadedVersions();
  const limiter = config.redisUrl === undefined ? new Limiter() : undefined;
  const dir = config.snapshotsDir ?? HANDLER_SETTINGS.snapshotsDir.default;
  const watchIntervalMs = config.watchIntervalMs ?? HANDLER_SETTINGS.watchIntervalMs.default;
  const rowsIn = config.rowsIn ?? HANDLER_SETTINGS.rowsIn.default;
  // The main thread serves no page: each thread keeps its own (thread-main.ts), so this keeps none.
  const snapshots = new Reloader<SnapshotIndex>({
    name: 'snapshot', load: () => loadSnapshot(dir, undefined, { rowsIn, keptPageBytes: 0 }), watchPath: join(dir, CURRENT_FILE), watchIntervalMs, log,
    describe: (s) => describeSnapshot(s, dir),
    unchanged: async (s) => (await readCurrentVersion(dir).catch(() => undefined)) === s.version,
  });
  let socket: SocketCopies;
  let fds: number[];
  try {
    await snapshots.start();
    ({ socket, fds } = await SocketCopies.open(config.port ?? LISTEN_SETTINGS.port.default, config.host ?? LISTEN_SETTINGS.host.default, count));
  } catch (error) {
    log(`equity-facts serve: cannot start: ${(error as Error).message}`, 'error');
    await limiter?.close();
    return 1;
  }
  const threads = new Map<number, ServingThread>();
  const post = (message: ToThread): void => { for (const thread of threads.values()) thread.worker.postMessage(message); };
  // Packed when posted, not kept: the packed form's objects would double the main thread's heap.
  snapshots.on('reloaded', (value: SnapshotIndex) => {
    post({ eqf: 'snapshot', snapshot: packSnapshot(value) });
    releaseOldVersionSoon();
  });
  if (watchIntervalMs > 0) snapshots.watch();

  let nextId = 1;
  let stopping = false;
  let announced = false;
  let exitCode = 0;
  let metricsListener: MetricsListener | undefined;
  return new Promise<number>((resolve) => {
    const finish = (): void => {
      snapshots.close();
      socket.close();
      void Promise.resolve(metricsListener?.close()).then(() => limiter?.close()).then(() => resolve(exitCode));
    };
    const start = (fd: number, snapshot = packSnapshot(snapshots.current!)): void => {
      const id = nextId++;
      const data: ThreadData = { argv, id, fd, snapshot };
      const worker = newThread(data);
      const thread: ServingThread = { id, worker, serving: false };
      threads.set(id, thread);
      if (limiter) answerLimits(limiter, { on: (event, listener) => worker.on(event, listener), isConnected: () => threads.has(id), send: (message) => worker.postMessage(message) });
      worker.on('message', (message: unknown) => {
        if ((message as { eqf?: unknown } | null)?.eqf === WORKER_READY.eqf) ready(thread);
      });
      worker.on('error', (error) => log(`worker ${id} failed: ${error.message}`, 'error'));
      worker.on('exit', (code) => exited(thread, code));
    };
    const ready = (thread: ServingThread): void => {
      thread.serving = true;
      log(`worker ${thread.id} (thread ${thread.worker.threadId}) serving`);
      if (announced || [...threads.values()].filter((t) => t.serving).length < count) return;
      announced = true;
      // What the load and the packing left goes back (release.ts), as after a reload.
      releaseOldVersionSoon();
      const { address, port } = socket.address;
      const host = address === '' ? LOOPBACK : address.includes(':') ? `[${address}]` : address;
      const where = limiter ? 'limits held by the main thread' : 'limits shared through Redis';
      void startThreadMetrics(config, log, threads, limiter).then((listener) => {
        metricsListener = listener;
        log(`equity-facts ${PACKAGE_VERSION} serving on http://${host}:${port} (pid ${process.pid}) with ${count} workers, ${where} (threads sharing one copy of the snapshot)`);
        return logFirstScreen(log, `http://${host}:${port}`, config.keysFile);
      }, (error: Error) => {
        log(`equity-facts serve: cannot start the metrics listener: ${error.message}`, 'error');
        stop('metrics', 1);
      });
    };
    const exited = (thread: ServingThread, code: number): void => {
      threads.delete(thread.id);
      if (stopping) {
        if (threads.size === 0) finish();
        return;
      }
      if (!thread.serving) {
        log(`worker ${thread.id} exited with code ${code} before it served; stopping`, 'error');
        stop('start-up failure', 1);
        return;
      }
      log(`worker ${thread.id} exited with code ${code}; starting another`, 'warn');
      socket.another().then((fd) => start(fd), (error: Error) => {
        log(`cannot start another worker: ${error.message}; stopping`, 'error');
        stop('replacement failure', 1);
      });
    };
    const stop = (why: string, code: number): void => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      if (code === 0) log(`${why}: draining ${threads.size} workers`);
      if (threads.size === 0) return finish();
      // A thread still starting has no signal handlers yet: it is ended.
      for (const thread of threads.values()) {
        if (thread.serving) thread.worker.postMessage({ eqf: 'signal', signal: 'SIGTERM' } satisfies ToThread);
        else void thread.worker.terminate();
      }
    };
    const relay = (signal: 'SIGHUP' | 'SIGUSR2' | 'SIGTERM' | 'SIGINT'): void => {
      post({ eqf: 'signal', signal });
      log(`${signal}: relayed to ${threads.size} workers`);
    };
    process.on('SIGHUP', () => {
      void snapshots.reload();
      relay('SIGHUP');
    });
    process.on('SIGUSR2', () => relay('SIGUSR2'));
    // The first SIGTERM or SIGINT drains the threads; a later one is relayed, so that it ends
    // their shutdown delay or closes what they have left, as it does for a single process.
    const onStopSignal = (signal: 'SIGTERM' | 'SIGINT'): void => {
      if (stopping) relay(signal);
      else stop(signal, 0);
    };
    process.on('SIGTERM', () => onStopSignal('SIGTERM'));
    process.on('SIGINT', () => onStopSignal('SIGINT'));
    const first = packSnapshot(snapshots.current!);
    for (const fd of fds) start(fd, first);
  });
}
