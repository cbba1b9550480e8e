import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionCookie } from '#server/testing/auth-helpers';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
let server: ServerProcess | undefined;
let logDir: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await t?.close();
  t = undefined;
  if (logDir) fs.rmSync(logDir, { recursive: true, force: true });
  logDir = undefined;
});

const PERSON = { nombre: 'Yusmary Chourio Fuenmayor', telefono: '0414-6123457' };

describe('the production request log', () => {
  it('keeps the route of a search of Registros, never what was searched', async () => {
    t = await createTestApp();
    await signInPeople(t);
    await addRecords(t, SLUG_A, [PERSON]);
    const cookie = await sessionCookie(t, PEOPLE.admin);
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-log-'));
    const logFile = path.join(logDir, 'comando.log');
    // The real server as production runs it, on the same database.
    server = await startServerProcess({
      port: await freePort(),
      dataDir: t.config.dataDir,
      name: 'en producción',
      logFile,
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: t.config.databaseUrl ?? '' },
    });
    for (const q of [PERSON.nombre, 'Chourio', PERSON.telefono, '6123457']) {
      const res = await fetch(`${server.origin}/api/admin/records?q=${encodeURIComponent(q)}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain('Y');
    }
    expect(await server.stop()).toBe(0);
    server = undefined;
    const log = fs.readFileSync(logFile, 'utf8');
    // The searches were logged, by their route.
    expect(log.match(/"url":"\/api\/admin\/records"/g)?.length).toBe(4);
    for (const secret of ['Yusmary', 'Chourio', 'Fuenmayor', '6123457', encodeURIComponent(PERSON.nombre), 'q=']) {
      expect(log).not.toContain(secret);
    }
  });
});
