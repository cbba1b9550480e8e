import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Local, startS3Local } from '#server/testing/s3-local';
import { photoStorageFor } from './create-photo-storage';
import { createS3Storage } from './s3-storage';

let s3: S3Local;
beforeAll(async () => {
  s3 = await startS3Local();
});
afterAll(async () => s3?.stop());

describe('the configured photo storage', () => {
  it('loads the S3 driver on first use and then behaves as it, at the same location', async () => {
    const config = s3.config('lazy/');
    const storage = photoStorageFor(config, '');
    expect(storage.driver).toBe('s3');
    expect(storage.location).toBe(createS3Storage(config).location);
    const { key } = await storage.put(Buffer.from('hola'), { suffix: 'jpg', contentType: 'image/jpeg' });
    expect(await storage.exists(key)).toBe(true);
    expect(await text((await storage.get(key))!.stream)).toBe('hola');
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    expect(s3.listKeys().filter((k) => k.startsWith('lazy/'))).toEqual([]);
  });
});
