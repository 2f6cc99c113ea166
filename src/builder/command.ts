/**
 * `equity-facts build`: the command-line form of {@link buildSnapshot}. Loaded by the CLI with
 * a dynamic import, so that the server never loads the XML parser.
 *
 * ```
 * equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90]
 *                    [--filings-days 30] [--version V] [--no-publish] [--cache DIR] [--workers N]
 * ```
 */
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { BUILD_DEFAULTS, WORKERS_FROM_FILES, buildSnapshot, type BuildOptions } from './build.js';

/** Usage text printed with a usage error. */
export const BUILD_USAGE = `usage: equity-facts build --from DIR --out SNAPSHOTS_DIR [options]
  --from DIR            folder of EDGAR files, walked recursively (files recognised by content)
  --out DIR             snapshots folder; the version is written there and CURRENT points at it
  --as-of YYYY-MM-DD    the snapshot's date: nothing filed after it; ends the insider and filings windows (default: latest filing date read)
  --window-days N       insider window in days, counting as-of (default ${BUILD_DEFAULTS.windowDays})
  --filings-days N      filings window in days, counting as-of (default ${BUILD_DEFAULTS.filingsDays})
  --version V           version label: letters, digits, . _ - (default <as-of>_<build time>)
  --no-publish          write and verify the version without pointing CURRENT at it
  --cache DIR           incremental build cache: filing documents parsed by earlier builds are not parsed again
  --workers N           worker threads that parse the files, 0 to parse in the main thread (default: one per core from ${WORKERS_FROM_FILES} files on)`;

/** A command-line mistake: reported with the usage and exit code 2. */
class UsageError extends Error {}

const VALUE_OPTIONS = new Set(['--from', '--out', '--as-of', '--window-days', '--filings-days', '--version', '--workers', '--cache']);

/**
 * Parses the words after `build`.
 *
 * @throws UsageError naming the option at fault.
 */
export function parseBuildArgs(argv: readonly string[]): Omit<BuildOptions, 'log' | 'now' | 'progress'> {
  const values = new Map<string, string>();
  let publish = true;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    if (name === '--no-publish' && eq === -1) {
      publish = false;
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option ${JSON.stringify(word)}`);
    if (values.has(name)) throw new UsageError(`${name} is given twice`);
    const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) throw new UsageError(`${name} needs a value`);
    values.set(name, value);
  }
  const from = values.get('--from');
  const out = values.get('--out');
  if (!from) throw new UsageError('--from is required (a folder of EDGAR files)');
  if (!out) throw new UsageError('--out is required (the snapshots folder)');
  const asOf = values.get('--as-of');
  if (asOf !== undefined && !isCalendarDate(asOf)) throw new UsageError(`--as-of must be a date YYYY-MM-DD, got ${JSON.stringify(asOf)}`);
  const version = values.get('--version');
  if (version !== undefined && !VERSION_PATTERN.test(version)) throw new UsageError(`--version must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, got ${JSON.stringify(version)}`);
  const workers = values.get('--workers');
  if (workers !== undefined && (!/^\d+$/.test(workers) || Number(workers) > 64)) throw new UsageError(`--workers must be a whole number from 0 to 64, got ${JSON.stringify(workers)}`);
  return {
    from, out, asOf, version, publish, workers: workers === undefined ? undefined : Number(workers), cache: values.get('--cache'),
    windowDays: positiveInteger(values, '--window-days', BUILD_DEFAULTS.windowDays),
    filingsDays: positiveInteger(values, '--filings-days', BUILD_DEFAULTS.filingsDays),
  };
}

function positiveInteger(values: Map<string, string>, name: string, fallback: number): number {
  const value = values.get(name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 36_600) throw new UsageError(`${name} must be a whole number of days from 1 to 36600, got ${JSON.stringify(value)}`);
  return Number(value);
}

function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

/**
 * Runs `equity-facts build`.
 *
 * @param argv - the words after `build`.
 * @returns the exit code: 0 when published, 2 for a usage error, 1 when the build failed
 *   (nothing published then).
 */
export async function runBuildCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${BUILD_USAGE}\n`);
    return 0;
  }
  let options: ReturnType<typeof parseBuildArgs>;
  try {
    options = parseBuildArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`equity-facts build: ${error.message}\n${BUILD_USAGE}\n`);
    return 2;
  }
  try {
    const result = await buildSnapshot(options);
    process.stderr.write(`equity-facts build: wrote ${result.dir} (${Object.entries(result.rows).map(([k, n]) => `${n} ${k}`).join(', ')})\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`equity-facts build: failed, nothing published: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
