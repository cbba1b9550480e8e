import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { listAudit } from '#server/platform/audit/audit.repository';
import type { Config, StorageConfig } from '#server/platform/config/config';
import type { FreeBytesReader } from '#server/platform/storage/data-disk';
import { createResumableUploads } from '#server/platform/uploads/resumable-uploads';
import { createUser, loginAs } from '#server/testing/auth-helpers';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, signInPeople } from '#server/testing/records';
import { startS3Local } from '#server/testing/s3-local';
import {
  createTestApp,
  createTestDb,
  TEST_ORIGIN,
  type TestApp,
  testAppOf,
  testConfig,
} from '#server/testing/test-app';
import { createTusUpload, headTusUpload, noisyJpeg, patchTusUpload, sendTusPhoto, TUS } from '#server/testing/tus';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';
import { startDropboxContractServer } from '#tests/support/dropbox-contract-server';
import { MAX_OPEN_UPLOADS } from './photo-uploads.service';
import { createPhotosRepository } from './photos.repository';

let t: TestApp;
let dataDir: string;
afterEach(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const HOUR_MS = 60 * 60 * 1000;
let now = new Date('2026-12-06T12:00:00Z');

async function setup(resumableUploadHours = 24, storage?: StorageConfig) {
  return setupWith({ resumableUploadHours, ...(storage ? { storage } : {}) });
}

async function setupWith(overrides: Partial<Config>, options: { freeDiskBytes?: FreeBytesReader } = {}) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tus-test-'));
  now = new Date('2026-12-06T12:00:00Z');
  t = await createTestApp({ dataDir, now: () => now, ...overrides }, options);
  return signInPeople(t);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const tusDir = () => path.join(dataDir, 'uploads', 'tus');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

async function slotOf(recordId: number) {
  const row = await t.db.kysely.selectFrom('records').selectAll().where('id', '=', recordId).executeTakeFirstOrThrow();
  return row.gobernador_photo_id;
}

/**
 * One photo stored and audited once, with its three files (original, browser copy, thumbnail); of the
 * uploads, nothing is left on disk (their rows answer a retry).
 */
async function expectOnePhotoStored(): Promise<void> {
  expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
  expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toHaveLength(1);
  expect(filesUnder(path.join(dataDir, 'photos'))).toHaveLength(3);
  expect(filesUnder(tusDir())).toEqual([]);
}

/** Waits (real time, polling every 20 ms, at most 10 s: generous for a local socket) until `check` holds. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error('no llegó a tiempo');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('resumable photo uploads (tus)', () => {
  it('continues an upload cut half-way from what the server kept: one photo, byte for byte the original', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'María Pérez' }])) as [number];
    const photo = await noisyJpeg();
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'gobernador',
      size: photo.length,
    });
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/api\/photo-uploads\/[0-9a-f]{32}$/);

    // A real connection, cut by the phone's network after half the photo: the server keeps that half.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const half = Math.floor(photo.length / 2);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PATCH ${created.location} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${TEST_ORIGIN}\r\n` +
        `Cookie: ${c.validatorA}\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n` +
        `Content-Type: application/offset+octet-stream\r\nContent-Length: ${photo.length}\r\n\r\n`,
    );
    socket.write(photo.subarray(0, half));
    const part = path.join(tusDir(), created.id);
    await eventually(() => fs.existsSync(part) && fs.statSync(part).size === half);
    socket.destroy();

    const head = await headTusUpload(t, c.validatorA, created.location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(photo.length));
    expect(await slotOf(id)).toBeNull();

    const rest = await patchTusUpload(t, c.validatorA, created.location, half, photo.subarray(half));
    expect(rest.statusCode).toBe(201);
    expect(rest.headers['upload-offset']).toBe(String(photo.length));
    const body = rest.json();
    expect(body.message).toBe('Foto cargada con éxito');
    expect(body.photo).toMatchObject({ kind: 'gobernador', sizeBytes: photo.length, sha256: sha256(photo) });
    expect(body.record.photos.gobernador.id).toBe(body.photo.id);

    const kept = await t.request({
      url: `/api/photos/${body.photo.id}?variant=original`,
      headers: { cookie: c.validatorA },
    });
    expect(sha256(kept.rawPayload)).toBe(sha256(photo));
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    const audit = await listAudit(t.db.kysely, { action: 'photo.upload' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: PEOPLE.validatorA, target: `record:${id}` });
    // Nothing of the upload stays on disk: its row answers a lost reply.
    expect(filesUnder(tusDir())).toEqual([]);
  });

  it('refuses a hostile file when it completes, and leaves no file, no photo and no audit row', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const hostile = Buffer.concat([Buffer.from('<?php system($_GET["c"]); ?>\n'), fixture('not-an-image.jpg')]);
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'gobernador',
      size: hostile.length,
    });
    expect(created.status).toBe(201);
    const res = await patchTusUpload(t, c.validatorA, created.location, 0, hostile);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ statusCode: 415, message: 'Formato no permitido: solo JPG, JPEG o HEIC' });
    expect(filesUnder(tusDir())).toEqual([]);
    expect(filesUnder(path.join(dataDir, 'photos'))).toEqual([]);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(0);
    expect(await slotOf(id)).toBeNull();
    expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toEqual([]);
    expect(await t.db.kysely.selectFrom('resumable_uploads').selectAll().execute()).toEqual([]);
    // The upload is gone: continuing it is answered as such.
    expect((await headTusUpload(t, c.validatorA, created.location)).statusCode).toBe(404);
  });

  it('refuses a JPEG that is damaged past its first bytes when it completes, leaving nothing', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const damaged = fixture('truncated.jpg');
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'an',
      size: damaged.length,
    });
    const res = await patchTusUpload(t, c.validatorA, created.location, 0, damaged);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/dañada o incompleta/);
    expect(filesUnder(tusDir())).toEqual([]);
    expect(filesUnder(path.join(dataDir, 'photos'))).toEqual([]);
  });

  it('refuses, on its last byte, an upload whose bytes differ from the SHA-256 the phone sent; a fresh upload of the right bytes is stored with that hash audited', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg();
    const declared = sha256(photo);
    const damaged = Buffer.from(photo);
    const middle = Math.floor(damaged.length / 2);
    damaged[middle] = (damaged[middle] ?? 0) ^ 0xff;
    const key = randomUUID();
    const target = { slug: SLUG_A, recordId: id, kind: 'gobernador', size: photo.length, key, sha256: declared };

    const first = await createTusUpload(t, c.validatorA, target);
    expect(first.status).toBe(201);
    const refused = await patchTusUpload(t, c.validatorA, first.location, 0, damaged);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'La foto llegó dañada; se enviará de nuevo',
      code: 'photo-arrived-damaged',
    });
    // Nothing stored, and the upload is discarded: bytes, row and all.
    expect(filesUnder(tusDir())).toEqual([]);
    expect(filesUnder(path.join(dataDir, 'photos'))).toEqual([]);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(0);
    expect(await slotOf(id)).toBeNull();
    expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toEqual([]);
    expect(await t.db.kysely.selectFrom('resumable_uploads').selectAll().execute()).toEqual([]);
    expect((await headTusUpload(t, c.validatorA, first.location)).statusCode).toBe(404);

    // The phone's retry: a new upload of its own copy, under the same key.
    const again = await createTusUpload(t, c.validatorA, target);
    expect(again.status).toBe(201);
    const stored = await patchTusUpload(t, c.validatorA, again.location, 0, photo);
    expect(stored.statusCode).toBe(201);
    expect(stored.json().photo.sha256).toBe(declared);
    await expectOnePhotoStored();
    const audit = await listAudit(t.db.kysely, { action: 'photo.upload' });
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ sha256: declared, sizeBytes: photo.length });
  });

  it("answers 'dañada' (422), not 'not an image' (415), when an upload's first bytes were flipped on the way; a fresh upload is stored", async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg();
    const declared = sha256(photo);
    // The JPEG's first byte flipped: what arrived no longer even looks like an image.
    const damaged = Buffer.from(photo);
    damaged[0] = (damaged[0] ?? 0) ^ 0xff;
    const key = randomUUID();
    const target = { slug: SLUG_A, recordId: id, kind: 'gobernador', size: photo.length, key, sha256: declared };

    const first = await createTusUpload(t, c.validatorA, target);
    const refused = await patchTusUpload(t, c.validatorA, first.location, 0, damaged);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'La foto llegó dañada; se enviará de nuevo',
      code: 'photo-arrived-damaged',
    });
    expect(filesUnder(tusDir())).toEqual([]);
    expect(await t.db.kysely.selectFrom('resumable_uploads').selectAll().execute()).toEqual([]);

    const again = await createTusUpload(t, c.validatorA, target);
    const stored = await patchTusUpload(t, c.validatorA, again.location, 0, photo);
    expect(stored.statusCode).toBe(201);
    expect(stored.json().photo.sha256).toBe(declared);
    await expectOnePhotoStored();
  });

  it('refuses an upload announced with a SHA-256 that is not 64 lowercase hex digits', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'gobernador',
      size: 1000,
      sha256: 'F'.repeat(64),
    });
    expect(created.status).toBe(400);
    expect(await t.db.kysely.selectFrom('resumable_uploads').selectAll().execute()).toEqual([]);
  });

  it('removes an unfinished upload after its expiry: the sweep, and any request that finds it expired', async () => {
    // Two hours (RESUMABLE_UPLOAD_HOURS=2): within a session's life, so the same person asks again.
    const c = await setup(2);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg(300, 200);
    const half = Math.floor(photo.length / 2);
    const first = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'gobernador',
      size: photo.length,
    });
    const second = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'an',
      size: photo.length,
    });
    for (const u of [first, second]) {
      expect((await patchTusUpload(t, c.validatorA, u.location, 0, photo.subarray(0, half))).statusCode).toBe(204);
    }
    const uploads = createResumableUploads(t.db.kysely, {
      directory: tusDir(),
      hours: 2,
      now: () => now,
      dialect: t.db.dialect,
    });

    now = new Date(now.getTime() + 2 * HOUR_MS - 1000);
    expect(await uploads.sweep()).toBe(0);
    expect(filesUnder(tusDir())).toHaveLength(4);

    now = new Date(now.getTime() + 1000);
    // A request that finds an upload past its time removes it and says so.
    const late = await patchTusUpload(t, c.validatorA, second.location, half, photo.subarray(half));
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toMatch(/ya no está en el servidor/);
    expect(filesUnder(tusDir())).toEqual([`${first.id}`, `${first.id}.json`].sort());
    // The sweep removes the other one, without anybody asking.
    expect(await uploads.sweep()).toBe(1);
    expect(filesUnder(tusDir())).toEqual([]);
    expect(await t.db.kysely.selectFrom('resumable_uploads').selectAll().execute()).toEqual([]);
    expect((await headTusUpload(t, c.validatorA, first.location)).statusCode).toBe(404);
  });

  it('sweeps away what a stop left of a stored upload (its bytes, its info file), keeping its row to answer', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg(300, 200);
    const sent = await sendTusPhoto(
      t,
      c.validatorA,
      { slug: SLUG_A, recordId: id, kind: 'gobernador', key: randomUUID() },
      photo,
    );
    expect(sent.done?.statusCode).toBe(201);
    // As a stop between the photo's commit and the removal of its files would leave them (or an earlier
    // version of the server, which kept the info file until the upload expired).
    fs.writeFileSync(path.join(tusDir(), sent.created.id), photo);
    fs.writeFileSync(path.join(tusDir(), `${sent.created.id}.json`), '{}');
    const uploads = createResumableUploads(t.db.kysely, {
      directory: tusDir(),
      hours: 24,
      now: () => now,
      dialect: t.db.dialect,
    });
    expect(await uploads.sweep()).toBe(0);
    expect(filesUnder(tusDir())).toEqual([]);
    const head = await headTusUpload(t, c.validatorA, sent.created.location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(photo.length));
  });

  it('keeps a slot once-only across two concurrent uploads: one photo, one 201, one 409, no stray file', async () => {
    const c = await setup();
    const other = 'validador.a2@example.org';
    await createUser(t.db, { email: other, role: 'staff', departments: [SLUG_A] });
    const otherCookie = await loginAs(t, other);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photos: Buffer[] = [await noisyJpeg(400, 300), await noisyJpeg(400, 300)];
    const people: string[] = [c.validatorA, otherCookie];
    const created = await Promise.all(
      people.map((cookie, i) =>
        createTusUpload(t, cookie, { slug: SLUG_A, recordId: id, kind: 'gobernador', size: photos[i]?.length ?? 0 }),
      ),
    );
    expect(created.map((u) => u.status)).toEqual([201, 201]);
    const answers = await Promise.all(
      created.map((u, i) => patchTusUpload(t, people[i] as string, u.location, 0, photos[i] as Buffer)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const winner = answers.findIndex((a) => a.statusCode === 201);
    const loser = answers[1 - winner];
    expect(loser?.json().message).toMatch(/^Esta foto ya fue cargada por .+ el .+ a las .+\.$/);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    expect(await slotOf(id)).toBe(answers[winner]?.json().photo.id);
    // The winner's original, browser copy and thumbnail; nothing of the loser's; no upload's files.
    expect(filesUnder(path.join(dataDir, 'photos'))).toHaveLength(3);
    expect(filesUnder(tusDir())).toEqual([]);
  });

  it('answers 410 to the completion of an upload whose file this server does not have (restored from a copy), so the phone starts again', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const key = randomUUID();
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'an',
      size: photo.length,
      key,
    });
    expect(created.status).toBe(201);
    // The data folder's files went with the lost machine; the database came back from its copy.
    fs.rmSync(tusDir(), { recursive: true, force: true });
    const complete = await t.request({
      method: 'POST',
      url: `${created.location}/complete`,
      headers: { cookie: c.validatorA, 'idempotency-key': key },
    });
    expect(complete.statusCode).toBe(410);
    expect(complete.json().message).toBe(
      'Esta subida ya no está en el servidor (venció o se quitó). La foto se enviará de nuevo.',
    );
  });

  it('answers a finished upload again with its first answer: asked for, or sent again under the same key', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const key = randomUUID();
    const created = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'clez',
      size: photo.length,
      key,
    });
    const first = await patchTusUpload(t, c.validatorA, created.location, 0, photo);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // The answer was lost: the phone asks where the upload stands (complete), then for the answer.
    const head = await headTusUpload(t, c.validatorA, created.location);
    expect(head.headers['upload-offset']).toBe(String(photo.length));
    const again = await t.request({
      method: 'POST',
      url: `${created.location}/complete`,
      headers: { cookie: c.validatorA, 'idempotency-key': key },
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());

    // The phone lost the upload's address and sends the photo again under the same key.
    const repeat = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'clez',
      size: photo.length,
      key,
    });
    expect(repeat.status).toBe(201);
    const replayed = await patchTusUpload(t, c.validatorA, repeat.location, 0, photo);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(first.json());
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toHaveLength(1);

    // A new key for the filled slot is refused before any byte travels.
    const late = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'clez',
      size: photo.length,
    });
    expect(late.status).toBe(409);
    expect(JSON.parse(late.body).message).toMatch(/^Esta foto ya fue cargada por/);
  });

  it('warns, as for any photo, when the same image was already used for another record', async () => {
    const c = await setup();
    const [first, second] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const photo = fixture('ballot.jpg');
    const answers = [];
    for (const recordId of [first, second]) {
      const created = await createTusUpload(t, c.validatorA, {
        slug: SLUG_A,
        recordId,
        kind: 'an',
        size: photo.length,
      });
      answers.push((await patchTusUpload(t, c.validatorA, created.location, 0, photo)).json());
    }
    expect(answers.map((a) => a.warning)).toEqual([null, 'Atención: esta misma imagen ya se usó en otro trámite.']);
    const audit = await listAudit(t.db.kysely, { action: 'photo.upload' });
    expect(audit.map((a) => JSON.parse(a.details ?? '{}').sameImageAsRecord ?? null).sort()).toEqual([first, null]);
  });

  it('checks who may start, continue or see an upload, its size and its key', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const size = 5000;
    const base = { slug: SLUG_A, recordId: id, kind: 'an', size };

    const nobody = await t.request({
      method: 'POST',
      url: '/api/photo-uploads',
      headers: { ...TUS, 'upload-length': '10' },
    });
    expect(nobody.statusCode).toBe(401);
    const outsider = await createTusUpload(t, c.validatorB, base);
    expect(outsider.status).toBe(404);
    const noKey = await createTusUpload(t, c.validatorA, { ...base, key: null });
    expect(noKey.status).toBe(400);
    expect(JSON.parse(noKey.body).message).toBe('Cada foto necesita la cabecera Idempotency-Key (un UUID).');
    const badKind = await createTusUpload(t, c.validatorA, { ...base, kind: 'alcalde' });
    expect(badKind.status).toBe(400);

    await t.db.kysely
      .insertInto('settings')
      .values({ key: PHOTO_MAX_BYTES_SETTING, value: String(2 * 1024 * 1024), updated_at: now.toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(2 * 1024 * 1024) }))
      .execute();
    const tooLarge = await createTusUpload(t, c.validatorA, { ...base, size: 3 * 1024 * 1024 });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body).message).toMatch(/demasiado grande: el máximo es 2 MB/);

    const mine = await createTusUpload(t, c.validatorA, base);
    expect(mine.status).toBe(201);
    // Someone else (even an admin) cannot see or continue it: the same 404 as an unknown upload.
    expect((await headTusUpload(t, c.admin, mine.location)).statusCode).toBe(404);
    const foreign = await patchTusUpload(t, c.admin, mine.location, 0, Buffer.alloc(10));
    expect(foreign.statusCode).toBe(404);
    // A byte too many is refused.
    const over = await patchTusUpload(t, c.validatorA, mine.location, 0, Buffer.alloc(size + 1));
    expect(over.statusCode).toBe(413);
    // The answer of an upload that has not finished is not there yet.
    const early = await t.request({
      method: 'POST',
      url: `${mine.location}/complete`,
      headers: { cookie: c.validatorA },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('La foto aún no terminó de subir.');
  });
});

describe('what unfinished uploads may take of the disk', () => {
  const SIZE = 5000;
  const openRows = () =>
    t.db.kysely.selectFrom('resumable_uploads').select('id').where('stored_at', 'is', null).execute();

  it('counts and creates in one step: 400 creations at once by one person leave exactly the cap', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    // Someone else creates one meanwhile: the burst does not hold them back.
    const [burst, other] = await Promise.all([
      Promise.all(
        Array.from({ length: 400 }, () =>
          createTusUpload(t, c.validatorA, { slug: SLUG_A, recordId: id, kind: 'gobernador', size: SIZE }),
        ),
      ),
      createTusUpload(t, c.admin, { slug: SLUG_A, recordId: id, kind: 'an', size: SIZE }),
    ]);
    expect(other.status).toBe(201);
    const statuses = burst.map((u) => u.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_OPEN_UPLOADS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(400 - MAX_OPEN_UPLOADS);
    expect(burst.find((u) => u.status === 429)?.headers['retry-after']).toBe('60');
    expect(JSON.parse(burst.find((u) => u.status === 429)?.body ?? '{}').message).toBe(
      'Tienes demasiadas fotos a medio subir. Espera a que terminen e intenta de nuevo.',
    );
    expect(await openRows()).toHaveLength(MAX_OPEN_UPLOADS + 1);
    // Bytes and info of the accepted ones only (and of the other person's).
    expect(filesUnder(tusDir())).toHaveLength(2 * MAX_OPEN_UPLOADS + 2);
  });

  it('keeps one person within a byte budget, counting each upload by the size it declared', async () => {
    const c = await setupWith({ resumableUploadBudgetBytes: 3 * SIZE, resumableUploadHours: 2 });
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const create = (size: number, cookie = c.validatorA) =>
      createTusUpload(t, cookie, { slug: SLUG_A, recordId: id, kind: 'gobernador', size });

    const first = await create(SIZE);
    expect((await create(SIZE)).status).toBe(201);
    expect((await create(SIZE - 1)).status).toBe(201);
    // One byte fits; two do not, though not a byte of any upload has arrived.
    const over = await create(2);
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).message).toBe(
      'Tus fotos a medio subir ya ocupan todo el espacio que el servidor guarda por persona. Espera a que terminen e intenta de nuevo.',
    );
    expect((await create(1)).status).toBe(201);
    expect((await create(1)).status).toBe(429);
    // Another person has a budget of their own.
    expect((await create(SIZE, c.admin)).status).toBe(201);

    // An upload removed by the phone ('Quitar') gives its room back.
    const removed = await t.request({
      method: 'DELETE',
      url: first.location,
      headers: { cookie: c.validatorA, ...TUS },
    });
    expect(removed.statusCode).toBe(204);
    expect((await create(SIZE)).status).toBe(201);
    expect((await create(1)).status).toBe(429);
    // So does one past its time, before any sweep removed it.
    now = new Date(now.getTime() + 2 * HOUR_MS);
    expect((await create(3 * SIZE)).status).toBe(201);
  });

  it('refuses a new upload with 507 when it would leave the data folder under its free-space floor', async () => {
    const FLOOR = 100 * 1024 * 1024;
    let free = FLOOR + SIZE - 1;
    const asked: string[] = [];
    const c = await setupWith(
      { dataDirMinFreeBytes: FLOOR },
      {
        freeDiskBytes: async (dir) => {
          asked.push(dir);
          return free;
        },
      },
    );
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const target = { slug: SLUG_A, recordId: id, kind: 'gobernador', size: SIZE };

    const refused = await createTusUpload(t, c.validatorA, target);
    expect(refused.status).toBe(507);
    expect(refused.headers['retry-after']).toBe('300');
    expect(JSON.parse(refused.body).message).toBe(
      'El servidor se está quedando sin espacio y no recibe fotos nuevas por ahora: no se guardó nada. La foto se enviará de nuevo más tarde.',
    );
    expect(await openRows()).toEqual([]);
    expect(filesUnder(tusDir())).toEqual([]);
    // The photo sent in one request is refused before a byte is read, too.
    const oneRequest = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: id, kind: 'an' },
      { data: fixture('ballot.jpg'), filename: 'boleta.jpg', contentType: 'image/jpeg' },
      c.validatorA,
    );
    expect(oneRequest.statusCode).toBe(507);
    expect(oneRequest.headers['retry-after']).toBeDefined();
    expect(fs.readdirSync(path.join(dataDir, 'uploads')).filter((f) => f.endsWith('.part'))).toEqual([]);
    // The data folder is the one asked about.
    expect(new Set(asked)).toEqual(new Set([dataDir]));

    free = FLOOR + SIZE;
    expect((await createTusUpload(t, c.validatorA, target)).status).toBe(201);
  });

  it('answers a request to join uploads (Upload-Concat) with a plain 400, logged as the client’s mistake', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-tus-test-'));
    const lines: { level: number; msg: string }[] = [];
    const testDb = await createTestDb({ migrated: true });
    const app = await buildApp(testConfig({ ...testDb.options, dataDir }), {
      db: testDb.db,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    t = testAppOf(app, async () => {
      await app.close();
      await testDb.destroy();
    });
    const c = await signInPeople(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/photo-uploads',
      headers: {
        cookie: c.validatorA,
        ...TUS,
        'idempotency-key': randomUUID(),
        'upload-concat': `final;/api/photo-uploads/${'a'.repeat(32)} /api/photo-uploads/${'b'.repeat(32)}`,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'Este servidor no une partes de una subida (Upload-Concat): envía cada foto en una sola subida.',
    );
    // Nothing at warn (40) or above: it is not the server's failure.
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.some((l) => l.msg === 'tus concatenation asked for')).toBe(true);
  });
});

describe('resumable photo uploads with an Idempotency-Key (the photo slot, as the phone sends it)', () => {
  const REUSED = 'Esta clave Idempotency-Key ya se usó para otra solicitud. Cada envío necesita su propia clave.';
  const uploadRows = () => t.db.kysely.selectFrom('resumable_uploads').selectAll().execute();

  it('answers one key sent 20 times at once with one photo and twenty identical 201s', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = await noisyJpeg(400, 300);
    const key = randomUUID();
    // Twenty tries of the same photo under its key, each a whole upload, all on the network at once.
    const tries = await Promise.all(
      Array.from({ length: 20 }, () =>
        sendTusPhoto(t, c.validatorA, { slug: SLUG_A, recordId: id, kind: 'gobernador', key }, photo),
      ),
    );
    expect(tries.map((u) => u.created.status)).toEqual(Array(20).fill(201));
    expect(tries.map((u) => u.done?.statusCode)).toEqual(Array(20).fill(201));
    const first = tries[0]?.done?.body ?? '';
    expect(JSON.parse(first)).toMatchObject({
      message: 'Foto cargada con éxito',
      photo: { kind: 'gobernador', sha256: sha256(photo) },
    });
    for (const u of tries) expect(u.done?.body).toBe(first);
    expect(tries.filter((u) => u.done?.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    await expectOnePhotoStored();
    expect(await slotOf(id)).toBe(JSON.parse(first).photo.id);
    expect((await uploadRows()).every((row) => row.stored_at !== null)).toBe(true);

    // Every answer lost: the finished upload's answer asked for 20 times at once, twenty times the same.
    const location = tries[0]?.created.location ?? '';
    const asked = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request({
          method: 'POST',
          url: `${location}/complete`,
          headers: { cookie: c.validatorA, 'idempotency-key': key },
        }),
      ),
    );
    expect(asked.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    for (const a of asked) {
      expect(a.body).toBe(first);
      expect(a.headers['idempotent-replayed']).toBe('true');
    }
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
  });

  it('refuses a key reused for another record, another slot, other bytes or by someone else with 422, storing nothing', async () => {
    const c = await setup();
    const [id, other] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const photo = fixture('ballot.jpg');
    const key = randomUUID();
    const stored = await sendTusPhoto(t, c.validatorA, { slug: SLUG_A, recordId: id, kind: 'an', key }, photo);
    expect(stored.done?.statusCode).toBe(201);

    const otherBytes = await noisyJpeg(300, 200);
    const reuses = [
      await sendTusPhoto(t, c.validatorA, { slug: SLUG_A, recordId: id, kind: 'clez', key }, photo),
      await sendTusPhoto(t, c.validatorA, { slug: SLUG_A, recordId: other, kind: 'an', key }, photo),
      await sendTusPhoto(t, c.validatorA, { slug: SLUG_A, recordId: id, kind: 'an', key }, otherBytes),
      await sendTusPhoto(t, c.admin, { slug: SLUG_A, recordId: id, kind: 'an', key }, photo),
    ];
    for (const reuse of reuses) {
      expect(reuse.created.status).toBe(201);
      expect(reuse.done?.statusCode).toBe(422);
      expect(reuse.done?.json()).toMatchObject({ statusCode: 422, message: REUSED });
      // The refused upload is gone, bytes and all.
      expect((await headTusUpload(t, c.validatorA, reuse.created.location)).statusCode).toBe(404);
    }
    await expectOnePhotoStored();
    expect(await listAudit(t.db.kysely, { action: 'photo.replace' })).toHaveLength(0);
    const rows = await t.db.kysely.selectFrom('records').selectAll().where('id', 'in', [id, other]).execute();
    expect(rows.find((r) => r.id === id)).toMatchObject({
      an_photo_id: stored.done?.json().photo.id,
      clez_photo_id: null,
    });
    expect(rows.find((r) => r.id === other)?.an_photo_id).toBeNull();
    expect((await uploadRows()).map((row) => row.id)).toEqual([stored.created.id]);
  });

  it('answers a new key on a filled slot with 409 saying who filled it and when, at creation and at completion', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const filledBy = `Esta foto ya fue cargada por ${PEOPLE.admin} el 6 dic a las 8:00 a. m.`;
    // Started while the slot was empty; the admin's photo arrives first.
    const early = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'clez',
      size: photo.length,
    });
    expect(early.status).toBe(201);
    const filled = await sendTusPhoto(
      t,
      c.admin,
      { slug: SLUG_A, recordId: id, kind: 'clez', key: randomUUID() },
      photo,
    );
    expect(filled.done?.statusCode).toBe(201);

    const late = await patchTusUpload(t, c.validatorA, early.location, 0, photo);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ statusCode: 409, message: filledBy });
    // Started after: refused before any byte travels.
    const after = await createTusUpload(t, c.validatorA, {
      slug: SLUG_A,
      recordId: id,
      kind: 'clez',
      size: photo.length,
    });
    expect(after.status).toBe(409);
    expect(JSON.parse(after.body)).toMatchObject({ statusCode: 409, message: filledBy });

    await expectOnePhotoStored();
    expect((await uploadRows()).map((row) => row.id)).toEqual([filled.created.id]);
  });
});

describe('resumable photo uploads with remote photo storage', () => {
  /** Sends a photo in two parts; the parts wait on the local disk, the stored photo goes to the storage. */
  async function sendInTwoParts(cookie: string, recordId: number, photo: Buffer) {
    const created = await createTusUpload(t, cookie, {
      slug: SLUG_A,
      recordId,
      kind: 'gobernador',
      size: photo.length,
    });
    const half = Math.floor(photo.length / 2);
    expect((await patchTusUpload(t, cookie, created.location, 0, photo.subarray(0, half))).statusCode).toBe(204);
    expect(filesUnder(tusDir())).toEqual([created.id, `${created.id}.json`].sort());
    const done = await patchTusUpload(t, cookie, created.location, half, photo.subarray(half));
    expect(done.statusCode).toBe(201);
    expect(filesUnder(tusDir())).toEqual([]);
    expect(filesUnder(path.join(dataDir, 'photos'))).toEqual([]);
    const kept = await t.request({ url: `/api/photos/${done.json().photo.id}?variant=original`, headers: { cookie } });
    expect(sha256(kept.rawPayload)).toBe(sha256(photo));
  }

  it('stores the completed photo in an S3 bucket', async () => {
    const s3 = await startS3Local();
    try {
      const c = await setup(24, s3.config('tus/'));
      const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
      await sendInTwoParts(c.validatorA, id, await noisyJpeg(400, 300));
      expect(s3.listKeys().filter((k) => k.startsWith('tus/'))).toHaveLength(3);
    } finally {
      await t?.close();
      t = undefined as unknown as TestApp;
      await s3.stop();
    }
  });

  it('stores the completed photo in Dropbox, at its readable path too', async () => {
    const dropbox = await startDropboxContractServer();
    try {
      const c = await setup(24, {
        driver: 'dropbox',
        appKey: dropbox.appKey,
        appSecret: dropbox.appSecret,
        refreshToken: dropbox.refreshToken,
        apiUrl: dropbox.url,
        contentUrl: dropbox.url,
      });
      const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'Ana Soto' }])) as [number];
      const photo = await noisyJpeg(400, 300);
      await sendInTwoParts(c.validatorA, id, photo);
      expect(dropbox.file('/Cabimas/Gobernador/Ana Soto.jpg')?.equals(photo)).toBe(true);
    } finally {
      await t?.close();
      t = undefined as unknown as TestApp;
      await dropbox.close();
    }
  });
});
