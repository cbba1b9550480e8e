import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PUBLIC_SCRIPT_MANIFEST } from '#server/platform/http/public-script';

/** Where the public pages' own script is said to be in the web root builtWebRoot makes. */
export const TEST_PUBLIC_SCRIPT = '/assets/pagina-publica-abc.js';

/**
 * A web root as `npm run build` leaves it, as far as the rendered public pages need: the shell (the
 * project's index.html unless another is given) and the manifest naming their own script.
 */
export function builtWebRoot(
  shell = fs.readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8'),
): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-web-'));
  fs.writeFileSync(path.join(root, 'index.html'), shell);
  fs.mkdirSync(path.join(root, '.vite'));
  fs.writeFileSync(
    path.join(root, PUBLIC_SCRIPT_MANIFEST),
    JSON.stringify({ 'src/web/public-page.ts': { file: TEST_PUBLIC_SCRIPT.slice(1), isEntry: true } }),
  );
  return root;
}
