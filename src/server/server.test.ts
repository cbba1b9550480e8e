import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServerOnce } from '#server/testing/server-process';

const root = path.resolve(import.meta.dirname, '../..');

// The server as `npm start` runs it.
beforeAll(() => buildServerOnce());

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['dist-server/server.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('starting the server with a bad environment', () => {
  it('names every bad variable in one message and exits non-zero, without a stack trace', () => {
    const res = start({ PORT: 'noventa', LOG_LEVEL: 'mucho', DATABASE_URL: 'mysql://x' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('Configuración inválida');
    expect(res.stderr).toContain('PORT');
    expect(res.stderr).toContain('LOG_LEVEL');
    expect(res.stderr).toContain('DATABASE_URL');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses to start in production without PUBLIC_ORIGIN', () => {
    const res = start({ NODE_ENV: 'production', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'comando-prod-')) });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PUBLIC_ORIGIN: es obligatoria con NODE_ENV=production');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('says plainly when DATA_DIR cannot be written', () => {
    const res = start({ DATA_DIR: '/etc/hostname/comando' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('No se puede escribir en DATA_DIR');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  it('says plainly when PostgreSQL cannot be reached, after trying for DATABASE_CONNECT_TIMEOUT_SECONDS', () => {
    const res = start({
      DATABASE_URL: 'postgres://nadie:clave@127.0.0.1:1/comando',
      DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
      LOG_LEVEL: 'warn',
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(
      /No se pudo conectar con PostgreSQL en postgres:\/\/\*\*\*@127\.0\.0\.1:1\/comando \(\d+ intentos/,
    );
    // Each failed attempt is in the log, without the password.
    expect(res.stdout).toContain('PostgreSQL does not answer (attempt 1)');
    expect(`${res.stdout}${res.stderr}`).not.toContain('clave');
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
