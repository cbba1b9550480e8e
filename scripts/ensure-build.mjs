// `npm start` serves the built SPA: build it first when it is missing or older than its sources.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const built = 'dist/index.html';
// The public pages' server rendering module comes from the same `npm run build`.
const rendering = 'dist-ssr/entry-server.js';
const sources = [
  'src/web',
  'src/shared',
  'public',
  'index.html',
  'vite.config.ts',
  'vite.public.config.ts',
  'package-lock.json',
];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const builtAt = fs.existsSync(built) && fs.existsSync(rendering) ? fs.statSync(built).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map(newest));
if (builtAt < sourcesAt) {
  console.log(
    builtAt ? 'La interfaz cambió: compilando de nuevo…' : 'Compilando la interfaz web (solo la primera vez)…',
  );
  execSync('npm run build', { stdio: 'inherit' });
}
