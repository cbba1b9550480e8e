import { createRecordsRepository } from '#server/core/records/records.repository';
import { createDepartmentsService } from '#server/features/departments/departments.service';
import { createAccountsService } from '#server/features/people/accounts.service';
import { demoPhotoPlaceholder } from '#server/integrations/demo/photos.demo';
import type { Db } from '#server/platform/db/database';
import { testPasswordHash } from '#server/testing/auth-helpers';

export const SHARED_PHONE_PASSWORD = 'clave-telefono-2026';

/**
 * Validators of the shared-phone spec, each on a department no other spec touches: a session an admin
 * ends, a sign-out with items waiting, and a vote on a record voided meanwhile.
 */
export const SHARED_PHONE_ACCOUNTS = {
  ended: { email: 'telefono.compartido@e2e.example', slug: 'francisco-javier-pulgar' },
  signOut: { email: 'telefono.salida@e2e.example', slug: 'la-canada-de-urdaneta' },
  voided: { email: 'telefono.anulado@e2e.example', slug: 'machiques-de-perija' },
} as const;

/**
 * Runs of each test against one server (`--repeat-each` and retries, support/attempt.ts): each run votes
 * or voids records of its own. The ended session's department has a record with a ballot photo first
 * (only looked at) and one record to vote per run; the sign-out department two per run (one refused, one
 * kept); the voided one, one per run. The list shows them in this order: a run's records are near the top.
 */
export const SHARED_PHONE_RUNS = 20;
const RECORDS_PER_DEPARTMENT = {
  ended: 1 + SHARED_PHONE_RUNS,
  signOut: 2 * SHARED_PHONE_RUNS,
  voided: SHARED_PHONE_RUNS,
} as const;
export const sharedPhoneRecord = (slug: string, n: number) => `Persona ${n} de ${slug}`;

export async function seedSharedPhoneFixtures(db: Db, now: Date): Promise<void> {
  const auth = createAccountsService(db.kysely, () => now, testPasswordHash);
  const actor = { email: 'e2e', ip: null };
  const records = createRecordsRepository(db.kysely);
  const departments = new Map((await records.listMunicipalities()).map((d) => [d.slug, d.id]));
  for (const [kind, account] of Object.entries(SHARED_PHONE_ACCOUNTS)) {
    await auth.createUser({ email: account.email, password: SHARED_PHONE_PASSWORD, role: 'staff' }, actor);
    await createDepartmentsService(db.kysely, () => now).grantAccess(account.email, account.slug, actor);
    const departmentId = departments.get(account.slug);
    if (departmentId === undefined) throw new Error(`No existe ${account.slug}`);
    const count = RECORDS_PER_DEPARTMENT[kind as keyof typeof RECORDS_PER_DEPARTMENT];
    const ids = await records.insertMany(
      Array.from({ length: count }, (_, i) => ({
        departmentId,
        comunidad: 'Sector Compartido',
        nombre: sharedPhoneRecord(account.slug, i + 1),
        ubch: `UBCH 1109${String(i).padStart(5, '0')}`,
        telefono: `0416-${String(5_000_000 + i).padStart(7, '0')}`,
      })),
      now,
    );
    if (account === SHARED_PHONE_ACCOUNTS.ended) {
      // A ballot photo on the first record (the server makes its file when it starts): the phone shows it.
      const key = demoPhotoPlaceholder('gobernador', 0);
      await createRecordsRepository(db.kysely).insertPhotos([
        {
          record_id: ids[0] as number,
          kind: 'gobernador',
          original_key: key,
          display_key: key,
          thumb_key: key,
          sha256: `${key}-telefono`,
          size_bytes: 0,
          content_type: 'image/jpeg',
          width: 480,
          height: 360,
          uploaded_by: 'e2e',
          uploaded_at: now.toISOString(),
        },
      ]);
    }
  }
  await records.relinkPhotoSlots();
  await records.rebuildTotals();
}
