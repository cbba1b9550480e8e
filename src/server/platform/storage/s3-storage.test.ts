import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { createTestApp } from '#server/testing/test-app';
import { createS3Storage } from './s3-storage';

let s3: S3Local;
beforeAll(async () => {
  s3 = await startS3Local();
});
afterAll(async () => {
  await s3.stop();
});

const jpeg = { suffix: 'jpg', contentType: 'image/jpeg' };

describe('S3 photo storage', () => {
  it('stores buffers and streams under keys it generates, and reads, checks and deletes them', async () => {
    const storage = createS3Storage(s3.config('put/'));
    const a = await storage.put(Readable.from([Buffer.from('hola '), Buffer.from('mundo')]), jpeg);
    const b = await storage.put(Buffer.from('otra'), { suffix: 'heic', contentType: 'image/heic' });
    expect(a).toEqual({ key: expect.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/), size: 10 });
    expect(b).toEqual({ key: expect.stringMatching(/\.heic$/), size: 4 });
    expect(s3.listKeys()).toEqual([`put/${a.key}`, `put/${b.key}`].sort());

    expect(await storage.exists(a.key)).toBe(true);
    const got = await storage.get(a.key);
    expect(got?.size).toBe(10);
    expect(await text(got!.stream)).toBe('hola mundo');

    await storage.delete(a.key);
    expect(await storage.exists(a.key)).toBe(false);
    expect(await storage.get(a.key)).toBeUndefined();
    await storage.delete(a.key);
    expect(s3.listKeys()).toEqual([`put/${b.key}`]);
    await storage.delete(b.key);
  });

  it('streams a body larger than one part through a multipart upload', async () => {
    const storage = createS3Storage(s3.config('big/'));
    const data = randomBytes(6 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) =>
      data.subarray(i * 65536, (i + 1) * 65536),
    );
    const { key, size } = await storage.put(Readable.from(chunks), jpeg);
    expect(size).toBe(data.length);
    const got = await storage.get(key);
    expect(got?.size).toBe(data.length);
    expect((await buffer(got!.stream)).equals(data)).toBe(true);
    await storage.delete(key);
  });

  it('leaves no object when the stream fails halfway', async () => {
    const storage = createS3Storage(s3.config('cut/'));
    const source = new PassThrough();
    const pending = storage.put(source, jpeg);
    source.write(Buffer.alloc(1000));
    setTimeout(() => source.destroy(new Error('cortado')), 10);
    await expect(pending).rejects.toThrow('cortado');
    expect(s3.listKeys().filter((k) => k.startsWith('cut/'))).toEqual([]);
  });

  it('leaves no object when the stream fails after the first part of a multipart upload', async () => {
    const storage = createS3Storage(s3.config('cut-big/'));
    const source = new PassThrough();
    const pending = storage.put(source, jpeg);
    source.write(randomBytes(6 * 1024 * 1024));
    setTimeout(() => source.destroy(new Error('cortado a mitad')), 200);
    await expect(pending).rejects.toThrow('cortado a mitad');
    expect(s3.listKeys().filter((k) => k.startsWith('cut-big/'))).toEqual([]);
  });

  it('answers unknown and foreign keys as absent, and never writes outside its keys', async () => {
    const storage = createS3Storage(s3.config('bad/'));
    for (const key of [`ab/${'c'.repeat(32)}.jpg`, '../secreto.txt', '', 'demo:gobernador:1', '/etc/passwd']) {
      expect(await storage.get(key)).toBeUndefined();
      expect(await storage.exists(key)).toBe(false);
      await storage.delete(key);
    }
    await expect(storage.put(Buffer.from('x'), { suffix: '../x', contentType: 'image/jpeg' })).rejects.toThrow();
    for (const bad of ['../../x.jpg', 'r/Bolívar/AN/María.jpg', `ab/../${'c'.repeat(32)}.jpg`, 'x/y.jpg']) {
      await expect(storage.putAt(bad, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(
        'Clave de almacenamiento inválida',
      );
    }
    expect(s3.listKeys().filter((k) => k.startsWith('bad/'))).toEqual([]);
  });

  it('stores under a given key, replacing what was there, under its prefix only', async () => {
    const key = `ab/${'d'.repeat(32)}.jpg`;
    const withPrefix = createS3Storage(s3.config('comando/fotos/'));
    const bare = createS3Storage(s3.config());
    expect(await withPrefix.putAt(key, Buffer.from('uno'), { contentType: 'image/jpeg' })).toEqual({ size: 3 });
    expect(await withPrefix.putAt(key, Readable.from([Buffer.from('dos!')]), { contentType: 'image/jpeg' })).toEqual({
      size: 4,
    });
    expect(await text((await withPrefix.get(key))!.stream)).toBe('dos!');
    expect(s3.listKeys()).toContain(`comando/fotos/${key}`);
    // The same key without the prefix is another object.
    expect(await bare.exists(key)).toBe(false);
    await withPrefix.delete(key);
    expect(s3.listKeys()).not.toContain(`comando/fotos/${key}`);
  });

  it('reports an unreachable endpoint as an error, not as a missing photo', async () => {
    const storage = createS3Storage({ ...s3.config(), endpoint: 'http://127.0.0.1:9' });
    await expect(storage.get(`ab/${'e'.repeat(32)}.jpg`)).rejects.toThrow();
  });
});

describe('photos through the app with STORAGE=s3', () => {
  it('keeps the three files of an upload in the bucket and serves them only to who may see them', async () => {
    const t = await createTestApp({ storage: s3.config('app/') });
    try {
      const c = await signInPeople(t);
      const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'María Pérez' }])) as [number];
      const original = fixture('ballot.jpg');
      const res = await uploadPhoto(
        t,
        { slug: SLUG_A, recordId: id, kind: 'gobernador' },
        { data: original, filename: 'IMG_0001.JPG', contentType: 'image/jpeg' },
        c.validatorA,
      );
      expect(res.statusCode).toBe(201);
      const photoId: number = res.json().photo.id;

      const row = await t.db.kysely
        .selectFrom('photos')
        .select(['original_key', 'display_key', 'thumb_key'])
        .where('id', '=', photoId)
        .executeTakeFirstOrThrow();
      const stored = s3.listKeys().filter((k) => k.startsWith('app/'));
      expect(stored).toEqual([row.original_key, row.display_key, row.thumb_key].map((k) => `app/${k}`).sort());

      const kept = await t.request({
        url: `/api/photos/${photoId}?variant=original`,
        headers: { cookie: c.validatorA },
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.headers['content-length']).toBe(String(original.length));
      expect(kept.rawPayload.equals(original)).toBe(true);
      for (const variant of ['display', 'thumb']) {
        const shown = await t.request({
          url: `/api/photos/${photoId}?variant=${variant}`,
          headers: { cookie: c.validatorA },
        });
        expect(shown.statusCode).toBe(200);
        expect(shown.headers['content-type']).toBe('image/jpeg');
        expect(shown.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
      }

      const outsider = await t.request({
        url: `/api/photos/${photoId}?variant=original`,
        headers: { cookie: c.validatorB },
      });
      expect(outsider.statusCode).toBe(404);
      expect((await t.request({ url: `/api/photos/${photoId}` })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
