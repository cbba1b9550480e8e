// Prints the JavaScript each public page needs before it can show anything (gzipped), and fails the
// build when one is over budget. Reads Vite's manifest: entry + the page's lazy chunk + their imports
// (the three public pages are in the entry itself, decision 041: they have no chunk of their own).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 120;
const manifest = JSON.parse(fs.readFileSync('dist/.vite/manifest.json', 'utf8'));
const pages = {
  '/': 'src/web/app/routes/home.tsx',
  '/agenda': 'src/web/app/routes/agenda.tsx',
  '/notas': 'src/web/app/routes/notas.tsx',
};

function collect(key, seen) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return;
  seen.add(key);
  for (const dep of chunk.imports ?? []) collect(dep, seen);
}

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join('dist', file)), { level: 9 }).length;
const rows = [];
let over = false;
for (const [route, source] of Object.entries(pages)) {
  const seen = new Set();
  collect('index.html', seen);
  collect(source, seen);
  const files = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const kb = files.reduce((sum, f) => sum + gz(f), 0) / 1024;
  if (kb > BUDGET_KB) over = true;
  rows.push({ página: route, 'JS inicial (KB gzip)': kb.toFixed(1), límite: BUDGET_KB, archivos: files.length });
}
console.table(rows);
if (over) {
  console.error(`Una página pública supera ${BUDGET_KB} KB de JavaScript inicial.`);
  process.exit(1);
}
