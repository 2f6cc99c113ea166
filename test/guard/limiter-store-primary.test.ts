/**
 * The primary store through the limiter store contract: a real `node:cluster` worker
 * (`test/helpers/ipc-store-worker.ts`) asks its `IpcStore`, which asks this process, the primary,
 * over the real IPC channel; `answerLimits` answers from this process's `Limiter` on a manual
 * clock, so the cases that move time run too. Only the cases on plans outside the plan table are
 * skipped: a worker asks by plan id and the primary answers with its own row of the table.
 * What only this store does (an unknown plan id, a primary gone) is in `ipc-store.test.ts`.
 */
import { test } from 'node:test';
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { answerLimits } from '../../src/guard/ipc-store.js';
import { Limiter } from '../../src/guard/limiter.js';
import type { LimitDecision, LimiterStore, LimiterStoreState } from '../../src/guard/limiter-store.js';
import type { Plan } from '../../src/plans.js';
import type { WorkerAnswer, WorkerCall, WorkerReady } from '../helpers/ipc-store-worker.js';
import { limiterStoreContract } from './limiter-store-contract.js';

const WORKER = fileURLToPath(new URL('../helpers/ipc-store-worker.ts', import.meta.url));

/** The worker's store, as seen from this process: each call is sent to the worker and answered by its `IpcStore`. */
class WorkerStore implements LimiterStore {
  readonly #worker: Worker;
  readonly #state: LimiterStoreState;
  readonly #waiting = new Map<number, { resolve: (decision: LimitDecision) => void; reject: (error: Error) => void }>();
  #nextId = 0;

  constructor(worker: Worker, state: LimiterStoreState) {
    this.#worker = worker;
    this.#state = state;
    worker.on('message', (message: Partial<WorkerAnswer> | null) => {
      if (message?.eqf !== 'contract-answer') return;
      const { id, decision, error } = message as WorkerAnswer;
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (decision) waiting?.resolve(decision);
      else waiting?.reject(new Error(`the worker's store rejected: ${error}`));
    });
  }

  take(keyId: string, plan: Plan): Promise<LimitDecision> {
    return this.#call('take', keyId, plan);
  }

  peek(keyId: string, plan: Plan): Promise<LimitDecision> {
    return this.#call('peek', keyId, plan);
  }

  /** What the worker's store said of itself when it opened (an `IpcStore`'s state never changes). */
  state(): LimiterStoreState {
    return this.#state;
  }

  async close(): Promise<void> {
    const exited = once(this.#worker, 'exit');
    this.#worker.kill();
    await exited;
  }

  #call(op: WorkerCall['op'], keyId: string, plan: Plan): Promise<LimitDecision> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.send({ eqf: 'contract-call', id, op, keyId, planId: plan.id } satisfies WorkerCall);
    });
  }
}

test('the primary store (a cluster worker\'s IpcStore, answered by the primary) keeps the limiter store contract', { timeout: 60_000 }, async (t) => {
  let nowMs = 1_700_000_000_000;
  const primary = new Limiter({ now: () => nowMs, sweepIntervalMs: 0 });
  // silent: the worker's output must not mix with this test's report on stdout.
  cluster.setupPrimary({ exec: WORKER, execArgv: ['--import', 'tsx'], silent: true });
  const worker = cluster.fork();
  let stderr = '';
  worker.process.stderr?.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
  answerLimits(primary, worker);
  const ready = await Promise.race([
    new Promise<WorkerReady>((resolve) => worker.on('message', (message: Partial<WorkerReady> | null) => {
      if (message?.eqf === 'contract-ready') resolve(message as WorkerReady);
    })),
    once(worker, 'exit').then(([code]) => { throw new Error(`the worker exited with ${code} before its store was open:\n${stderr}`); }),
  ]);
  const store = new WorkerStore(worker, ready.state);
  t.after(() => store.close());
  await limiterStoreContract(t, {
    where: 'primary',
    store,
    advance: (ms) => void (nowMs += ms),
    anyPlan: false,
    held: () => primary.size,
  });
});
