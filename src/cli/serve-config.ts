/**
 * Configuration of `equity-facts serve`: flags first, then `EQF_*` environment variables, then
 * the defaults of the handler. One table lists every setting, so the help text, the README
 * table and the parser cannot disagree.
 */
import { parseArgs } from 'node:util';
import type { ListenOptions } from '../server.js';

/** One setting of `serve`. */
export interface ServeSetting {
  /** Flag name without `--`, or null for environment-only settings. */
  readonly flag: string | null;
  readonly env: string;
  readonly option: 'port' | 'host' | 'snapshotsDir' | 'keysFile' | 'baseUrl' | 'license' | 'attribution';
  readonly fallback: string;
  readonly description: string;
}

/** Every setting of `serve`. */
export const SERVE_SETTINGS: readonly ServeSetting[] = [
  { flag: 'port', env: 'EQF_PORT', option: 'port', fallback: '8080', description: 'TCP port (0 picks a free one)' },
  { flag: 'host', env: 'EQF_HOST', option: 'host', fallback: '127.0.0.1', description: 'address to listen on' },
  { flag: 'snapshots', env: 'EQF_SNAPSHOTS_DIR', option: 'snapshotsDir', fallback: 'the embedded snapshots/', description: 'snapshots folder (CURRENT + versions)' },
  { flag: 'keys', env: 'EQF_KEYS_FILE', option: 'keysFile', fallback: 'the embedded keys.demo.json', description: 'keys file' },
  { flag: null, env: 'EQF_BASE_URL', option: 'baseUrl', fallback: 'http://127.0.0.1:8080', description: 'public base address (OpenAPI servers, attribution)' },
  { flag: null, env: 'EQF_LICENSE', option: 'license', fallback: 'built-in licence and disclaimer', description: 'the license string of every response' },
  { flag: null, env: 'EQF_ATTRIBUTION', option: 'attribution', fallback: '"Written analysis by equity-facts, <base url>"', description: 'the attribution string' },
];

/** A usage problem with the serve flags or environment. */
export class ServeUsageError extends Error {}

/**
 * Reads the serve settings.
 *
 * @param argv - words after `serve`.
 * @param env - the environment (process.env).
 * @throws ServeUsageError naming the flag or variable at fault.
 */
export function readServeConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ListenOptions {
  const flagOptions: Record<string, { type: 'string' }> = {};
  for (const setting of SERVE_SETTINGS) if (setting.flag) flagOptions[setting.flag] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: flagOptions, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ServeUsageError((error as Error).message);
  }
  const out: ListenOptions = {};
  for (const setting of SERVE_SETTINGS) {
    const fromFlag = setting.flag ? values[setting.flag] : undefined;
    const raw = typeof fromFlag === 'string' ? fromFlag : env[setting.env];
    if (raw === undefined || raw === '') continue;
    const source = typeof fromFlag === 'string' ? `--${setting.flag}` : setting.env;
    if (setting.option === 'port') {
      if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw new ServeUsageError(`${source} must be a port number from 0 to 65535, got "${raw}"`);
      out.port = Number(raw);
    } else {
      out[setting.option] = raw;
    }
  }
  return out;
}
