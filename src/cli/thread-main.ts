/**
 * A `serve --workers N` request thread (threads.ts starts it): it serves the snapshot the main
 * thread loaded, rebuilt over the same shared memory (snapshot-share.ts), on its own descriptor
 * of the shared listening socket; asks the main thread for every limit decision unless Redis
 * holds the buckets; takes the signals the main thread relays; answers its metrics scrapes.
 * Its log lines carry its worker id.
 */
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { IpcStore, type IpcChannel } from '../guard/ipc-store.js';
import { createLogger } from '../ops/logger.js';
import { FedSnapshots } from '../data/snapshot-source.js';
import { unpackSnapshot } from '../data/snapshot-share.js';
import { releaseOldVersionSoon } from '../data/release.js';
import { readServeConfig, type ServeConfig } from './serve-config.js';
import { HANDLER_SETTINGS, SERVE_SETTINGS } from '../settings/table.js';
import { MIB } from '../data/row-file.js';
import { serveOne } from './serve-one.js';
import { WORKER_READY } from './cluster.js';
import { TEST_CRASH_VARIABLE, type ThreadData, type ToThread } from './thread-messages.js';

async function main(): Promise<number> {
  const port = parentPort!;
  const data = workerData as ThreadData;
  const config = readServeConfig(data.argv, process.env) as ServeConfig;
  const {
    workers: _workers, workerMode: _mode, accessLogTarget = SERVE_SETTINGS.accessLogTarget.default,
    shutdownDelayMs = SERVE_SETTINGS.shutdownDelayMs.default, logFormat = SERVE_SETTINGS.logFormat.default, ...options
  } = config;
  const log = createLogger({ format: logFormat, fields: { worker: data.id } });
  const signals = new EventEmitter();
  const keptPageBytes = (config.keptPagesMib ?? HANDLER_SETTINGS.keptPagesMib.default) * MIB;
  const source = new FedSnapshots(unpackSnapshot(data.snapshot, keptPageBytes));
  // `workerData` lives as long as the thread: without this, the first version's memory would
  // stay held after a reload.
  delete (data as { snapshot?: unknown }).snapshot;
  options.snapshotSource = source;
  if (options.redisUrl === undefined) options.limiterStore = new IpcStore(portChannel());
  if (options.metricsPort !== undefined) options.metrics = true;
  delete options.metricsPort;
  const crashOnHangup = process.env[TEST_CRASH_VARIABLE] === String(data.id);
  let unit: Awaited<ReturnType<typeof serveOne>> | undefined;
  port.on('message', (message: ToThread) => {
    switch (message.eqf) {
      case 'signal':
        if (crashOnHangup && message.signal === 'SIGHUP') throw new Error(`${TEST_CRASH_VARIABLE}: worker ${data.id} ends itself`);
        signals.emit(message.signal);
        break;
      case 'snapshot':
        source.feed(unpackSnapshot(message.snapshot, keptPageBytes));
        break;
      case 'metrics': {
        const metrics = typeof unit === 'object' ? unit.running.handler.metrics() : undefined;
        void Promise.resolve(metrics?.registry.getMetricsAsJSON()).then((json) => port.postMessage({ eqf: 'metrics', id: message.id, json: json ?? [] }));
        break;
      }
    }
  });
  unit = await serveOne(options, { accessLogTarget, shutdownDelayMs, bound: { fd: data.fd }, worker: data.id }, log, signals);
  if (typeof unit === 'number') return unit;
  unit.running.handler.events.on('reloaded', (name: string) => { if (name === 'snapshot') releaseOldVersionSoon(); });
  // What the start left (the posted copy of the version's description) goes back too.
  releaseOldVersionSoon();
  port.postMessage(WORKER_READY);
  return unit.stopped;
}

/** The thread's port to the main thread, as the limits store's channel. */
function portChannel(): IpcChannel {
  const port = parentPort!;
  return {
    send: (message) => { port.postMessage(message); return true; },
    connected: true,
    on: (event: 'message' | 'disconnect', listener: (message: unknown) => void) => port.on(event === 'message' ? 'message' : 'close', listener),
    off: (event, listener) => port.off(event, listener),
  } as IpcChannel;
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`equity-facts thread: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
