import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { setElectionPhase, type TestApp, testAppOf, testConfig } from '#server/testing/test-app';

/**
 * SQLite on a disk that fills up: a small tmpfs mounted for the test, which needs root. Without it the
 * tests are skipped, and say so loudly.
 */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-full-disk-'));
let mounted = false;
let whyNot = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  whyNot = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
}
if (!mounted && process.env.COMANDO_REQUIRE_ALL_SUITES === '1') {
  // CI runs as root: there, not being able to check the full disk is a failure, not a skip.
  throw new Error(`No se pudo montar el tmpfs para las pruebas de disco lleno: ${whyNot || 'sin permiso'}`);
}
if (!mounted) {
  console.warn(
    `\n*** OMITIDAS las pruebas de disco lleno: no se pudo montar un tmpfs pequeño (${whyNot || 'sin permiso'}). ` +
      'Ejecútalas como root (o donde `mount -t tmpfs` esté permitido) para comprobar el disco lleno. ***\n',
  );
}

let t: TestApp | undefined;
const log: string[] = [];
const filler = path.join(mountPoint, 'relleno');

beforeAll(async () => {
  if (!mounted) return;
  const app = await buildApp(testConfig({ dataDir: path.join(mountPoint, 'data') }), {
    logger: { level: 'error', stream: { write: (line: string) => log.push(line) } },
  });
  await app.ready();
  // The day under way: the test votes.
  await setElectionPhase(app.db, 'en_curso', new Date());
  t = testAppOf(app);
});

afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes until the disk says ENOSPC. */
function fillDisk(): void {
  const fd = fs.openSync(filler, 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

describe('SQLite on a full disk', () => {
  it.skipIf(!mounted)(
    'answers 503 with Retry-After, says nothing was saved, logs the real error, and /api/ready fails until there is room',
    async () => {
      const app = t as TestApp;
      const people = await signInPeople(app);
      const [first, second] = (await addRecords(app, SLUG_A, 2)) as [number, number];
      const vote = (id: number) =>
        app.request({
          method: 'POST',
          url: `/api/validation/${SLUG_A}/records/${id}/vote`,
          headers: { cookie: people.validatorA },
          payload: { candidates: ['FA'] },
        });
      expect((await app.app.inject({ url: '/api/ready' })).statusCode).toBe(200);

      fillDisk();
      log.length = 0;
      const refused = await vote(first);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.json().message).toBe(
        'El servidor no puede guardar en este momento (la base de datos o el almacenamiento no responde). No se guardó nada: intenta de nuevo en unos segundos.',
      );
      const logged = log.join('\n');
      expect(logged).toMatch(/SQLITE_FULL|database or disk is full/);
      expect(logged).not.toContain('cannot rollback');

      const ready = await app.app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('10');
      expect(ready.json().message).toBe('La base de datos responde pero no puede guardar (¿disco lleno?).');

      // Room again: the same vote goes through, once.
      fs.rmSync(filler);
      expect((await app.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      expect((await vote(first)).statusCode).toBe(201);
      expect((await vote(second)).statusCode).toBe(201);
      const votes = await app.db.kysely.selectFrom('record_votes').select('record_id').execute();
      expect(votes.map((v) => v.record_id).sort()).toEqual([first, second].sort());
    },
  );
});
