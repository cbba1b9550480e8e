import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { testPasswordHash } from '#server/testing/auth-helpers';
import { seedSyntheticResults } from '#server/testing/results-synthetic';
import { freePort, type ServerProcess, startServerProcess } from '#server/testing/server-process';
import { setElectionPhase } from '#server/testing/test-app';
import { signIn } from './support/login';
import { PHONE } from './support/phone';
import { forgetSessions } from './support/sessions';

/*
 * Lose the server, lose nothing (decision 135): a phone votes and sends photos to a server whose
 * database Litestream copies to a folder; the copy is taken once the first items are 'Asegurado'; more
 * items are sent; the server is killed and its data folder deleted; a new folder is restored from the
 * copy taken before the last items and a server started on it at the same address. The phone sees the
 * new epoch, asks which of its items the server has, and sends the rest: every item is there once.
 */

const run = promisify(execFile);
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const VALIDATOR = 'validadora.perdida@comando.example';
const PASSWORD = 'clave-de-la-perdida-123';
const SLUG = 'cabimas';

test.use(PHONE);

const card = (page: Page, name: string) => page.getByRole('article', { name });
const states = (page: Page, name: string) => card(page, name).getByTestId('envio-estado');

async function voteAndPhoto(page: Page, name: string) {
  await page.getByLabel('Buscar').fill(name);
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByRole('button', { name: `Votar: ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Votar' });
  await dialog.getByRole('checkbox', { name: /FA/ }).check();
  await dialog.getByRole('button', { name: 'Votar' }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel(`Subir foto Gobernador de ${name}`).setInputFiles(path.join(FIXTURES, 'ballot.jpg'));
  await expect(page.getByTestId('loading-cover')).toBeHidden();
}

/** What the server holds of a record: the vote's audit rows and the photos' rows (each must be 1). */
function held(dataDir: string, recordId: number) {
  const db = new Database(path.join(dataDir, 'comando.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
    return {
      votes: count(
        "select count(*) as n from audit_log where action = 'record.vote' and target = ?",
        `record:${recordId}`,
      ),
      photos: count('select count(*) as n from photos where record_id = ?', recordId),
    };
  } finally {
    db.close();
  }
}

test('a phone’s items survive the loss of the server: restored from a copy taken before the last ones, it gets them again, once', async ({
  page,
}) => {
  // Two servers start, Litestream copies and restores, and the phone checks its items every 15 s.
  test.setTimeout(240_000);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-e2e-perdida-'));
  const firstDir = path.join(scratch, 'datos');
  const replica = path.join(scratch, 'copia');
  const earlierCopy = path.join(scratch, 'copia-anterior');
  const restoredDir = path.join(scratch, 'datos-restaurados');
  const env = (replicaDir: string) => ({
    NODE_ENV: 'test',
    REPLICA_URL: `file://${replicaDir}`,
    // Kept off the machine, as the README asks: the data folder's own key would be lost with it.
    SECOND_FACTOR_KEY: Buffer.alloc(32, 5).toString('base64'),
  });

  const db = await openDatabase({ dataDir: firstDir, databaseUrl: undefined });
  let names: { id: number; nombre: string }[];
  try {
    const now = new Date();
    await migrateToLatest(db);
    await seedReferenceData(db, now, 'Comando Zulia');
    await setElectionPhase(db, 'en_curso', now);
    const actor = { email: 'e2e', ip: null };
    await createAccountsService(db.kysely, () => now, testPasswordHash).createUser(
      { email: VALIDATOR, password: PASSWORD, role: 'staff' },
      actor,
    );
    await createDepartmentsService(db.kysely, () => now).grantAccess(VALIDATOR, SLUG, actor);
    await seedSyntheticResults(db.kysely, { departments: [SLUG], unvoted: 2, label: 'Perdida', now });
    names = await db.kysely.selectFrom('records').select(['id', 'nombre']).orderBy('id').limit(2).execute();
  } finally {
    await db.close();
  }
  const [first, second] = names as [{ id: number; nombre: string }, { id: number; nombre: string }];

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let server: ServerProcess | undefined = await startServerProcess({
    port,
    dataDir: firstDir,
    name: 'de la pérdida',
    env: env(replica),
  });
  try {
    await page.goto(`${origin}/login`);
    await signIn(page, VALIDATOR, PASSWORD);
    await page.goto(`${origin}/validation/${SLUG}`);

    // The first record's vote and photo reach the server, then its off-machine copy: 'Asegurado'.
    await voteAndPhoto(page, first.nombre);
    await expect(states(page, first.nombre)).toHaveText(['Enviado', 'Enviado']);
    // Litestream syncs every second; the phone asks every 15 s: a wait for the check, not a timing.
    await expect(states(page, first.nombre)).toHaveText(['Asegurado', 'Asegurado'], { timeout: 90_000 });
    // The copy as it stands now: what a restore will start from, before the last items.
    fs.cpSync(replica, earlierCopy, { recursive: true });

    // The second record's vote and photo reach the server only.
    await page.getByLabel('Buscar').fill('');
    await voteAndPhoto(page, second.nombre);
    await expect(states(page, second.nombre)).toHaveText(['Enviado', 'Enviado']);
    expect(held(firstDir, second.id)).toEqual({ votes: 1, photos: 1 });

    // The machine is lost: the server and its Litestream killed, the data folder deleted.
    const litestreamPid = Number(fs.readFileSync(path.join(firstDir, 'litestream.pid'), 'utf8').trim());
    server.child.kill('SIGKILL');
    process.kill(litestreamPid, 'SIGKILL');
    await server.stop();
    server = undefined;
    fs.rmSync(firstDir, { recursive: true, force: true });

    // A new machine: the earlier copy restored in one command, a server started on it at the same address.
    const restore = await run(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', 'restore', '--desde-replica'],
      {
        env: { ...process.env, ...env(earlierCopy), DATA_DIR: restoredDir, DATABASE_URL: '' },
      },
    );
    expect(restore.stdout).toMatch(/época 2 de la base de datos/);
    expect(held(restoredDir, first.id)).toEqual({ votes: 1, photos: 1 });
    expect(held(restoredDir, second.id)).toEqual({ votes: 0, photos: 0 });
    server = await startServerProcess({ port, dataDir: restoredDir, name: 'restaurado', env: env(earlierCopy) });

    // The phone sees the new epoch, asks, and sends again the second record's items: each there once.
    await expect.poll(() => held(restoredDir, second.id), { timeout: 90_000 }).toEqual({ votes: 1, photos: 1 });
    expect(held(restoredDir, first.id)).toEqual({ votes: 1, photos: 1 });
    await expect(states(page, second.nombre)).toHaveText(['Enviado', 'Enviado']);
  } finally {
    forgetSessions(origin);
    await server?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
