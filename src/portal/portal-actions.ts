/**
 * What the portal's POSTs and the operator's list do to the keys file (docs/api.md §18): a
 * sign-up mints a free-plan key; a holder rotates their own key; the operator lists, mints,
 * changes plan or status, revokes and rotates. Each change goes through the one {@link KeysQueue}
 * with the same change functions as the `keys` commands, and answers with what a page shows; a
 * plaintext key is in an answer exactly once, when minted, and in no log line.
 */
import { randomBytes } from 'node:crypto';
import { PLANS, findPlan } from '../plans.js';
import { KEY_ID_PATTERN, KEY_STATUSES, KeysFileError, hashKey, type KeyRecord, type KeyStatus } from '../keys/keys-file.js';
import { UnknownKeyIdError, addKey, revokeKey, rotateKey, updateKey, type KeyChange } from '../keys/key-changes.js';
import { DEFAULT_GRACE_MS, hasExpired, parseGrace } from '../keys/lifecycle.js';
import type { LogSink } from '../ops/logger.js';
import { PortalError } from './portal-errors.js';
import { stringField } from './request-body.js';
import type { KeysQueue, KeysStep } from './keys-queue.js';

/** What the actions work with. */
export interface ActionContext {
  readonly queue: KeysQueue;
  readonly file: string;
  readonly now: () => number;
  readonly log: LogSink;
}

/** A JSON answer's fields (beside `ok: true`). */
export type Answer = Record<string, unknown>;

/** Longest name, account and e-mail address taken (RFC 5321 §4.5.3.1.3 bounds a path at 256 octets). */
const MAX_NAME = 100;
const MAX_EMAIL = 254;
const MAX_LABEL = 200;
/** An e-mail address in the shape people type: one `@`, a dot in the domain, no spaces or angle brackets. */
const EMAIL = /^[^\s@<>"]+@[^\s@<>".]+(\.[^\s@<>".]+)+$/;

/**
 * Applies a change through the queue, turning a refused file into 503 `keys_file_unavailable`
 * (logged with the file's reason; the answer names neither path nor content) and an unknown id
 * into 404.
 */
async function apply<T>(ctx: ActionContext, step: KeysStep<T>): Promise<T> {
  try {
    return await ctx.queue.change(step);
  } catch (error) {
    // The id is not quoted: whatever was typed in its place (a key, by mistake) stays out of the answer.
    if (error instanceof UnknownKeyIdError) throw new PortalError('not_found', 'No key with that id.');
    if (error instanceof KeysFileError) {
      ctx.log(`portal: change refused, the keys file is unusable: ${error.message}`, 'error');
      throw new PortalError('keys_file_unavailable', undefined, 60);
    }
    throw error;
  }
}

/**
 * An account id from a sign-up's name: its letters and digits in lower case joined by `-` (at
 * most 24 characters, `user` when none), then `-` and 8 random hex digits. Only
 * `[a-z0-9-]` reaches the file, whatever was typed.
 */
export function signupAccount(name: string): string {
  const slug = name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24).replace(/-+$/, '');
  return `${slug === '' ? 'user' : slug}-${randomBytes(4).toString('hex')}`;
}

/** `POST /signup` `{ name, email }`: a free-plan key, shown once; the e-mail goes in the label. */
export async function signup(ctx: ActionContext, body: Record<string, unknown>, take: () => void): Promise<Answer> {
  const name = stringField(body, 'name', MAX_NAME);
  const email = stringField(body, 'email', MAX_EMAIL);
  if (!EMAIL.test(email)) throw new PortalError('invalid_parameter', 'email must be an e-mail address such as ada@example.com.');
  take();
  const account = signupAccount(name);
  const minted = await apply(ctx, (records) => addKey(records, { account, plan: 'free', label: `${name} <${email}>`, nowMs: ctx.now() }));
  ctx.log(`portal: sign-up minted ${minted.record.id} for account ${account} on plan free`, 'info', { key_id: minted.record.id, account });
  return { key: minted.key, key_id: minted.record.id, account, plan: 'free' };
}

/** `POST /account/rotate` with the key in a header: a new key for the holder, the old one kept for 24 hours. */
export async function rotateOwnKey(ctx: ActionContext, key: string | undefined): Promise<Answer> {
  if (key === undefined) throw new PortalError('invalid_api_key');
  const digest = hashKey(key);
  const rotated = await apply(ctx, (records) => {
    const own = records.find((record) => record.sha256 === digest);
    if (own === undefined) throw new PortalError('invalid_api_key');
    if (hasExpired(own.expires_at, ctx.now())) throw new PortalError('invalid_api_key', 'The API key has expired.');
    return rotateKey(records, own.id, DEFAULT_GRACE_MS, ctx.now(), ctx.file);
  });
  ctx.log(`portal: holder rotated ${rotated.old.id} to ${rotated.record.id} (account ${rotated.record.account})`, 'info', { key_id: rotated.record.id, account: rotated.record.account });
  return { key: rotated.key, key_id: rotated.record.id, old_key_id: rotated.old.id, old_expires_at: rotated.old.expires_at };
}

/** A record as the operator's list shows it: everything but the hash. */
function listed(record: KeyRecord): Answer {
  const { sha256: _hash, ...shown } = record;
  return shown;
}

/** `GET /admin/keys`: every key, in file order. */
export async function listKeys(ctx: ActionContext): Promise<Answer> {
  try {
    return { keys: (await ctx.queue.read()).map(listed) };
  } catch (error) {
    if (!(error instanceof KeysFileError)) throw error;
    ctx.log(`portal: cannot list keys: ${error.message}`, 'error');
    throw new PortalError('keys_file_unavailable', undefined, 60);
  }
}

const PLAN_IDS = PLANS.map((plan) => plan.id);

function apiPlan(body: Record<string, unknown>): string {
  const plan = stringField(body, 'plan', 32);
  if (findPlan(plan) === undefined) throw new PortalError('invalid_parameter', `plan must be one of ${PLAN_IDS.join(', ')}.`);
  return plan;
}

/** `POST /admin/keys` `{ account, plan, label? }`: a new key, shown once. */
export async function mintForOperator(ctx: ActionContext, body: Record<string, unknown>): Promise<Answer> {
  const account = stringField(body, 'account', MAX_NAME);
  const plan = apiPlan(body);
  const label = body.label === undefined ? undefined : stringField(body, 'label', MAX_LABEL);
  const minted = await apply(ctx, (records) => addKey(records, { account, plan, label, nowMs: ctx.now() }));
  ctx.log(`portal: operator minted ${minted.record.id} for account ${account} on plan ${plan}`, 'info', { key_id: minted.record.id, account });
  return { key: minted.key, key_id: minted.record.id, account, plan };
}

/** The operator's changes to one key, by the last segment of `/admin/keys/{id}/{action}`. */
export const KEY_ACTIONS = ['plan', 'status', 'revoke', 'rotate'] as const;
/** One of {@link KEY_ACTIONS}. */
export type KeyAction = typeof KEY_ACTIONS[number];

/**
 * `POST /admin/keys/{id}/plan` `{ plan }`, `/status` `{ status }`, `/revoke`, `/rotate` `{ grace? }`.
 *
 * @throws PortalError `not_found` for an unknown id, `invalid_parameter` for a bad field.
 */
export async function changeKey(ctx: ActionContext, id: string, action: KeyAction, body: Record<string, unknown>): Promise<Answer> {
  if (!KEY_ID_PATTERN.test(id)) throw new PortalError('not_found', 'No key with that id.');
  let step: KeysStep<Answer>;
  if (action === 'plan') {
    const plan = apiPlan(body);
    step = (records) => answerWith(updateKey(records, id, { plan }, ctx.file), (record) => ({ key: listed(record) }));
  } else if (action === 'status') {
    const status = stringField(body, 'status', 16);
    if (!KEY_STATUSES.includes(status as KeyStatus)) throw new PortalError('invalid_parameter', `status must be one of ${KEY_STATUSES.join(', ')}.`);
    step = (records) => answerWith(updateKey(records, id, { status: status as KeyStatus }, ctx.file), (record) => ({ key: listed(record) }));
  } else if (action === 'revoke') {
    step = (records) => answerWith(revokeKey(records, id, ctx.file), (record) => ({ revoked: record.id }));
  } else {
    const grace = body.grace === undefined ? DEFAULT_GRACE_MS : parseGrace(stringField(body, 'grace', 12));
    if (grace === undefined) throw new PortalError('invalid_parameter', 'grace must be a number and s, m, h or d (e.g. 24h), at most 365d.');
    step = (records) => answerWith(rotateKey(records, id, grace, ctx.now(), ctx.file),
      (r) => ({ key: r.key, key_id: r.record.id, old_key_id: r.old.id, old_expires_at: r.old.expires_at }));
  }
  const answer = await apply(ctx, step);
  ctx.log(`portal: operator ${action === 'plan' || action === 'status' ? `set the ${action} of` : `${action}d`} ${id}`, 'info', { key_id: id, action });
  return answer;
}

function answerWith<T>(change: KeyChange<T>, shown: (result: T) => Answer): KeyChange<Answer> {
  return { records: change.records, result: shown(change.result) };
}
