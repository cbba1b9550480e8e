// Starts one end-to-end app instance on a fresh database, as `npm start` runs the server: the bundle
// (dist-server/server.mjs, built by scripts/build-server.mjs) under plain Node.js, no TypeScript loader.
// Its settings come from the environment playwright.config.ts gives it; a seeded instance starts on a
// copy of the database seed-template.ts made once (COMANDO_E2E_TEMPLATE), an unseeded one on none.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The file the server opens in its data folder (platform/db/database.ts). */
const DATABASE_FILE = 'comando.sqlite';

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR falta: este script lo arranca playwright.config.ts');
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

const template = process.env.COMANDO_E2E_TEMPLATE;
if (template) {
  const file = path.join(template, DATABASE_FILE);
  if (!fs.existsSync(file)) throw new Error(`No hay base de datos sembrada en ${template}`);
  fs.copyFileSync(file, path.join(dataDir, DATABASE_FILE));
}

await import(pathToFileURL(path.resolve('dist-server/server.mjs')).href);
