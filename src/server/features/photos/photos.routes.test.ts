import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { fixture, multipart, photoFilesUnder, uploadPhoto } from '#server/testing/photos';
import { addRecords, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';
import { createPhotosRepository } from './photos.repository';

let t: TestApp;
let dataDir: string;
afterEach(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Cookies = Awaited<ReturnType<typeof signInPeople>>;

async function setup(): Promise<Cookies> {
  // Photos go under DATA_DIR: a folder of this test's own, on either database.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-photos-test-'));
  t = await createTestApp({ dataDir });
  return signInPeople(t);
}

const upload = (
  slug: string,
  id: number,
  kind: string,
  file: { data: Buffer; filename: string; contentType?: string },
  cookie?: string,
) => uploadPhoto(t, { slug, recordId: id, kind }, file, cookie);

const jpeg = () => ({ data: fixture('ballot.jpg'), filename: 'IMG_0001.JPG', contentType: 'image/jpeg' });

const filesOnDisk = () => photoFilesUnder(dataDir);

async function get(url: string, cookie?: string) {
  return t.request({ url, headers: cookie ? { cookie } : {} });
}

async function expectNothingLeft(recordId: number) {
  expect(filesOnDisk()).toEqual([]);
  expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(0);
  const row = await t.db.kysely.selectFrom('records').selectAll().where('id', '=', recordId).executeTakeFirstOrThrow();
  expect([row.gobernador_photo_id, row.an_photo_id, row.clez_photo_id]).toEqual([null, null, null]);
  expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toEqual([]);
}

describe('POST /api/validation/:slug/records/:id/photos/:kind', () => {
  it('stores a JPEG: original kept byte for byte, a browser JPEG and a thumbnail, the facts and an audit row', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'María Pérez' }])) as [number];
    const res = await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const original = fixture('ballot.jpg');
    expect(body.message).toBe('Foto cargada con éxito');
    expect(body.warning).toBeNull();
    expect(body.photo).toMatchObject({
      kind: 'gobernador',
      sizeBytes: original.length,
      contentType: 'image/jpeg',
      width: 480,
      height: 360,
      uploadedBy: PEOPLE.validatorA,
      path: '/Cabimas/Gobernador/María Pérez.jpg',
    });
    expect(body.photo.sha256).toMatch(/^[0-9a-f]{64}$/);
    const slot = body.record.photos.gobernador;
    expect(slot).toEqual({
      id: body.photo.id,
      url: `/api/photos/${body.photo.id}`,
      thumbUrl: `/api/photos/${body.photo.id}?variant=thumb`,
    });
    expect(body.record.photos.an).toBeNull();

    const shown = await get(slot.url, c.validatorA);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.headers['content-disposition']).toContain(
      "filename*=UTF-8''Cabimas%20-%20Gobernador%20-%20Mar%C3%ADa%20P%C3%A9rez.jpg",
    );
    expect((await sharp(shown.rawPayload).metadata()).format).toBe('jpeg');
    const thumb = await get(slot.thumbUrl, c.validatorA);
    const thumbMeta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(thumbMeta.width ?? 0, thumbMeta.height ?? 0)).toBeLessThanOrEqual(240);
    const kept = await get(`${slot.url}?variant=original&download=1`, c.validatorA);
    expect(kept.rawPayload.equals(original)).toBe(true);
    expect(kept.headers['content-disposition']).toMatch(/^attachment;/);

    const audit = await listAudit(t.db.kysely, { action: 'photo.upload' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: PEOPLE.validatorA, department_slug: SLUG_A, target: `record:${id}` });
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ kind: 'gobernador', sha256: body.photo.sha256 });
    // Original, browser copy and thumbnail; no temporary file left.
    expect(filesOnDisk().filter((f) => f.startsWith('photos'))).toHaveLength(3);
    expect(filesOnDisk().filter((f) => f.startsWith('uploads'))).toEqual([]);
  });

  it('accepts HEIC by its content, keeps it and serves a JPEG for browsers', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const heic = fixture('ballot.heic');
    const res = await upload(
      SLUG_A,
      id,
      'an',
      { data: heic, filename: 'IMG_0002.HEIC', contentType: 'image/heic' },
      c.validatorA,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().photo).toMatchObject({ contentType: 'image/heic', width: 320, height: 240 });
    expect(res.json().photo.path).toBe('/Cabimas/AN/Persona 1.heic');
    const url = res.json().record.photos.an.url;
    const shown = await get(url, c.validatorA);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(shown.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    const kept = await get(`${url}?variant=original`, c.validatorA);
    expect(kept.headers['content-type']).toBe('image/heic');
    expect(kept.rawPayload.equals(heic)).toBe(true);
  });

  it('applies the EXIF orientation: a sideways phone photo is served upright', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const data = fixture('rotated-exif6.jpg');
    expect(await sharp(data).metadata()).toMatchObject({ width: 240, height: 160, orientation: 6 });
    const res = await upload(SLUG_A, id, 'clez', { data, filename: 'lado.jpeg' }, c.validatorA);
    expect(res.statusCode).toBe(201);
    expect(res.json().photo).toMatchObject({ width: 160, height: 240 });
    const shown = await get(res.json().record.photos.clez.url, c.validatorA);
    const meta = await sharp(shown.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([160, 240]);
    expect(meta.orientation ?? 1).toBe(1);
  });

  it('refuses a text file named .jpg with 415 and leaves nothing behind', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const res = await upload(
      SLUG_A,
      id,
      'gobernador',
      { data: fixture('not-an-image.jpg'), filename: 'foto.jpg', contentType: 'image/jpeg' },
      c.validatorA,
    );
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Formato no permitido: solo JPG, JPEG o HEIC');
    for (const data of [Buffer.from('GIF89a'), Buffer.from('\x89PNG\r\n\x1a\n0000000000000000'), Buffer.alloc(0)]) {
      const other = await upload(SLUG_A, id, 'gobernador', { data, filename: 'x.heic' }, c.validatorA);
      expect(other.statusCode).toBe(415);
    }
    await expectNothingLeft(id);
  });

  it('refuses a cut-off JPEG with a clear message and leaves nothing behind', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const res = await upload(
      SLUG_A,
      id,
      'gobernador',
      { data: fixture('truncated.jpg'), filename: 'a.jpg' },
      c.validatorA,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('La imagen está dañada o incompleta. Tómala de nuevo e intenta otra vez.');
    await expectNothingLeft(id);
  });

  it('refuses a JPEG whose data does not cover the size its header claims, and leaves nothing behind', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    // Claims 8900x8900, carries 16x16: accepted, it would fill the slot for good with grey.
    const res = await upload(
      SLUG_A,
      id,
      'gobernador',
      { data: fixture('short-data.jpg'), filename: 'a.jpg' },
      c.validatorA,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('La imagen está dañada o incompleta. Tómala de nuevo e intenta otra vez.');
    await expectNothingLeft(id);
  });

  it('stops an upload larger than the setting with 413 in Spanish, default 20 MB, leaving nothing behind', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const header = fixture('ballot.jpg').subarray(0, 100);
    const big = Buffer.concat([header, Buffer.alloc(20 * 1024 * 1024)]);
    const res = await upload(SLUG_A, id, 'gobernador', { data: big, filename: 'grande.jpg' }, c.validatorA);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(
      'La foto es demasiado grande: el máximo es 20 MB. Toma la foto con menos resolución e intenta de nuevo.',
    );
    await expectNothingLeft(id);

    await t.db.kysely
      .insertInto('settings')
      .values({ key: PHOTO_MAX_BYTES_SETTING, value: String(2 * 1024 * 1024), updated_at: new Date().toISOString() })
      .execute();
    const small = Buffer.concat([header, Buffer.alloc(2 * 1024 * 1024)]);
    const limited = await upload(SLUG_A, id, 'gobernador', { data: small, filename: 'b.jpg' }, c.validatorA);
    expect(limited.statusCode).toBe(413);
    expect(limited.json().message).toContain('el máximo es 2 MB');
    expect((await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA)).statusCode).toBe(201);
  });

  it('leaves no file and an empty slot when the upload is cut off on the way', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const body = multipart(jpeg());
    const res = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/photos/gobernador`,
      headers: { ...body.headers, cookie: c.validatorA },
      // The connection drops halfway through the file: no closing boundary ever arrives.
      payload: body.payload.subarray(0, Math.floor(body.payload.length / 2)),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    await expectNothingLeft(id);
  });

  it('cleans up after a real connection dropped mid-file', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const body = multipart({ data: fixture('ballot.jpg'), filename: 'a.jpg' });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        `POST /api/validation/${SLUG_A}/records/${id}/photos/gobernador HTTP/1.1`,
        'Host: 127.0.0.1',
        'Origin: http://comando.test',
        `Cookie: ${c.validatorA}`,
        `Content-Type: ${body.headers['content-type']}`,
        `Content-Length: ${body.payload.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(body.payload.subarray(0, 5000));
    // Wait until the server has started writing the temporary file, then drop the connection.
    for (let i = 0; i < 100 && !filesOnDisk().some((f) => f.startsWith('uploads')); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    socket.destroy();
    for (let i = 0; i < 100 && filesOnDisk().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await expectNothingLeft(id);
  });

  it('asks for a file when the request has none', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const url = `/api/validation/${SLUG_A}/records/${id}/photos/gobernador`;
    const json = await t.request({ method: 'POST', url, headers: { cookie: c.validatorA }, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Debes adjuntar una foto.');
    const boundary = 'xyz';
    const onlyField = await t.request({
      method: 'POST',
      url,
      headers: { cookie: c.validatorA, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="nota"\r\n\r\nhola\r\n--${boundary}--\r\n`,
    });
    expect(onlyField.statusCode).toBe(400);
    expect(onlyField.json().message).toBe('Debes adjuntar una foto.');
    expect(
      (
        await t.request({
          method: 'POST',
          url: url.replace('gobernador', 'alcalde'),
          headers: { cookie: c.validatorA },
        })
      ).statusCode,
    ).toBe(400);
    await expectNothingLeft(id);
  });

  it('fills a slot once for validators, even when two uploads race; the loser leaves no file', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const [first, second] = await Promise.all([
      upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA),
      upload(SLUG_A, id, 'gobernador', { data: fixture('ballot.heic'), filename: 'b.heic' }, c.validatorA),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const loser = first.statusCode === 409 ? first : second;
    expect(loser.json().message).toMatch(
      /^Esta foto ya fue cargada por validadora\.a@example\.org el \d{1,2} [a-z]{3} a las? \d{1,2}:\d{2} [ap]\. m\.$/,
    );
    expect(filesOnDisk()).toHaveLength(3);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    const later = await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA);
    expect(later.statusCode).toBe(409);
    expect(filesOnDisk()).toHaveLength(3);
  });

  it('counts a record as validated when its vote and last photo are in, once', async () => {
    const c = await setup();
    const [id, other] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const summary = async () =>
      (await t.request({ url: `/api/validation/${SLUG_A}/summary`, headers: { cookie: c.validatorA } })).json();
    await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA);
    await upload(SLUG_A, id, 'an', jpeg(), c.validatorA);
    expect(await summary()).toEqual({ total: 2, voted: 0, validated: 0 });
    const vote = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates: ['LC'] },
    });
    expect(vote.json().record.validated).toBe(false);
    const last = await upload(SLUG_A, id, 'clez', jpeg(), c.validatorA);
    expect(last.json().record.validated).toBe(true);
    expect(await summary()).toEqual({ total: 2, voted: 1, validated: 1 });
    // An admin's replacement does not count it twice.
    expect((await upload(SLUG_A, id, 'clez', jpeg(), c.admin)).statusCode).toBe(201);
    // Photos first, vote last: the vote completes it.
    for (const kind of ['gobernador', 'an', 'clez']) await upload(SLUG_A, other, kind, jpeg(), c.validatorA);
    const lastVote = await t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${other}/vote`,
      headers: { cookie: c.validatorA },
      payload: { candidates: [] },
    });
    expect(lastVote.json().record.validated).toBe(true);
    expect(await summary()).toEqual({ total: 2, voted: 2, validated: 2 });
    await createRecordsRepository(t.db.kysely).recountProgress();
    expect(await summary()).toEqual({ total: 2, voted: 2, validated: 2 });
  });

  it('names on the record who of the team voted it and whose step validated it, for validators and admins', async () => {
    const c = await setup();
    const teammate = 'companera@example.org';
    await createUser(t.db, { email: teammate, role: 'staff', departments: [SLUG_A] });
    const other = await sessionCookie(t, teammate);
    const [photosLast, voteLast] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    const vote = (id: number, cookie: string) =>
      t.request({
        method: 'POST',
        url: `/api/validation/${SLUG_A}/records/${id}/vote`,
        headers: { cookie },
        payload: { candidates: ['FA'] },
      });
    const card = async (id: number, cookie = c.validatorA) =>
      (await get(`/api/validation/${SLUG_A}/records?validated=1`, cookie))
        .json()
        .items.find((r: { id: number }) => r.id === id);
    const adminCard = async (id: number) =>
      (await get(`/api/admin/records?department=${SLUG_A}`, c.admin))
        .json()
        .items.find((r: { id: number }) => r.id === id);

    expect(await card(photosLast)).toMatchObject({ votedBy: null, validatedBy: null });
    await upload(SLUG_A, photosLast, 'gobernador', jpeg(), c.validatorA);
    await upload(SLUG_A, photosLast, 'an', jpeg(), c.validatorA);
    expect((await vote(photosLast, other)).json().record).toMatchObject({ votedBy: teammate, validatedBy: null });
    const last = await upload(SLUG_A, photosLast, 'clez', jpeg(), c.validatorA);
    expect(last.json().record).toMatchObject({ validated: true, votedBy: teammate, validatedBy: PEOPLE.validatorA });
    // An admin's replacement of a photo does not change who validated it.
    expect((await upload(SLUG_A, photosLast, 'clez', jpeg(), c.admin)).statusCode).toBe(201);
    expect(await card(photosLast, other)).toMatchObject({ votedBy: teammate, validatedBy: PEOPLE.validatorA });
    expect(await adminCard(photosLast)).toMatchObject({ votedBy: teammate, validatedBy: PEOPLE.validatorA });

    // Photos first, the vote last: the voter validated it.
    for (const kind of ['gobernador', 'an', 'clez']) await upload(SLUG_A, voteLast, kind, jpeg(), other);
    expect((await vote(voteLast, c.validatorA)).json().record).toMatchObject({
      validated: true,
      votedBy: PEOPLE.validatorA,
      validatedBy: PEOPLE.validatorA,
    });

    // The vote cleared by an admin: nobody voted or validated it any more.
    const cleared = await t.request({
      method: 'PUT',
      url: `/api/admin/records/${photosLast}/vote`,
      headers: { cookie: c.admin },
      // Its one vote so far is the revision corrected.
      payload: { candidates: null, reason: 'Voto en el trámite equivocado', voteRevision: 1 },
    });
    expect(cleared.json().record).toMatchObject({ validated: false, votedBy: null, validatedBy: null });
    expect(await card(photosLast)).toMatchObject({ votedBy: null, validatedBy: null });
    // Voted again: the new voter completes it.
    expect((await vote(photosLast, other)).json().record).toMatchObject({ votedBy: teammate, validatedBy: teammate });
  });

  it('shows a new photo in the validators’ list at once, right after they read the page', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const slot = async () =>
      (await get(`/api/validation/${SLUG_A}/records`, c.validatorA)).json().items[0].photos.an as { id: number } | null;
    expect(await slot()).toBeNull();
    const res = await upload(SLUG_A, id, 'an', jpeg(), c.validatorA);
    expect(res.statusCode).toBe(201);
    expect(await slot()).toMatchObject({ id: res.json().photo.id });
  });

  it('lets an admin replace a photo; the old one stays as evidence, named in the audit trail', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const before = (await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA)).json().photo.id as number;
    const res = await upload(
      SLUG_A,
      id,
      'gobernador',
      { data: fixture('ballot.heic'), filename: 'nueva.heic' },
      c.admin,
    );
    expect(res.statusCode).toBe(201);
    const after = res.json().record.photos.gobernador.id;
    expect(after).not.toBe(before);
    const old = await createPhotosRepository(t.db.kysely).find(before);
    expect(old).toMatchObject({ replaced_by: PEOPLE.admin });
    expect(old?.replaced_at).toEqual(expect.any(String));
    expect((await get(`/api/photos/${before}`, c.admin)).statusCode).toBe(200);
    const audit = await listAudit(t.db.kysely, { action: 'photo.replace' });
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ replacedPhotoId: before, photoId: after });
    expect(filesOnDisk().filter((f) => f.startsWith('photos'))).toHaveLength(6);
  });

  it('keeps a name with ../ and slashes inside its folder, in the path and in the download name', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, [{ nombre: '../../etc/passwd\\..\\x' }])) as [number];
    const res = await upload(SLUG_A, id, 'an', jpeg(), c.validatorA);
    expect(res.statusCode).toBe(201);
    const photoPath: string = res.json().photo.path;
    expect(photoPath.split('/')).toEqual(['', 'Cabimas', 'AN', 'etc passwd . x.jpg']);
    const shown = await get(res.json().record.photos.an.url, c.validatorA);
    const disposition = String(shown.headers['content-disposition']);
    expect(disposition).toBe(
      `inline; filename="Cabimas - AN - etc passwd . x.jpg"; filename*=UTF-8''Cabimas%20-%20AN%20-%20etc%20passwd%20.%20x.jpg`,
    );
    expect(filesOnDisk().every((f) => f.startsWith('photos/') || f.startsWith(`photos${path.sep}`))).toBe(true);
  });

  it('warns, without refusing, when the same image was already used for another record', async () => {
    const c = await setup();
    const [a, b] = (await addRecords(t, SLUG_A, 2)) as [number, number];
    expect((await upload(SLUG_A, a, 'gobernador', jpeg(), c.validatorA)).json().warning).toBeNull();
    expect((await upload(SLUG_A, a, 'an', jpeg(), c.validatorA)).json().warning).toBeNull();
    const second = await upload(SLUG_A, b, 'gobernador', jpeg(), c.validatorA);
    expect(second.statusCode).toBe(201);
    expect(second.json().warning).toBe('Atención: esta misma imagen ya se usó en otro trámite.');
  });

  it('answers 401 to visitors and the same 404 for unknown records and other departments, before reading the file', async () => {
    const c = await setup();
    const [idA] = (await addRecords(t, SLUG_A, 1)) as [number];
    const [idB] = (await addRecords(t, SLUG_B, 1)) as [number];
    expect((await upload(SLUG_A, idA, 'gobernador', jpeg())).statusCode).toBe(401);
    const unknown = await upload(SLUG_A, 999_999, 'gobernador', jpeg(), c.validatorA);
    const otherRecord = await upload(SLUG_A, idB, 'gobernador', jpeg(), c.validatorA);
    const otherDepartment = await upload(SLUG_B, idB, 'gobernador', jpeg(), c.validatorA);
    for (const res of [unknown, otherRecord]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    expect(otherDepartment.statusCode).toBe(404);
    expect(filesOnDisk()).toEqual([]);
  });

  it('converts eight HEIC uploads arriving at once, through the bounded queue', async () => {
    const c = await setup();
    const ids = await addRecords(t, SLUG_A, 8);
    const heic = fixture('ballot.heic');
    const answers = await Promise.all(
      ids.map((id) => upload(SLUG_A, id, 'gobernador', { data: heic, filename: 'x.heic' }, c.validatorA)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(answers.filter((r) => r.json().warning !== null)).toHaveLength(7);
  });
});

describe('POST /api/validation/:slug/records/:id/photos/:kind with an Idempotency-Key', () => {
  const KEY = '9b2d6c1e-7f3a-4e5b-8c9d-0a1b2c3d4e5f';
  const uploadWithKey = (
    id: number,
    kind: string,
    file: { data: Buffer; filename: string; contentType?: string },
    cookie: string,
    key: string = KEY,
  ) => {
    const body = multipart(file);
    return t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/photos/${kind}`,
      headers: { ...body.headers, cookie, 'idempotency-key': key },
      payload: body.payload,
    });
  };

  it('answers one key sent 20 times at once with one photo and twenty identical 201s', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => uploadWithKey(id, 'gobernador', jpeg(), c.validatorA)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const first = answers[0]?.body;
    expect(JSON.parse(first ?? '{}')).toMatchObject({
      message: 'Foto cargada con éxito',
      photo: { kind: 'gobernador' },
    });
    for (const answer of answers) expect(answer.body).toBe(first);
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    expect(await listAudit(t.db.kysely, { action: 'photo.upload' })).toHaveLength(1);
    // One original, one browser copy, one thumbnail; the nineteen retries left no file behind.
    expect(filesOnDisk()).toHaveLength(3);

    // A retry after the slot is filled (its first answer was lost) still gets that answer.
    const later = await uploadWithKey(id, 'gobernador', jpeg(), c.validatorA);
    expect(later.statusCode).toBe(201);
    expect(later.body).toBe(first);
    expect(filesOnDisk()).toHaveLength(3);
  });

  it('refuses a key reused with another file, for another slot or by someone else with 422, storing nothing', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    expect((await uploadWithKey(id, 'an', jpeg(), c.validatorA)).statusCode).toBe(201);
    const heic = { data: fixture('ballot.heic'), filename: 'b.heic' };
    const reasons = [
      await uploadWithKey(id, 'an', heic, c.validatorA),
      await uploadWithKey(id, 'clez', jpeg(), c.validatorA),
      await uploadWithKey(id, 'an', jpeg(), c.admin),
    ];
    for (const res of reasons) {
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        'Esta clave Idempotency-Key ya se usó para otra solicitud. Cada envío necesita su propia clave.',
      );
    }
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    expect(filesOnDisk()).toHaveLength(3);
    const row = await t.db.kysely.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.clez_photo_id).toBeNull();
  });

  it('answers a new key on a filled slot with 409, saying who filled it and when', async () => {
    const at = new Date('2026-11-23T01:05:00Z');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-photos-test-'));
    t = await createTestApp({ dataDir, now: () => at });
    const c = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    expect((await uploadWithKey(id, 'clez', jpeg(), c.admin)).statusCode).toBe(201);
    const res = await uploadWithKey(id, 'clez', jpeg(), c.validatorA, crypto.randomUUID());
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Esta foto ya fue cargada por ${PEOPLE.admin} el 22 nov a las 9:05 p. m.`);
    expect(await createPhotosRepository(t.db.kysely).countAll()).toBe(1);
    expect(filesOnDisk().filter((f) => f.startsWith('photos'))).toHaveLength(3);
  });
});

describe('GET /api/photos/:id', () => {
  it('serves a photo only to people who may see its department', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = (await upload(SLUG_A, id, 'clez', jpeg(), c.validatorA)).json().photo.id;
    expect((await get(`/api/photos/${photo}`)).statusCode).toBe(401);
    const outsider = await get(`/api/photos/${photo}?variant=thumb`, c.validatorB);
    const unknown = await get('/api/photos/987654?variant=thumb', c.validatorB);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).toBe(unknown.body);
    expect(outsider.headers['content-type']).toContain('application/json');
    expect((await get(`/api/photos/${photo}`, c.admin)).statusCode).toBe(200);
    expect((await get(`/api/photos/${photo}?variant=grande`, c.validatorA)).statusCode).toBe(400);
  });
});

describe('POST /api/validation/:slug/records/:id/photos/:kind with the SHA-256 the phone computed', () => {
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  const uploadDeclaring = (id: number, data: Buffer, declared: string, cookie: string, key?: string) => {
    const body = multipart({ data, filename: 'IMG_0001.JPG', contentType: 'image/jpeg' });
    return t.request({
      method: 'POST',
      url: `/api/validation/${SLUG_A}/records/${id}/photos/gobernador`,
      headers: { ...body.headers, cookie, 'x-photo-sha256': declared, ...(key ? { 'idempotency-key': key } : {}) },
      payload: body.payload,
    });
  };

  it('refuses bytes that differ from the hash sent with them (422, storing nothing), then stores the right ones with that hash audited', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const declared = sha256(photo);
    // One byte flipped in the middle on its way: the JPEG still looks like one.
    const damaged = Buffer.from(photo);
    const middle = Math.floor(damaged.length / 2);
    damaged[middle] = (damaged[middle] ?? 0) ^ 0xff;
    const key = '0c6a4f9e-2d3b-4a1c-9e8f-7a6b5c4d3e2f';

    const refused = await uploadDeclaring(id, damaged, declared, c.validatorA, key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'La foto llegó dañada; se enviará de nuevo',
      code: 'photo-arrived-damaged',
    });
    await expectNothingLeft(id);

    // The phone sends again from its own copy, under the same key.
    const stored = await uploadDeclaring(id, photo, declared, c.validatorA, key);
    expect(stored.statusCode).toBe(201);
    expect(stored.json().photo.sha256).toBe(declared);
    const audit = await listAudit(t.db.kysely, { action: 'photo.upload' });
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ sha256: declared, sizeBytes: photo.length });
  });

  it("answers 'dañada' (422), not 'not an image' (415), when the first bytes were flipped on the way, and the phone's resend is stored", async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const declared = sha256(photo);
    // The JPEG's first byte flipped: what arrived no longer even looks like an image.
    const damaged = Buffer.from(photo);
    damaged[0] = (damaged[0] ?? 0) ^ 0xff;
    const key = '5b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b';

    const refused = await uploadDeclaring(id, damaged, declared, c.validatorA, key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'La foto llegó dañada; se enviará de nuevo',
      code: 'photo-arrived-damaged',
    });
    await expectNothingLeft(id);
    // Sent without a hash, the same bytes are what they look like: not an image.
    const unhashed = await upload(SLUG_A, id, 'gobernador', { ...jpeg(), data: damaged }, c.validatorA);
    expect(unhashed.statusCode).toBe(415);

    const stored = await uploadDeclaring(id, photo, declared, c.validatorA, key);
    expect(stored.statusCode).toBe(201);
    expect(stored.json().photo.sha256).toBe(declared);
  });

  it('refuses a hash that is not 64 lowercase hex digits with 400, and stores a photo sent without one as before', async () => {
    const c = await setup();
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const photo = fixture('ballot.jpg');
    const bad = await uploadDeclaring(id, photo, 'ABC', c.validatorA);
    expect(bad.statusCode).toBe(400);
    await expectNothingLeft(id);
    const plain = await upload(SLUG_A, id, 'gobernador', jpeg(), c.validatorA);
    expect(plain.statusCode).toBe(201);
    expect(plain.json().photo.sha256).toBe(sha256(photo));
  });
});
