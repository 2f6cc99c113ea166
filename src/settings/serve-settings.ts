/**
 * The settings only `equity-facts serve` has: what the command does around {@link listen}
 * (processes, the access log file, the log's format, the shutdown delay).
 */
import { LOG_FORMATS, type LogFormat } from '../ops/logger.js';
import { MAX_TIMER_MS, oneOf, text, whole } from './kinds.js';
import { setting } from './setting.js';

/** The ways `--workers` runs (`--worker-mode`). */
export const WORKER_MODES = ['threads', 'processes'] as const;

/** One of {@link WORKER_MODES}. */
export type WorkerMode = (typeof WORKER_MODES)[number];

/** Most workers `--workers` accepts: far above any host's cores, a guard against a typo. */
export const MAX_WORKERS = 256;

/** Every setting of `serve` that is not an option of {@link listen}. */
export const SERVE_SETTINGS = Object.freeze({
  /**
   * How long, ms, the first SIGTERM or SIGINT keeps the server accepting and answering with
   * `/readyz` at 503, before the graceful stop; 0 stops at once.
   */
  shutdownDelayMs: setting({
    kind: whole(0, MAX_TIMER_MS), default: 0, flag: 'shutdown-delay-ms', env: 'EQF_SHUTDOWN_DELAY_MS',
    help: 'ms SIGTERM/SIGINT keeps serving with /readyz failing (503), for a load balancer to take the host out, before the graceful stop',
    doc: 'how long, ms, SIGTERM/SIGINT keeps accepting and answering with `/readyz` at 503, before the graceful stop (see [Operating it](#operating-it))',
  }),
  /**
   * Request threads (or processes, with `workerMode: 'processes'`) sharing the port; the main
   * thread (or primary) holds the buckets unless Redis does.
   */
  workers: setting({
    kind: whole(1, MAX_WORKERS), default: 1, flag: 'workers', env: 'EQF_WORKERS',
    help: 'request threads sharing the port and one copy of the snapshot; limits stay exact',
    doc: 'request threads sharing the port and one copy of the snapshot (see `--worker-mode`); limits stay exact',
  }),
  /**
   * How `--workers` runs: `threads` (one process; the main thread loads each version once into
   * shared memory and hands it to the threads) or `processes` (node:cluster; each worker loads
   * its own copy).
   */
  workerMode: setting({
    kind: oneOf<WorkerMode>(WORKER_MODES), default: 'threads', flag: 'worker-mode', env: 'EQF_WORKER_MODE', placeholder: 'threads|processes',
    help: 'how --workers runs: threads in one process sharing one copy of the snapshot, or processes (node:cluster), each with its own',
    doc: 'how `--workers` runs: `threads` in one process sharing one copy of the snapshot, or `processes` (node:cluster), each loading its own (see [Operating it](#operating-it))',
  }),
  /** Where the access log goes: `stdout`, `off` or a file path (appended; reopened on SIGHUP). */
  accessLogTarget: setting({
    kind: text, default: 'stdout', flag: 'access-log', env: 'EQF_ACCESS_LOG', placeholder: 'stdout|off|FILE',
    help: 'one JSON line per response: stdout, off or a file', doc: 'one JSON line per response: `stdout`, `off` or a file (appended; reopened on SIGHUP)',
  }),
  /** The operational log's format on stderr. */
  logFormat: setting({
    kind: oneOf<LogFormat>(LOG_FORMATS), default: 'json', flag: 'log-format', env: 'EQF_LOG_FORMAT', placeholder: 'json|text',
    help: 'operational log on stderr: JSON lines (time, level, msg, fields) or plain text for a terminal',
    doc: 'the operational log on stderr: `json` (one object a line: `time`, `level`, `msg`, fields) or `text` (plain lines for a terminal); see [Operating it](#operating-it)',
  }),
});
