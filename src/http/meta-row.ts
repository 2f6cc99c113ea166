/**
 * The meta row (docs/api.md §6): the calling key's plan, limits and usage, and the snapshot being
 * served. Built per request from the plan table and a limiter reading that took no token.
 */
import type { Plan } from '../plans.js';
import type { KeyRecord } from '../keys/keys-file.js';
import type { LimitDecision, BucketView } from '../guard/limiter-store.js';
import type { SnapshotManifest } from '../data/snapshot-format.js';
import type { MetaRow } from '../rows/types.js';

/**
 * Builds the meta row.
 *
 * @param key - the calling key's entry (its id is shown, never the key).
 * @param plan - its plan.
 * @param usage - a limiter `peek` for the key.
 * @param snapshot - the manifest of the snapshot being served.
 */
export function metaRow(key: KeyRecord, plan: Plan, usage: LimitDecision, snapshot: SnapshotManifest): MetaRow {
  return {
    type: 'meta',
    key_id: key.id,
    account: key.account,
    plan: plan.id,
    plan_label: plan.label,
    summaries: plan.summaries,
    max_page_size: plan.maxPageSize,
    limits: { per_minute: plan.perMinute, per_day: plan.perDay },
    usage: { minute: bucketUsage(usage.minute), day: bucketUsage(usage.day) },
    snapshot: { version: snapshot.version, created_at: snapshot.created_at, data_through: snapshot.data_through },
  };
}

function bucketUsage(view: BucketView): MetaRow['usage']['minute'] {
  return { limit: view.limit, remaining: view.remaining, used: view.limit - view.remaining, reset_seconds: view.resetSeconds };
}
