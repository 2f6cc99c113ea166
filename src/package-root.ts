/** Where the package lives on disk. */
import { fileURLToPath } from 'node:url';

/** The package's root folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
