/**
 * What only the cluster worker's store does, with the primary's side joined by an in-memory channel
 * with the shape of the cluster IPC channel: an unknown plan id, a primary that is gone, no channel.
 * What every store does is the limiter store contract, which `limiter-store-primary.test.ts` runs
 * on this store through a real cluster worker (and the `--workers` tests through `serve`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { ApiError } from '../../src/errors.js';
import { answerLimits, IpcStore } from '../../src/guard/ipc-store.js';
import { Limiter } from '../../src/guard/limiter.js';
import { findPlan, type Plan } from '../../src/plans.js';

/** A worker's `process` and the primary's `Worker` for it, delivering messages on the next tick like IPC. */
function channelPair(): { worker: EventEmitter & { send(m: unknown): boolean; connected: boolean }; primarySide: Worker } {
  const worker = Object.assign(new EventEmitter(), { connected: true, send: (message: unknown) => { setImmediate(() => primarySide.emit('message', structuredClone(message))); return true; } });
  const primarySide = Object.assign(new EventEmitter(), {
    isConnected: () => worker.connected,
    send: (message: unknown) => { setImmediate(() => worker.emit('message', structuredClone(message))); return true; },
  }) as unknown as Worker;
  return { worker, primarySide };
}

const free = findPlan('free')!;

test('a plan the primary does not know, or a primary gone, answers 503 service_busy with Retry-After 1 instead of waiting', { timeout: 10_000 }, async () => {
  const { worker, primarySide } = channelPair();
  answerLimits(new Limiter({ sweepIntervalMs: 0 }), primarySide);
  const store = new IpcStore(worker);
  const unknown = { ...free, id: 'enterprise' } as unknown as Plan;
  await assert.rejects(store.take('k1', unknown), (error: ApiError) => error.code === 'service_busy' && error.retryAfterSeconds === 1);

  const { worker: lonely } = channelPair(); // no primary answers this one
  const orphan = new IpcStore(lonely);
  const waiting = orphan.take('k1', free);
  lonely.connected = false;
  lonely.emit('disconnect');
  await assert.rejects(waiting, (error: ApiError) => error.code === 'service_busy');
  await assert.rejects(orphan.take('k1', free), (error: ApiError) => error.code === 'service_busy');
});

test('IpcStore outside a cluster worker is refused with a TypeError', () => {
  assert.throws(() => new IpcStore(new EventEmitter() as never), /needs an IPC channel/);
});
