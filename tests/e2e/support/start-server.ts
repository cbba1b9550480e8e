// Starts one end-to-end app instance on a fresh database: wipes its folder, seeds the known data,
// then runs the real server entry point.
import fs from 'node:fs';
import { E2E_NOW, E2E_SERVERS, type E2EServerName, e2eDataDir } from './servers';

const name = process.argv[2] as E2EServerName;
const server = E2E_SERVERS[name];
if (!server) throw new Error(`Servidor e2e desconocido: ${name}`);

const dataDir = e2eDataDir(name);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

Object.assign(process.env, {
  NODE_ENV: 'test',
  PORT: String(server.port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  COMANDO_DEMO: '0',
  COMANDO_NOW: E2E_NOW,
  LOG_LEVEL: 'warn',
  PUBLIC_ORIGIN: server.url,
  ...server.env,
});

if (server.seeded) {
  const { seedE2E } = await import('./seed');
  await seedE2E(dataDir);
}
await import('#server/server');
