import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DropboxContractServer,
  startDropboxContractServer,
} from '../../../../tests/support/dropbox-contract-server';
import { FIXTURES_DIR, fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createDropboxStorage, dropboxKeyPath } from './dropbox-storage';
import type { PhotoStorage } from './photo-storage';

let server: DropboxContractServer;
let storage: PhotoStorage;
beforeEach(async () => {
  server = await startDropboxContractServer();
  storage = createDropboxStorage({
    driver: 'dropbox',
    appKey: server.appKey,
    appSecret: server.appSecret,
    refreshToken: server.refreshToken,
    apiUrl: server.url,
    contentUrl: server.url,
  });
});
afterEach(async () => {
  await server.close();
});

const READABLE = '/Bolívar/Gobernador/María Pérez.jpg';
const jpeg = { suffix: 'jpg', contentType: 'image/jpeg' };

async function read(key: string): Promise<Buffer | undefined> {
  const file = await storage.get(key);
  if (!file) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  const data = Buffer.concat(chunks);
  expect(data.length).toBe(file.size);
  return data;
}

describe('Dropbox storage: an original at its readable path', () => {
  it('overwrites the readable file, keeps a copy at the key, revokes old links and returns a new one', async () => {
    server.putFile(READABLE, Buffer.from('foto anterior'));
    const old = [server.addSharedLink(READABLE), server.addSharedLink(READABLE), server.addSharedLink(READABLE)];
    const bytes = fixture('ballot.jpg');

    const stored = await storage.put(fs.createReadStream(path.join(FIXTURES_DIR, 'ballot.jpg')), {
      ...jpeg,
      readablePath: READABLE,
    });

    expect(stored.size).toBe(bytes.length);
    expect(stored.key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    expect(server.file(READABLE)?.equals(bytes)).toBe(true);
    expect(server.file(dropboxKeyPath(stored.key))?.equals(bytes)).toBe(true);
    expect(server.files()).toEqual([dropboxKeyPath(stored.key), READABLE].sort());
    expect(server.uploadsTo(READABLE)).toBe(1);
    expect(server.uploadsTo(dropboxKeyPath(stored.key))).toBe(0);
    const upload = server.requests.find((r) => r.route === '/2/files/upload');
    expect(upload?.arg).toMatchObject({ path: READABLE, mode: 'overwrite', autorename: false });
    expect(server.revokedLinks.sort()).toEqual(old.sort());
    expect(stored.sharedUrl).toMatch(/^https:\/\/www\.dropbox\.com\/scl\/fi\//);
    expect(server.links(READABLE)).toEqual([stored.sharedUrl]);
    expect((await read(stored.key))?.equals(bytes)).toBe(true);
  });

  it('uses the link Dropbox reports as already existing, from the error or from a new list', async () => {
    server.putFile(READABLE, Buffer.from('x'));
    const existing = server.addSharedLink(READABLE);
    server.hideLinksFromNextLists = 1;
    const first = await storage.put(Buffer.from('uno'), { ...jpeg, readablePath: READABLE });
    expect(first.sharedUrl).toBe(existing);
    expect(
      server.requests.some((r) => r.route === '/2/sharing/create_shared_link_with_settings' && r.status === 409),
    ).toBe(true);

    server.alreadyExistsWithMetadata = false;
    server.hideLinksFromNextLists = 1;
    const second = await storage.put(Buffer.from('dos'), { ...jpeg, readablePath: READABLE });
    expect(second.sharedUrl).toBe(existing);
  });

  it('keeps the first evidence when a replacement or a namesake overwrites the readable path', async () => {
    const first = await storage.put(Buffer.from('primera'), { ...jpeg, readablePath: READABLE });
    const second = await storage.put(Buffer.from('segunda'), { ...jpeg, readablePath: READABLE });
    expect(server.file(READABLE)?.toString()).toBe('segunda');
    expect((await read(first.key))?.toString()).toBe('primera');
    expect((await read(second.key))?.toString()).toBe('segunda');
    expect(server.revokedLinks).toEqual([first.sharedUrl]);
    expect(server.links(READABLE)).toEqual([second.sharedUrl]);
    expect(server.uploadsTo(READABLE)).toBe(2);
  });

  it('stores its own bytes at the key even if another upload overwrote the readable path before the copy', async () => {
    server.beforeNext('/2/files/copy_v2', () => server.putFile(READABLE, Buffer.from('de un homónimo')));
    const stored = await storage.put(Buffer.from('mía'), { ...jpeg, readablePath: READABLE });
    expect((await read(stored.key))?.toString()).toBe('mía');
    expect(server.uploadsTo(dropboxKeyPath(stored.key))).toBe(1);
  });

  it('renews a token that expires as the upload arrives, and stores the photo once', async () => {
    await storage.exists('00/00000000000000000000000000000000.jpg');
    server.expireTokenOnNext('/2/files/upload');
    const stored = await storage.put(fs.createReadStream(path.join(FIXTURES_DIR, 'ballot.jpg')), {
      ...jpeg,
      readablePath: READABLE,
    });
    expect(server.tokenExchanges).toBe(2);
    expect(server.requests.filter((r) => r.route === '/2/files/upload').map((r) => r.status)).toEqual([401, 200]);
    expect(server.uploadsTo(READABLE)).toBe(1);
    expect((await read(stored.key))?.equals(fixture('ballot.jpg'))).toBe(true);
  });

  it('waits out a 429 on the upload and stores the photo once', async () => {
    server.rateLimitNext({ route: '/2/files/upload', retryAfter: 0.1 });
    const stored = await storage.put(Readable.from([Buffer.from('a'), Buffer.from('b')]), {
      ...jpeg,
      readablePath: READABLE,
    });
    expect(server.requests.filter((r) => r.route === '/2/files/upload').map((r) => r.status)).toEqual([429, 200]);
    expect(server.uploadsTo(READABLE)).toBe(1);
    expect((await read(stored.key))?.toString()).toBe('ab');
  });

  it('leaves no key copy behind when the link cannot be made', async () => {
    server.rateLimitNext({ route: '/2/sharing/create_shared_link_with_settings', retryAfter: 0.01, times: 10 });
    await expect(storage.put(Buffer.from('x'), { ...jpeg, readablePath: READABLE })).rejects.toThrow(/limitando/);
    expect(server.files()).toEqual([READABLE]);
  });
});

describe('Dropbox storage: files at their keys', () => {
  it('puts display copies and thumbnails at the key path only, without a link', async () => {
    const stored = await storage.put(Buffer.from('miniatura'), jpeg);
    expect(stored.sharedUrl).toBeUndefined();
    expect(server.files()).toEqual([dropboxKeyPath(stored.key)]);
    expect(server.files()[0]).toMatch(/^\/_comando\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    expect(server.requests.some((r) => r.route.startsWith('/2/sharing/'))).toBe(false);
    expect(await storage.exists(stored.key)).toBe(true);
  });

  it('putAt replaces the file under a given key', async () => {
    const key = 'ab/0123456789abcdef0123456789abcdef.jpg';
    expect(await storage.putAt(key, Buffer.from('uno'), { contentType: 'image/jpeg' })).toEqual({ size: 3 });
    await storage.putAt(key, Readable.from([Buffer.from('dos!')]), { contentType: 'image/jpeg' });
    expect((await read(key))?.toString()).toBe('dos!');
    await expect(storage.putAt('../fuera.jpg', Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(
      /Clave de almacenamiento inválida/,
    );
  });

  it('answers unknown keys: get undefined, delete fine, exists false', async () => {
    const key = 'cd/0123456789abcdef0123456789abcdef.jpg';
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get('../../etc/passwd')).toBeUndefined();

    await storage.putAt(key, Buffer.from('x'), { contentType: 'image/jpeg' });
    expect(await storage.exists(key)).toBe(true);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(server.files()).toEqual([]);
  });
});

describe('Dropbox storage behind the photo routes', () => {
  let t: TestApp | undefined;
  let dataDir: string;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('publishes an uploaded ballot photo, keeps its link on the photo and serves it to allowed people only', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-dropbox-test-'));
    t = await createTestApp({
      dataDir,
      storage: {
        driver: 'dropbox',
        appKey: server.appKey,
        appSecret: server.appSecret,
        refreshToken: server.refreshToken,
        apiUrl: server.url,
        contentUrl: server.url,
      },
    });
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

    const row = await t.db.kysely.selectFrom('photos').selectAll().executeTakeFirstOrThrow();
    expect(row.shared_url).toBeTruthy();
    const readable = '/Cabimas/Gobernador/María Pérez.jpg';
    expect(server.links(readable)).toEqual([row.shared_url]);
    expect(server.file(readable)?.equals(original)).toBe(true);
    expect(server.uploadsTo(readable)).toBe(1);
    for (const key of [row.original_key, row.display_key, row.thumb_key]) {
      expect(server.file(dropboxKeyPath(key))).toBeDefined();
    }
    expect(server.files()).toHaveLength(4);

    const url = res.json().record.photos.gobernador.url;
    const kept = await t.request({ url: `${url}?variant=original`, headers: { cookie: c.validatorA } });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(original)).toBe(true);
    const shown = await t.request({ url, headers: { cookie: c.validatorA } });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    const other = await t.request({ url, headers: { cookie: c.validatorB } });
    expect(other.statusCode).toBe(404);
  });
});
