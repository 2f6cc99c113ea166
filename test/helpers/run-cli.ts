/**
 * The `equity-facts` command run as a user runs it: a real process (`src/cli/main.ts` under tsx),
 * its output collected whole, for tests of usage errors, help texts and exit codes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The command's entry point, for tests that spawn it with options of their own. */
export const CLI_MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** What a finished run printed, and its exit code (null when a signal ended it). */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `equity-facts ARGS` to its end.
 *
 * @param env - variables added to this process's environment.
 */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_MAIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stdout, stderr };
}
