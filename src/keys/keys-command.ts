/**
 * `equity-facts keys …`: mint a key, list keys, change a key's status. Writes are atomic (temp
 * file in the same folder, then rename) and the result is re-parsed before it replaces the
 * file, so a running server never sees a half-written or invalid file.
 */
import { randomBytes } from 'node:crypto';
import { rename, writeFile, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { findPlan } from '../plans.js';
import { KEYS_FORMAT, KEY_STATUSES, KeysFileError, hashKey, parseKeysFile, type KeyRecord, type KeyStatus } from './keys-file.js';
import { mintKey } from './mint.js';
import { didYouMean } from '../suggest.js';

/** Where command output goes (injectable for tests). */
export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Usage of each subcommand, printed by `keys SUB --help` and with its usage errors. */
const SUBCOMMAND_USAGE = {
  add: `usage: equity-facts keys add --file F --plan P --account A [--label L]
  Mints a key for an account on a plan, prints it once on stdout, and stores only its SHA-256
  in the keys file F (created when missing). Plans: free, signal, insider, founders; any other
  plan is a key without API access.`,
  list: `usage: equity-facts keys list --file F
  Lists the keys of F: id, account, plan, status, creation time and label; never a secret.`,
  'set-status': `usage: equity-facts keys set-status --file F ID STATUS
  Sets the status of key ID: ${KEY_STATUSES.join(', ')} (suspended answers 402, inactive 403).`,
} as const;

type Subcommand = keyof typeof SUBCOMMAND_USAGE;

const USAGE = `usage:
  equity-facts keys add --file F --plan P --account A [--label L]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS     (STATUS: ${KEY_STATUSES.join(', ')})
  equity-facts keys SUBCOMMAND --help`;

const isHelp = (word: string): boolean => word === '--help' || word === '-h';

/**
 * Runs a keys subcommand.
 *
 * @param argv - words after `keys`.
 * @returns the exit code: 0 done, 1 failed (file unreadable or invalid), 2 bad usage.
 */
export async function runKeysCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== undefined && isHelp(sub)) {
    io.out(`${USAGE}\n`);
    return 0;
  }
  const known = sub !== undefined && Object.hasOwn(SUBCOMMAND_USAGE, sub) ? sub as Subcommand : undefined;
  if (known !== undefined && rest.some(isHelp)) {
    io.out(`${SUBCOMMAND_USAGE[known]}\n`);
    return 0;
  }
  try {
    if (known === 'add') return await add(rest, io);
    if (known === 'list') return await list(rest, io);
    if (known === 'set-status') return await setStatus(rest, io);
    const problem = sub === undefined ? 'missing subcommand' : `unknown subcommand "${sub}"${didYouMean(sub, Object.keys(SUBCOMMAND_USAGE))}`;
    io.err(`${problem}\n${USAGE}\n`);
    return 2;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${known === undefined ? USAGE : SUBCOMMAND_USAGE[known]}\n`);
      return 2;
    }
    if (error instanceof KeysFileError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

class UsageError extends Error {}

function parse(args: readonly string[], options: Record<string, { type: 'string' }>, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: positionals > 0, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals) throw new UsageError(`expected ${positionals} arguments, got ${parsed.positionals.length}`);
  return parsed;
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}

async function add(args: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parse(args, { file: { type: 'string' }, plan: { type: 'string' }, account: { type: 'string' }, label: { type: 'string' } }, 0);
  const file = required(values, 'file');
  const plan = required(values, 'plan');
  const account = required(values, 'account');
  const records = await readOrEmpty(file);
  const key = mintKey();
  let id: string;
  do id = `k_${randomBytes(4).toString('hex')}`; while (records.some((record) => record.id === id));
  const record: KeyRecord = {
    id, sha256: hashKey(key), account, plan, status: 'active',
    ...(values.label === undefined ? {} : { label: values.label }), created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  await writeKeysFile(file, [...records, record]);
  if (!findPlan(plan)) io.err(`warning: plan "${plan}" is not an API plan; this key will get 403 api_not_available_on_plan\n`);
  io.out(`${key}\n`);
  io.err(`minted ${id} for account ${account} on plan ${plan}; the key above is shown only now, the file keeps its hash\n`);
  return 0;
}

async function list(args: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parse(args, { file: { type: 'string' } }, 0);
  const table = parseKeysFile(await readText(required(values, 'file')), required(values, 'file'));
  const rows = [['ID', 'ACCOUNT', 'PLAN', 'STATUS', 'CREATED', 'LABEL']];
  for (const r of table.records) rows.push([r.id, r.account, r.plan, r.status, r.created_at, r.label ?? '']);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  io.out(rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n') + '\n');
  return 0;
}

async function setStatus(args: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(args, { file: { type: 'string' } }, 2);
  const file = required(values, 'file');
  const [id, status] = positionals as [string, string];
  if (!KEY_STATUSES.includes(status as KeyStatus)) throw new UsageError(`STATUS must be one of ${KEY_STATUSES.join(', ')}`);
  const records = parseKeysFile(await readText(file), file).records;
  if (!records.some((record) => record.id === id)) {
    io.err(`${file}: no key with id ${id}\n`);
    return 1;
  }
  await writeKeysFile(file, records.map((record) => (record.id === id ? { ...record, status: status as KeyStatus } : record)));
  io.out(`${id}: ${status}\n`);
  return 0;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new KeysFileError(file, `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function readOrEmpty(file: string): Promise<readonly KeyRecord[]> {
  try {
    return parseKeysFile(await readFile(file, 'utf8'), file).records;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error instanceof KeysFileError ? error : new KeysFileError(file, `cannot read: ${String(error)}`);
  }
}

/**
 * Writes a keys file atomically after checking that it parses.
 *
 * @param file - destination path.
 * @param records - the entries, in order.
 */
export async function writeKeysFile(file: string, records: readonly KeyRecord[]): Promise<void> {
  const text = `${JSON.stringify({ format: KEYS_FORMAT, keys: records }, null, 2)}\n`;
  parseKeysFile(text, file);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, file);
}
