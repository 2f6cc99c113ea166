/**
 * The optional dependencies (`@redis/client`, `prom-client`): loaded only when their flag is
 * given, and a clear start-up error when it is given but the package is not installed. "Not
 * installed" is made real with a module resolve hook (node:module `register`) that finds neither
 * package, as an `npm ci --omit=optional` install would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { KEYS, withKey } from '../helpers/harness.js';
import { fixtureDir } from '../helpers/serve-process.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const OPTIONAL = ['@redis/client', 'prom-client'];

/** Writes a resolve hook that refuses the optional packages, and the module that registers it. */
async function withoutOptional(dir: string): Promise<string> {
  await writeFile(join(dir, 'hooks.mjs'), `
const refused = ${JSON.stringify(OPTIONAL)};
export async function resolve(specifier, context, next) {
  if (refused.includes(specifier)) throw Object.assign(new Error(\`Cannot find package '\${specifier}'\`), { code: 'ERR_MODULE_NOT_FOUND' });
  return next(specifier, context);
}`);
  await writeFile(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
  return join(dir, 'register.mjs');
}

test('without the optional packages: the server serves, and --redis-url or --metrics-port stop the start naming the package to install', async (t) => {
  const fixture = await fixtureDir(t);
  const register = await withoutOptional(fixture.dir);
  const serve = (flags: string[]) => spawn(process.execPath, ['--import', 'tsx', '--import', register, MAIN, 'serve', '--port', '0', '--access-log', 'off',
    '--snapshots', fixture.snapshots, '--keys', fixture.keys, ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });

  for (const [flags, name] of [[['--redis-url', 'redis://127.0.0.1:1'], '@redis/client'], [['--metrics-port', '0'], 'prom-client']] as const) {
    const child = serve([...flags]);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
    const [code] = await once(child, 'exit');
    assert.equal(code, 1, stderr);
    assert.match(stderr, new RegExp(`cannot start: .*needs? the optional package ${name}, which is not installed; run \`npm install ${name}\``));
  }

  const plain = serve([]);
  t.after(() => plain.kill('SIGTERM'));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    plain.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const match = /serving on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    plain.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  const response = await request(`${url}/api/v1/finance/filings?limit=1`, { headers: withKey(KEYS.free) });
  assert.equal(response.statusCode, 200);
  await response.body.dump();
});
