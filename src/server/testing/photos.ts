import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRecordPhotosRepository } from '#server/core/records/record-photos.repository';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { runChange } from '#server/platform/change/change';
import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import type { PhotoKind } from '#shared/platform/constants';
import type { TestApp } from './test-app';

/** Builders for the photo tests (not a test file itself). */
export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../../../tests/fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name));

/** A multipart/form-data body with one file part, written by hand (no form-data library). */
export function multipart(
  file: { data: Buffer; filename: string; contentType?: string; field?: string },
  extraFields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----comando${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(extraFields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads one ballot photo through the API, as the validation page does. */
export function uploadPhoto(
  t: TestApp,
  target: { slug: string; recordId: number; kind: string },
  file: { data: Buffer; filename: string; contentType?: string },
  cookie?: string,
) {
  const body = multipart(file);
  return t.request({
    method: 'POST',
    url: `/api/validation/${target.slug}/records/${target.recordId}/photos/${target.kind}`,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
  });
}

/** Puts the JPEG fixture in the app's storage as a record's current photo, as an upload would. */
export async function addStoredPhoto(t: TestApp, recordId: number, kind: PhotoKind): Promise<number> {
  const storage = createPhotoStorage(t.config);
  const data = fixture('ballot.jpg');
  const meta = { suffix: 'jpg', contentType: 'image/jpeg' };
  const keys = await Promise.all([storage.put(data, meta), storage.put(data, meta), storage.put(data, meta)]);
  // In one change with the audit row an upload leaves, so the audit chain agrees with the photo.
  const id = await runChange(t.db.kysely, async ({ trx, audit }) => {
    const repo = createRecordPhotosRepository(trx);
    const photoId = await repo.insert({
      record_id: recordId,
      kind,
      original_key: keys[0].key,
      display_key: keys[1].key,
      thumb_key: keys[2].key,
      sha256: randomBytes(32).toString('hex'),
      size_bytes: data.length,
      content_type: 'image/jpeg',
      width: 480,
      height: 360,
      uploaded_by: 'pruebas',
      uploaded_at: new Date().toISOString(),
    });
    const filled = await repo.fillSlot(recordId, kind, photoId, null, new Date().toISOString(), 'pruebas');
    if (filled) await repo.countReceived(filled.department_id);
    await audit({
      actorEmail: 'pruebas',
      action: 'photo.upload',
      target: `record:${recordId}`,
      details: { kind, photoId },
    });
    return photoId;
  });
  await createRecordsRepository(t.db.kysely).recountProgress();
  return id;
}

/** Every file under DATA_DIR/photos and DATA_DIR/uploads, relative to DATA_DIR, sorted. */
export function photoFilesUnder(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(dataDir, full));
    }
  };
  walk(path.join(dataDir, 'photos'));
  walk(path.join(dataDir, 'uploads'));
  return out.sort();
}
