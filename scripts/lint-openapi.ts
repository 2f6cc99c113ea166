/**
 * Lints the OpenAPI document with Redocly CLI's `recommended` ruleset, offline: builds the
 * document with the server's default options, writes it and a Redocly config to a temporary folder, runs
 * `redocly lint` on it and exits with Redocly's code. `npm run lint:openapi`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOpenApiDocument, type OpenApiOptions } from '../src/openapi/document.js';
import { errorStatuses } from '../src/openapi/paths.js';
import { DEFAULT_BASE_URL, defaultAttribution, resolveOptions } from '../src/options.js';
import { ROUTES } from '../src/routes.js';
import { PACKAGE_VERSION } from '../src/version.js';

/** The options the server publishes by default (no EQF_* settings), so the lint sees what is served. */
export const SAMPLE_OPTIONS: OpenApiOptions = (() => {
  const { license } = resolveOptions();
  return Object.freeze({ baseUrl: DEFAULT_BASE_URL, license, attribution: defaultAttribution(DEFAULT_BASE_URL), packageVersion: PACKAGE_VERSION });
})();

/**
 * Redocly configuration: the `recommended` ruleset, with only the rules switched off that
 * cannot apply to this API.
 */
const REDOCLY_CONFIG = `extends:
  - recommended
rules:
  # The licence of the data is a sentence (U.S. public domain plus the reuse condition and the
  # disclaimer), not a licence with an SPDX identifier or a URL.
  info-license-strict: off
`;

/** A JSON Pointer token (RFC 6901 §3). */
const pointerToken = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Redocly's ignore file: \`operation-4xx-response\` is waived only for operations that can
 * answer no client error at all (none today: Node's parser refusals can answer any request).
 * Every other operation must have a 4XX.
 */
function ignoreFile(documentName: string): string | undefined {
  const pointers = ROUTES.filter((route) => !errorStatuses(route).some((status) => status >= 400 && status < 500))
    .flatMap((route) => ['get', 'head'].map((method) => `    - '#/paths/${pointerToken(route.path)}/${method}/responses'`));
  return pointers.length === 0 ? undefined : `${documentName}:\n  operation-4xx-response:\n${pointers.join('\n')}\n`;
}

const projectRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Output of one lint run. */
export interface LintResult {
  /** Exit code of `redocly lint` (0: no errors). */
  status: number;
  /** stdout and stderr together. */
  output: string;
}

/**
 * Runs `redocly lint` on a document, offline (telemetry and update checks off).
 *
 * @param document - the OpenAPI document to lint.
 * @returns Redocly's exit code and output; the temporary files are removed.
 */
export function lintDocument(document: unknown): LintResult {
  const folder = mkdtempSync(join(tmpdir(), 'eqf-openapi-'));
  try {
    const file = join(folder, 'openapi.json');
    const config = join(folder, 'redocly.yaml');
    writeFileSync(file, JSON.stringify(document, null, 2));
    writeFileSync(config, REDOCLY_CONFIG);
    const ignore = ignoreFile('openapi.json');
    if (ignore !== undefined) writeFileSync(join(folder, '.redocly.lint-ignore.yaml'), ignore);
    const result = spawnSync(join(projectRoot, 'node_modules', '.bin', 'redocly'),
      ['lint', file, `--config=${config}`, '--format=stylish'], {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        timeout: 120_000,
      });
    if (result.error) throw result.error;
    return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { status, output } = lintDocument(buildOpenApiDocument(SAMPLE_OPTIONS));
  process.stdout.write(output);
  process.exitCode = status;
}
