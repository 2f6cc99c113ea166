/**
 * A real `node:cluster` worker holding an `IpcStore` (as `serve --workers N` gives each worker
 * without Redis), for the primary store's run of the limiter store contract. Its primary is the
 * test process, whose `answerLimits` holds the buckets; the test asks this worker to take or look
 * (`WorkerCall`), the worker asks its store, and the store asks the primary over the same real
 * IPC channel. Forked by `test/guard/limiter-store-primary.test.ts`; not a test itself.
 */
import cluster from 'node:cluster';
import { IpcStore } from '../../src/guard/ipc-store.js';
import type { LimitDecision, LimiterStoreState } from '../../src/guard/limiter-store.js';
import { findPlan } from '../../src/plans.js';

/** The test's request of this worker. */
export interface WorkerCall {
  readonly eqf: 'contract-call';
  readonly id: number;
  readonly op: 'take' | 'peek';
  readonly keyId: string;
  readonly planId: string;
}

/** This worker's answer: the store's decision, or the message of its rejection. */
export interface WorkerAnswer {
  readonly eqf: 'contract-answer';
  readonly id: number;
  readonly decision?: LimitDecision;
  readonly error?: string;
}

/** Sent once the store is open: what it says of itself. */
export interface WorkerReady {
  readonly eqf: 'contract-ready';
  readonly state: LimiterStoreState;
}

if (cluster.isWorker) {
  const send = process.send!.bind(process);
  const store = new IpcStore();
  process.on('message', (message: Partial<WorkerCall> | null) => {
    if (message?.eqf !== 'contract-call') return;
    const { id, op, keyId, planId } = message as WorkerCall;
    const plan = findPlan(planId);
    if (plan === undefined) {
      send({ eqf: 'contract-answer', id, error: `no plan ${planId}` } satisfies WorkerAnswer);
      return;
    }
    Promise.resolve(op === 'take' ? store.take(keyId, plan) : store.peek(keyId, plan)).then(
      (decision) => send({ eqf: 'contract-answer', id, decision } satisfies WorkerAnswer),
      (error: Error) => send({ eqf: 'contract-answer', id, error: error.message } satisfies WorkerAnswer),
    );
  });
  send({ eqf: 'contract-ready', state: store.state() } satisfies WorkerReady);
}
