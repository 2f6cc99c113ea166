// Copies the docs page's viewer (Swagger UI's standalone bundle, a dev dependency) and its
// licence into dist/docs/, so the package ships it and the server has no runtime dependency.
// Run by `npm run build` (and so by `prepare`). Swagger UI is Apache-2.0: LICENSE and NOTICE go
// with it (Apache License 2.0 §4).
import { copyFileSync, mkdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'docs');
let from;
try {
  from = dirname(createRequire(join(root, 'package.json')).resolve('swagger-ui-dist/package.json'));
} catch {
  // Installed without dev dependencies (npm ci --omit=dev from a clone): the API works, /docs says what is missing.
  if (!existsSync(join(out, 'swagger-ui-bundle.js'))) process.stderr.write('copy-docs-assets: swagger-ui-dist is not installed; /docs will answer 404 until it is\n');
  process.exit(0);
}
mkdirSync(out, { recursive: true });
for (const [name, target] of [
  ['swagger-ui-bundle.js', 'swagger-ui-bundle.js'],
  ['swagger-ui.css', 'swagger-ui.css'],
  ['LICENSE', 'LICENSE.swagger-ui.txt'],
  ['NOTICE', 'NOTICE.swagger-ui.txt'],
  ['swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui-bundle.js.LICENSE.txt'],
]) {
  copyFileSync(join(from, name), join(out, target));
}
