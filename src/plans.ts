/**
 * The plan table: one row per API plan. It is the single source of the limits that the
 * limiter enforces, the meta row reports and the OpenAPI document publishes
 * (service spec, "Limits"; docs/api.md §3). Nothing else restates these numbers.
 */

/** Identifier of an API plan as stored in the keys file (`plan`). */
export type PlanId = 'free' | 'signal' | 'insider' | 'founders';

/** One row of the plan table. */
export interface Plan {
  /** Identifier stored in the keys file. */
  readonly id: PlanId;
  /** Name shown to people (the free plan is labelled "Pulse"). */
  readonly label: string;
  /** Requests per minute: capacity of the minute token bucket. */
  readonly perMinute: number;
  /** Requests per day: capacity of the day token bucket. */
  readonly perDay: number;
  /** Largest number of rows a list endpoint returns; `limit` is clamped to it. */
  readonly maxPageSize: number;
  /** Whether written fields (`summary`, `recap`) are returned. */
  readonly summaries: boolean;
}

/** The four API plans, cheapest first (service spec, "Limits"). */
export const PLANS: readonly Plan[] = Object.freeze([
  { id: 'free', label: 'Pulse', perMinute: 10, perDay: 200, maxPageSize: 10, summaries: false },
  { id: 'signal', label: 'Signal', perMinute: 60, perDay: 5000, maxPageSize: 50, summaries: true },
  { id: 'insider', label: 'Insider', perMinute: 180, perDay: 50000, maxPageSize: 100, summaries: true },
  { id: 'founders', label: 'Founders', perMinute: 300, perDay: 200000, maxPageSize: 200, summaries: true },
].map((plan) => Object.freeze(plan as Plan)));

const byId = new Map<string, Plan>(PLANS.map((plan) => [plan.id, plan]));

/**
 * Finds the API plan with this id.
 *
 * @param id - the `plan` value of a keys-file entry, any string.
 * @returns the plan, or `undefined` when `id` names a plan without API access
 *   (docs/api.md §4: any other value gives 403 `api_not_available_on_plan`).
 */
export function findPlan(id: string): Plan | undefined {
  return byId.get(id);
}

/** Largest `maxPageSize` of any plan: no list needs to keep more rows than this. */
export const MAX_PAGE_SIZE_OF_ANY_PLAN: number = Math.max(...PLANS.map((plan) => plan.maxPageSize));

/** Page size when a request gives no `limit`, before clamping (service spec, common parameters). */
export const DEFAULT_PAGE_SIZE = 20;
