/**
 * The operational log: start, reloads, refusals, Redis switches, warnings and internal errors,
 * one line each on stderr. As JSON (the default) each line is an object with `time` (ISO 8601,
 * UTC), `level` (`info`, `warn`, `error`) and `msg`, then the entry's fields, so that one log
 * pipeline reads it beside the access log on stdout; as text (`--log-format text`) it is a plain
 * line for a terminal. Every part of the server that logs goes through one {@link LogSink}.
 */

/** How bad an entry is: `info` (start, reloads), `warn` (a degraded state, a refusal), `error` (a failure). */
export type LogLevel = 'info' | 'warn' | 'error';

/** The levels, in order of severity. */
export const LOG_LEVELS: readonly LogLevel[] = ['info', 'warn', 'error'];

/** Fields of an entry beside its message: names in snake_case, values anything `JSON.stringify` writes. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Receives one operational log entry. A plain `(line: string) => void` is one too (it ignores
 * the level and fields), so an embedder's own function keeps working.
 *
 * @param msg - what happened, a sentence without a trailing newline.
 * @param level - default `info`.
 * @param fields - facts of the entry (a worker id, a request id, a stack), written after `msg`.
 */
export type LogSink = (msg: string, level?: LogLevel, fields?: LogFields) => void;

/** `--log-format`: `json` (one object a line) or `text` (plain lines for a terminal). */
export type LogFormat = 'json' | 'text';

/** The formats `--log-format` takes. */
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

/** Names a field cannot take: the line's own. A field by one of these names is left out. */
const RESERVED = new Set(['time', 'level', 'msg']);

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Default `json`. */
  readonly format?: LogFormat;
  /** Receives each line with its newline. Default: `process.stderr.write`. */
  readonly write?: (text: string) => void;
  /** Clock, ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Fields of every entry (e.g. `{ worker: 2 }` in a cluster worker), before the entry's own. */
  readonly fields?: LogFields;
}

/**
 * The one logger of a process.
 *
 * @returns a sink that formats each entry as one line and writes it at once (stderr is
 *   synchronous for files and terminals, and an entry is rare: no batching).
 */
export function createLogger(options: LoggerOptions = {}): LogSink {
  const { format = 'json', now = Date.now, fields: base } = options;
  const write = options.write ?? ((text: string) => { process.stderr.write(text); });
  const line = format === 'text' ? textLine : jsonLine;
  return (msg, level = 'info', fields) => {
    write(`${line(now(), level, msg, base === undefined ? fields : { ...base, ...fields })}\n`);
  };
}

/**
 * One entry as a JSON object on one line: `time`, `level`, `msg`, then the fields. A field whose
 * value `JSON.stringify` cannot write (a BigInt, a cycle) is written as its `String()`.
 */
export function jsonLine(time: number, level: LogLevel, msg: string, fields?: LogFields): string {
  let out = `{"time":"${new Date(time).toISOString()}","level":"${level}","msg":${JSON.stringify(msg)}`;
  if (fields !== undefined) {
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined || RESERVED.has(name)) continue;
      out += `,${JSON.stringify(name)}:${jsonValue(value)}`;
    }
  }
  return `${out}}`;
}

function jsonValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? JSON.stringify(String(value));
  } catch {
    return JSON.stringify(String(value));
  }
}

/**
 * One entry as a plain line: `time level msg name=value …`. Control characters other than a
 * newline (an internal error's stack keeps its lines) are written as `\xNN`, so that nothing a
 * client sent can move a terminal's cursor or forge a line; a value with a space or a quote is
 * quoted as JSON. A text field of several lines (a stack) follows on lines of its own.
 */
export function textLine(time: number, level: LogLevel, msg: string, fields?: LogFields): string {
  let out = `${new Date(time).toISOString()} ${level.padEnd(5)} ${escapeControls(msg)}`;
  let below = '';
  if (fields !== undefined) {
    for (const [name, value] of Object.entries(fields)) {
      if (value === undefined || RESERVED.has(name)) continue;
      if (typeof value === 'string' && value.includes('\n')) {
        below += `\n${escapeControls(value)}`;
        continue;
      }
      const text = typeof value === 'string' ? value : jsonValue(value);
      out += ` ${escapeControls(name)}=${/^[^\s"=\\\p{Cc}]+$/u.test(text) ? text : JSON.stringify(text)}`;
    }
  }
  return out + below;
}

/** Control characters but the newline, as `\xNN` (C0, DEL and C1). */
function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
