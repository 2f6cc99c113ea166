/**
 * Extract workers: a build that parses in worker threads gives byte for byte the rows of one
 * that parses in the main thread (extracts are merged in walk order, whatever order the reads
 * finish in), and a data-set table a worker meets is handed to the main thread to stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSnapshot } from '../../src/builder/build.js';
import { ROW_KINDS } from '../../src/rows/schemas.js';
import { SEC_DATA, secDataSkip as skip } from '../helpers/real-build.js';

test(skip ? `workers (${skip})` : 'parsing in worker threads gives the rows and manifest of parsing in the main thread', { skip }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-workers-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const from = join(dir, 'from');
  const names = (await readdir(join(SEC_DATA, 'ownership/datamule_paypal'))).sort().slice(0, 300);
  for (const name of names) await cp(join(SEC_DATA, 'ownership/datamule_paypal', name), join(from, 'ownership', name));
  await cp(join(SEC_DATA, 'tickers/company_tickers.json'), join(from, 'company_tickers.json'));
  await cp(resolve(import.meta.dirname, '../fixtures/data-sets/thirteenf-nvda'), join(from, 'thirteenf'), { recursive: true });
  const build = async (workers: number) => {
    const result = await buildSnapshot({
      from, out: join(dir, `out-${workers}`), asOf: '2024-12-31', windowDays: 36_600, filingsDays: 36_600, version: 'v', publish: false, workers,
      now: () => new Date('2025-01-02T00:00:00Z'), log: () => {}, progress: false,
    });
    return { result, rows: await Promise.all(ROW_KINDS.map((kind) => readFile(join(result.dir, `${kind}.ndjson`), 'utf8'))) };
  };
  const [inline, threaded] = [await build(0), await build(2)];
  assert.deepEqual(threaded.rows, inline.rows);
  assert.deepEqual(threaded.result.build, inline.result.build);
  assert.ok(inline.result.rows.insiders > 0 && inline.result.rows.whales === 1, 'XML and a data set both read');
  assert.equal(inline.result.build.files_read, names.length + 6);
});

test('a workers option that is not a whole number from 0 to 64 is refused, naming the option', async () => {
  for (const workers of [-1, 1.5, 65, Number.NaN]) {
    await assert.rejects(buildSnapshot({ from: '/nonexistent', out: '/nonexistent', workers, log: () => {}, progress: false }), /workers must be a whole number from 0 to 64/);
  }
});
