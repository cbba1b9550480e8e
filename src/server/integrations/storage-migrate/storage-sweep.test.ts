import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '#server/platform/db/database';
import { seedReferenceData } from '#server/platform/db/seed/reference';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { addStoredPhoto, photoFilesUnder } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { freePort, startServerProcess } from '#server/testing/server-process';
import { createTestApp, type TestApp, testDialect } from '#server/testing/test-app';
import { createTusUpload, noisyJpeg, patchTusUpload, sendTusPhoto } from '#server/testing/tus';
import { CANDIDATE_PHOTOS_PATH } from '#shared/features/candidates/candidates';
import { runStorageCheck, sweepStorage, sweepStorageAtStart } from './storage-sweep';

let t: TestApp | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const DAY = 24 * 60 * 60 * 1000;

/**
 * What a crash leaves behind, next to what must stay: a ballot photo (three files a row names), a
 * candidate photo, a photo file no row names, a `.part` of a storage write and one of an upload.
 */
async function crashedStorage(): Promise<{ t: TestApp; kept: string[]; leftovers: string[] }> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sweep-'));
  t = await createTestApp({ dataDir });
  const storage = createPhotoStorage(t.config);
  const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
  await addStoredPhoto(t, id, 'gobernador');
  const candidate = await storage.put(Buffer.from('retrato'), { suffix: 'jpg', contentType: 'image/jpeg' });
  await t.db.kysely
    .updateTable('candidates')
    .set({ photo_url: `${CANDIDATE_PHOTOS_PATH}/${candidate.key}` })
    .where('code', '=', 'FA')
    .execute();
  const kept = photoFilesUnder(dataDir);
  // Stored, then the process died before its row was written.
  const orphan = await storage.put(Buffer.from('huérfana'), { suffix: 'jpg', contentType: 'image/jpeg' });
  const [dir] = orphan.key.split('/') as [string];
  fs.writeFileSync(path.join(dataDir, 'photos', dir, `${'a'.repeat(32)}.jpg.0123456789ab.part`), 'a medias');
  fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'uploads', '5b0c1f7e-0000-4000-8000-000000000000.part'), 'subida cortada');
  const leftovers = photoFilesUnder(dataDir).filter((f) => !kept.includes(f));
  expect(leftovers).toHaveLength(3);
  return { t, kept, leftovers };
}

describe('the storage sweep', () => {
  it('removes an orphan photo and .part files once past the grace period, and nothing a row names', async () => {
    const { t, kept, leftovers } = await crashedStorage();
    const root = t.config.dataDir;
    // The files were just written: within the grace period they may be an upload in progress.
    const young = await sweepStorage(t.db.kysely, t.config, { now: new Date() });
    expect(young.orphans).toHaveLength(1);
    expect(young.parts).toHaveLength(2);
    expect(young.removed).toEqual([]);
    expect(photoFilesUnder(root)).toHaveLength(kept.length + leftovers.length);

    // A day and a minute later (the clock is the sweep's own, injected).
    const later = await sweepStorage(t.db.kysely, t.config, { now: new Date(Date.now() + DAY + 60_000) });
    expect(later.removed).toHaveLength(3);
    expect(photoFilesUnder(root)).toEqual(kept);
    // The photo a row names still opens.
    const photo = await t.db.kysely.selectFrom('photos').select('display_key').executeTakeFirstOrThrow();
    expect(await createPhotoStorage(t.config).exists(photo.display_key)).toBe(true);
  });

  it('storage:check lists them, removes the old ones, and --dry-run only lists', async () => {
    const { t, kept } = await crashedStorage();
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const later = () => new Date(Date.now() + DAY + 60_000);
    expect(await runStorageCheck(['--dry-run'], t.db.kysely, t.config, io, later)).toBe(0);
    expect(lines).toContain('Fotos que ninguna fila nombra: 1');
    expect(lines).toContain('Archivos .part de escrituras o subidas sin terminar: 2');
    expect(lines).toContain('Sin cambios (--dry-run).');
    expect(photoFilesUnder(t.config.dataDir)).toHaveLength(kept.length + 3);

    lines.length = 0;
    expect(await runStorageCheck([], t.db.kysely, t.config, io, later)).toBe(0);
    expect(lines.filter((l) => l.endsWith('\tborrado'))).toHaveLength(3);
    expect(photoFilesUnder(t.config.dataDir)).toEqual(kept);
    expect(await runStorageCheck(['--todo'], t.db.kysely, t.config, io, later)).toBe(2);
  });

  it('leaves resumable uploads to their own sweep: a start after finished and unfinished ones says nothing', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sweep-tus-'));
    t = await createTestApp({ dataDir });
    const people = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg(300, 200);
    const target = { slug: SLUG_A, recordId: id, kind: 'gobernador', key: randomUUID() };
    const finished = await sendTusPhoto(t, people.validatorA, target, photo);
    expect(finished.done?.statusCode).toBe(201);
    const unfinished = await createTusUpload(t, people.validatorA, { ...target, kind: 'an', size: photo.length });
    const half = photo.subarray(0, photo.length / 2);
    expect((await patchTusUpload(t, people.validatorA, unfinished.location, 0, half)).statusCode).toBe(204);
    expect(fs.readdirSync(path.join(dataDir, 'uploads', 'tus')).sort()).toEqual(
      [unfinished.id, `${unfinished.id}.json`].sort(),
    );

    // Two days on, as at a restart: nothing unknown, nothing a leftover, nothing removed.
    const later = new Date(Date.now() + 2 * DAY);
    const report = await sweepStorage(t.db.kysely, t.config, { now: later });
    expect(report).toEqual({ orphans: [], parts: [], removed: [], unknown: [] });
    const logged: string[] = [];
    const log = {
      warn: (_: unknown, message: string) => logged.push(`warn: ${message}`),
      error: (_: unknown, message: string) => logged.push(`error: ${message}`),
    } as unknown as FastifyBaseLogger;
    await sweepStorageAtStart(t.db.kysely, { ...t.config, now: () => later }, log);
    expect(logged).toEqual([]);
  });

  // The server process runs on SQLite whatever the suite's database; once is enough.
  it.skipIf(testDialect === 'postgres')('runs at every start of the server', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-sweep-start-'));
    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    await migrateToLatest(db);
    await seedReferenceData(db, new Date());
    await db.close();
    const orphan = path.join(dataDir, 'photos', 'ab', `${'c'.repeat(32)}.jpg`);
    const part = path.join(dataDir, 'uploads', 'cortada.part');
    for (const file of [orphan, part]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'resto de un fallo');
    }
    // The server's clock starts two days after the files were written.
    const server = await startServerProcess({
      port: await freePort(),
      dataDir,
      name: 'con restos en el almacenamiento',
      env: { NODE_ENV: 'test', COMANDO_NOW: new Date(Date.now() + 2 * DAY).toISOString() },
    });
    try {
      // The sweep runs in the background once the server listens: wait for it (generous bound).
      for (let i = 0; i < 200 && (fs.existsSync(orphan) || fs.existsSync(part)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(fs.existsSync(orphan)).toBe(false);
      expect(fs.existsSync(part)).toBe(false);
    } finally {
      await server.stop();
    }
  });
});
