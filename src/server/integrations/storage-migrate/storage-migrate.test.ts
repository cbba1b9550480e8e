import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPhotoStorage, photoStorageFor } from '#server/platform/storage/create-photo-storage';
import { newStorageKey, type PhotoStorage } from '#server/platform/storage/photo-storage';
import { createS3Storage } from '#server/platform/storage/s3-storage';
import { addStoredPhoto, fixture } from '#server/testing/photos';
import { addRecords, SLUG_A } from '#server/testing/records';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { CANDIDATE_PHOTOS_PATH } from '#shared/features/candidates/candidates';
import { keysToCopy, migratePhotos } from './storage-migrate';
import { runStorageMigrate } from './storage-migrate.cli';

let s3: S3Local;
let t: TestApp;
beforeAll(async () => {
  s3 = await startS3Local();
});
afterAll(async () => {
  await s3.stop();
});
afterEach(async () => {
  await t?.close();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * An app on local storage with two ballot photos (three files each), an uploaded candidate photo, a demo
 * placeholder row and a row whose files are gone. Returns the keys that exist in the source.
 */
async function localPhotos(): Promise<{ source: PhotoStorage; stored: string[]; gone: string }> {
  t = await createTestApp();
  const source = createPhotoStorage(t.config);
  const [a, b] = (await addRecords(t, SLUG_A, 3)) as [number, number, number];
  await addStoredPhoto(t, a, 'gobernador');
  await addStoredPhoto(t, b, 'an');
  const candidate = await source.put(Buffer.from('retrato de candidato'), { suffix: 'jpg', contentType: 'image/jpeg' });
  const first = await t.db.kysely.selectFrom('candidates').select('id').orderBy('id').executeTakeFirstOrThrow();
  await t.db.kysely
    .updateTable('candidates')
    .set({ photo_url: `${CANDIDATE_PHOTOS_PATH}/${candidate.key}` })
    .where('id', '=', first.id)
    .execute();
  const gone = newStorageKey('jpg');
  const row = {
    kind: 'clez' as const,
    sha256: 'f'.repeat(64),
    size_bytes: 1,
    content_type: 'image/jpeg' as const,
    width: 1,
    height: 1,
    uploaded_by: 'pruebas',
    uploaded_at: new Date().toISOString(),
  };
  const [, , c] = await t.db.kysely.selectFrom('records').select('id').orderBy('id').execute();
  await t.db.kysely
    .insertInto('photos')
    .values([
      { ...row, record_id: c!.id, original_key: 'demo:clez:1', display_key: 'demo:clez:1', thumb_key: 'demo:clez:1' },
      { ...row, record_id: c!.id, original_key: gone, display_key: gone, thumb_key: gone },
    ])
    .execute();
  const stored = (await keysToCopy(t.db.kysely)).filter((k) => k !== gone);
  return { source, stored, gone };
}

/** The target with its putAt wrapped: `fail(n)` decides whether the n-th call (from 1) fails. */
function wrapped(target: PhotoStorage, change: { fail?: (n: number) => boolean; corrupt?: boolean }) {
  let calls = 0;
  const wrapper: PhotoStorage & { calls: () => number } = {
    ...target,
    calls: () => calls,
    async putAt(key, body, options) {
      calls++;
      if (change.fail?.(calls)) throw new Error('se cortó la conexión con el destino');
      if (!change.corrupt) return target.putAt(key, body, options);
      const flip = new Transform({
        transform(chunk: Buffer, _enc, done) {
          const copy = Buffer.from(chunk);
          copy[0] = (copy[0] ?? 0) ^ 0xff;
          done(null, copy);
        },
      });
      return target.putAt(key, Buffer.isBuffer(body) ? body : body.pipe(flip), options);
    },
  };
  return wrapper;
}

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('storage:migrate', () => {
  it('finds every stored file: ballot photos and uploaded candidate photos, not demo placeholders', async () => {
    const { stored, gone } = await localPhotos();
    expect(stored).toHaveLength(7);
    expect(await keysToCopy(t.db.kysely)).toEqual([...stored, gone].sort());
  });

  it('copies every photo from local to s3 with the same sha256, and says how to switch', async () => {
    const { source, stored, gone } = await localPhotos();
    const env = {
      STORAGE: 'local',
      S3_ENDPOINT: s3.url,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'cli/',
    };
    const { io, out, err } = captureIo();
    const code = await runStorageMigrate(['--to', 's3'], t.db.kysely, io, undefined, { config: t.config, env });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out).toContain('Copiando fotos: 8 de 8 …');
    expect(out).toContain(
      'Copiadas y verificadas: 7 · ya estaban verificadas: 0 · faltan en el origen: 1 · con errores: 0',
    );
    expect(out).toContain(`  ${gone}`);
    expect(out.at(-1)).toBe('Listo. Pon STORAGE=s3 en el entorno del servidor (con sus variables) y reinícialo.');

    expect(s3.listKeys().filter((k) => k.startsWith('cli/'))).toEqual(stored.map((k) => `cli/${k}`));
    const target = createS3Storage(s3.config('cli/'));
    const copies = await t.db.kysely.selectFrom('storage_copies').selectAll().orderBy('key').execute();
    expect(copies.map((c) => [c.target, c.key])).toEqual(stored.map((k) => [target.location, k]));
    for (const key of stored) {
      const original = await buffer((await source.get(key))!.stream);
      const copy = await buffer((await target.get(key))!.stream);
      expect(sha256(copy)).toBe(sha256(original));
      expect(copies.find((c) => c.key === key)).toMatchObject({
        sha256: sha256(original),
        size_bytes: original.length,
      });
    }
    expect(copies.map((c) => c.size_bytes)).toContain(fixture('ballot.jpg').length);

    // A second run copies nothing again; the missing file is still reported.
    const again = captureIo();
    expect(await runStorageMigrate(['--to', 's3'], t.db.kysely, again.io, undefined, { config: t.config, env })).toBe(
      0,
    );
    expect(again.out).toContain(
      'Copiadas y verificadas: 0 · ya estaban verificadas: 7 · faltan en el origen: 1 · con errores: 0',
    );
  });

  it('resumes an interrupted copy with only the files not verified yet', async () => {
    const { source, stored } = await localPhotos();
    const s3Target = createS3Storage(s3.config('resume/'));
    const broken = wrapped(s3Target, { fail: (n) => n >= 4 });
    const first = await migratePhotos({ db: t.db.kysely, source, target: broken, concurrency: 2 });
    expect(first.copied).toBe(3);
    expect(first.failed.map((f) => f.reason)).toEqual(
      Array(stored.length - 3).fill('se cortó la conexión con el destino'),
    );

    const healthy = wrapped(s3Target, {});
    const second = await migratePhotos({ db: t.db.kysely, source, target: healthy });
    expect(healthy.calls()).toBe(stored.length - 3);
    expect(second).toMatchObject({ total: stored.length + 1, alreadyCopied: 3, copied: stored.length - 3, failed: [] });
    expect(s3.listKeys().filter((k) => k.startsWith('resume/'))).toEqual(stored.map((k) => `resume/${k}`));
  });

  it('copies everything again to another place of the same driver', async () => {
    const { source, stored } = await localPhotos();
    const first = await migratePhotos({ db: t.db.kysely, source, target: createS3Storage(s3.config('una/')) });
    expect(first.copied).toBe(stored.length);
    const other = await migratePhotos({ db: t.db.kysely, source, target: createS3Storage(s3.config('otra/')) });
    expect(other).toMatchObject({ alreadyCopied: 0, copied: stored.length, failed: [] });
  });

  it('detects a copy that differs from the original and exits with 1', async () => {
    const { stored } = await localPhotos();
    const env = {
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_ENDPOINT: s3.url,
    };
    const { io, out, err } = captureIo();
    const code = await runStorageMigrate(['--to', 's3'], t.db.kysely, io, undefined, {
      config: t.config,
      env: { ...env, S3_PREFIX: 'corrupt/' },
      storageFor: (config, dataDir) =>
        config.driver === 's3'
          ? wrapped(photoStorageFor(config, dataDir), { corrupt: true })
          : photoStorageFor(config, dataDir),
    });
    expect(code).toBe(1);
    expect(out).toContain(`Errores (${stored.length}):`);
    expect(out.filter((l) => l.includes('la copia no coincide con el original'))).toHaveLength(stored.length);
    expect(err.at(-1)).toMatch(/^No cambies STORAGE todavía/);
    expect(await t.db.kysely.selectFrom('storage_copies').selectAll().execute()).toEqual([]);
  });

  it('names the missing settings of the target, in Spanish', async () => {
    t = await createTestApp();
    const { io, err } = captureIo();
    const code = await runStorageMigrate(['--to', 's3'], t.db.kysely, io, undefined, {
      config: t.config,
      env: { S3_ENDPOINT: s3.url },
    });
    expect(code).toBe(1);
    expect(err[0]).toBe('Para copiar las fotos a s3 faltan ajustes en el entorno (los mismos que pide STORAGE=s3):');
    expect(err.slice(1)).toEqual([
      '  - S3_BUCKET: es obligatoria con STORAGE=s3',
      '  - S3_ACCESS_KEY_ID: es obligatoria con STORAGE=s3',
      '  - S3_SECRET_ACCESS_KEY: es obligatoria con STORAGE=s3',
    ]);

    const same = captureIo();
    expect(await runStorageMigrate(['--to', 'local'], t.db.kysely, same.io, undefined, { config: t.config })).toBe(1);
    expect(same.err).toEqual(['Las fotos ya están en local (STORAGE=local): el destino debe ser otro almacenamiento.']);
    const usage = captureIo();
    expect(await runStorageMigrate(['--to', 'ftp'], t.db.kysely, usage.io, undefined, { config: t.config })).toBe(2);
    expect(usage.err).toEqual(['Destino desconocido: ftp. Uso: storage:migrate --to <local|s3|dropbox>']);
  });
});
