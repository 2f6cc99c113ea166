/**
 * The bulk path of `fetch --all --bulk`: `submissions.zip` and `companyfacts.zip` (rebuilt by SEC
 * every night, so refreshed like the other in-place files), then every Insider Transactions and
 * Form 13F data-set zip whose period reaches into the window (published once, kept for good).
 * See bulk-products.ts for where each comes from.
 */
import { open } from 'node:fs/promises';
import { COMPANY_FACTS_ZIP, FORM_13F, INSIDER_TRANSACTIONS, SUBMISSIONS_ZIP, parseCatalog, type DataSetFamily, type DataSetZip } from './bulk-products.js';
import type { EdgarClient } from './edgar-client.js';
import type { FetchTally } from './fetch-summary.js';
import type { Mirror } from './mirror.js';
import type { ProgressLine } from './progress-line.js';
import { forEachLimit } from './work-pool.js';

/** What the bulk path works with. */
export interface BulkRun {
  readonly client: EdgarClient;
  readonly mirror: Mirror;
  readonly tally: FetchTally;
  readonly progress: ProgressLine;
  readonly since: string;
  readonly concurrency: number;
}

/**
 * Fetches the bulk products.
 *
 * @throws the abort reason; {@link UserAgentRefusedError}.
 */
export async function fetchBulk(run: BulkRun): Promise<void> {
  const zips: DataSetZip[] = [];
  for (const family of [INSIDER_TRANSACTIONS, FORM_13F]) zips.push(...await dataSetsInWindow(family, run));
  run.progress.phase(`bulk products and ${zips.length} data sets since ${run.since}:`, run.tally.done + 2 + zips.length);
  // The two big nightly zips one after the other; the data sets share the pool.
  await run.mirror.ensure(SUBMISSIONS_ZIP, 'updated', zipCheck);
  await run.mirror.ensure(COMPANY_FACTS_ZIP, 'updated', zipCheck);
  await forEachLimit(zips, run.concurrency, async (zip) => { await run.mirror.ensure(zip.location, 'fixed', zipCheck); });
}

/** The zips a catalog page lists whose period ends on or after `since`; the rest are left alone. */
async function dataSetsInWindow(family: DataSetFamily, run: BulkRun): Promise<DataSetZip[]> {
  const page = await run.client.text(family.catalog);
  if (page.status !== 'ok') {
    run.tally.count(page);
    return [];
  }
  const zips = parseCatalog(page.text, family);
  if (zips.length === 0) {
    run.tally.failed.push({ url: run.client.url(family.catalog), reason: `the ${family.name} catalog page links to no zip (has its layout changed?)` });
    return [];
  }
  const chosen: DataSetZip[] = [];
  for (const zip of zips) {
    if (zip.to === null) run.tally.passedOver.push({ what: run.client.url(zip.location), reason: 'its name does not say which period it covers' });
    else if (zip.to >= run.since) chosen.push(zip);
  }
  return chosen;
}

/** A zip starts with a local file header (`PK\x03\x04`) or, when empty, the end record (`PK\x05\x06`). */
async function zipCheck(file: string): Promise<void> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    const magic = buffer.subarray(0, bytesRead).toString('latin1');
    if (magic !== 'PK\x03\x04' && magic !== 'PK\x05\x06') throw new Error('not a zip file');
  } finally {
    await handle.close();
  }
}
