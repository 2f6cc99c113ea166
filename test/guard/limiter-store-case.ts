/**
 * One case of the limiter store contract (`limiter-store-contract.ts`), what it is given, and the
 * plans and helpers the cases share.
 */
import assert from 'node:assert/strict';
import type { LimitDecision, LimiterStore, LimiterStoreState } from '../../src/guard/limiter-store.js';
import { findPlan, type Plan } from '../../src/plans.js';

/** What a case is given: the store, key ids of its own, and the clock when the case needs it. */
export interface CaseContext {
  readonly store: LimiterStore;
  /** Where the store's buckets are: what its `state().store` must say. */
  readonly where: LimiterStoreState['store'];
  /** A key id of this case alone: `key('a')` and `key('b')` are two keys no other case uses. */
  readonly key: (name?: string) => string;
  /** Moves the buckets' clock forward, ms (only for the cases that need `clock`). */
  readonly advance: (ms: number) => void;
  /** Number of keys whose buckets the store holds now. */
  readonly held: () => Promise<number>;
}

/** One case of the contract. */
export interface ContractCase {
  readonly name: string;
  /** `clock`: time must pass; `anyPlan`: it asks for a plan that is not a row of the plan table. */
  readonly needs?: 'clock' | 'anyPlan';
  run(c: CaseContext): Promise<void>;
}

/** Rows of the plan table: Pulse (free: 10 per minute, 200 per day), Signal (60, 5000), Founders (300, 200000). */
export const FREE = findPlan('free')!;
export const SIGNAL = findPlan('signal')!;
export const FOUNDERS = findPlan('founders')!;

/** A plan with these limits, outside the plan table; the rest of the row does not matter to a store. */
export function plan(perMinute: number, perDay: number): Plan {
  return { id: 'free', label: 'Test', perMinute, perDay, maxPageSize: 10, summaries: false };
}

/** `times` takes in a row; returns the last decision. */
export async function takeTimes(c: CaseContext, keyId: string, p: Plan, times: number): Promise<LimitDecision> {
  let decision: LimitDecision | undefined;
  for (let i = 0; i < times; i++) decision = await c.store.take(keyId, p);
  assert.ok(decision);
  return decision;
}
