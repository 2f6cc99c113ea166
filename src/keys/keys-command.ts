/**
 * `equity-facts keys …`: mint a key, list keys, change a key's status, revoke a key, rotate a
 * key. Every change is an atomic rewrite of the file ({@link writeKeysFile}), so a running
 * server never sees a half-written or invalid file.
 */
import { parseArgs } from 'node:util';
import { PLANS, findPlan } from '../plans.js';
import { KEY_STATUSES, KeysFileError, readKeysFile, type KeyStatus } from './keys-file.js';
import { changeKeysFile } from './keys-file-write.js';
import { DEFAULT_GRACE_MS, parseGrace } from './lifecycle.js';
import { addKey, revokeKey, rotateKey, updateKey } from './key-changes.js';
import { didYouMean } from '../suggest.js';

export { writeKeysFile } from './keys-file-write.js';

/** Where command output goes (injectable for tests). */
export interface CommandIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const PLAN_IDS = PLANS.map((plan) => plan.id);

/** Usage of each subcommand, printed by `keys SUB --help` and with its usage errors. */
const SUBCOMMAND_USAGE = {
  add: `usage: equity-facts keys add --file F --plan P --account A [--label L] [--no-api-plan]
  Mints a key for an account on a plan, prints it once on stdout, and stores only its SHA-256
  in the keys file F (created when missing). P is one of ${PLAN_IDS.join(', ')}; any other plan is
  refused unless --no-api-plan says it is meant (a key without API access: 403).`,
  list: `usage: equity-facts keys list --file F
  Lists the keys of F: id, account, plan, status, creation and expiry times, label; never a secret.`,
  'set-status': `usage: equity-facts keys set-status --file F ID STATUS
  Sets the status of key ID: ${KEY_STATUSES.join(', ')} (suspended answers 402, inactive 403).`,
  revoke: `usage: equity-facts keys revoke --file F ID
  Removes key ID from F: from the server's next read of the file on, it answers 401.`,
  rotate: `usage: equity-facts keys rotate --file F ID [--grace DURATION]
  Mints a new key for the account and plan of key ID, prints it once on stdout, and gives key ID
  an expires_at DURATION from now (a number and s, m, h or d; default 24h, at most 365d): until
  then both keys work, from then on the old one answers 401 saying it expired.`,
} as const;

type Subcommand = keyof typeof SUBCOMMAND_USAGE;

const USAGE = `usage:
  equity-facts keys add --file F --plan P --account A [--label L] [--no-api-plan]
  equity-facts keys list --file F
  equity-facts keys set-status --file F ID STATUS     (STATUS: ${KEY_STATUSES.join(', ')})
  equity-facts keys revoke --file F ID
  equity-facts keys rotate --file F ID [--grace 24h]
  equity-facts keys SUBCOMMAND --help`;

const isHelp = (word: string): boolean => word === '--help' || word === '-h';

/**
 * Runs a keys subcommand.
 *
 * @param argv - words after `keys`.
 * @param io - where output goes.
 * @param now - the clock, ms since the Unix epoch: a new key's `created_at`, a rotated key's
 *   `expires_at`. Default `Date.now`.
 * @returns the exit code: 0 done, 1 failed (file unreadable or invalid, no key with that id),
 *   2 bad usage (nothing is written then).
 */
export async function runKeysCommand(argv: readonly string[], io: CommandIo, now: () => number = Date.now): Promise<number> {
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
    if (known === undefined) {
      const problem = sub === undefined ? 'missing subcommand' : `unknown subcommand "${sub}"${didYouMean(sub, Object.keys(SUBCOMMAND_USAGE))}`;
      io.err(`${problem}\n${USAGE}\n`);
      return 2;
    }
    return await SUBCOMMANDS[known](rest, io, now);
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

type OptionTypes = Record<string, { type: 'string' | 'boolean' }>;

function parse(args: readonly string[], options: OptionTypes, positionals: number) {
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

async function add(args: readonly string[], io: CommandIo, now: () => number): Promise<number> {
  const { values } = parse(args, {
    file: { type: 'string' }, plan: { type: 'string' }, account: { type: 'string' }, label: { type: 'string' }, 'no-api-plan': { type: 'boolean' },
  }, 0);
  const file = required(values, 'file');
  const plan = required(values, 'plan');
  const account = required(values, 'account');
  const noApiPlan = values['no-api-plan'] === true;
  // A mistyped plan would mint a key that can never be used; only --no-api-plan says it is meant.
  if (findPlan(plan) === undefined && !noApiPlan) {
    throw new UsageError(`--plan ${JSON.stringify(plan)} is not an API plan${didYouMean(plan, PLAN_IDS)}; the API plans are ${PLAN_IDS.join(', ')}. ` +
      'To mint a key on a plan without API access (it answers 403 api_not_available_on_plan), add --no-api-plan.');
  }
  if (findPlan(plan) !== undefined && noApiPlan) throw new UsageError(`--no-api-plan says the plan has no API access, but ${plan} is an API plan; drop one of them`);
  const { key, record: { id } } = await changeKeysFile(file, (records) =>
    addKey(records, { account, plan, label: values.label as string | undefined, nowMs: now() }), true);
  io.out(`${key}\n`);
  io.err(`minted ${id} for account ${account} on plan ${plan}${noApiPlan ? ' (no API access)' : ''}; the key above is shown only now, the file keeps its hash\n`);
  return 0;
}

async function list(args: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parse(args, { file: { type: 'string' } }, 0);
  const file = required(values, 'file');
  const table = await readKeysFile(file);
  const rows = [['ID', 'ACCOUNT', 'PLAN', 'STATUS', 'CREATED', 'EXPIRES', 'LABEL']];
  for (const r of table.records) rows.push([r.id, r.account, r.plan, r.status, r.created_at, r.expires_at ?? '-', r.label ?? '']);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  io.out(rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n') + '\n');
  return 0;
}

async function setStatus(args: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(args, { file: { type: 'string' } }, 2);
  const file = required(values, 'file');
  const [id, status] = positionals as [string, string];
  if (!KEY_STATUSES.includes(status as KeyStatus)) throw new UsageError(`STATUS must be one of ${KEY_STATUSES.join(', ')}`);
  await changeKeysFile(file, (records) => updateKey(records, id, { status: status as KeyStatus }, file));
  io.out(`${id}: ${status}\n`);
  return 0;
}

async function revoke(args: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(args, { file: { type: 'string' } }, 1);
  const file = required(values, 'file');
  const [id] = positionals as [string];
  const record = await changeKeysFile(file, (records) => revokeKey(records, id, file));
  io.out(`${id}: revoked (removed from ${file}; account ${record.account})\n`);
  return 0;
}

async function rotate(args: readonly string[], io: CommandIo, now: () => number): Promise<number> {
  const { values, positionals } = parse(args, { file: { type: 'string' }, grace: { type: 'string' } }, 1);
  const file = required(values, 'file');
  const [id] = positionals as [string];
  const grace = values.grace === undefined ? DEFAULT_GRACE_MS : parseGrace(values.grace as string);
  if (grace === undefined) throw new UsageError(`--grace must be a number and s, m, h or d (e.g. 24h), at most 365d, got ${JSON.stringify(values.grace)}`);
  const { key, record: fresh, old } = await changeKeysFile(file, (records) => rotateKey(records, id, grace, now(), file));
  const expiresAt = old.expires_at!;
  io.out(`${key}\n`);
  io.err(`minted ${fresh.id} for account ${old.account} on plan ${old.plan}, replacing ${id}, which expires at ${expiresAt}; ` +
    'the key above is shown only now, the file keeps its hash\n');
  return 0;
}

const SUBCOMMANDS: Record<Subcommand, (args: readonly string[], io: CommandIo, now: () => number) => Promise<number>> = {
  add, list, 'set-status': setStatus, revoke, rotate,
};
