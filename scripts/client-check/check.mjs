// The generated-client check (issue 13, item 5), run by .ci/run after `npm ci` built dist/:
// starts the compiled server on a free port with the embedded snapshot and demo keys, fetches the
// served OpenAPI document, generates types from it with openapi-typescript, typechecks client.ts
// with TypeScript 5.9, and runs it against the server. Exits non-zero on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = (name) => join(here, 'node_modules', '.bin', name);
// The demo Signal key (README): public, and only valid with keys.demo.json.
const KEY = 'eqf_TGMBlooxG3NRmHZxrwbVrQdZddQ55rhT0BewZu';

const freePort = () => new Promise((resolve, reject) => {
  const probe = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

function run(command, args) {
  const result = spawnSync(command, args, { cwd: here, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(root, 'dist', 'cli', 'main.js'), 'serve', '--port', String(port)], {
  env: { ...process.env, EQF_BASE_URL: base }, stdio: ['ignore', 'ignore', 'pipe'],
});
try {
  await new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`server not listening after 60 s:\n${log}`)), 60_000);
    server.stderr.setEncoding('utf8').on('data', (text) => {
      log += text;
      if (/serving on /.test(log)) { clearTimeout(timer); resolve(); }
    });
    server.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${log}`)); });
  });
  const response = await fetch(`${base}/api/v1/openapi.json`);
  if (!response.ok) throw new Error(`GET /api/v1/openapi.json: ${response.status}`);
  mkdirSync(join(here, 'out'), { recursive: true });
  writeFileSync(join(here, 'out', 'openapi.json'), await response.text());
  run(bin('openapi-typescript'), ['out/openapi.json', '--output', 'out/api.d.ts']);
  run(bin('tsc'), ['-p', 'tsconfig.json']);
  run(process.execPath, ['out/js/client.js', base, KEY]);
} finally {
  server.kill('SIGTERM');
}
