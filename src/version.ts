/** The package's version, read once from its package.json (for the OpenAPI `info.version`). */
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from './options.js';

/** `version` from package.json. */
export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as { version: string }).version;
