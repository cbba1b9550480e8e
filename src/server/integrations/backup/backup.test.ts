import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreBackup, takeBackup } from '#server/integrations/backup/backup';
import { countRows } from '#server/platform/db/backup';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import type { Database } from '#server/platform/db/schema';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, createTestDb, type TestApp, type TestDb } from '#server/testing/test-app';

let t: TestApp;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0).reverse()) await done();
  await t?.close();
});

function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `comando-${name}-`));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty place to restore into: a data folder without a database, or an empty PostgreSQL database. */
async function emptyTarget(): Promise<{ dataDir: string; databaseUrl: string | undefined }> {
  const dataDir = tempDir('restaurada');
  if (!t.config.databaseUrl) return { dataDir, databaseUrl: undefined };
  const empty: TestDb = await createTestDb();
  cleanup.push(() => empty.destroy());
  return { dataDir, databaseUrl: empty.options.databaseUrl };
}

/** Every table's rows, each row as JSON, sorted: two databases with the same rows give the same. */
async function everyTable(kysely: Kysely<Database>, tables: string[]): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(kysely);
    all[table] = rows.rows.map((r) => JSON.stringify(r)).sort();
  }
  return all;
}

/** Every photo file under a data folder, with its bytes. */
function photoFiles(dataDir: string): Map<string, Buffer> {
  const root = path.join(dataDir, 'photos');
  const files = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(root, file), fs.readFileSync(file));
    }
  }
  return files;
}

async function openRestored(target: { dataDir: string; databaseUrl: string | undefined }) {
  const db = await openDatabase(target);
  cleanup.push(() => db.close());
  return db.kysely;
}

describe('backup and restore', () => {
  it('copies the database and its photos while votes are written, and restores every table and photo', async () => {
    t = await createTestApp();
    const cookies = await signInPeople(t);
    const ids = await addRecords(t, SLUG_A, 400);
    for (const id of ids.slice(0, 3)) {
      await addStoredPhoto(t, id, 'gobernador');
      await addStoredPhoto(t, id, 'an');
    }
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);

    // Votes go on, one after another, all through the first backup.
    let stop = false;
    let voted = 0;
    const load = (async () => {
      for (const id of ids) {
        if (stop) break;
        const res = await t.request({
          method: 'POST',
          url: `/api/validation/${SLUG_A}/records/${id}/vote`,
          headers: { cookie: cookies.validatorA },
          payload: { candidates: ['FA'] },
        });
        expect(res.statusCode).toBe(201);
        voted += 1;
      }
    })();
    while (voted < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    const during = tempDir('copia-durante');
    const votedBefore = voted;
    const first = await takeBackup(t.config, during, out);
    const votedAfter = voted;
    stop = true;
    await load;
    expect(first.missing).toEqual([]);
    // 6 photos of 3 files each.
    expect(first.manifest.photos).toHaveLength(18);
    expect(votedAfter).toBeGreaterThan(votedBefore);

    // Restored elsewhere: whole (the restore compares every table's rows and every photo with the
    // manifest) and consistent at one instant, between the votes counted before and after it.
    const elsewhere = await emptyTarget();
    expect(await restoreBackup({ ...elsewhere, storage: t.config.storage }, during, out)).toEqual([]);
    const restored = await openRestored(elsewhere);
    const votes = Number(
      (await sql<{ n: number }>`select count(*) as n from record_votes`.execute(restored)).rows[0]?.n,
    );
    const votedRecords = await restored.selectFrom('records').select('id').where('voted_at', 'is not', null).execute();
    expect(votes).toBe(votedRecords.length);
    expect(votedRecords.length).toBeGreaterThanOrEqual(votedBefore);
    expect(votedRecords.length).toBeLessThanOrEqual(votedAfter + 1);
    // The progress counters were copied at the same instant as the votes they count.
    const counts = await restored.selectFrom('record_counts').select('voted').execute();
    expect(counts.reduce((n, r) => n + Number(r.voted), 0)).toBe(votedRecords.length);

    // Once the votes stop, a backup restored elsewhere holds every row and photo the source holds.
    const after = tempDir('copia-despues');
    const second = await takeBackup(t.config, after, out);
    const again = await emptyTarget();
    expect(await restoreBackup({ ...again, storage: t.config.storage }, after, out)).toEqual([]);
    const tables = Object.keys(await countRows(t.config));
    expect(tables).toContain('records');
    // Each side then wrote one change of its own (decision 106): the source, the backup it took; the
    // restored copy, its new epoch. Everything else is the same, row for row.
    const own = ['audit_log', 'audit_chain_head', 'backups_taken', 'database_epochs'];
    const shared = tables.filter((table) => !own.includes(table));
    const restoredDb = await openRestored(again);
    expect(await everyTable(restoredDb, shared)).toEqual(await everyTable(t.db.kysely, shared));
    const actions = async (db: Kysely<Database>) =>
      (await db.selectFrom('audit_log').select(['seq', 'hash', 'action']).orderBy('id').execute()).map(
        (r) => `${r.seq} ${r.action} ${r.hash}`,
      );
    const restoredAudit = await actions(restoredDb);
    const sourceAudit = await actions(t.db.kysely);
    expect(restoredAudit.slice(0, -1)).toEqual(sourceAudit.slice(0, -1));
    expect(restoredAudit.at(-1)).toContain(' database.epoch ');
    expect(sourceAudit.at(-1)).toContain(' backup.taken ');
    const epochs = await restoredDb.selectFrom('database_epochs').selectAll().orderBy('epoch').execute();
    expect(epochs.map((e) => [e.epoch, e.cause, e.restored_until])).toEqual([
      [1, 'nueva', null],
      [2, 'copia', second.manifest.createdAt],
    ]);
    const backups = await t.db.kysely.selectFrom('backups_taken').select(['taken_at', 'missing_photos']).execute();
    expect(backups).toEqual([
      { taken_at: first.manifest.createdAt, missing_photos: 0 },
      { taken_at: second.manifest.createdAt, missing_photos: 0 },
    ]);
    expect(second.manifest.tables.record_votes).toBe(voted);
    expect(photoFiles(again.dataDir)).toEqual(photoFiles(t.config.dataDir));
    expect(lines.at(-1)).toMatch(/^Restaurada la copia del .*: \d+ tablas con las mismas filas y 18 fotos idénticas/);
  });

  it('names in its check what audit:verify names: a counter changed with SQL before the copy', async () => {
    t = await createTestApp();
    const cookies = await signInPeople(t);
    const [id] = await addRecords(t, SLUG_A, 1);
    const res = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: cookies.validatorA },
      payload: { candidates: ['FA'] },
    });
    expect(res.statusCode).toBe(201);
    await sql`update candidate_totals set votes = votes + 500`.execute(t.db.kysely);
    const copy = tempDir('copia-cambiada');
    await takeBackup(t.config, copy, () => {});
    const problems = await restoreBackup({ ...(await emptyTarget()), storage: t.config.storage }, copy, () => {});
    expect(problems).toContain(`Auditoría: Contador ${SLUG_A}, votos de FA: guarda 501 y la cadena da 1.`);
  });

  it('never restores over a database or into a folder that holds one, and refuses a tampered photo', async () => {
    t = await createTestApp();
    const [id] = await addRecords(t, SLUG_A, 1);
    await addStoredPhoto(t, id!, 'clez');
    const folder = tempDir('copia');
    await takeBackup(t.config, folder, () => {});
    await expect(takeBackup(t.config, folder, () => {})).rejects.toThrow(/no está vacía/);
    // Over the live database itself.
    await expect(restoreBackup(t.config, folder, () => {})).rejects.toThrow(/ya existe|no está vacía/);

    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    fs.appendFileSync(path.join(folder, 'photos', manifest.photos[0].key), 'x');
    const target = await emptyTarget();
    await expect(restoreBackup({ ...target, storage: t.config.storage }, folder, () => {})).rejects.toThrow(
      /no es la del manifiesto: nada se restauró/,
    );
    expect(fs.existsSync(path.join(target.dataDir, 'comando.sqlite'))).toBe(false);
  });
});

describe('modes of what the server writes (decision 092)', () => {
  /** Each folder and file under `root` (itself included) with its permission bits, in octal. */
  function modesUnder(root: string): Record<string, string> {
    const modes: Record<string, string> = { '.': (fs.statSync(root).mode & 0o777).toString(8) };
    for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
      const file = path.join(entry.parentPath, entry.name);
      modes[path.relative(root, file)] = (fs.statSync(file).mode & 0o777).toString(8);
    }
    return modes;
  }
  const onlyModes = (modes: Record<string, string>) => [...new Set(Object.values(modes))].sort();

  // The usual umask, under which folders would be 755 and files 644: the modes must not depend on it.
  let umask: number | undefined;
  afterEach(() => {
    if (umask !== undefined) process.umask(umask);
    umask = undefined;
  });

  it('a new data folder, its SQLite database with -wal and -shm, photos and uploads: folders 700, files 600', async () => {
    umask = process.umask(0o022);
    const dataDir = path.join(tempDir('modos'), 'datos', 'comando');
    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    cleanup.push(() => db.close());
    await migrateToLatest(db);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['comando.sqlite', 'comando.sqlite-shm', 'comando.sqlite-wal']);
    const sqlite = modesUnder(path.dirname(dataDir));
    expect(sqlite).toEqual({
      '.': '700',
      comando: '700',
      'comando/comando.sqlite': '600',
      'comando/comando.sqlite-shm': '600',
      'comando/comando.sqlite-wal': '600',
    });

    // The photos and uploads of an app on a new data folder (whatever the suite's database).
    const appDir = path.join(tempDir('modos-app'), 'datos');
    t = await createTestApp({ dataDir: appDir });
    const [id] = await addRecords(t, SLUG_A, 1);
    await addStoredPhoto(t, id!, 'gobernador');
    const modes = modesUnder(appDir);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['photos', 'uploads']));
    expect(Object.keys(modes).filter((f) => f.startsWith('photos/') && f.endsWith('.jpg')).length).toBeGreaterThan(0);
    for (const [file, mode] of Object.entries(modes)) {
      expect(mode, file).toBe(fs.statSync(path.join(appDir, file)).isDirectory() ? '700' : '600');
    }
  });

  it('a backup in a new folder: folders 700, the database copy, the photos and the manifest 600', async () => {
    t = await createTestApp();
    const [id] = await addRecords(t, SLUG_A, 1);
    await addStoredPhoto(t, id!, 'an');
    umask = process.umask(0o022);
    const folder = path.join(tempDir('copias'), 'copia-de-hoy');
    await takeBackup(t.config, folder, () => {});
    const modes = modesUnder(folder);
    expect(Object.keys(modes)).toEqual(
      expect.arrayContaining([
        '.',
        'manifest.json',
        'photos',
        t.config.databaseUrl ? 'comando.pgdump' : 'comando.sqlite',
      ]),
    );
    for (const [file, mode] of Object.entries(modes)) {
      expect(mode, file).toBe(fs.statSync(path.join(folder, file)).isDirectory() ? '700' : '600');
    }
    expect(onlyModes(modes)).toEqual(['600', '700']);
  });
});
