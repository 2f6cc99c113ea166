/**
 * Builds snapshots from the real EDGAR test set (`../shared/sec-data`, or `EQF_SEC_DATA`) once
 * per test process and options, and reads the raw files back for tests that recompute facts
 * from them independently of the builder.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSnapshot, type BuildOptions } from '../../src/builder/build.js';
import { ROW_KINDS, type RowKind } from '../../src/rows/schemas.js';
import type { RowsByKind } from '../../src/rows/types.js';

/** The EDGAR test set. */
export const SEC_DATA = process.env.EQF_SEC_DATA ?? resolve(import.meta.dirname, '../../../shared/sec-data');

/** A skip reason when the test set is absent, else false. */
export const secDataSkip: string | false = existsSync(SEC_DATA) ? false : `skipped: the EDGAR test set ${SEC_DATA} is absent (set EQF_SEC_DATA)`;

/** A built snapshot, read back. */
export interface RealBuild {
  /** The snapshots root (CURRENT + the version). */
  root: string;
  version: string;
  rows: { [K in RowKind]: RowsByKind[K][] };
  manifest: { data_through: string | null; build: Record<string, any> };
  logged: string[];
}

const builds = new Map<string, Promise<RealBuild>>();
const roots: string[] = [];
process.once('exit', () => { for (const root of roots) rmSync(root, { recursive: true, force: true }); });

/**
 * Builds (once per process for the same options) a snapshot of the whole test set.
 *
 * @param options - build options other than `from`, `out`, `log` and `now`.
 */
export function realBuild(options: Pick<BuildOptions, 'asOf' | 'windowDays' | 'filingsDays'>): Promise<RealBuild> {
  const key = JSON.stringify(options);
  let build = builds.get(key);
  if (!build) {
    build = (async () => {
      const root = mkdtempSync(join(tmpdir(), 'eqf-real-'));
      roots.push(root);
      const logged: string[] = [];
      const result = await buildSnapshot({
        ...options, from: SEC_DATA, out: root, version: 'real', log: (line) => logged.push(line), progress: false,
        now: () => new Date('2026-12-01T00:00:00Z'),
      });
      const read = (kind: RowKind): unknown[] => {
        const text = readFileSync(join(result.dir, `${kind}.ndjson`), 'utf8').trim();
        return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line));
      };
      const rows = Object.fromEntries(ROW_KINDS.map((kind) => [kind, read(kind)])) as RealBuild['rows'];
      const manifest = JSON.parse(readFileSync(join(result.dir, 'manifest.json'), 'utf8'));
      return { root, version: result.version, rows, manifest, logged };
    })();
    builds.set(key, build);
  }
  return build;
}

/**
 * A cut inside the sample: as of 2022-12-31 with a 730-day insider window and a 365-day filings window
 * (the embedded snapshot's options before it was rebuilt as of the sample's latest date), so that
 * later filings are left out and the as-of rules are tested.
 */
export const AS_OF_2022 = Object.freeze({ asOf: '2022-12-31', windowDays: 730, filingsDays: 365 });

/** Reads a file of the test set as text. */
export const rawText = (path: string): string => readFileSync(join(SEC_DATA, path), 'utf8');

/** Reads a JSON file of the test set. */
export const rawJson = <T = any>(path: string): T => JSON.parse(rawText(path)) as T;

/** Every file under a folder of the test set, relative to the test set, sorted. */
export function rawFiles(folder = '.'): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(SEC_DATA, dir)).sort()) {
      const path = dir === '.' ? name : `${dir}/${name}`;
      if (statSync(join(SEC_DATA, path)).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(folder);
  return out;
}
