import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageUnavailableError } from '#server/platform/http/errors';
import { fixture, multipart, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import {
  type FrozenBucket,
  type S3Local,
  type SeenRequest,
  startFrozenBucket,
  startS3Local,
} from '#server/testing/s3-local';
import { createTestApp, TEST_ORIGIN } from '#server/testing/test-app';
import { messages } from '#shared/platform/messages';
import { uploadTempDir } from './create-photo-storage';
import { createS3Storage } from './s3-storage';

let s3: S3Local;
beforeAll(async () => {
  s3 = await startS3Local();
});
afterAll(async () => {
  await s3.stop();
});

const jpeg = { suffix: 'jpg', contentType: 'image/jpeg' };

/** One turn of the real event loop (setImmediate is never faked here). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Moves the fake clock to 1 ms before `ms` and checks `pending` has not settled, then to `ms`, and answers
 * what it settled with (its value or its error). The clock is not moved again, so it settled at `ms`.
 */
async function settledAt(pending: Promise<unknown>, ms: number): Promise<unknown> {
  let settled = false;
  const outcome = pending
    .then(
      (value) => value,
      (error: unknown) => error,
    )
    .finally(() => {
      settled = true;
    });
  await vi.advanceTimersByTimeAsync(ms - 1);
  await turn();
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  return outcome;
}

/** The waits the storage asks for between its deletes of a failed upload's key, each ended by the test. */
function recordedSleeps() {
  const asked: { ms: number; end: () => void }[] = [];
  const listeners: (() => void)[] = [];
  let taken = 0;
  return {
    sleep: (ms: number) =>
      new Promise<void>((end) => {
        asked.push({ ms, end });
        for (const listener of listeners.splice(0)) listener();
      }),
    /** The next wait asked for: an event of the storage itself (its last delete has ended). */
    async next(): Promise<{ ms: number; end: () => void }> {
      while (asked.length <= taken) await new Promise<void>((resolve) => listeners.push(resolve));
      return asked[taken++]!;
    },
    get asked() {
      return asked.map((w) => w.ms);
    },
  };
}

/** Resolves once `dir` holds nothing but `keep`: looked at now and at each change the system reports. */
function whenOnly(dir: string, keep: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = fs.watch(dir);
    const check = () => {
      if (!fs.readdirSync(dir).every((name) => keep.includes(name))) return;
      watcher.close();
      resolve();
    };
    watcher.on('change', check);
    watcher.on('error', reject);
    check();
  });
}

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

  it('reports an unreachable endpoint as storage unavailable, not as a missing photo', async () => {
    const storage = createS3Storage({ ...s3.config(), endpoint: 'http://127.0.0.1:9' });
    const failed = await storage.get(`ab/${'e'.repeat(32)}.jpg`).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StorageUnavailableError);
    expect(failed).toMatchObject({ statusCode: 503, operation: 'read', headers: { 'retry-after': '30' } });
    await expect(storage.put(Buffer.from('x'), jpeg)).rejects.toMatchObject({
      statusCode: 503,
      operation: 'write',
      message: messages.api.storageUnavailable,
    });
  });

  it('stores nothing when the upload is aborted (the person went away), even once it reached the bucket', async () => {
    const storage = createS3Storage(s3.config('gone/'));
    const early = new AbortController();
    early.abort(new Error('se fue'));
    await expect(storage.put(Buffer.from('uno'), { ...jpeg, signal: early.signal })).rejects.toThrow('se fue');
    const midway = new AbortController();
    const source = new PassThrough();
    const pending = storage.put(source, { ...jpeg, signal: midway.signal });
    source.write(Buffer.alloc(1000));
    setTimeout(() => midway.abort(new Error('se fue a mitad')), 10);
    await expect(pending).rejects.toThrow('se fue a mitad');
    expect(s3.listKeys().filter((k) => k.startsWith('gone/'))).toEqual([]);
  });
});

describe('a bucket that accepts connections and never answers', () => {
  // On a fake clock: setTimeout and clearTimeout only, so sockets, the event loop and setImmediate stay real.
  // Every wait below is for an event (a request held by the frozen bucket, answered by s3rver, a wait the
  // storage asks for), and time passes only when the test moves the clock: "within the configured time"
  // is exact, however fast the machine is.
  const TIMEOUT_MS = 5_000;
  const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let frozen: FrozenBucket;
  beforeEach(async () => {
    frozen = await startFrozenBucket(s3.url);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await frozen.close();
  });
  const frozenConfig = (prefix: string) => ({ ...s3.config(prefix), endpoint: frozen.url, timeoutMs: TIMEOUT_MS });
  const isPut = (r: SeenRequest) => r.method === 'PUT';
  const deleteOf = (path: string) => (r: SeenRequest) => r.method === 'DELETE' && r.path === path;

  /**
   * An upload to the frozen bucket that fails at its deadline (fake clock), with the waits the storage
   * then asks for between the deletes of its key, the PutObject the bucket holds, and its deletes.
   */
  async function failedUpload(prefix: string) {
    fakeClock();
    const sleeps = recordedSleeps();
    const storage = createS3Storage(frozenConfig(prefix), { sleep: sleeps.sleep });
    const pending = storage.put(Buffer.from('hola'), jpeg);
    const [put] = await frozen.whenHeld(1, isPut);
    expect(await settledAt(pending, TIMEOUT_MS)).toBeInstanceOf(StorageUnavailableError);
    return { sleeps, put: put!, isDelete: deleteOf(put!.path) };
  }
  const putOf = (path: string) => (r: SeenRequest) => r.method === 'PUT' && r.path === path;
  const keysUnder = (prefix: string) => s3.listKeys().filter((k) => k.startsWith(prefix));

  it('fails every call as storage unavailable at the configured time, not a millisecond before', async () => {
    fakeClock();
    // The deletes of the failed uploads' keys wait, after their first try, for a test that never ends it.
    const storage = createS3Storage(frozenConfig('frozen/'), { sleep: recordedSleeps().sleep });
    const key = `ab/${'f'.repeat(32)}.jpg`;
    const path = s3.objectPath(`frozen/${key}`);
    for (const { operation, match, call } of [
      { operation: 'write', match: isPut, call: () => storage.put(Buffer.from('hola'), jpeg) },
      { operation: 'write', match: isPut, call: () => storage.put(Readable.from([Buffer.from('hola')]), jpeg) },
      {
        operation: 'read',
        match: (r: SeenRequest) => r.method === 'GET' && r.path === path,
        call: () => storage.get(key),
      },
      {
        operation: 'read',
        match: (r: SeenRequest) => r.method === 'HEAD' && r.path === path,
        call: () => storage.exists(key),
      },
      { operation: 'write', match: deleteOf(path), call: () => storage.delete(key) },
    ]) {
      const before = frozen.requests.filter(match).length;
      const pending = call();
      await frozen.whenHeld(before + 1, match);
      const failed = await settledAt(pending, TIMEOUT_MS);
      expect(failed).toBeInstanceOf(StorageUnavailableError);
      expect(failed).toMatchObject({ statusCode: 503, operation });
    }
  });

  it('deletes a failed upload’s key again while the bucket stays frozen, waits doubling, ten tries in all', async () => {
    const { sleeps, put, isDelete } = await failedUpload('retry/');
    const waits = [1, 2, 4, 8, 16, 32, 64, 128, 256].map((s) => s * 1_000);
    for (const [i, wait] of waits.entries()) {
      await frozen.whenHeld(i + 1, isDelete); // try i reached the bucket…
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS); // …and got no answer within its deadline
      const next = await sleeps.next();
      expect(next.ms).toBe(wait);
      next.end();
    }
    await frozen.whenHeld(waits.length + 1, isDelete);
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
    await turn();
    expect(sleeps.asked).toEqual(waits);
    expect(frozen.requests.filter(isDelete)).toHaveLength(10);
    // Over those minutes of the clock, the failed PutObject was never sent again (the SDK retries a
    // request that is not aborted with it).
    expect(frozen.requests.filter(isPut)).toEqual([put]);
  });

  it('removes the object of a failed upload that the bucket stores after confirming the first delete', async () => {
    const { sleeps, put, isDelete } = await failedUpload('later/');
    await frozen.whenHeld(1, isDelete);

    // The bucket wakes up and carries out the delete it held first: nothing to delete yet, and it says so.
    frozen.thaw(isDelete);
    const confirm = await sleeps.next();
    expect(confirm.ms).toBe(1_000);
    // Then the PutObject it held: the object is stored after all, a photo nobody saw stored.
    frozen.thaw();
    await s3.whenAnswered(1, putOf(put!.path));
    const key = put!.path.slice(`/${s3.bucket}/`.length);
    expect(s3.listKeys()).toContain(key);
    // The second delete, a wait later, removes it.
    confirm.end();
    await s3.whenAnswered(2, isDelete);
    expect(s3.listKeys()).not.toContain(key);
  });

  it('answers an upload 503 at the configured time; after the bucket wakes up, neither the slot nor the bucket holds it', async () => {
    const t = await createTestApp({ storage: frozenConfig('app-frozen/') });
    try {
      const c = await signInPeople(t);
      const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'María Pérez' }])) as [number];
      const photo = { data: fixture('ballot.jpg'), filename: 'IMG_0001.JPG', contentType: 'image/jpeg' };
      const target = { slug: SLUG_A, recordId: id, kind: 'gobernador' } as const;
      // From here on, time moves only when the test moves it (the photo's conversion comes first, at the
      // machine's pace, and takes none of it).
      fakeClock();
      const answer = uploadPhoto(t, target, photo, c.validatorA);
      const [put] = await frozen.whenHeld(1, isPut);
      const res = (await settledAt(answer, TIMEOUT_MS)) as Awaited<typeof answer>;
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message:
          'El almacenamiento de fotos no responde en este momento: no se guardó nada. Intenta de nuevo en unos minutos.',
      });

      // The delete of its key reached the bucket too, and got no answer within its own deadline.
      const isDelete = deleteOf(put!.path);
      await frozen.whenHeld(1, isDelete);
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
      // The bucket wakes up and carries out both, in whatever order; the next delete, a second later,
      // removes what the PutObject stored.
      frozen.thaw();
      await s3.whenAnswered(1, putOf(put!.path));
      await s3.whenAnswered(1, isDelete);
      await vi.advanceTimersByTimeAsync(1_000);
      await s3.whenAnswered(2, isDelete);
      expect(keysUnder('app-frozen/')).toEqual([]);

      const slot = async () =>
        (
          await t.db.kysely
            .selectFrom('records')
            .select('gobernador_photo_id')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).gobernador_photo_id;
      expect(await slot()).toBeNull();
      expect(await t.db.kysely.selectFrom('photos').selectAll().execute()).toEqual([]);

      // So the validator's next try is accepted, not 'Esta foto ya fue cargada'.
      const again = await uploadPhoto(t, target, photo, c.validatorA);
      expect(again.statusCode).toBe(201);
      expect(await slot()).toBe(again.json().photo.id);
    } finally {
      await t.close();
    }
  });

  it('stops storing when the person’s connection closes, so a bucket that wakes up later fills no slot', async () => {
    const t = await createTestApp({ storage: frozenConfig('app-gone/') });
    try {
      const c = await signInPeople(t);
      const [id] = (await addRecords(t, SLUG_A, [{ nombre: 'José Díaz' }])) as [number];
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      // The clock stands still: no time limit can end this upload, only the closed connection.
      fakeClock();
      const body = multipart({ data: fixture('ballot.jpg'), filename: 'IMG_0002.JPG', contentType: 'image/jpeg' });
      const req = http.request(`${address}/api/validation/${SLUG_A}/records/${id}/photos/gobernador`, {
        method: 'POST',
        headers: { ...body.headers, cookie: c.validatorA, origin: TEST_ORIGIN },
      });
      req.on('error', () => {});
      req.end(body.payload);
      const [put] = await frozen.whenHeld(1, isPut);
      req.destroy(); // the phone gives up

      // The server abandons the upload at once: the delete of its key reaches the bucket, and its temporary
      // file is removed. (The folder also holds the resumable uploads' own folder, 'tus', which this
      // request never used.)
      const isDelete = deleteOf(put!.path);
      await frozen.whenHeld(1, isDelete);
      await whenOnly(uploadTempDir(t.config.dataDir), ['tus']);

      // That delete gets no answer within its deadline; the bucket wakes up and carries out what it held,
      // in whatever order; the next delete, a second later, removes what the PutObject stored.
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
      frozen.thaw();
      await s3.whenAnswered(1, putOf(put!.path));
      await s3.whenAnswered(1, isDelete);
      await vi.advanceTimersByTimeAsync(1_000);
      await s3.whenAnswered(2, isDelete);
      expect(keysUnder('app-gone/')).toEqual([]);
      const row = await t.db.kysely
        .selectFrom('records')
        .select('gobernador_photo_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.gobernador_photo_id).toBeNull();
      expect(await t.db.kysely.selectFrom('photos').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
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
