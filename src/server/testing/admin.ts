import { createPhotoStorage } from '#server/platform/storage/create-photo-storage';
import { CANDIDATE_PHOTOS_PATH } from '#shared/features/candidates/candidates';
import { fixture } from './photos';
import type { TestApp } from './test-app';

/** Builders for the back-office tests (not a test file itself). */

/** Stores the JPEG fixture as the photo of a candidate (by code) and answers its public URL. */
export async function addCandidatePhoto(t: TestApp, code = 'FA'): Promise<string> {
  const { key } = await createPhotoStorage(t.config).put(fixture('ballot.jpg'), {
    suffix: 'jpg',
    contentType: 'image/jpeg',
  });
  const url = `${CANDIDATE_PHOTOS_PATH}/${key}`;
  await t.db.kysely.updateTable('candidates').set({ photo_url: url }).where('code', '=', code).execute();
  return url;
}

let counter = 0;
/** A fresh e-mail for each call (tests that create accounts more than once). */
export const freshEmail = (prefix = 'persona') => `${prefix}.${Date.now().toString(36)}${++counter}@example.org`;

/** The id of an account, by e-mail. */
export async function userId(t: TestApp, email: string): Promise<number> {
  const row = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}
