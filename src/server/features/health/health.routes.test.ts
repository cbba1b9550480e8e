import { afterEach, expect, it } from 'vitest';
import type { FreeBytesReader } from '#server/platform/storage/data-disk';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MB = 1024 * 1024;
const NOT_READY = 'La carpeta de datos del servidor está llena o no se puede leer: no puede guardar más.';

/** An app whose data folder's free space is what `free()` says (the disk itself is never filled). */
async function appWithDisk(floorBytes: number, free: FreeBytesReader) {
  t = await createTestApp({ dataDirMinFreeBytes: floorBytes }, { freeDiskBytes: free });
  return t;
}

it('says not ready (503, Retry-After) while the data folder is under its free-space floor, and ready again above it', async () => {
  let free = 99 * MB;
  const app = await appWithDisk(100 * MB, async () => free);
  const under = await app.app.inject({ url: '/api/ready' });
  expect(under.statusCode).toBe(503);
  expect(under.headers['retry-after']).toBe('10');
  expect(under.json().message).toBe(NOT_READY);

  free = 100 * MB;
  const ready = await app.app.inject({ url: '/api/ready' });
  expect(ready.statusCode).toBe(200);
  expect(ready.json()).toEqual({ status: 'ok', database: app.db.dialect });
});

it('says not ready when the data folder is full, even with no floor, or its free space cannot be read', async () => {
  let reader: FreeBytesReader = async () => 0;
  const app = await appWithDisk(0, (dir) => reader(dir));
  const full = await app.app.inject({ url: '/api/ready' });
  expect(full.statusCode).toBe(503);
  expect(full.json().message).toBe(NOT_READY);

  reader = async (dir) => {
    throw Object.assign(new Error(`ENOENT: no such file or directory, statfs '${dir}'`), { code: 'ENOENT' });
  };
  expect((await app.app.inject({ url: '/api/ready' })).statusCode).toBe(503);

  reader = async () => 1;
  expect((await app.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
});
