// Prints the JavaScript a page runs before it can be used (gzipped), and fails the build when one is over
// budget. The public pages (/, /agenda, /notas) come rendered by the server and run only their own script
// (dist/.vite/pagina-publica.json, decision 065); every other page runs the app's entry and its imports
// (Vite's manifest; a lazy page's chunk comes on top of it).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const PUBLIC_BUDGET_KB = 30;
const APP_BUDGET_KB = 120;
const appManifest = JSON.parse(fs.readFileSync('dist/.vite/manifest.json', 'utf8'));
const publicManifest = JSON.parse(fs.readFileSync('dist/.vite/pagina-publica.json', 'utf8'));

/** The JavaScript files of an entry and everything it imports statically. */
function files(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.imports ?? []).flatMap((dep) => files(manifest, dep, seen))].filter((f) =>
    f.endsWith('.js'),
  );
}

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join('dist', file)), { level: 9 }).length;
const publicFiles = files(publicManifest, 'src/web/public-page.ts');
const appFiles = files(appManifest, 'index.html');
const rows = [
  ...['/', '/agenda', '/notas'].map((page) => ({ página: page, archivos: publicFiles, límite: PUBLIC_BUDGET_KB })),
  { página: 'las demás (la app)', archivos: appFiles, límite: APP_BUDGET_KB },
].map(({ página, archivos, límite }) => ({
  página,
  'JS inicial (KB gzip)': (archivos.reduce((sum, f) => sum + gz(f), 0) / 1024).toFixed(1),
  límite,
  archivos: archivos.length,
}));
console.table(rows);
const over = rows.filter((r) => Number(r['JS inicial (KB gzip)']) > r.límite);
if (over.length > 0) {
  console.error(`Supera su límite de JavaScript inicial: ${over.map((r) => r.página).join(', ')}.`);
  process.exit(1);
}
