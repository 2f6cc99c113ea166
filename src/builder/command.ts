/**
 * `equity-facts build`: the command-line form of {@link buildSnapshot}. Loaded by the CLI with
 * a dynamic import, so that the server never loads the XML parser.
 *
 * ```
 * equity-facts build --from DIR --out SNAPSHOTS_DIR [--as-of YYYY-MM-DD] [--window-days 90]
 *                    [--filings-days 30] [--version V] [--no-publish] [--allow-empty] [--allow-future-as-of]
 *                    [--cache DIR] [--workers N]
 * ```
 */
import { rm } from 'node:fs/promises';
import { VERSION_PATTERN } from '../data/snapshot-format.js';
import { publishRefusal } from '../data/publish-gate.js';
import { publishVersion } from '../data/snapshot-writer.js';
import { didYouMean } from '../suggest.js';
import { BUILD_DEFAULTS, WORKERS_FROM_FILES, buildSnapshot, type BuildOptions } from './build.js';
import { addDays } from '../edgar/conventions.js';
import type { WindowMiss } from './window-fit.js';

/** Usage text printed with a usage error. */
export const BUILD_USAGE = `usage: equity-facts build --from DIR --out SNAPSHOTS_DIR [options]
  --from DIR            folder of EDGAR files, walked recursively (files recognised by content)
  --out DIR             snapshots folder; the version is written there and CURRENT points at it
  --as-of YYYY-MM-DD    the snapshot's date: nothing filed after it; ends the insider and filings windows (default: latest filing date read);
                        not after today (UTC) without --allow-future-as-of
  --allow-future-as-of  accept an --as-of after today (a snapshot that claims data through a day still to come)
  --window-days N       insider window in days, counting as-of (default ${BUILD_DEFAULTS.windowDays})
  --filings-days N      filings window in days, counting as-of (default ${BUILD_DEFAULTS.filingsDays})
  --version V           version label: letters, digits, . _ - (default <as-of>_<build time>)
  --no-publish          write and verify the version without pointing CURRENT at it
  --allow-empty         publish even when the version has no rows of a kind the current version has, or no
                        insider or filing rows because the windows end after the inputs' last trades and
                        filings (refused otherwise, naming the windows that fit; as is a first version with no rows at all)
  --cache DIR           incremental build cache: filing documents parsed by earlier builds are not parsed again
  --workers N           worker threads that parse the files, 0 to parse in the main thread (default: one per core from ${WORKERS_FROM_FILES} files on)
  -h, --help            this text`;

/** A command-line mistake: reported with the usage and exit code 2. */
class UsageError extends Error {}

const VALUE_OPTIONS = new Set(['--from', '--out', '--as-of', '--window-days', '--filings-days', '--version', '--workers', '--cache']);
const FLAG_OPTIONS = new Set(['--no-publish', '--allow-empty', '--allow-future-as-of']);

/** The build options from the command line, and whether an empty kind may replace a full one. */
export type BuildArgs = Omit<BuildOptions, 'log' | 'now' | 'progress'> & { allowEmpty: boolean };

/**
 * Parses the words after `build`.
 *
 * @param argv - the words after `build`.
 * @param today - the build date in UTC, `YYYY-MM-DD`: an `--as-of` after it is refused unless
 *   `--allow-future-as-of` is given, since a snapshot dated in the future claims data through a
 *   day that has not happened (and its filings window would end there, serving fewer filings).
 * @throws UsageError naming the option at fault.
 */
export function parseBuildArgs(argv: readonly string[], today: string): BuildArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    if (FLAG_OPTIONS.has(name) && eq === -1) {
      flags.add(name);
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option ${JSON.stringify(word)}${didYouMean(name, [...VALUE_OPTIONS, ...FLAG_OPTIONS])}`);
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
  if (asOf !== undefined && asOf > today && !flags.has('--allow-future-as-of')) {
    throw new UsageError(`--as-of ${asOf} is after today (${today}, UTC): the snapshot would claim data through a day still to come. ` +
      'Give a date up to today, leave --as-of out (the latest filing date read), or add --allow-future-as-of if the future date is meant.');
  }
  const version = values.get('--version');
  if (version !== undefined && !VERSION_PATTERN.test(version)) throw new UsageError(`--version must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, got ${JSON.stringify(version)}`);
  const workers = values.get('--workers');
  if (workers !== undefined && (!/^\d+$/.test(workers) || Number(workers) > 64)) throw new UsageError(`--workers must be a whole number from 0 to 64, got ${JSON.stringify(workers)}`);
  return {
    from, out, asOf, version, publish: !flags.has('--no-publish'), allowEmpty: flags.has('--allow-empty'),
    workers: workers === undefined ? undefined : Number(workers), cache: values.get('--cache'),
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

/** Whether text is a real calendar date `YYYY-MM-DD` (not 2022-13-45, not 2022-02-30). */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  // Date.parse gives NaN for a month or day out of range, where toISOString would throw.
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/**
 * Runs `equity-facts build`.
 *
 * @param argv - the words after `build`.
 * @param now - the clock, ms since the Unix epoch: "today" (in UTC) for `--as-of`, and the
 *   build's own time (`created_at`, the default version). Default `Date.now`.
 * @returns the exit code: 0 when published (or written, with `--no-publish`), 2 for a usage
 *   error, 1 when the build failed or the publish gate refused it (nothing published then).
 */
export async function runBuildCommand(argv: string[], now: () => number = Date.now): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${BUILD_USAGE}\n`);
    return 0;
  }
  let options: BuildArgs;
  try {
    options = parseBuildArgs(argv, new Date(now()).toISOString().slice(0, 10));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`equity-facts build: ${error.message}\n${BUILD_USAGE}\n`);
    return 2;
  }
  const { allowEmpty, ...buildOptions } = options;
  try {
    // Written and verified first, published only once the gate agrees.
    const result = await buildSnapshot({ ...buildOptions, publish: false, now: () => new Date(now()) });
    const rows = `${Object.entries(result.rows).map(([k, n]) => `${n} ${k}`).join(', ')}`;
    if (!options.publish) {
      process.stderr.write(`equity-facts build: wrote ${result.dir} (${rows}); not published (--no-publish)\n`);
      return 0;
    }
    if (result.windowMiss && !allowEmpty) {
      await rm(result.dir, { recursive: true, force: true });
      process.stderr.write(`equity-facts build: refused to publish, nothing changed: ${windowMissMessage(result.windowMiss, options, rows)}\n` +
        `  equity-facts build ${withWindows(argv, result.windowMiss).join(' ')}\n` +
        'Pass --allow-empty to publish this version anyway.\n');
      return 1;
    }
    const refusal = allowEmpty ? undefined : await publishRefusal(options.out, {
      rows: result.rows, from: options.from, filesRead: numberOr(result.build.files_read), filesSkipped: numberOr(result.build.files_skipped),
    });
    if (refusal !== undefined) {
      await rm(result.dir, { recursive: true, force: true });
      process.stderr.write(`equity-facts build: refused to publish, nothing changed: ${refusal}. ` +
        'Check --from; pass --allow-empty to publish such a version anyway.\n');
      return 1;
    }
    await publishVersion(options.out, result.version);
    process.stderr.write(`equity-facts build: wrote and published ${result.dir} (${rows})\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`equity-facts build: failed, nothing published: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** Says which windows hold none of the inputs' data, e.g. `the 90-day insider window (2026-05-17 to 2026-08-14) holds no P or S trade ...`. */
function windowMissMessage(miss: WindowMiss, options: BuildArgs, rows: string): string {
  const span = (days: number): string => `${days}-day`;
  const window = (days: number): string => `(${addDays(miss.asOf, -(days - 1))} to ${miss.asOf})`;
  const parts = miss.kinds.map((kind) => kind === 'insiders'
    ? `the ${span(options.windowDays!)} insider window ${window(options.windowDays!)} holds no P or S trade of the inputs' Forms 4, which reach back to ${addDays(miss.asOf, -(miss.windowDays - 1))}`
    : `the ${span(options.filingsDays!)} filings window ${window(options.filingsDays!)} holds none of the inputs' filings, which reach back to ${addDays(miss.asOf, -(miss.filingsDays - 1))}`);
  return `${parts.join('; ')} (made ${rows}). The default windows fit a daily run over EDGAR; ` +
    'over a sample or an archive, give windows that reach its first trades and filings. This command builds them all:';
}

/**
 * The command's words with `--window-days` and `--filings-days` set to the windows that hold
 * the inputs (replacing the ones given), each word quoted for a POSIX shell where it needs it.
 */
export function withWindows(argv: readonly string[], miss: WindowMiss): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.split('=')[0]!;
    if (name === '--window-days' || name === '--filings-days') {
      if (!argv[i]!.includes('=')) i++;
      continue;
    }
    words.push(argv[i]!);
  }
  words.push('--window-days', String(miss.windowDays), '--filings-days', String(miss.filingsDays));
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`));
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
