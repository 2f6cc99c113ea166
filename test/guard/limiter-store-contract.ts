/**
 * The limiter store contract: one suite that every store (this process's, the cluster primary's,
 * Redis's) runs through, as hono runs every router through one suite. A store's own file opens it
 * and calls {@link limiterStoreContract}; what only one store does (the Redis fallback, a primary
 * that is gone, the sweep) stays in that store's own tests.
 *
 * The cases are in `limiter-store-bucket-cases.ts` and `limiter-store-key-cases.ts`. A case that
 * needs time to pass runs only where the test moves the buckets' clock, and a case on a plan
 * outside the plan table only where the store takes any plan; elsewhere it is reported as skipped,
 * with the reason.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { LimiterStore, LimiterStoreState, MaybePromise } from '../../src/guard/limiter-store.js';
import { DAY_CASES, TAKE_CASES } from './limiter-store-bucket-cases.js';
import type { CaseContext, ContractCase } from './limiter-store-case.js';
import { CONCURRENT_CASES, KEY_CASES, LOOK_CASES } from './limiter-store-key-cases.js';

/** Every case, in the order they run. */
const CASES: readonly ContractCase[] = [...TAKE_CASES, ...DAY_CASES, ...KEY_CASES, ...LOOK_CASES, ...CONCURRENT_CASES];

/** A store under test and what the suite may do with it. */
export interface StoreSubject {
  /** Where its buckets are: what its `state().store` must say. */
  readonly where: LimiterStoreState['store'];
  /** The store; shared by every case (each case asks for keys of its own). */
  readonly store: LimiterStore;
  /**
   * Moves the buckets' clock forward by `ms`. Absent when the store keeps its own clock (Redis
   * counts on `TIME`): the cases that need time to pass are skipped.
   */
  readonly advance?: (ms: number) => void;
  /**
   * Whether any plan can be asked for. The primary is asked by plan id and answers with its own
   * row of the plan table, so only the table's rows reach it: the cases on other plans are skipped.
   */
  readonly anyPlan: boolean;
  /** Number of keys whose buckets the store holds now (a look and a refusal must not change it). */
  readonly held: () => MaybePromise<number>;
}

/**
 * Runs every case as a subtest of `t`.
 *
 * Redis counts on its own clock, which moves while a case runs: its figures (`remaining`, and
 * the seconds rounded up) are the clock-free ones as long as a case's requests for a key take less
 * than one second together (each takes well under a millisecond), which every case keeps.
 */
export async function limiterStoreContract(t: TestContext, subject: StoreSubject): Promise<void> {
  for (const [index, contractCase] of CASES.entries()) {
    const skip = contractCase.needs === 'clock' && subject.advance === undefined
      ? 'the store keeps its own clock (Redis TIME): time cannot be moved'
      : contractCase.needs === 'anyPlan' && !subject.anyPlan
        ? 'the store is asked by plan id: only rows of the plan table reach it'
        : undefined;
    const c: CaseContext = {
      store: subject.store,
      where: subject.where,
      key: (name = 'k') => `contract-${index}-${name}`,
      advance: subject.advance ?? (() => assert.fail('this store has no clock to move')),
      held: async () => subject.held(),
    };
    await t.test(contractCase.name, skip === undefined ? {} : { skip }, () => contractCase.run(c));
  }
}
