import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { PHOTO_UPLOADS_PATH } from '#shared/features/photos/photo-uploads';
import type { TestApp } from './test-app';

/** Builders for the resumable (tus) upload tests, speaking the protocol by hand (not a test file itself). */
export const TUS = { 'tus-resumable': '1.0.0' } as const;

export function tusMetadata(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(String(v)).toString('base64')}`)
    .join(',');
}

/** A noisy JPEG (hard to compress, so it is as large as a real photo of its size). */
export async function noisyJpeg(width = 900, height = 700): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

export interface CreatedUpload {
  status: number;
  /** The upload's address (relative), when created. */
  location: string;
  id: string;
  body: string;
  headers: Record<string, unknown>;
}

/** POST: a new tus upload of `size` bytes for a record's photo slot. */
export async function createTusUpload(
  t: TestApp,
  cookie: string,
  target: { slug: string; recordId: number; kind: string; size: number; key?: string | null; sha256?: string },
): Promise<CreatedUpload> {
  const key = target.key === undefined ? randomUUID() : target.key;
  const res = await t.request({
    method: 'POST',
    url: PHOTO_UPLOADS_PATH,
    headers: {
      cookie,
      ...TUS,
      'upload-length': String(target.size),
      'upload-metadata': tusMetadata({
        slug: target.slug,
        recordId: target.recordId,
        kind: target.kind,
        filename: 'IMG_0001.JPG',
        filetype: 'image/jpeg',
        ...(target.sha256 ? { sha256: target.sha256 } : {}),
      }),
      ...(key ? { 'idempotency-key': key } : {}),
    },
  });
  const location = String(res.headers.location ?? '');
  return {
    status: res.statusCode,
    location,
    id: location.split('/').pop() ?? '',
    body: res.body,
    headers: res.headers,
  };
}

/** PATCH: bytes from `offset`. */
export function patchTusUpload(t: TestApp, cookie: string, location: string, offset: number, bytes: Buffer) {
  return t.request({
    method: 'PATCH',
    url: location,
    headers: {
      cookie,
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: bytes,
  });
}

/** HEAD: how much the server has. */
export function headTusUpload(t: TestApp, cookie: string, location: string) {
  return t.request({ method: 'HEAD', url: location, headers: { cookie, ...TUS } });
}

/** A whole photo as a resumable upload: the creation under `key`, then every byte in one PATCH. */
export async function sendTusPhoto(
  t: TestApp,
  cookie: string,
  target: { slug: string; recordId: number; kind: string; key: string },
  photo: Buffer,
) {
  const created = await createTusUpload(t, cookie, { ...target, size: photo.length });
  if (created.status !== 201) return { created, done: undefined };
  return { created, done: await patchTusUpload(t, cookie, created.location, 0, photo) };
}
