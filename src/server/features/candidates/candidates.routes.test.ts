import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { createUser, sessionCookie } from '#server/testing/auth-helpers';
import { addStoredPhoto, fixture, multipart } from '#server/testing/photos';
import { addRecords } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { CANDIDATE_PLACEHOLDER_PHOTO } from '#shared/features/candidates/candidates';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/photos/photos';

let t: TestApp;
let dataDir: string;
let admin: string;
let validator: string;

beforeAll(async () => {
  // Photos go under DATA_DIR: a folder of this file's own, on either database.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-candidates-test-'));
  t = await createTestApp({ dataDir });
  await createUser(t.db, { email: 'jefa@example.org', role: 'admin' });
  await createUser(t.db, { email: 'val@example.org', role: 'staff', departments: ['cabimas'] });
  admin = await sessionCookie(t, 'jefa@example.org');
  validator = await sessionCookie(t, 'val@example.org');
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const list = async () => (await t.request({ url: '/api/admin/candidates', headers: { cookie: admin } })).json().items;
const byCode = async (code: string) => (await list()).find((c: { code: string }) => c.code === code);
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });
const lastAudit = async (action: string) => (await listAudit(t.db.kysely, { action, limit: 1 }))[0];

function uploadPhoto(id: number, file: { data: Buffer; filename: string; contentType?: string }, cookie = admin) {
  const body = multipart(file);
  return t.request({
    method: 'POST',
    url: `/api/admin/candidates/${id}/photo`,
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

async function vote(codes: string[]) {
  const [id] = await addRecords(t, 'cabimas', 1);
  const res = await t.request({
    method: 'POST',
    url: `/api/validation/cabimas/records/${id}/vote`,
    headers: { cookie: validator },
    payload: { candidates: codes },
  });
  expect(res.statusCode).toBe(201);
  return id as number;
}

describe('GET /api/admin/candidates', () => {
  it('lists the ballot in order with each candidate’s votes', async () => {
    await vote(['FA', 'NR']);
    await vote(['FA']);
    const items = await list();
    expect(items.map((c: { code: string; position: number; votes: number }) => [c.code, c.position, c.votes])).toEqual([
      ['FA', 1, 2],
      ['LC', 2, 0],
      ['NR', 3, 1],
    ]);
    expect(items[0]).toEqual({
      id: items[0].id,
      code: 'FA',
      name: 'Fernando Álvarez',
      colour: '#1D4ED8',
      photoUrl: '/candidatos/fa.svg',
      position: 1,
      votes: 2,
    });
  });
});

describe('POST /api/admin/candidates', () => {
  it('adds a candidate at the end, with the code in capitals and a placeholder photo; audited', async () => {
    const res = await send('POST', '/api/admin/candidates', { code: ' mp ', name: ' María Pérez ', colour: '#a31d1d' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'MP',
      name: 'María Pérez',
      colour: '#A31D1D',
      photoUrl: CANDIDATE_PLACEHOLDER_PHOTO,
      position: 4,
      votes: 0,
    });
    // The ballot of the validation screen shows the new candidate too.
    const ballot = (await t.request({ url: '/api/candidates', headers: { cookie: validator } })).json().items;
    expect(ballot.map((c: { code: string }) => c.code)).toEqual(['FA', 'LC', 'NR', 'MP']);
    expect(await lastAudit('candidate.create')).toMatchObject({ actor_email: 'jefa@example.org', target: 'MP' });
  });

  it('refuses a taken code and bad input in Spanish', async () => {
    const taken = await send('POST', '/api/admin/candidates', { code: 'fa', name: 'Otro', colour: '#000000' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Ya existe un candidato con el código FA.');
    const cases: [object, string][] = [
      [
        { code: 'F1', name: 'X', colour: '#000000' },
        'El código debe tener de 1 a 5 letras mayúsculas sin acentos, por ejemplo FA.',
      ],
      [
        { code: 'ÑA', name: 'X', colour: '#000000' },
        'El código debe tener de 1 a 5 letras mayúsculas sin acentos, por ejemplo FA.',
      ],
      [
        { code: 'ABCDEF', name: 'X', colour: '#000000' },
        'El código debe tener de 1 a 5 letras mayúsculas sin acentos, por ejemplo FA.',
      ],
      [{ code: 'AB', name: ' ', colour: '#000000' }, 'Indica el nombre del candidato.'],
      [{ code: 'AB', name: 'X', colour: 'rojo' }, 'El color debe ser hexadecimal de seis cifras, por ejemplo #1D4ED8.'],
      [{ code: 'AB', name: 'X', colour: '#FFF' }, 'El color debe ser hexadecimal de seis cifras, por ejemplo #1D4ED8.'],
    ];
    for (const [payload, message] of cases) {
      const res = await send('POST', '/api/admin/candidates', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
  });
});

describe('PATCH /api/admin/candidates/:id', () => {
  it('edits name and colour, moves a candidate on the ballot, and records what changed', async () => {
    const mp = await byCode('MP');
    const res = await send('PATCH', `/api/admin/candidates/${mp.id}`, {
      name: 'María P.',
      colour: '#00ff00',
      position: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'MP', name: 'María P.', colour: '#00FF00', position: 1 });
    expect((await list()).map((c: { code: string }) => c.code)).toEqual(['MP', 'FA', 'LC', 'NR']);
    expect(JSON.parse((await lastAudit('candidate.update'))?.details ?? '{}')).toEqual({
      name: { from: 'María Pérez', to: 'María P.' },
      colour: { from: '#A31D1D', to: '#00FF00' },
      position: { from: 4, to: 1 },
    });
    // The results page reads the same names and colours.
    const results = (await t.request({ url: '/api/results', headers: { cookie: admin } })).json();
    expect(results.candidates[0]).toMatchObject({ code: 'MP', name: 'María P.', colour: '#00FF00' });
  });

  it('changes a code only while no ballot names it', async () => {
    const mp = await byCode('MP');
    const renamed = await send('PATCH', `/api/admin/candidates/${mp.id}`, { code: 'MX' });
    expect(renamed.json().code).toBe('MX');
    const fa = await byCode('FA');
    const refused = await send('PATCH', `/api/admin/candidates/${fa.id}`, { code: 'FX' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Este candidato ya tiene votos: no se puede borrar ni cambiar su código.');
    const clash = await send('PATCH', `/api/admin/candidates/${mp.id}`, { code: 'LC' });
    expect(clash.statusCode).toBe(409);
    expect((await send('PATCH', '/api/admin/candidates/999999', { name: 'X' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/admin/candidates/:id', () => {
  it('removes a candidate without votes and closes the gap; refuses one with votes', async () => {
    const fa = await byCode('FA');
    const refused = await send('DELETE', `/api/admin/candidates/${fa.id}`);
    expect(refused.statusCode).toBe(409);
    const mx = await byCode('MX');
    const res = await send('DELETE', `/api/admin/candidates/${mx.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((c: { code: string; position: number }) => [c.code, c.position])).toEqual([
      ['FA', 1],
      ['LC', 2],
      ['NR', 3],
    ]);
    expect(await lastAudit('candidate.delete')).toMatchObject({ target: 'MX', actor_email: 'jefa@example.org' });
  });
});

describe('candidate photos', () => {
  it('takes a JPEG by content, stores an upright browser JPEG of at most 800 px and serves it to everyone', async () => {
    const big = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const lc = await byCode('LC');
    const res = await uploadPhoto(lc.id, { data: big, filename: 'retrato.png', contentType: 'image/png' });
    expect(res.statusCode).toBe(200);
    const url: string = res.json().photoUrl;
    expect(url).toMatch(/^\/api\/candidate-photos\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);

    // No cookie needed: the results page and the ballot show it.
    const photo = await t.request({ url });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(photo.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 600]);
    const results = (await t.request({ url: '/api/results', headers: { cookie: admin } })).json();
    expect(results.candidates.find((c: { code: string }) => c.code === 'LC').photoUrl).toBe(url);

    const audit = await lastAudit('candidate.photo');
    expect(audit).toMatchObject({ actor_email: 'jefa@example.org', target: 'LC', ip: '127.0.0.1' });
    expect(JSON.parse(audit?.details ?? '{}')).toMatchObject({ contentType: 'image/jpeg', width: 800, height: 600 });

    // A new photo replaces it: the old address is gone, its file too.
    const again = await uploadPhoto(lc.id, { data: fixture('rotated-exif6.jpg'), filename: 'b.jpg' });
    const newUrl: string = again.json().photoUrl;
    expect(newUrl).not.toBe(url);
    expect((await t.request({ url })).statusCode).toBe(404);
    expect(await createPhotoStorage(t.config).exists(url.split('/').slice(-2).join('/'))).toBe(false);
    const rotated = await sharp((await t.request({ url: newUrl })).rawPayload).metadata();
    expect([rotated.width, rotated.height]).toEqual([160, 240]);
  });

  it('converts a HEIC photo to JPEG', async () => {
    const nr = await byCode('NR');
    const res = await uploadPhoto(nr.id, { data: fixture('ballot.heic'), filename: 'IMG_0001.HEIC' });
    expect(res.statusCode).toBe(200);
    const photo = await t.request({ url: res.json().photoUrl });
    expect((await sharp(photo.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('refuses what is not a JPEG or HEIC, a damaged file, a missing file and a file over the limit', async () => {
    const fa = await byCode('FA');
    const notImage = await uploadPhoto(fa.id, { data: fixture('not-an-image.jpg'), filename: 'foto.jpg' });
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json().message).toBe('Formato no permitido: solo JPG, JPEG o HEIC');
    const damaged = await uploadPhoto(fa.id, { data: fixture('truncated.jpg'), filename: 'foto.jpg' });
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().message).toBe('La imagen está dañada o incompleta. Tómala de nuevo e intenta otra vez.');
    const none = await t.request({
      method: 'POST',
      url: `/api/admin/candidates/${fa.id}/photo`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Debes adjuntar una foto.');

    await t.db.kysely
      .insertInto('settings')
      .values({ key: PHOTO_MAX_BYTES_SETTING, value: '5000', updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: '5000' }))
      .execute();
    const tooBig = await uploadPhoto(fa.id, { data: fixture('ballot.jpg'), filename: 'foto.jpg' });
    expect(tooBig.statusCode).toBe(413);
    await t.db.kysely.deleteFrom('settings').where('key', '=', PHOTO_MAX_BYTES_SETTING).execute();
    expect((await byCode('FA')).photoUrl).toBe('/candidatos/fa.svg');
    expect((await listAudit(t.db.kysely, { action: 'candidate.photo' })).length).toBe(3);
  });

  it('is refused to anyone but an admin before the file is read', async () => {
    const fa = await byCode('FA');
    expect((await uploadPhoto(fa.id, { data: fixture('ballot.jpg'), filename: 'a.jpg' }, validator)).statusCode).toBe(
      404,
    );
  });

  it('serves only the current photo of a candidate: no other stored file is reachable', async () => {
    const [recordId] = await addRecords(t, 'cabimas', 1);
    await addStoredPhoto(t, recordId as number, 'gobernador');
    const ballot = await t.db.kysely.selectFrom('photos').select('display_key').executeTakeFirstOrThrow();
    const [dir, file] = ballot.display_key.split('/');
    expect((await t.request({ url: `/api/candidate-photos/${dir}/${file}` })).statusCode).toBe(404);
    expect(await createPhotoStorage(t.config).exists(ballot.display_key)).toBe(true);
    expect((await t.request({ url: '/api/candidate-photos/../x.jpg' })).statusCode).toBe(404);
  });
});
